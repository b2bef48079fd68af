"""The Train page in a real browser: a training run visibly grows the merge log and the chart."""

from __future__ import annotations

import random
import re
import time

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import assert_no_exception, open_page, train_on_upload, wait_for_app

MERGES = re.compile(r"^([\d,]+) merges?; each line")
PROGRESS = re.compile(r"Merge ([\d,]+) of 2,744")
GROW_TIMEOUT_S = 90


def merges_logged(page: Page) -> int:
    """The merge count under the merge log (0 before any merge arrives)."""
    for text in page.locator('[data-testid="stCaptionContainer"]').all_inner_texts():
        m = MERGES.match(text.strip())
        if m:
            return int(m.group(1).replace(",", ""))
    return 0


def merges_made(page: Page) -> int:
    """The merge count of the progress bar."""
    m = PROGRESS.search(" ".join(page.locator('[data-testid="stProgress"]').all_inner_texts()))
    return int(m.group(1).replace(",", "")) if m else 0


def log_rows(page: Page) -> int:
    """Rows in the merge log table (the grid reports its rows, header included, to screen
    readers as aria-rowcount)."""
    counts = [int(c) for c in page.locator('[data-testid="stDataFrame"] [aria-rowcount]')
              .evaluate_all("els => els.map(e => e.getAttribute('aria-rowcount'))")]
    return max(counts, default=1) - 1


def chart_points(page: Page) -> int:
    """Points of the growth chart's first line (plotly keeps its data on the plot element)."""
    return page.evaluate("""() => Math.max(0, ...Array.from(
        document.querySelectorAll('.js-plotly-plot'),
        e => (e._fullData && e._fullData.length) ? e._fullData[0]._length : 0))""")


def wait_until(condition, what: str) -> None:
    deadline = time.monotonic() + GROW_TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {GROW_TIMEOUT_S} s")
        time.sleep(0.5)


def test_training_grows_the_merge_log_and_the_chart(page: Page, app_url: str,
                                                    screenshot_dir) -> None:
    # Straight to the Train page: going there by the sidebar's link drew the Corpus page first
    # (the README-command test follows every link). A vocabulary of 3,000 makes 2,744 merges,
    # too many to play to the end before Pause lands: with the default 1,000 a loaded machine
    # once did (CI of b98bee5), and Step was then disabled at the last merge.
    open_page(page, app_url, "train?vocab_size=3000", "Train — watch the vocabulary grow")

    page.get_by_role("button", name="Start training", exact=True).click()
    wait_until(lambda: merges_logged(page) > 0 and chart_points(page) > 1,
               "no merge arrived")
    first = (merges_logged(page), log_rows(page), chart_points(page))
    wait_until(lambda: merges_logged(page) >= first[0] + 10, "the merge log did not grow")
    page.wait_for_timeout(1000)  # let the table and the chart of that update draw
    later = (merges_logged(page), log_rows(page), chart_points(page))
    assert later[0] > first[0] and later[1] > first[1] and later[2] > first[2], (first, later)
    expect(page.get_by_text(re.compile(r"^Merge [\d,]+ of 2,744 · vocabulary"))).to_be_visible()

    page.get_by_role("button", name="Pause", exact=True).click()
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible(timeout=60_000)
    wait_for_app(page)
    paused = merges_made(page)
    page.wait_for_timeout(2000)
    assert merges_made(page) == paused, "merges kept arriving after Pause"
    page.get_by_role("button", name="Step", exact=True).click()
    expect(page.get_by_text(f"Merge {paused + 1:,} of 2,744", exact=False)).to_be_visible(
        timeout=60_000)
    wait_for_app(page)
    assert merges_made(page) == merges_logged(page) == paused + 1
    # The paused step's tables: this corpus is big, so they show its top rows.
    expect(page.get_by_text("Pair counts", exact=True)).to_be_visible()
    assert_no_exception(page)

    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(500)
    page.screenshot(path=screenshot_dir / "train-paused.png", full_page=True)


def test_superbpe_stage_2_replays_on_the_passage(page: Page, app_url: str,
                                                 screenshot_dir) -> None:
    # Straight to the Train page on the sample, as a shared link opens it (not by the Corpus
    # page, which this test never looks at).
    open_page(page, app_url, "train?sample=spanish", "Train — watch the vocabulary grow")
    expect(page.get_by_text("Corpus: Spanish stories")).to_be_visible()
    page.get_by_text("SuperBPE (superwords)", exact=True).click()
    wait_for_app(page)
    transition = page.get_by_role("spinbutton",
                                  name="Transition (vocabulary size where stage 2 starts)")
    transition.fill("400")
    transition.press("Enter")
    wait_for_app(page)
    page.get_by_role("button", name="Start training", exact=True).click()
    finish = page.get_by_role("button", name="Finish", exact=True)
    try:
        finish.click(timeout=10_000)
    except PlaywrightTimeoutError:  # a loaded machine played stage 1 to its end first
        expect(finish).to_be_disabled()
    expect(page.get_by_role("heading", name="SuperBPE stage 2: superwords")).to_be_visible(
        timeout=GROW_TIMEOUT_S * 1000)
    expect(page.get_by_text(re.compile(r"^SuperBPE stage 2 · Done after [1-9][\d,]* superword "
                                       r"merges\.$"))).to_be_visible()
    wait_for_app(page)
    passage = page.get_by_text(re.compile(r"^The passage: [\d,]+ tokens after"))
    expect(passage).to_contain_text(re.compile(r"after [1-9][\d,]* stage-2 merges"))
    slider = page.get_by_role("slider", name="Stage-2 merges used")
    slider.focus()
    slider.press("Home")  # back to the transition point
    wait_for_app(page)
    expect(passage).to_contain_text("after 0 stage-2 merges")
    at_transition = int(re.search(r"The passage: ([\d,]+)", passage.inner_text()).group(1)
                        .replace(",", ""))
    expect(passage).to_contain_text(f"; {at_transition:,} at the transition point")
    assert_no_exception(page)
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(500)
    page.screenshot(path=screenshot_dir / "train-superbpe-stage2.png", full_page=True)


def test_a_long_single_line_trains_in_the_background_then_plays_and_finishes(
        page: Page, app_url: str) -> None:
    """A 500 KB line is one piece with the GPT-2 pattern: its merges are slow, so a worker makes
    them (the page shows its progress and a Cancel button meanwhile); the run then plays, and
    Finish lands at the end at once, without an error. (Clicks racing a run that makes its
    merges in the session are tested with AppTest, in tests/test_train_runs.py.)

    1,000 merges play for 100 updates, long enough for the Finish click to land while they
    play: with 44 (a 2 MB line to 300 tokens) a loaded machine played them to the end first and
    Finish was disabled."""
    rng = random.Random(7)
    line = "".join(rng.choice("abcdefgh") for _ in range(500_000)).encode()
    train_on_upload(page, app_url, "one-line.txt", line, 1256)
    page.get_by_role("button", name="Start training", exact=True).click()
    expect(page.get_by_text("Training on one-line in the background")).to_be_visible(
        timeout=60_000)
    expect(page.get_by_role("button", name="Cancel", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Pause", exact=True)).to_be_visible(timeout=120_000)
    page.get_by_role("button", name="Finish", exact=True).click()
    expect(page.get_by_text(re.compile(r"Done after [\d,]+ merges"))).to_be_visible(
        timeout=120_000)
    wait_for_app(page)
    assert_no_exception(page)
