"""Plotly figures for the Languages page. Languages are coloured by script throughout (with
the colours every page gives scripts), so a teacher can point at "the Latin bars" in one chart
and find them in the next. Every figure takes its title, which also names its exported image.

>>> from bpe_core.analysis.parallel import identify
>>> langs = {"en": identify("en"), "ja": identify("ja")}
>>> fig = premium_bars(["ja", "en"], langs, {"en": 1.0, "ja": 2.5}, baseline="English",
...                    title="Premium")
>>> [(t.name, list(t.x), list(t.y)) for t in fig.data]
[('Japanese', ['Japanese — 日本語'], [2.5]), ('Latin', ['English'], [1.0])]
>>> fig.layout.title.text
'Premium'
"""

from __future__ import annotations

import math
from typing import Mapping, Sequence

import plotly.graph_objects as go

from bpe_core.analysis.parallel import Language

from ..shared.charts import plot_text, script_colour, titled

# Each figure is built with its whole layout at once: every update_layout, update_xaxes or
# add_hline call on a figure costs a parse and a validation of each key (3 to 10 ms a call),
# and the page draws these on every rerun.
_LAYOUT = dict(margin=dict(l=10, r=10, t=30, b=10), plot_bgcolor="rgba(0,0,0,0)",
               legend=dict(title="Script"), hoverlabel=dict(align="left"))


def _baseline(text: str | None = None) -> dict:
    """The dashed line across the plot at 1×, the baseline's own premium, labelled ``text`` at
    its top left when given (what ``add_hline`` would add), as layout entries.

    >>> _baseline()["shapes"][0]["y0"], _baseline("English = 1×")["annotations"][0]["xanchor"]
    (1, 'left')
    """
    line = dict(type="line", xref="x domain", x0=0, x1=1, yref="y", y0=1, y1=1,
                line=dict(color="#6b7280", dash="dash"))
    label = [dict(text=text, showarrow=False, xref="x domain", x=0, xanchor="left", yref="y",
                  y=1, yanchor="bottom")] if text is not None else []
    return dict(shapes=[line], annotations=label)


def times(premium: float) -> str:
    """A premium as the charts write it, or a dash where there is none (the baseline had no
    tokens: ``premium.measure`` gives NaN).

    >>> times(2.5), times(float("nan"))
    ('2.50×', '–')
    """
    return f"{premium:.2f}×" if math.isfinite(premium) else "–"


def _names_scripts(languages: Mapping[str, Language]) -> tuple[dict[str, str], dict[str, str]]:
    return ({c: plot_text(lang.label) for c, lang in languages.items()},
            {c: lang.script for c, lang in languages.items()})


def premium_bars(order: Sequence[str], languages: Mapping[str, Language],
                 premiums: Mapping[str, float], *, baseline: str, title: str) -> go.Figure:
    """One bar per language (in ``order``), a trace per script so the legend names the scripts."""
    names, scripts = _names_scripts(languages)
    baseline = plot_text(baseline)
    bars = []
    for script in dict.fromkeys(scripts[c] for c in order):
        codes = [c for c in order if scripts[c] == script]
        bars.append(go.Bar(
            x=[names[c] for c in codes], y=[premiums[c] for c in codes], name=script,
            marker_color=script_colour(script), text=[times(premiums[c]) for c in codes],
            textposition="outside", cliponaxis=False,
            hovertemplate="<b>%{x}</b>: %{y:.2f}× the tokens of " + baseline
                          + f"<br>{script} script<extra></extra>"))
    fig = go.Figure(data=bars, layout=dict(
        height=430, yaxis=dict(title=dict(text=f"premium (tokens ÷ {baseline}'s)")),
        xaxis=dict(categoryorder="array", categoryarray=[names[c] for c in order],
                   tickangle=-45),
        **_baseline(), **_LAYOUT))  # the baseline's own bar is 1
    return titled(fig, title)


