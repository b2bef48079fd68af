"""Languages: the tokenization premium of the same sentences across languages and tokenizers."""

import streamlit as st

from ui.languages import data, tabs, view

st.title("Languages: the tokenization premium", anchor=False)
st.markdown(view.INTRO)
source = view.corpus_picker()
choice = view.controls(source)
view.train_panel(source)
view.load_panel()
if choice is not None:
    # Scored on held-out sentences when a tokenizer in the comparison learned from the rest.
    scored = data.scored_corpus(source, choice.tokenizers)
    view.scoring_note(source, scored, choice)
    # A large corpus is measured by a worker: its progress shows here until it is done.
    if data.measured(scored, choice.tokenizers):
        table = data.results_table(scored, choice.tokenizers, choice.baseline)
        view.headline(table, choice, scored)
        panes = st.tabs(tabs.TABS)
        with panes[0]:
            tabs.premium_tab(table, choice, scored)
        with panes[1]:
            tabs.heatmap_tab(table, choice, scored)
        with panes[2]:
            tabs.sentences_tab(choice, scored, table)
        with panes[3]:
            tabs.side_by_side_tab(choice, scored, table)
        with panes[4]:
            tabs.vocabulary_size_tab(choice, scored)
        with panes[5]:
            tabs.vocabulary_use_tab(choice, scored)
        with panes[6]:
            tabs.table_tab(table)
