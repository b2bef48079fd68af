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
        tabs.render(table, choice, scored)