def premium_groups(order: Sequence[str], languages: Mapping[str, Language],
                   premiums: Mapping[str, Mapping[str, float]], *, baseline: str,
                   title: str) -> go.Figure:
    """Every tokenizer's premium for each language (in ``order``): a group of bars per
    language, a colour per tokenizer, so which model taxes which language shows at a glance.

    >>> from bpe_core.analysis.parallel import identify
    >>> langs = {"en": identify("en"), "hi": identify("hi")}
    >>> fig = premium_groups(["en", "hi"], langs, {"A": {"en": 1.0, "hi": 4.8},
    ...                      "B": {"en": 1.0, "hi": 2.1}}, baseline="English", title="Premium")
    >>> [(t.name, list(t.y)) for t in fig.data], fig.layout.barmode
    ([('A', [1.0, 4.8]), ('B', [1.0, 2.1])], 'group')
    """
    names, baseline = [plot_text(languages[c].label) for c in order], plot_text(baseline)
    # A figure over each bar only while they stay few enough to read; hovering shows it anyway.
    labelled = len(order) * len(premiums) <= 30
    bars = [go.Bar(x=names, y=[values[c] for c in order], name=plot_text(tokenizer),
                   text=[times(values[c]) for c in order] if labelled else None,
                   textposition="outside", cliponaxis=False,
                   hovertemplate="<b>%{x}</b> with %{fullData.name}: %{y:.2f}× the tokens of "
                                 + baseline + "<extra></extra>")
            for tokenizer, values in premiums.items()]
    fig = go.Figure(data=bars, layout=dict(
        barmode="group", height=470,
        yaxis=dict(title=dict(text=f"premium (tokens ÷ {baseline}'s)")),
        xaxis=dict(categoryorder="array", categoryarray=names, tickangle=-45), **_baseline(),
        **{**_LAYOUT, "legend": dict(title="Tokenizer", orientation="h", y=1.02,
                                     yanchor="bottom", x=1, xanchor="right")}))
    return titled(fig, title)


def premium_heatmap(languages: Sequence[str], tokenizers: Sequence[str],
                    premiums: Sequence[Sequence[float]], *, baseline: str,
                    title: str) -> go.Figure:
    """Languages down, tokenizers across; the colour doubles in step with the premium (log
    scale), from pale at 1x (and below) to dark."""
    z = [[math.log2(p) if p > 0 else None for p in row] for row in premiums]
    top = max((v for row in z for v in row if v is not None and math.isfinite(v)), default=0)
    ticks = [1, 2, 4, 8, 16, 32]
    baseline = plot_text(baseline)
    fig = go.Figure(go.Heatmap(
        z=z, x=[plot_text(t) for t in tokenizers], y=[plot_text(n) for n in languages],
        texttemplate="%{text}",
        text=[[times(p) for p in row] for row in premiums],
        colorscale="YlOrRd", zmin=0, zmax=max(2.0, top),
        colorbar=dict(title="premium", tickvals=[math.log2(t) for t in ticks],
                      ticktext=[f"{t:g}×" for t in ticks]),
        hovertemplate="<b>%{y}</b> with %{x}: %{text} the tokens of " + baseline
                      + "<extra></extra>"),
        layout=dict(height=max(300, 110 + 24 * len(languages)), yaxis=dict(autorange="reversed"),
                    xaxis=dict(side="top"),
                    **{**_LAYOUT, "margin": dict(l=10, r=10, t=90, b=10)}))  # tokenizers on top
    return titled(fig, title)


def sentence_boxes(order: Sequence[str], languages: Mapping[str, Language],
                   per_sentence: Mapping[str, Sequence[float]], *, baseline: str,
                   numbers: Sequence[int], title: str) -> go.Figure:
    """The spread of per-sentence premiums: a box (with every sentence as a dot) per language;
    ``numbers`` are the sentences' numbers in the corpus (shown on hover)."""
    names, scripts = _names_scripts(languages)
    baseline = plot_text(baseline)
    boxes = [go.Box(y=list(per_sentence[code]), name=names[code],
                    marker_color=script_colour(scripts[code]), boxpoints="all", jitter=0.4,
                    pointpos=0, customdata=list(numbers),
                    hovertemplate=f"<b>{names[code]}</b>, sentence %{{customdata}}: "
                                  f"%{{y:.2f}}×<extra>{scripts[code]}</extra>")
             for code in order]
    fig = go.Figure(data=boxes, layout=dict(
        height=430, showlegend=False,
        yaxis=dict(title=dict(text=f"tokens ÷ {baseline}'s, per sentence")),
        xaxis=dict(tickangle=-45), **_baseline(f"{baseline} = 1×"),
        **{k: v for k, v in _LAYOUT.items() if k != "legend"}))
    return titled(fig, title)


