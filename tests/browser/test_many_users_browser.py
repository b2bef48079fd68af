"""Many users, one server: one tab's long training runs in a worker process while another tab
tokenizes at once, and closing the training tab ends its worker."""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Browser, expect

from tests.browser.conftest import (assert_no_exception, job_workers, new_context,
                                    train_on_upload, wait_for_app)
from tests.browser.test_tokenize_browser import enter_text, tokens_metric

#: Training this takes the worker over a minute (70 s here alone, 13,249 merges): it is still
#: going when the test ends it. Long in merges, not in text: a 2 MB line to 3,000 tokens took
#: as long to upload and count (14 s) as to train.
LINE_CHARS, VOCAB_SIZE = 500_000, 20_000


def new_tab(browser: Browser):
    """A page in a context of its own: a separate Streamlit session, as another user's."""
    context = new_context(browser)
    return context, context.new_page()


def workers_after(condition, within: float) -> set[int]:
    """Poll the process list until ``condition(workers)`` holds; the workers then."""
    deadline = time.monotonic() + within
    while True:
        workers = job_workers()
        if condition(workers) or time.monotonic() > deadline:
            return workers
        time.sleep(0.1)


def test_a_tab_tokenizes_while_another_trains_and_a_closed_tab_ends_its_worker(
        browser: Browser, app_url: str) -> None:
    before = job_workers()
    context_a, a = new_tab(browser)
    context_b, b = new_tab(browser)
    try:
        # Tab A: a 500 KB line (one piece for the GPT-2 pattern) to train to 20,000 tokens.
        rng = random.Random(3)
        line = "".join(rng.choice("abcdefgh") for _ in range(LINE_CHARS)).encode()
        train_on_upload(a, app_url, "long-line.txt", line, VOCAB_SIZE)
        a.get_by_role("button", name="Start training", exact=True).click()
        training = a.get_by_text(re.compile(r"Training on long-line in the background… merge"))
        expect(training).to_be_visible(timeout=60_000)
        mine = workers_after(lambda w: bool(w - before), within=10) - before
        assert mine, "no worker process is training tab A's run"

        # Tab B, meanwhile: Tokenize answers at once, without waiting for A.
        b.goto(f"{app_url}/tokenize")
        wait_for_app(b)
        enter_text(b, "Two users, one server: this sentence is tokenized while another tab "
                      "trains.")
        expect(tokens_metric(b)).to_have_text(re.compile(r"^\d+$"))
        assert_no_exception(b)
        expect(training).to_be_visible()  # A is still training
        assert mine <= job_workers()

        # Tab A closes: its session ends, and the pool stops its worker.
        context_a.close()
        left = workers_after(lambda w: not (mine & w), within=15)
        assert not (mine & left), f"tab A's worker {sorted(mine & left)} outlived its tab"
    finally:
        context_b.close()
        if not a.is_closed():
            context_a.close()
