"""Vocabulary: browse and search what the active tokenizer learned, count it by writing system,
find its longest and byte tokens, and compare two vocabularies."""

import streamlit as st

from ui.shared import state
from ui.shared.annotate import md_literal
from ui.vocabulary import compare, tables, view

tok, corpus = state.active_tokenizer(), state.active_corpus()
st.title("Vocabulary", anchor=False)
st.markdown(f"Every token of **{md_literal(tok.name)}**: how it was learned, what it is made of, "
            f"and how often it occurs in the active corpus, **{md_literal(corpus.name)}**. "
            "Search it, click a token to see its merge tree, count its tokens by writing system, "
            "or compare it with another tokenizer.")
table = tables.vocabulary_table(tok, corpus)
if table is not None:  # else a regex of the tokenizer's file was stopped: said above
    view.render_summary(tok, table, corpus)
    # Only the open tab is drawn: each is a few tables or charts of up to 262,000 tokens.
    drawers = (view.render_browse, view.render_systems, view.render_longest, view.render_charts,
               view.render_bytes, lambda active, _: compare.render_diff(active))
    for tab, draw in zip(st.tabs(view.TABS, key=view.TAB_KEY, on_change="rerun"), drawers):
        with tab:
            if tab.open:
                draw(tok, table)
