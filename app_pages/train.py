"""Train: configure BPE, then watch the vocabulary grow merge by merge (or run Gage's
compressor)."""

import streamlit as st

from ui.shared import state
from ui.shared.tokens import md_escape
from ui.train import background, config, data, gage, link, runs, view

st.title("Train — watch the vocabulary grow", anchor=False)
st.markdown(
    "Byte-pair encoding starts from single symbols (bytes or characters) and learns a vocabulary "
    "one **merge** at a time: count every pair of adjacent tokens in the corpus, join the most "
    "frequent pair into a new token, and repeat. Pick the settings, press **Start training**, and "
    "step through the merges one at a time (a small corpus waits at merge 0) or play them: "
    "watch the corpus shrink and a passage, and your own sentence, get re-segmented.")

link.read()  # after a reload: the corpus, settings and step in the address
corpus = state.active_corpus()
config.apply_defaults(corpus)
st.caption(f"Corpus: **{md_escape(corpus.name)}** — pick another on the Corpus page.")
link.note(corpus)
warning = st.empty()  # for what the address asked for and could not have


def train() -> None:
    settings, problem = config.render(corpus)
    restore = link.pending_step()
    start = st.button("Start training", type="primary", disabled=problem is not None,
                      key="train_start")
    if said := link.problem(forget=start):
        warning.warning(said)
    if start or (restore is not None and problem is None):
        try:
            with st.spinner("Counting the words of the corpus…"):
                background.start(corpus, settings, at=None if start else restore)
        except ValueError as exc:  # PatternError and CorpusReadError are ValueErrors too
            st.error(f"Training cannot start: {md_escape(str(exc))}")
    training = background.follow()
    run = runs.current()
    if training or run is None:
        link.write(corpus, step=None)
        return
    note = data.stale_note(md_escape(run.corpus.name),
                           corpus_changed=run.corpus.digest != corpus.digest,
                           changed=data.changes(run.settings, settings) if settings else ())
    if note:
        st.warning(note, icon=":material/history:")
    # The step goes in the address only while it belongs to the settings shown.
    view.render(on_step=lambda k: link.write(corpus, step=None if note else k))
    link.check_step(run.at)  # a link's step past the run's end: say which merge is shown
    if said := link.problem():
        warning.warning(said)


if config.mode() == "compress":
    gage.render(corpus)
    link.write(corpus, step=None)
else:
    train()
