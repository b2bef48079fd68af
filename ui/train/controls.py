"""The Train page's controls: restart, back, play / pause, step, finish, a box to go to any
merge, and the speed.

Each control only records what the user asked for: the step to go to (``Run.goal``) or whether
to play. The merges themselves are made in one place, ``Run.drive``, called by the page.

No control has its value set from code. A rerun the browser asks for carries the value each
widget last showed there, which may predate the newest update while merges play; a widget whose
value the server had moved would see that as the user moving it back (a slider following the
step did exactly that, pausing playback at random).
"""

from __future__ import annotations

import streamlit as st

from ..shared.clicks import once_per_click
from . import runs

SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
# Widget keys. The speed and go-to widgets get a key per run, so each run starts at its own
# default.
SPEED, GO_TO = "train_speed", "train_go_to"
#: Pixels of the go-to box with its Go button: room for a placeholder as long as "0 – 30,000".
GO_TO_WIDTH = 210


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


@once_per_click
def _restart() -> None:
    _go(0)


@once_per_click
def _back() -> None:
    _go(runs.current().at - 1)


@once_per_click
def _step() -> None:
    _go(runs.current().at + 1)


@once_per_click
def _finish() -> None:
    _go(runs.current().last)


@once_per_click
def _play() -> None:
    runs.set_playing(True)


@once_per_click
def _pause() -> None:
    runs.set_playing(False)
    runs.current().goal = None  # stay where it is, even in the middle of a long step


@once_per_click
def _go_to(key: str) -> None:
    if st.session_state[key] is not None:
        _go(st.session_state[key])


def render(run: runs.Run) -> None:
    """The buttons, the go-to box and the speed, drawn outside the page's live fragment: a
    click on them reruns the whole page, which starts or stops the fragment's timer."""
    first, end, playing = edges(run)
    # One row that wraps: each button as wide as its label (columns of fixed shares cut the
    # labels short on a narrow window, "Back" to "B…"), the go-to box and the speed moving
    # to a second row when the window is too narrow for them all.
    with st.container(horizontal=True, vertical_alignment="bottom", gap="xsmall"):
        st.button("Restart", on_click=_restart, disabled=first, icon=":material/first_page:",
                  key="train_restart", help="Back to the start, before any merge, paused.")
        st.button("Back", on_click=_back, disabled=first, icon=":material/chevron_left:",
                  key="train_back", help="Go back one merge.")
        # Two buttons, not one key for both: a click that reached the app twice (see
        # ui/shared/clicks.py) ran, the second time, the callback of the Play drawn meanwhile.
        if playing:
            st.button("Pause", on_click=_pause, disabled=end, type="primary",
                      key="train_pause", icon=":material/pause:")
        else:
            st.button("Play", on_click=_play, disabled=end, type="primary", key="train_play",
                      icon=":material/play_arrow:")
        st.button("Step", on_click=_step, disabled=end, icon=":material/chevron_right:",
                  key="train_step", help="Go forward one merge.")
        st.button("Finish", on_click=_finish, disabled=end, icon=":material/last_page:",
                  key="train_finish", help="Make all remaining merges and show the last.")
        # A form, so that asking for the same step again (after stepping away) goes there again.
        key = _key(GO_TO, run)
        with st.form(key + "_form", border=False, width=GO_TO_WIDTH), \
                st.container(horizontal=True, vertical_alignment="bottom", gap="xsmall",
                             wrap=False):
            # The last step, not the target: a vocabulary larger than the corpus allows
            # stops short of it, and the box then offers only the merges there are.
            st.number_input("Go to merge", 0, run.last, None, key=key,
                            placeholder=f"0 – {run.last:,}",
                            help="Type a step and press Enter: the page shows the state after "
                                 "that many merges, making the ones not made yet.")
            st.form_submit_button("Go", on_click=_go_to, args=(key,))
        st.select_slider("Speed (merges per update)", SPEEDS, value=default_speed(run),
                         key=_key(SPEED, run), width="stretch")
