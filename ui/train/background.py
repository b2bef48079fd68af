"""Starting a run, and following one that a worker trains (see ``jobs`` for which).

Session key owned here: ``train_job``, the training job under way with what it was started
for: ``(job, corpus, settings, step to show when done)``. Its run replaces the one on show when
it is done; until then the page shows the job's progress and a Cancel button.
"""

from __future__ import annotations

import streamlit as st

from ..shared import work
from ..shared.jobs import DONE, FAILED
from ..shared.state import SessionCorpus
from ..shared.tokens import md_escape
from . import jobs as train_jobs, runs, view

JOB = "train_job"


def start(corpus: SessionCorpus, settings: dict, *, at: int | None) -> None:
    """Train a run on ``corpus``: a small one at once, in the session; a big one in a worker
    (a job of the session's already under way stops). ``at``: the step to show, paused (a
    reloaded page). Raises ``ValueError`` with a message for the user if training cannot start
    (for a big corpus, :func:`follow` says so when the worker finds it)."""
    if train_jobs.is_small(corpus):
        held = st.session_state.pop(JOB, None)
        if held is not None:  # a big corpus's run under way is replaced: its worker stops
            work.cancel(held[0])
        view.begin(runs.start(corpus, settings), at=at)
        return
    job = work.start("train", train_jobs.train, corpus.training_input, settings)
    if job is not None:
        runs.forget()
        st.session_state[JOB] = (job, corpus, settings, at)


def follow() -> bool:
    """Draw the session's training job, if it has one: its progress while it runs (True: the
    run is not there yet), or why it stopped. Its run is shown once it is done."""
    held = st.session_state.get(JOB)
    if held is None:
        return False
    job, corpus, settings, at = held
    if job.state == DONE:
        del st.session_state[JOB]
        view.begin(runs.replay(job.result, corpus, settings), at=at)
        return False
    if job.state == FAILED:
        st.error(f"Training cannot start: {md_escape(job.error)}", icon=":material/error:")
        return False
    if job.finished:
        st.info("Training was cancelled. Press **Start training** to run it again.",
                icon=":material/stop_circle:")
        return False
    work.follow(job, what=f"Training on {md_escape(corpus.name)}")
    return True
