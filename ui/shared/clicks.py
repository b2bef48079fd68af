"""A button's click, acted on once while a part of the page updates on a timer.

A fragment that reruns on a timer (``st.fragment(run_every=...)``: the Train page's playing
merges, a background job's progress) sends its updates from the browser whatever the user does.
One that leaves in the moment after a click carries the click too, since Streamlit's frontend
clears a click only once the click's own request is sent: the button's callback then ran in
that update and again in the page's rerun the click asked for. On the Train page, Step while
playing went two merges (1 in 4 tries in Chromium, seen by logging the callback).

A button outside the fragment has no business in the fragment's update, so its click there is
that copy, and the page's rerun with the click follows. :func:`once_per_click` lets the copy act
at once (a Pause stops the merges in that very update) and leaves the click's own rerun alone.

Session key owned here: ``click_copied``, the callback whose click an update carried.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

COPIED = "click_copied"


def in_fragment_run() -> bool:
    """Whether this script run reruns fragments only (a timed update, say), not the page. A
    widget outside every fragment that reports a change in one reports what the browser last
    showed or a copy of a click: the page's own rerun brings the user's real changes."""
    ctx = get_script_run_ctx()
    return bool(ctx and ctx.fragment_ids_this_run)


def once_per_click(callback: Callable[..., None]) -> Callable[..., None]:
    """``callback``, for the ``on_click`` of a button outside any timed fragment, run once per
    click (see the module docstring)."""
    name = f"{callback.__module__}.{callback.__qualname__}"

    @functools.wraps(callback)
    def once(*args) -> None:
        copy = in_fragment_run()
        if not copy and st.session_state.get(COPIED) == name:
            del st.session_state[COPIED]  # the click's own rerun: its copy has acted
            return
        if copy:
            st.session_state[COPIED] = name
        callback(*args)
    return once
