"""Plotly figures for the playground: training curves and token-length histograms.

Figures take plain data (a pandas frame or counts) and know nothing about Streamlit, so they can
be checked without a browser:

>>> import pandas as pd
>>> h = pd.DataFrame({"merges": [0, 1], "vocab_size": [256, 257], "tokens": [10, 8],
...                   "bytes_per_token": [1.0, 1.25], "count": [None, 2]})
>>> [t.name for t in growth_figure(h).data]
['tokens in the corpus', 'bytes per token', 'count of the merged pair']
"""

from __future__ import annotations

import hashlib
import html
import textwrap
from collections import Counter

import pandas as pd
import plotly.colors
import plotly.graph_objects as go
import regex

from bpe_core.analysis.writing_systems import (BYTE_FALLBACK, DIGITS, PARTIAL, SPECIAL, SYMBOLS,
                                               UNASSIGNED, WHITESPACE)

from .tokens import ACCENT, readable

BLUE, ORANGE, GREEN, GREY = ACCENT, "#e8833a", "#2e9e6b", "#9aa3b2"
FONT = dict(family="Source Sans Pro, sans-serif", size=13)
GRID = "#eef1f6"
# The two panels of the growth figure, one above the other, as fractions of its height: each
# gets the figure's whole width, which a narrow column leaves small (side by side, the left
# panel's right-hand axis title ran into the right panel). Laid out by hand rather than with
# make_subplots, which costs ~0.1 s a call: too slow for a figure redrawn several times a second
# while training plays.
TOP, BOTTOM = (0.56, 1.0), (0.0, 0.40)
#: The growth figure's lines mark each point while they have at most this many (the upper
#: panel's two lines, whose dots would crowd sooner, and the lower panel's one).
MARKED_POINTS, MARKED_COUNTS = 20, 60


#: Scripts in a fixed order, each with its own colour, so a script keeps its colour whatever
#: the corpus, the tokenizer or the page: the bundled languages' scripts first, then other
#: living scripts. Others get a colour from their name (the same everywhere, maybe shared).
SCRIPTS = ("Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Bengali", "Tamil",
           "Thai", "Georgian", "Armenian", "Ethiopic", "Myanmar", "Han", "Japanese", "Hangul",
           "Hiragana", "Katakana", "Telugu", "Kannada", "Malayalam", "Gujarati", "Gurmukhi",
           "Oriya", "Sinhala", "Lao", "Khmer", "Tibetan", "Mongolian", "Thaana", "Syriac")
PALETTE = [c for c in plotly.colors.qualitative.Dark24 + plotly.colors.qualitative.Alphabet
           if c not in ("#222A2A", "#565656", "#AA0DFE")]  # too dark, grey, a twin of #DA16FF
#: The writing systems that are not scripts of letters (bpe_core.analysis.writing_systems), in
#: greys, darker for what is less like text: on the Vocabulary page's chart and the Languages
#: page's donut alike.
GREYS = {DIGITS: "#8d96a6", SYMBOLS: "#b0b7c3", WHITESPACE: "#d4d9e1", UNASSIGNED: "#9aa3b2",
         PARTIAL: "#6b7280", BYTE_FALLBACK: "#4b5563", SPECIAL: "#c9ced8"}


