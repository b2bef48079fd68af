"""Vocabulary: browse and search what the active tokenizer learned, and compare two vocabularies."""

import streamlit as st

from ui.shared import state
from ui.shared.annotate import md_literal
from ui.vocabulary import view

tok, corpus = state.active_tokenizer(), state.active_corpus()
st.title(":material/dictionary: Vocabulary", anchor=False)
st.markdown(f"Every token of **{md_literal(tok.name)}**: how it was learned, what it is made of, "
            f"and how often it occurs in the active corpus, **{md_literal(corpus.name)}**. "
            "Search it, click a token to see its merge tree, or compare it with another tokenizer.")
table = view.vocabulary_table(tok, corpus)
view.render_summary(tok, table, corpus)
browse, charts, fragments, compare = st.tabs(view.TABS, key=view.TAB_KEY, on_change="rerun")
with browse:
    if browse.open:
        view.render_browser(tok, table)
        view.render_token(tok, table)
with charts:
    if charts.open:
        view.render_charts(tok, table)
with fragments:
    if fragments.open:
        view.render_fragments(tok, table)
with compare:
    if compare.open:
        view.render_diff(tok)
