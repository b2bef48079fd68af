"""The textbook step tables of the Train page, drawn from ``bpe_core.training.steps.StepTables``.

Small corpora get every row; big ones their top rows, so a table stays readable.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.training.steps import TIED, WINNER, StepTables

from ..shared.tokens import visible

TOP_ROWS = 30
#: A word's cell shows at most this many of its characters and of its tokens.
WORD_CHARS, WORD_TOKENS = 300, 200
WIN_BG, TIE_BG, GAIN_BG, LOSS_BG, GONE = "#c9f2d9", "#fff1b8", "#dff5e8", "#fde2e1", "#9aa3b2"


def words_frame(t: StepTables, limit: int | None) -> pd.DataFrame:
    rows = sorted(t.words, key=lambda w: -w.count)[:limit] if limit else t.words
    return pd.DataFrame({"word": [_cut(visible(w.word[:WORD_CHARS + 1]), WORD_CHARS)
                                  for w in rows],
                         "tokens": [_tokens(w.tokens) for w in rows],
                         "count": [w.count for w in rows]})


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _tokens(tokens: tuple[str, ...]) -> str:
    """The first WORD_TOKENS tokens of a word, spaced: a cell holds a line, not a document (with
    the "none" pre-tokenizer a word is a whole document)."""
    shown = " ".join(map(visible, tokens[:WORD_TOKENS]))
    return shown if len(tokens) <= WORD_TOKENS else f"{shown} … ({len(tokens):,} tokens)"


def pairs_frame(t: StepTables, limit: int | None) -> pd.DataFrame:
    rows = t.pairs[:limit] if limit else t.pairs
    notes = {WINNER: "← merged next", TIED: "tie: lost", "": ""}
    return pd.DataFrame({"pair": [f"{visible(p.left)} + {visible(p.right)}" for p in rows],
                         "count": [p.count for p in rows],
                         "": [notes[p.status] for p in rows]})


def frequencies_frame(t: StepTables, limit: int | None) -> pd.DataFrame:
    # The rows the last merge changed come first, so they show even in a long table.
    changed = tuple(f for f in t.frequencies if f.change)
    rows = changed + tuple(f for f in t.frequencies if not f.change)[:limit]
    return pd.DataFrame({"token": [visible(f.token) for f in rows],
                         "id": [f.id for f in rows],
                         "frequency": [f.count for f in rows],
                         "change": [f"{f.change:+,}" if f.change else "" for f in rows]})


def _pair_style(row: pd.Series) -> list[str]:
    bg = WIN_BG if row[""].startswith("←") else TIE_BG if row[""] else ""
    return [f"background-color:{bg}" if bg else ""] * len(row)


def _frequency_style(row: pd.Series) -> list[str]:
    if row["frequency"] == 0:
        return [f"color:{GONE};text-decoration:line-through"] * len(row)
    if row["change"]:
        bg = GAIN_BG if row["change"].startswith("+") else LOSS_BG
        return [f"background-color:{bg}"] * len(row)
    return [""] * len(row)


def render(t: StepTables, *, small: bool) -> None:
    """The three tables for the state after ``t.step`` merges."""
    limit = None if small else TOP_ROWS
    k = t.step
    c1, c2, c3 = st.columns(3, gap="medium")
    with c1:
        st.markdown(f"**Words after {k} merge{'s' * (k != 1)}**")
        st.dataframe(words_frame(t, limit), hide_index=True, height=_height(len(t.words), limit))
        more = (f" Showing the {TOP_ROWS} most frequent of {len(t.words):,}."
                if limit and len(t.words) > limit else "")
        st.caption("Each training word (a piece from the pre-tokenizer), how often it occurs and "
                   f"its tokens at this step.{more}")
    with c2:
        st.markdown("**Pair counts**")
        frame = pairs_frame(t, limit)
        st.dataframe(frame.style.apply(_pair_style, axis=1), hide_index=True,
                     height=_height(len(t.pairs), limit))
        if t.winner:
            w = t.winner
            tied = len(t.ties)
            tie_note = (f" {tied} other pair{'s' * (tied != 1)} had the same count (yellow) and "
                        "lost on the tie rule." if tied else "")
            st.caption(f"Every adjacent pair, counted once per occurrence of its word. The top "
                       f"pair (green), {visible(w.left)} + {visible(w.right)} with {w.count:,}, "
                       f"becomes merge {k + 1}.{tie_note}")
        else:
            st.caption("Every adjacent pair, counted once per occurrence of its word. Training "
                       "stopped here, so no pair is merged next.")
    with c3:
        st.markdown("**Token frequencies**")
        frame = frequencies_frame(t, limit)
        st.dataframe(frame.style.apply(_frequency_style, axis=1), hide_index=True,
                     height=_height(len(frame), limit))
        st.caption(_frequency_caption(t))


def _frequency_caption(t: StepTables) -> str:
    text = f"How often each token occurs in the corpus: {t.total_tokens:,} tokens in all."
    gained = [f for f in t.frequencies if f.change > 0]
    if gained:
        new = gained[0]
        gone = [visible(f.token) for f in t.frequencies if f.count == 0]
        text += (f" Merge {t.step} made {visible(new.token)} {new.change:,} times: its parts lose "
                 "exactly that (red), the new token gains it (green).")
        if gone:
            text += f" {', '.join(gone)} reached zero and leave{'s' * (len(gone) == 1)} the table."
    return text


def _height(rows: int, limit: int | None) -> int | str:
    shown = min(rows, limit or rows)
    return min(36 + 35 * max(shown, 1), 420)
