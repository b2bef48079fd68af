"""Corpus page: choose the text BPE learns from, and see what is in it."""

import streamlit as st

from ui.corpus import view
from ui.shared import state

st.title("Corpus")
st.markdown(
    "BPE learns its vocabulary from a **corpus**: the more often a sequence of characters occurs "
    "in it, the sooner that sequence becomes a single token. Pick a bundled sample, upload your "
    "own files or paste some text; the corpus you choose becomes the *active corpus* that the "
    "other pages train and count on. Below, see what a tokenizer will meet: how many words, "
    "which ones repeat, and which writing systems they use."
)
view.render_source()
st.divider()
view.render_stats(state.active_corpus())