def script_colour(script: str) -> str:
    """The colour of ``script`` (or of a writing system that is none, in :data:`GREYS`) on
    every chart. A name is Unicode's with spaces or underscores (``Canadian Aboriginal``).

    >>> script_colour("Latin") == PALETTE[0], script_colour("Digits")
    (True, '#8d96a6')
    >>> script_colour("Runic") == script_colour("Runic")  # not in SCRIPTS: from its name
    True
    >>> script_colour("Old Italic") == script_colour("Old_Italic")
    True
    """
    if script in GREYS:
        return GREYS[script]
    if script in SCRIPTS:
        return PALETTE[SCRIPTS.index(script)]
    script = script.replace(" ", "_")
    digest = hashlib.blake2b(script.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return PALETTE[int.from_bytes(digest, "big") % len(PALETTE)]


def file_name(title: str) -> str:
    """A file name (without extension) for a chart called ``title``: its words joined by hyphens.

    >>> file_name("Tokenization premium with <GPT-2> (baseline: English)")
    'tokenization-premium-with-gpt-2-baseline-english'
    >>> file_name("../../"), file_name("日本語の語彙")
    ('chart', '日本語の語彙')
    """
    words = regex.findall(r"[\p{L}\p{N}]+", title.casefold())
    return "-".join(words)[:100].strip("-") or "chart"


#: Characters in a line of the title of a chart as wide as the page's main area: a longer title
#: wraps. Plotly never wraps one: too long for its figure, it ran off the right edge ("… by
#: scrip"). A character takes about 6.5 px at the title's size, and the main area is 600 px or
#: more wide (in narrower windows the page's columns stack, each as wide).
TITLE_CHARS = 80
TITLE_LINE_PX = 20  # the height of a line of a title, or of a row of legend


def titled(fig: go.Figure, title: str, *, share: float = 1.0) -> go.Figure:
    """``fig`` with ``title`` (plain text: a name such as ``<b>`` shows as typed, a bidi control
    in the notation, as :func:`plot_text` writes them) above it, kept in exported images, room
    made for it; wrapped to fit a figure in a column that takes ``share`` of the page's width.

    >>> titled(go.Figure(), "Vocabulary of <script>x</script>").layout.title.text
    'Vocabulary of &lt;script&gt;x&lt;/script&gt;'
    >>> titled(go.Figure(), "Vocabulary of my\u202eBPE by script").layout.title.text
    'Vocabulary of my⟨U+202E⟩BPE by script'
    >>> titled(go.Figure(), "The vocabulary of English byte-level 1k by script",
    ...        share=2 / 5).layout.title.text
    'The vocabulary of English<br>byte-level 1k by script'
    """
    lines = textwrap.wrap(readable(title, whitespace=False), int(TITLE_CHARS * share),
                          break_long_words=False, break_on_hyphens=False) or [""]
    top = max(fig.layout.margin.t or 0, 50) + TITLE_LINE_PX * (len(lines) - 1)
    legend = fig.layout.legend
    if legend.orientation == "h" and legend.yanchor == "bottom" and (legend.y or 0) >= 1:
        top += TITLE_LINE_PX  # a row of legend just above the plot (``_style``'s): under the title
    # At the very top, so axis labels drawn above the plot (a heatmap's) stay clear of it. Set
    # by assignment: update_layout replays each key through Plotly's relayout machinery, ~8 ms
    # a call on a figure with data against ~1 ms, paid by every chart on every rerun.
    fig.layout.title = dict(text="<br>".join(html.escape(t, quote=False) for t in lines),
                            x=0, xanchor="left", yref="container", y=1, yanchor="top",
                            pad=dict(t=10), font=dict(size=15))
    fig.layout.margin.t = top
    return fig


def plot_text(text: str) -> str:
    """``text`` (a name, a token) shown as it is in a chart's labels, legend and hover text,
    where Plotly reads ``<b>``, ``<br>`` and ``<a href>`` as markup, and a hover template reads
    ``%{x}`` as a value: those characters as entities, which Plotly shows as typed; bidi and
    control characters in the notation, as everywhere (an RLO would turn the rest round).

    >>> plot_text("<br>50%{y} & \u202e")
    '&lt;br&gt;50&#37;{y} &amp; ⟨U+202E⟩'
    """
    return html.escape(readable(text, whitespace=False), quote=False).replace("%", "&#37;")


def chart_config(fig: go.Figure) -> dict:
    """Plotly's config for ``fig``: the camera button saves a PNG named after its title.

    >>> chart_config(titled(go.Figure(), "Token lengths of GPT-2",
    ...                     share=0.1))["toImageButtonOptions"]
    {'format': 'png', 'filename': 'token-lengths-of-gpt-2', 'scale': 2}
    """
    title = html.unescape((fig.layout.title.text or "").replace("<br>", " "))
    return {"displaylogo": False,
            "toImageButtonOptions": {"format": "png", "filename": file_name(title), "scale": 2}}


def growth_figure(history: pd.DataFrame, step: int | None = None) -> go.Figure:
    """Corpus compression and merge counts against merges done.

    ``history`` has one row per state (0 merges, 1 merge, ...) with columns ``merges``,
    ``vocab_size``, ``tokens`` (the corpus length in tokens), ``bytes_per_token`` and ``count``
    (the count of the pair merged to reach that state; empty for 0 merges). A dotted line marks
    ``step`` when given.
    """
    hover = "merges %{x}<br>vocabulary %{customdata:,}<br>"
    merged = history[history["merges"] > 0]
    data = [
        go.Scatter(x=history["merges"], y=history["tokens"], name="tokens in the corpus",
                   mode=_mode(history), line=dict(color=BLUE, width=2.5),
                   marker=dict(size=8), cliponaxis=False, customdata=history["vocab_size"],
                   hovertemplate=hover + "tokens %{y:,}<extra></extra>"),
        go.Scatter(x=history["merges"], y=history["bytes_per_token"], name="bytes per token",
                   yaxis="y2", mode=_mode(history), line=dict(color=ORANGE, width=2, dash="dot"),
                   marker=dict(size=4), cliponaxis=False, customdata=history["vocab_size"],
                   hovertemplate=hover + "bytes per token %{y:.3f}<extra></extra>"),
        # Out of the legend: the lower panel has this one line, which its title names.
        go.Scatter(x=merged["merges"], y=merged["count"], name="count of the merged pair",
                   xaxis="x2", yaxis="y3", mode=_mode(merged, MARKED_COUNTS),
                   line=dict(color=GREEN, width=2), cliponaxis=False,
                   customdata=merged["vocab_size"],
                   hovertemplate=hover + "pair count %{y:,}<extra></extra>", showlegend=False),
    ]
    last = max(int(history["merges"].max()) if len(history) else 0, 1)
    axis = dict(rangemode="tozero", gridcolor=GRID, zeroline=False)
    steps, counts = _whole(last), _whole(merged["count"].max() if len(merged) else 0)
    shapes = [] if step is None else [
        dict(type="line", xref=x, yref=f"{y} domain", x0=step, x1=step, y0=0, y1=1,
             line=dict(color=GREY, dash="dot", width=1.5)) for x, y in (("x", "y"), ("x2", "y3"))]
    lower_title = dict(text="Count of each merge", x=0, y=BOTTOM[1], xref="paper", yref="paper",
                       xanchor="left", yanchor="bottom", showarrow=False, font=dict(size=14))
    layout = dict(
        # One axis of merges for both panels: the upper one's is read on the lower one's labels,
        # and the two zoom together.
        xaxis=dict(domain=(0, 1), anchor="y", range=[0, last], showticklabels=False, **axis,
                   **steps),
        yaxis=dict(domain=TOP, title="tokens in the corpus", **axis),
        yaxis2=dict(title="bytes per token", overlaying="y", side="right", showgrid=False,
                    rangemode="tozero", zeroline=False, tickformat=".1f"),
        xaxis2=dict(domain=(0, 1), anchor="y3", matches="x", title="merges", range=[0, last],
                    **axis, **steps),
        yaxis3=dict(domain=BOTTOM, anchor="x2", title="pair count", **axis, **counts),
        shapes=shapes, annotations=[lower_title])
    layout.update(_style(height=420))
    # The upper panel's title heads its legend.
    layout["legend"]["title"] = dict(text="Corpus size", font=dict(size=14))
    return go.Figure(data=data, layout=layout)


def _whole(top: float) -> dict:
    """A tick at each whole number on an axis of counts up to ``top`` when it is short: plotly's
    own ticks from 0 to 1 or 2 fall on halves ("0.5 merges"); on longer axes they are whole."""
    return dict(tick0=0, dtick=1) if 0 < top <= 5 else {}


def _mode(points: pd.DataFrame, most: int = MARKED_POINTS) -> str:
    """A line with a dot at each point while there are few: a line through one point (before
    the first merge) would draw nothing. (The dots are not clipped at the axes, where the first
    sits; where the two upper lines' dots meet, the smaller one shows inside the other.)"""
    return "lines+markers" if len(points) <= most else "lines"


def length_histogram(lengths: dict[int, tuple[int, str]], unit: str) -> go.Figure:
    """How many vocabulary tokens have each length, stacked by kind ("base" or "learned").

    ``lengths`` maps token id to a ``(length, kind)`` pair; ``unit`` names the length unit.

    >>> fig = length_histogram({0: (1, "base"), 5: (2, "learned"), 6: (2, "learned")}, "bytes")
    >>> [(t.name, list(t.x), list(t.y)) for t in fig.data]
    [('base', [1], [1]), ('learned', [2], [2])]
    """
    bars = []
    for kind, colour in (("base", GREY), ("learned", BLUE)):
        counts = Counter(n for n, k in lengths.values() if k == kind)
        if counts:
            xs = sorted(counts)
            bars.append(go.Bar(x=xs, y=[counts[x] for x in xs], name=kind, marker_color=colour,
                               hovertemplate=f"%{{y:,}} {kind} tokens of %{{x}} {unit}"
                                             "<extra></extra>"))
    longest = max((n for n, _ in lengths.values()), default=0)
    return go.Figure(data=bars, layout=dict(
        barmode="stack", bargap=0.15,
        xaxis=dict(title=f"token length ({unit})", dtick=1 if longest <= 20 else None,
                   gridcolor=GRID),
        yaxis=dict(title="tokens in the vocabulary", gridcolor=GRID), **_style(height=300)))


def _style(*, height: int) -> dict:
    """The layout this module's figures share (``height`` px high), as a dict to build a figure
    with: one layout given whole is read once, where each update_layout call on a figure costs
    a parse and a validation of every key."""
    # The legend just above the plot, where Plotly makes room for it however many rows it
    # wraps to; below, at a fraction of the plot's height, it ran into the x axis's title.
    return dict(height=height, margin=dict(l=10, r=10, t=10, b=10), font=FONT,
                legend=dict(orientation="h", yanchor="bottom", y=1, x=0),
                plot_bgcolor="white", hovermode="x unified")
