"""A button's click, acted on once when an update of a timed fragment carries it too."""

from __future__ import annotations

from types import SimpleNamespace

from ui.shared import clicks, sidebar


def test_a_click_that_a_timed_update_carries_too_acts_once(monkeypatch):
    # While merges play, an update of the Train page's live part that leaves just after a click
    # carries the click too, then the click's own rerun of the page comes: Step went two merges
    # (1 in 4 tries in Chromium). The copy acts, in the update; the page's rerun leaves it alone.
    pressed: list[str] = []
    step = clicks.once_per_click(lambda: pressed.append("step"))
    back = clicks.once_per_click(lambda: pressed.append("back"))
    update, page_rerun = (SimpleNamespace(fragment_ids_this_run=ids) for ids in (["live"], []))
    now = {"run": update}
    monkeypatch.setattr(clicks, "get_script_run_ctx", lambda: now["run"])
    monkeypatch.setattr(clicks.st, "session_state", {})
    step()  # the copy, in the live part's update
    now["run"] = page_rerun
    step()  # the click's own rerun
    assert pressed == ["step"]
    back()  # other clicks, in the page's reruns, as a paused page's clicks come
    step()
    step()
    assert pressed == ["step", "back", "step", "step"]



def test_a_sidebar_picker_takes_a_choice_in_a_page_rerun_only(monkeypatch):
    # A job's timed update carries the picker as the browser last showed it, which can be the
    # corpus made inactive by the run before: it must not make it active again.
    chosen: list[str] = []
    monkeypatch.setattr(clicks.st, "session_state", {"sidebar_corpus": "English essays"})
    now = {"run": SimpleNamespace(fragment_ids_this_run=["progress"])}
    monkeypatch.setattr(clicks, "get_script_run_ctx", lambda: now["run"])
    sidebar.picked("sidebar_corpus", chosen.append)
    assert chosen == []
    now["run"] = SimpleNamespace(fragment_ids_this_run=[])
    sidebar.picked("sidebar_corpus", chosen.append)
    assert chosen == ["English essays"]
