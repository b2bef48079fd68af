"""The pages' side of long work: the server's one job pool, this session's jobs, and a progress
panel with a Cancel button that follows a job while the rest of the page stays usable.

A page starts a job with :func:`start` (which says in one sentence when the session already
holds too many), keeps the :class:`~ui.shared.jobs.Job` in session state, and draws
:func:`follow` where the progress should show. ``follow`` is a fragment that reruns on a timer
while the job runs and reruns the whole page once when it has finished, so that the page draws
the result.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import get_script_run_ctx

from .jobs import Job, JobPool, TooManyJobs

#: How often a followed job's progress is redrawn (seconds).
POLL_SECONDS = 0.5


def _is_alive(session: str) -> bool:
    """Whether the session still has a browser tab. Outside a running server (AppTest, a
    script) every session counts as alive: nothing else would end its jobs but the test."""
    return not Runtime.exists() or Runtime.instance().is_active_session(session)


@st.cache_resource(show_spinner=False)
def pool() -> JobPool:
    """The server's job pool: created once, shared by every session."""
    return JobPool(is_alive=_is_alive)


def session_id() -> str:
    ctx = get_script_run_ctx()
    return "" if ctx is None else ctx.session_id


def start(kind: str, fn: Callable, *args: Any) -> Job | None:
    """Run ``fn(*args, report=...)`` in a worker for this session; None (and a warning on the
    page) when the session already holds as many jobs as it may."""
    try:
        return pool().submit(kind, session_id(), fn, *args)
    except TooManyJobs as exc:
        st.warning(str(exc), icon=":material/hourglass_top:")
        return None


def job_for(slot: str, key: Hashable, kind: str, fn: Callable, *args: Any) -> Job | None:
    """This session's job computing ``fn(*args)`` for ``key``, kept in session state under
    ``slot``: the one held while ``key`` stays the same, else a new one (which cancels the
    session's older job of the same ``kind``: the user asked for something else). None, with a
    warning on the page, when the session already holds as many jobs as it may."""
    held = st.session_state.get(slot)
    if held is None or held[0] != key:
        job = start(kind, fn, *args)
        if job is None:
            return None
        held = st.session_state[slot] = (key, job)
    return held[1]


def cancel(job: Job) -> None:
    """Stop ``job`` now (the Cancel button's callback)."""
    pool().cancel(job)


def _cancel_id(job_id: int) -> None:
    pool().cancel_id(session_id(), job_id)


def follow(job: Job, *, what: str) -> None:
    """Draw ``job``'s progress with a Cancel button; redrawn on a timer while it runs, and the
    whole page once it has finished. ``what`` names the work ("Tokenizing 480,000 characters")."""
    st.fragment(run_every=POLL_SECONDS)(_progress)(job, what)


def _progress(job: Job, what: str) -> None:
    if job.finished:
        st.rerun()  # the page draws the result (or says why there is none)
    bar, button = st.columns([3, 1], vertical_alignment="bottom")  # room for the whole label
    bar.progress(job.progress, text=f"{what} in the background… {job.message}".rstrip())
    # The callback gets the job's number, not the job: Streamlit may keep a widget's callback
    # arguments after the widget has gone, and the job holds its result (a whole corpus).
    button.button("Cancel", key=f"cancel_{job.id}", on_click=_cancel_id, args=(job.id,),
                  icon=":material/stop_circle:", width="stretch",
                  help="Stop this work now; its worker process ends at once.")
