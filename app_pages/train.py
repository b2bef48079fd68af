"""Train: configure BPE, then watch the vocabulary grow merge by merge (or run Gage's
compressor)."""

import streamlit as st

from ui import state, training, training_config, training_gage, training_view

st.title("Train — watch the vocabulary grow", anchor=False)
st.markdown(
    "Byte-pair encoding starts from single symbols (bytes or characters) and learns a vocabulary "
    "one **merge** at a time: count every pair of adjacent tokens in the corpus, join the most "
    "frequent pair into a new token, and repeat. Pick the settings, press **Start training**, and "
    "watch the merges arrive, the corpus shrink and a passage get re-segmented.")

corpus = state.active_corpus()
training_config.apply_defaults(corpus)
st.caption(f"Corpus: **{corpus.name}** — pick another on the Corpus page.")



def train() -> None:
    settings, problem = training_config.render(corpus)
    if st.button("Start training", type="primary", disabled=problem is not None, key="train_start"):
        try:
            with st.spinner("Counting the words of the corpus…"):
                training_view.begin(training.start(corpus, settings))
        except ValueError as exc:  # PatternError and CorpusReadError are ValueErrors too
            st.error(f"Training cannot start: {exc}")
    run = training.current()
    if run is not None:
        if run.corpus.digest != corpus.digest:
            st.info(f"This run was trained on {run.corpus.name}; press Start training to train "
                    f"on {corpus.name}.")
        training_view.render()


if training_config.mode() == "compress":
    training_gage.render(corpus)
else:
    train()
