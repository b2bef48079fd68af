"""Vocabulary: browse and search what the active tokenizer learned, count it by writing system,
find its longest and byte tokens, and compare two vocabularies."""

import streamlit as st

from ui.shared import state
from ui.shared.annotate import md_literal
from ui.vocabulary import compare, view

tok, corpus = state.active_tokenizer(), state.active_corpus()
st.title(":material/dictionary: Vocabulary", anchor=False)
st.markdown(f"Every token of **{md_literal(tok.name)}**: how it was learned, what it is made of, "
            f"and how often it occurs in the active corpus, **{md_literal(corpus.name)}**. "
            "Search it, click a token to see its merge tree, count its tokens by writing system, "
            "or compare it with another tokenizer.")
table = view.vocabulary_table(tok, corpus)
view.render_summary(tok, table, corpus)
browse, systems, longest, charts, byte_tokens, two = st.tabs(view.TABS, key=view.TAB_KEY,
                                                             on_change="rerun")
with browse:
    if browse.open:
        view.render_browser(tok, table)
        view.render_token(tok, table)
with systems:
    if systems.open:
        view.render_systems(tok, table)
with longest:
    if longest.open:
        view.render_longest(tok, table)
with charts:
    if charts.open:
        view.render_charts(tok, table)
with byte_tokens:
    if byte_tokens.open:
        view.render_bytes(tok, table)
with two:
    if two.open:
        compare.render_diff(tok)
