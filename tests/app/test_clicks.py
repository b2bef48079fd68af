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


def test_a_sidebar_picker_ignores_only_the_old_choice_a_timed_update_carries(monkeypatch):
    # A run makes an upload active after the picker was drawn, so the browser still shows the
    # default corpus; a job's timed update carries that: it must not make it active again. A
    # choice the user makes while an update leaves comes in it too: it is taken there.
    chosen: list[str] = []
    monkeypatch.setattr(clicks.st, "session_state", {})
    now = {"run": SimpleNamespace(fragment_ids_this_run=[])}
    monkeypatch.setattr(clicks, "get_script_run_ctx", lambda: now["run"])
    monkeypatch.setattr(sidebar.st, "selectbox", lambda *args, **kwargs: None)
    session = clicks.st.session_state
    sidebar.picker("Active corpus", "sidebar_corpus", {}, "English essays", chosen.append)
    session["sidebar_corpus"] = "English essays"  # as the browser showed it
    sidebar.picker("Active corpus", "sidebar_corpus", {}, "long", chosen.append)  # uploaded
    session["sidebar_corpus"] = "English essays"  # what a timed update carried
    now["run"] = SimpleNamespace(fragment_ids_this_run=["progress"])
    sidebar.picked("sidebar_corpus", chosen.append)
    assert chosen == []
    session["sidebar_corpus"] = "Tiny corpus"  # the user's choice, in an update
    sidebar.picked("sidebar_corpus", chosen.append)
    assert chosen == ["Tiny corpus"]
    now["run"] = SimpleNamespace(fragment_ids_this_run=[])
    session["sidebar_corpus"] = "English essays"  # chosen in the page's own rerun: taken
    sidebar.picked("sidebar_corpus", chosen.append)
    assert chosen == ["Tiny corpus", "English essays"]
