"""Plotly figures for the Corpus page.

>>> fig = scripts_figure({"Latin": 15, "Common": 5})
>>> list(fig.data[0].y), list(fig.data[0].x)
(['Common', 'Latin'], [5, 15])
"""

from __future__ import annotations

import plotly.graph_objects as go

from ..shared.charts import BLUE

#: What the Unicode script "Common" holds, said in words a student knows.
COMMON_HINT = "spaces, digits, punctuation, symbols and emoji"


def scripts_figure(scripts: dict[str, int]) -> go.Figure:
    """A horizontal bar per Unicode script: how many characters of the corpus are written in it.

    ``scripts`` maps script -> characters, largest first (as ``CorpusStats.scripts`` does); the
    largest bar is drawn at the top, and each bar is labelled with its share of the corpus.
    """
    names = list(scripts)[::-1]  # plotly draws the first category at the bottom
    counts = [scripts[name] for name in names]
    total = sum(counts) or 1
    hints = [COMMON_HINT if name == "Common" else f"characters in {name} script" for name in names]
    return go.Figure(
        go.Bar(
            x=counts,
            y=names,
            orientation="h",
            text=[f"{n / total:.1%}" for n in counts],
            textposition="auto",
            customdata=hints,
            hovertemplate="<b>%{y}</b>: %{x:,} characters (%{text})<br>%{customdata}"
                          "<extra></extra>",
            marker_color=BLUE,
        ),
        layout=dict(
            height=max(180, 60 + 36 * len(names)),
            margin=dict(l=10, r=10, t=10, b=40),
            xaxis=dict(title=dict(text="characters")),
            yaxis=dict(automargin=True),
            plot_bgcolor="rgba(0,0,0,0)",
        ),
    )
