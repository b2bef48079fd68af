"""A page's long work in the background, from its start to what it leaves: the job for a key
(:func:`ui.shared.work.job_for`), its progress and Cancel button while it runs, one sentence if
it failed or was cancelled (with a button to start it again), and its result once done.

Results that several sessions may ask for (the statistics of a corpus, by content digest) are
kept in a small store shared by the server, so that coming back to a page, or another session
opening the same corpus, does not count it again::

    store = kept("corpus stats")
    stats = store.get(key)
    if stats is None:
        stats = outcome(SLOT, key, "corpus", count, documents, what="Counting words")
        if stats is not None:
            store.put(key, stats)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable

import streamlit as st

from . import work
from .jobs import CANCELLED, DONE, FAILED
from .tokens import md_escape


class Kept:
    """The ``size`` results used last, by key, for every session (thread-safe). A result is
    shared, never copied: callers only read it.

    >>> store = Kept(size=2)
    >>> store.put("a", 1); store.put("b", 2); store.get("a"); store.put("c", 3)
    1
    >>> store.get("b"), store.get("a"), store.get("c")
    (None, 1, 3)
    """

    def __init__(self, *, size: int):
        self._size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            if key not in self._items:
                return None
            self._items.move_to_end(key)
            return self._items[key]

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)


@st.cache_resource(show_spinner=False)
def kept(name: str, *, size: int = 32) -> Kept:
    """The server's store of finished results called ``name`` (created once)."""
    return Kept(size=size)


def outcome(slot: str, key: Hashable, kind: str, fn: Callable, *args: Any, what: str) -> Any:
    """The result of ``fn(*args)`` computed in a worker for this session, held under ``slot``
    while ``key`` stays the same (see :func:`ui.shared.work.job_for`). None until it is done:
    meanwhile its progress and a Cancel button are drawn, and if it fails or is cancelled, one
    sentence saying so and a button that starts it again. ``what`` names the work as a
    sentence's subject: "Counting words in 2.4 MB"."""
    job = work.job_for(slot, key, kind, fn, *args)
    if job is None:
        return None  # the session holds as many jobs as it may; work.start said so
    if job.state == DONE:
        return job.result
    if job.state == FAILED:
        st.error(f"{what} failed: {md_escape(job.error)}", icon=":material/error:")
    elif job.state == CANCELLED:
        st.info(f"{what} was cancelled.", icon=":material/stop_circle:")
    else:
        work.follow(job, what=what)
        return None
    st.button("Start again", key=f"{slot}_again", on_click=forget, args=(slot,),
              icon=":material/restart_alt:", help="Run this work again from the start.")
    return None


def pending(slot: str) -> bool:
    """Whether the job held under ``slot`` is still queued or running: a None from
    :func:`outcome` then means "not yet", else "not at all" (it failed, was cancelled, or
    could not start)."""
    held = st.session_state.get(slot)
    return held is not None and not held[1].finished


def replaced(slot: str, key: Hashable) -> None:
    """Stop the job held under ``slot`` if it still works for another ``key`` than the one the
    page needs now (a small input done at once, a result kept from before): nothing would show
    its progress or its result, and its worker would go on to the end. A finished job is kept,
    for the page to find its result when it comes back to it."""
    held = st.session_state.get(slot)
    if held is not None and held[0] != key and not held[1].finished:
        forget(slot)


def forget(slot: str) -> None:
    """Drop the job held under ``slot``, stopping it if it still runs: the next
    :func:`outcome` for it starts a new one."""
    held = st.session_state.pop(slot, None)
    if held is not None:
        work.cancel(held[1])
