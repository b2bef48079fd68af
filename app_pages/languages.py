"""Languages: the tokenization premium of the same sentences across languages and tokenizers."""

import streamlit as st

from ui.languages import data, view

st.title(":material/translate: Languages: the tokenization premium", anchor=False)
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
        tabs = st.tabs(view.TABS)
        with tabs[0]:
            view.premium_tab(table, choice, scored)
        with tabs[1]:
            view.heatmap_tab(table, choice, scored)
        with tabs[2]:
            view.sentences_tab(choice, scored, table)
        with tabs[3]:
            view.side_by_side_tab(choice, scored, table)
        with tabs[4]:
            view.vocabulary_size_tab(choice, scored)
        with tabs[5]:
            view.vocabulary_use_tab(choice, scored)
        with tabs[6]:
            view.table_tab(table)
