"""A page's background work (``ui.shared.background``): a job that fails says why in a
sentence, with a button that starts it again; the store of finished results keeps the latest."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


# multiprocessing re-runs the session's main script in each worker, as "__mp_main__": the guard
# keeps a worker from running this page itself.
FAILING_PAGE = """
if __name__ == "__main__":
    from tests.test_jobs import fail  # raises ValueError("the pattern took too long …")
    from ui.shared import background

    background.outcome("demo_job", "the text", "demo", fail, what="Counting the words")
"""


def test_a_failed_job_says_why_and_can_be_started_again() -> None:
    at = AppTest.from_string(FAILING_PAGE, default_timeout=60)
    at.run()
    _, job = at.session_state["demo_job"]
    assert job.wait(timeout=60) == "failed"
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "Counting the words failed: the pattern took too long on this text"]
    at.button(key="demo_job_again").click().run()
    _, again = at.session_state["demo_job"]
    assert again is not job and again.wait(timeout=60) == "failed"


# A page that counts what the session asks for: "big" in a worker (a job that sleeps), "small"
# at once, as the pages do with a small input.
REPLACED_PAGE = """
if __name__ == "__main__":
    import streamlit as st
    from tests.app.test_train_long_work import asleep
    from ui.shared import background

    asked = st.session_state.get("asked", "big")
    background.replaced("demo_job", asked)
    if asked == "big":
        background.outcome("demo_job", asked, "demo", asleep, what="Counting")
"""


def test_a_job_the_page_no_longer_asks_for_is_stopped_and_a_finished_one_kept() -> None:
    at = AppTest.from_string(REPLACED_PAGE, default_timeout=60)
    at.run()
    _, job = at.session_state["demo_job"]
    assert not job.finished
    at.session_state["asked"] = "small"
    at.run()
    assert job.wait(timeout=10) == "cancelled" and "demo_job" not in at.session_state
    at.session_state["demo_job"] = ("big", job)  # a finished job is left for its result
    at.run()
    assert at.session_state["demo_job"][1] is job
