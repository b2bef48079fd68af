"""Corpus page: choose the text BPE learns from, and see what is in it."""

import streamlit as st

from ui.corpus import view
from ui.shared import corpus_link, state

st.title("Corpus")
st.markdown(
    "BPE learns its vocabulary from a **corpus**: the more often a sequence of characters occurs "
    "in it, the sooner that sequence becomes a single token. Pick a bundled sample, upload your "
    "own files or paste some text; the corpus you choose becomes the *active corpus* that the "
    "other pages train and count on. Below, see what a tokenizer will meet: how many words, "
    "which ones repeat, and which writing systems they use."
)
problem = corpus_link.restore()  # after a reload: the corpus in the address
if problem:
    st.warning(problem)
view.render_source()
corpus = state.active_corpus()
if not problem:  # a link that could not be read stays as it was, for the user to see
    corpus_link.write(corpus)
corpus_link.note(corpus)
st.divider()
view.render_stats(corpus)
