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
