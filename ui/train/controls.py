"""The Train page's controls: restart, back, play / pause, step, finish, the speed, and a slider
to jump to any merge.

Each control only records what the user asked for: the step to go to (``Run.goal``) or whether
to play. The merges themselves are made in one place, ``Run.drive``, called by the page.
"""

from __future__ import annotations

import streamlit as st

from . import runs

SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
# Widget keys. The speed and jump widgets get a key per run, so each run starts at its own
# default.
SPEED, JUMP = "train_speed", "train_jump"


def default_speed(run: runs.Run) -> int:
    return 1 if run.is_small() else 10


def speed(run: runs.Run) -> int:
    """Merges per update while playing."""
    return st.session_state.get(_key(SPEED, run)) or default_speed(run)


def edges(run: runs.Run) -> tuple[bool, bool, bool]:
    """What the buttons' states depend on: paused at the first step, at the last, playing.

    (Back stays enabled while playing: the first update leaves step 0 anyway, and redrawing
    the buttons for it would cost a whole-page rerun.)"""
    playing = runs.playing()
    return run.at == 0 and not playing, run.at_end, playing


def _key(name: str, run: runs.Run) -> str:
    return f"{name}_{id(run)}"


def _go(step: int) -> None:
    """Pause and ask for ``step`` (kept between 0 and the last step)."""
    runs.set_playing(False)
    run = runs.current()
    run.goal = max(0, min(step, run.last))


def _restart() -> None:
    _go(0)


def _back() -> None:
    _go(runs.current().at - 1)


def _step() -> None:
    _go(runs.current().at + 1)


def _finish() -> None:
    _go(runs.current().last)


def _play(on: bool) -> None:
    runs.set_playing(on)
    if not on:
        runs.current().goal = None  # stay where it is, even in the middle of a long step


def _jump(key: str) -> None:
    _go(st.session_state[key])


def buttons(run: runs.Run) -> None:
    """The buttons and the speed, drawn outside the page's live fragment: a click on them reruns
    the whole page, which starts or stops the fragment's timer."""
    first, end, playing = edges(run)
    cols = st.columns([1, 1, 1.2, 1, 1, 3], vertical_alignment="bottom")
    cols[0].button("Restart", on_click=_restart, disabled=first,
                   icon=":material/first_page:", width="stretch", key="train_restart",
                   help="Back to the start, before any merge, paused.")
    cols[1].button("Back", on_click=_back, disabled=first, icon=":material/chevron_left:",
                   width="stretch", key="train_back", help="Go back one merge.")
    cols[2].button("Pause" if playing else "Play", on_click=_play, args=(not playing,),
                   disabled=end, type="primary", width="stretch", key="train_play",
                   icon=":material/pause:" if playing else ":material/play_arrow:")
    cols[3].button("Step", on_click=_step, disabled=end, icon=":material/chevron_right:",
                   width="stretch", key="train_step", help="Go forward one merge.")
    cols[4].button("Finish", on_click=_finish, disabled=end, icon=":material/last_page:",
                   width="stretch", key="train_finish", help="Make all remaining merges and "
                                                             "show the last.")
    cols[5].select_slider("Speed (merges per update)", SPEEDS, value=default_speed(run),
                          key=_key(SPEED, run))


def jump(run: runs.Run) -> None:
    """A slider over every step of the run: drag it (or use the arrow keys) to go to one."""
    if run.last == 0:
        return
    # A new key for each step shown, so the slider shows it by default. Setting the value from
    # code instead would race the timer: a rerun asked for by the browser carries the value
    # the browser last drew, which would count as a change and jump back.
    key = f"{_key(JUMP, run)}_{run.at}_{run.last}"
    st.slider("Merge shown: the state after this many merges", 0, run.last, run.at, key=key,
              on_change=_jump, args=(key,),
              help="Jump to any step: the segmentation, the tables and the chart follow. Steps "
                   "not made yet are made on the way.")
