"""The Train page in a real browser as a teacher uses it: the textbook demo stepped from merge 0
by clicks, the user's own sentence, and a reload that comes back to the same step."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_no_exception, open_page, wait_for_app
from tests.browser.test_readme_screenshots import SIZE as README_SIZE, readme_shot

SLOW_MS = 60_000


def progress(page: Page):
    return page.locator('[data-testid="stProgress"]')


def press(page: Page, name: str, then: str) -> None:
    """Click the button ``name`` and wait until the progress bar says ``then``."""
    page.get_by_role("button", name=name, exact=True).click()
    expect(progress(page)).to_contain_text(then, timeout=SLOW_MS)
    wait_for_app(page)
    assert_no_exception(page)


def sentence_tokens(page: Page) -> list[str]:
    """The token boxes of the user's sentence (the last segmented text on the page)."""
    boxes = page.locator(".bpe-tokens").last.locator("span[data-i]")
    return [t.strip() for t in boxes.all_inner_texts()]


def test_the_textbook_demo_steps_from_merge_0_and_survives_a_reload(page: Page, app_url: str,
                                                                     screenshot_dir) -> None:
    page.set_viewport_size(README_SIZE)  # it takes the README's picture of the Train page
    # A teacher's link to the sample: the Train page opens on it, with its settings.
    open_page(page, app_url, "train?sample=hug-pug", "Train — watch the vocabulary grow")
    expect(page.get_by_text("Corpus: hug / pug / pun / bun / hugs (word counts)")).to_be_visible()
    page.get_by_role("button", name="Start training", exact=True).click()
    expect(progress(page)).to_contain_text("Merge 0 of 3 · vocabulary 8 tokens", timeout=SLOW_MS)
    wait_for_app(page)
    page.wait_for_timeout(1500)  # nothing plays by itself: still at merge 0
    expect(progress(page)).to_contain_text("Merge 0 of 3")
    expect(page.get_by_role("button", name="Back", exact=True)).to_be_disabled()
    expect(page.get_by_text("Before any merge", exact=False)).to_be_visible()

    box = page.get_by_role("textbox", name="Your own sentence")
    box.fill("bugs")
    box.press("Control+Enter")
    wait_for_app(page)
    assert sentence_tokens(page) == ["b", "u", "g", "s"]

    press(page, "Step", "Merge 1 of 3")
    expect(page.get_by_text(re.compile(r"^Merge 1 \(rank 0\): u \+ g → ug"))).to_be_visible()
    assert sentence_tokens(page) == ["b", "ug", "s"]
    press(page, "Step", "Merge 2 of 3")
    page.get_by_role("button", name="Restart", exact=True).evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    readme_shot(page, "train", screenshot_dir)
    go_to = page.get_by_role("spinbutton", name="Go to merge")
    go_to.fill("1")
    go_to.press("Enter")  # jumps straight to a step
    expect(progress(page)).to_contain_text("Merge 1 of 3", timeout=SLOW_MS)
    wait_for_app(page)
    press(page, "Finish", "Done after 3 merges")
    expect(page.get_by_role("button", name="Step", exact=True)).to_be_disabled()
    press(page, "Restart", "Merge 0 of 3")
    assert sentence_tokens(page) == ["b", "u", "g", "s"]
    # Play: the merges arrive on a timer, one per update, and playing stops at the end.
    press(page, "Play", "Done after 3 merges")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_disabled()
    press(page, "Back", "Merge 2 of 3")
    assert "step=2" in page.url and "sample=hug-pug" in page.url

    # Session state is gone after a reload; the address brings the corpus, step and sentence back.
    page.reload()
    wait_for_app(page)
    assert_no_exception(page)
    expect(progress(page)).to_contain_text("Merge 2 of 3", timeout=SLOW_MS)
    expect(page.get_by_text("Corpus: hug / pug / pun / bun / hugs (word counts)")).to_be_visible()
    expect(page.get_by_role("textbox", name="Your own sentence")).to_have_value("bugs")
    expect(page.get_by_text(re.compile(r"The address bar holds the corpus"))).to_be_visible()
    press(page, "Step", "Done after 3 merges")
    page.set_viewport_size({"width": 1400, "height": 2400})
    page.wait_for_timeout(500)
    page.screenshot(path=screenshot_dir / "train-textbook-stepped.png", full_page=True)
