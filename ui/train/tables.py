"""The textbook step tables of the Train page, drawn from ``bpe_core.training.steps.StepTables``.

Small corpora get every row; big ones their top rows, so a table stays readable.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.training.refusals import BYTE_NAMES, NOT_ALLOWED
from bpe_core.training.steps import REFUSED, TIED, WINNER, StepTables
from bpe_core.training.superbpe import MAX_WORDS

from ..shared import wording
from ..shared.columns import fit_columns, fitted_columns
from ..shared.bidi import cell
from ..shared.tokens import md_escape, readable, readable_pair, readable_token
from ..shared.wording import Units

TOP_ROWS = 30
#: Pixels a table has in a 1280-px window (a third of the page): its columns fit in it.
ROOM = 258
#: A word's cell shows at most this many of its characters and of its tokens.
WORD_CHARS, WORD_TOKENS = 300, 200
WIN_BG, TIE_BG, GAIN_BG, LOSS_BG, GONE = "#c9f2d9", "#fff1b8", "#dff5e8", "#fde2e1", "#9aa3b2"
#: A pair training never merges (``bpe_core.training.refusals``): its row's note, and why.
REFUSAL_NOTES = {BYTE_NAMES: "refused: would be spelled as a byte token",
                 NOT_ALLOWED: "refused by SuperBPE's rule"}
REFUSAL_WHY = {BYTE_NAMES: "its token would be spelled as a byte fallback token, such as "
                           "`<0x41>`, which decoding reads as that byte",
               NOT_ALLOWED: f"its token would hold more than {MAX_WORDS} words, or a colon "
                            "and then a space, which SuperBPE does not make"}


def words_frame(t: StepTables, limit: int | None, *, pieces: Units) -> pd.DataFrame:
    """The training words (or pieces) with their tokens, separated by spaces, and counts."""
    rows = sorted(t.words, key=lambda w: -w.count)[:limit] if limit else t.words
    return pd.DataFrame({pieces.one: [_cut(readable(w.word[:WORD_CHARS + 1]), WORD_CHARS)
                                      for w in rows],
                         "tokens": [_tokens(w.tokens) for w in rows],
                         "count": [w.count for w in rows]})


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _tokens(tokens: tuple[str, ...]) -> str:
    """The first WORD_TOKENS tokens of a word, spaced: a cell holds a line, not a document (with
    the "none" pre-tokenizer a word is a whole document)."""
    shown = cell(" ".join(map(readable_token, tokens[:WORD_TOKENS])))
    return shown if len(tokens) <= WORD_TOKENS else f"{shown} … ({len(tokens):,} tokens)"


def pairs_frame(t: StepTables, limit: int | None) -> pd.DataFrame:
    rows = t.pairs[:limit] if limit else t.pairs
    notes = {WINNER: "← merged next", TIED: "tie: lost", "": ""}
    return pd.DataFrame({"pair": [cell(readable_pair(p.left, p.right)) for p in rows],
                         "count": [p.count for p in rows],
                         # A named column: a screen reader reads each cell with its header.
                         "outcome": [REFUSAL_NOTES[p.refused] if p.status == REFUSED
                                     else notes[p.status] for p in rows]})


def frequencies_frame(t: StepTables, limit: int | None) -> pd.DataFrame:
    # The rows the last merge changed come first, so they show even in a long table.
    changed = tuple(f for f in t.frequencies if f.change)
    rows = changed + tuple(f for f in t.frequencies if not f.change)[:limit]
    return pd.DataFrame({"token": [cell(readable_token(f.token)) for f in rows],
                         "id": [f.id for f in rows],
                         "frequency": [f.count for f in rows],
                         "change": [f"{f.change:+,}" if f.change else "" for f in rows]})


def _pair_style(row: pd.Series) -> list[str]:
    if row["outcome"].startswith("refused"):
        return [f"color:{GONE}"] * len(row)
    bg = WIN_BG if row["outcome"].startswith("←") else TIE_BG if row["outcome"] else ""
    return [f"background-color:{bg}" if bg else ""] * len(row)


def _frequency_style(row: pd.Series) -> list[str]:
    if row["frequency"] == 0:
        return [f"color:{GONE};text-decoration:line-through"] * len(row)
    if row["change"]:
        bg = GAIN_BG if row["change"].startswith("+") else LOSS_BG
        return [f"background-color:{bg}"] * len(row)
    return [""] * len(row)


def render(t: StepTables, *, small: bool, pieces: Units) -> None:
    """The three tables for the state after ``t.step`` merges; ``pieces`` says what the
    pre-tokenizer split the corpus into (words split on whitespace, or its pieces)."""
    limit = None if small else TOP_ROWS
    k = t.step
    c1, c2, c3 = st.columns(3, gap="small")
    with c1:
        st.markdown(f"**{pieces.title} after {k} merge{'s' * (k != 1)}**")
        frame = words_frame(t, limit, pieces=pieces)
        st.dataframe(frame, hide_index=True, height=_height(len(t.words), limit),
                     column_config=fit_columns(frame, fitted_columns(frame, pieces.one, "tokens"),
                                               room=ROOM))
        n = len(t.words)  # (one piece: a document with the "none" pre-tokenizer)
        which = (f"the {TOP_ROWS} most frequent of " if limit and n > limit else
                 "all " if n > 1 else "")
        st.caption(f"Each training {pieces.one}, how often it occurs and its tokens at this "
                   f"step: {which}{n:,} distinct {pieces.one if n == 1 else pieces.many} "
                   f"({pieces.split}).")
    with c2:
        st.markdown("**Pair counts**")
        frame = pairs_frame(t, limit)
        st.dataframe(frame.style.apply(_pair_style, axis=1), hide_index=True,
                     height=_height(len(t.pairs), limit),
                     column_config=fit_columns(frame, fitted_columns(frame, "pair"), room=ROOM))
        st.caption(pairs_caption(t, pieces=pieces))
    with c3:
        st.markdown("**Token frequencies**")
        frame = frequencies_frame(t, limit)
        st.dataframe(frame.style.apply(_frequency_style, axis=1), hide_index=True,
                     height=_height(len(frame), limit),
                     column_config=fit_columns(frame, fitted_columns(frame, "token"), room=ROOM))
        st.caption(_frequency_caption(t))


def pairs_caption(t: StepTables, *, pieces: Units) -> str:
    """What the pair counts show: the winner, its ties, and why a refused pair is not merged."""
    text = f"Every adjacent pair, counted once per occurrence of its {pieces.one}."
    w = t.winner
    if w:
        tied = len(t.ties)
        tie_note = (f" {tied} other pair{'s' * (tied != 1)} had the same count (yellow) and "
                    "lost on the tie rule." if tied else "")
        # A refused pair may have a higher count: the winner is the top pair training may make.
        top = "top pair" if t.pairs[0] == w else "top pair that may be merged"
        text += (f" The {top} (green), {md_escape(readable_pair(w.left, w.right))} with "
                 f"{w.count:,}, becomes merge {t.step + 1}.{tie_note}")
    else:
        text += " Training stopped here, so no pair is merged next."
    for reason in dict.fromkeys(p.refused for p in t.pairs if p.status == REFUSED):
        text += (f" A pair marked “{REFUSAL_NOTES[reason]}” (grey) is never merged, "
                 f"whatever its count: {REFUSAL_WHY[reason]}.")
    return text


def _frequency_caption(t: StepTables) -> str:
    text = (f"How often each token occurs in the corpus: "
            f"{wording.plural(t.total_tokens, 'token')} in all.")
    gained = [f for f in t.frequencies if f.change > 0]
    if gained:
        new = gained[0]
        gone = [md_escape(readable_token(f.token)) for f in t.frequencies if f.count == 0]
        lost = [md_escape(readable_token(f.token)) for f in t.frequencies if f.change < 0]
        # A pair of one token twice (a + a) takes two of it each time: one row loses double.
        parts = (f"both its parts are {lost[0]}, which loses twice that" if len(lost) == 1
                 else "its parts lose exactly that")
        # A part left at zero is struck through, not red: "(red)" only where a red row is.
        red = " (red)" if any(f.count for f in t.frequencies if f.change < 0) else ""
        text += (f" Merge {t.step} made {md_escape(readable_token(new.token))} "
                 f"{wording.times(new.change)}: {parts}{red}, the new token gains it (green).")
        if gone:
            text += (f" {', '.join(gone)} reached zero, struck through here, and "
                     f"leave{'s' * (len(gone) == 1)} the table.")
    return text


def _height(rows: int, limit: int | None) -> int | str:
    shown = min(rows, limit or rows)
    return min(36 + 35 * max(shown, 1), 420)