def curve_figure(order: Sequence[str], languages: Mapping[str, Language],
                 curve: Mapping[str, Sequence[float]], vocab_sizes: Sequence[int],
                 *, baseline: str, title: str) -> go.Figure:
    """Premium against vocabulary size: a line per language, one point per merge count."""
    names, scripts = _names_scripts(languages)
    baseline = plot_text(baseline)
    lines = [go.Scatter(x=list(vocab_sizes), y=list(curve[code]), mode="lines+markers",
                        name=names[code], line=dict(color=script_colour(scripts[code])),
                        legendgroup=scripts[code],
                        legendgrouptitle=dict(text=scripts[code]),
                        hovertemplate=f"<b>{names[code]}</b> ({scripts[code]}): %{{y:.2f}}× "
                                      "at %{x:,} tokens<extra></extra>")
             for code in order]
    fig = go.Figure(data=lines, layout=dict(
        height=470,
        xaxis=dict(title=dict(text="vocabulary size (base symbols + the tokens the first k "
                                   "merges make)"), type="log"),
        yaxis=dict(title=dict(text=f"premium (tokens ÷ {baseline}'s)")),
        **_baseline(f"{baseline} = 1×"), **{k: v for k, v in _LAYOUT.items() if k != "legend"}))
    return titled(fig, title)


def vocabulary_use_figure(order: Sequence[str], languages: Mapping[str, Language],
                          use: Mapping[str, tuple[int, int]], *, title: str,
                          share: float = 1.0) -> go.Figure:
    """Entries each language's sentences use, and how many of them no other language uses
    (``share``: of the page's width, see :func:`~ui.shared.charts.titled`)."""
    names, scripts = _names_scripts(languages)
    labels = [names[c] for c in order]
    colours = [script_colour(scripts[c]) for c in order]
    bars = [go.Bar(x=labels, y=[use[c][0] for c in order], name="entries used",
                   marker_color=colours, opacity=0.45,
                   hovertemplate="<b>%{x}</b> uses %{y:,} vocabulary entries<extra></extra>"),
            go.Bar(x=labels, y=[use[c][1] for c in order], name="used by no other language",
                   marker_color=colours,
                   hovertemplate="<b>%{x}</b>: %{y:,} entries no other language uses"
                                 "<extra></extra>")]
    fig = go.Figure(data=bars, layout=dict(
        barmode="overlay", height=400, yaxis=dict(title=dict(text="vocabulary entries")),
        xaxis=dict(tickangle=-45),
        **{**_LAYOUT, "legend": dict(orientation="h", y=1.1, x=1, xanchor="right")}))
    return titled(fig, title, share=share)


def vocabulary_systems_figure(systems: Mapping[str, int], *, title: str,
                              share: float = 1.0) -> go.Figure:
    """A donut: the share of the vocabulary spent on each writing system, in the order and the
    colours of the Vocabulary page's (greys for digits, symbols, whitespace, partial UTF-8, byte
    fallback and special tokens; ``share`` as above)."""
    fig = go.Figure(go.Pie(labels=list(systems), values=list(systems.values()), hole=0.5,
                           sort=False, textinfo="label+percent", textposition="inside",
                           marker_colors=[script_colour(s) for s in systems],
                           hovertemplate="<b>%{label}</b>: %{value:,} entries (%{percent})"
                                         "<extra></extra>"),
                    layout=dict(height=400, margin=dict(l=10, r=10, t=10, b=10),
                                showlegend=True))
    return titled(fig, title, share=share)
