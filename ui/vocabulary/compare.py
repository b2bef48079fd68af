"""The Vocabulary page's comparison of two tokenizers: shared tokens (by their bytes, not their
ids), those only in A and only in B, each list searchable, and both vocabularies side by side
by writing system.

The diff and its three tables are built once per pair of tokenizers (keyed by both
fingerprints): Gemma 3 against Qwen 3 is some 400,000 tokens, seconds to compare, and the page
only filters the tables afterwards.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core import Tokenizer
from bpe_core.analysis.vocabulary import VocabularySearchError, diff

from ..shared import loaders, metrics, state
from ..shared.annotate import md_literal
from .data import diff_frame, diff_summary, diff_systems, search_diff
from .tables import frame
from .view import KEEP, MAX_ROWS

_NUM = st.column_config.NumberColumn
DIFF_COLUMNS = {
    "token": st.column_config.TextColumn("token"),
    "script": st.column_config.TextColumn("writing system"),
    "id_a": _NUM("id in A", format="%d"), "rank_a": _NUM("rank in A", format="%d"),
    "id_b": _NUM("id in B", format="%d"), "rank_b": _NUM("rank in B", format="%d"),
}
#: The active tokenizer when the Compare tab last drew (session key).
ACTIVE_SEEN = "vocab_diff_active_seen"
LISTS = ("Only in A", "Only in B", "Shared")
EMPTY = ("Every token of A is also in B.", "Every token of B is also in A.",
         "The two vocabularies have no token in common.")


# Kept as objects, never changed, as the vocabulary's own tables are (see ui.vocabulary.tables).
@st.cache_resource(show_spinner="Comparing the vocabularies…", max_entries=4)
def _compared(key_a: str, key_b: str, _a: Tokenizer,
              _b: Tokenizer) -> tuple[str, tuple[pd.DataFrame, ...], pd.DataFrame]:
    """The one-sentence summary, the three lists (only A, only B, shared) with each token's
    writing system, and the writing systems side by side."""
    d = diff(_a, _b)
    scripts_a = dict(zip(*(frame(_a)[c] for c in ("id", "script"))))
    scripts_b = dict(zip(*(frame(_b)[c] for c in ("id", "script"))))
    lists = (diff_frame(d.only_a, side="a", scripts=scripts_a),
             diff_frame(d.only_b, side="b", scripts=scripts_b),
             diff_frame(d.shared, scripts=scripts_a, scripts_b=scripts_b))
    return diff_summary(d), lists, diff_systems(*lists)


def render_diff(tok: Tokenizer) -> None:
    names = list(state.tokenizers())
    with st.expander("Load another tokenizer to compare", expanded=len(names) < 2):
        loaders.load_panel(key="vocab_load")
    if len(names) < 2:
        st.info("This session has one tokenizer. Train another on the Train page, or load one "
                "above, to compare their vocabularies.")
        return
    # A follows the active tokenizer when the sidebar changes it, as the page's other tabs do;
    # until then it stays as the user picked it.
    if state.newly_active(ACTIVE_SEEN) is not None:
        st.session_state["vocab_diff_a"] = tok.name
    a_col, b_col = st.columns(2)
    name_a = a_col.selectbox("Tokenizer A", names, key="vocab_diff_a", **KEEP)
    rest = [n for n in names if n != name_a]
    name_b = b_col.selectbox("Tokenizer B", rest, key="vocab_diff_b", **KEEP)
    a, b = state.tokenizers()[name_a], state.tokenizers()[name_b]
    summary, lists, systems = _compared(a.fingerprint(), b.fingerprint(), a, b)
    cards = metrics.row()
    for label, rows in zip(LISTS, lists):
        cards.metric(label, f"{len(rows):,}")
    st.caption(f"Tokens are the same when they stand for the same bytes. {summary}")
    with st.expander("By writing system, side by side", expanded=True):
        st.dataframe(systems, hide_index=True, key="vocab_diff_systems",
                     column_config={c: _NUM(c, format="localized") for c in systems.columns[1:]})
        st.caption("Tokens counted as the comparison counts them, once per distinct bytes: a "
                   "byte-fallback token and the character it spells count once. A and B count "
                   "each token by its own writing system, the shared column by A's (the byte "
                   "E4 is byte fallback in one model and partial UTF-8 in another).")
    _lists(lists)


def _lists(lists: tuple[pd.DataFrame, ...]) -> None:
    """The three lists in tabs under one search box."""
    left, right = st.columns([3, 1])
    query = left.text_input("Search the lists", key="vocab_diff_query", **KEEP,
                            placeholder="e.g. ing, ·the, or ^\\p{Han} as a regular expression")
    # The two toggles one above the other: side by side, a 760-px window cut their labels short.
    use_regex = right.toggle("Regular expression", key="vocab_diff_regex", **KEEP)
    # As the Browse tab's search: "the" finds "The" too only when asked.
    ignore_case = right.toggle("Ignore case", key="vocab_diff_case", **KEEP)
    try:
        found = [search_diff(rows, query, use_regex=use_regex, ignore_case=ignore_case)
                 for rows in lists]
    except VocabularySearchError as exc:
        st.error(md_literal(str(exc)))
        return
    tabs = st.tabs([f"{label} ({len(rows):,})" for label, rows in zip(LISTS, found)])
    for tab, rows, total, none in zip(tabs, found, lists, EMPTY):
        with tab:
            if total.empty:
                st.info(none)
                continue
            more = (f"; the first {MAX_ROWS:,} are listed (search to reach the others)"
                    if len(rows) > MAX_ROWS else "")
            st.caption(f"{len(rows):,} of {len(total):,} tokens{more}.")
            st.dataframe(rows.head(MAX_ROWS), hide_index=True, height=360,
                         column_config=DIFF_COLUMNS, placeholder="—",
                         column_order=[c for c in rows.columns if c not in ("text", "script_b")])
