"""Train: configure BPE, then watch the vocabulary grow merge by merge (or run Gage's
compressor)."""

import streamlit as st

from ui.shared import state
from ui.train import config, data, gage, runs, view

st.title("Train — watch the vocabulary grow", anchor=False)
st.markdown(
    "Byte-pair encoding starts from single symbols (bytes or characters) and learns a vocabulary "
    "one **merge** at a time: count every pair of adjacent tokens in the corpus, join the most "
    "frequent pair into a new token, and repeat. Pick the settings, press **Start training**, and "
    "watch the merges arrive, the corpus shrink and a passage get re-segmented.")

corpus = state.active_corpus()
config.apply_defaults(corpus)
st.caption(f"Corpus: **{corpus.name}** — pick another on the Corpus page.")


def train() -> None:
    settings, problem = config.render(corpus)
    if st.button("Start training", type="primary", disabled=problem is not None, key="train_start"):
        try:
            with st.spinner("Counting the words of the corpus…"):
                view.begin(runs.start(corpus, settings))
        except ValueError as exc:  # PatternError and CorpusReadError are ValueErrors too
            st.error(f"Training cannot start: {exc}")
    run = runs.current()
    if run is not None:
        note = data.stale_note(run.corpus.name, corpus_changed=run.corpus.digest != corpus.digest,
                               changed=data.changes(run.settings, settings) if settings else ())
        if note:
            st.warning(note, icon=":material/history:")
        view.render()


if config.mode() == "compress":
    gage.render(corpus)
else:
    train()
