"""The token notation as a browser draws it: whitespace markers inside the boxes, a newline token
followed by a real line break, and the end-of-word marker on merged tokens of the Train passage."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_no_exception, open_page, wait_for_app

SLOW = 30_000  # ms: a loaded two-core machine can take a while to redraw


def boxes(page: Page):
    return page.locator(".bpe-tokens .t")


def test_tokenize_boxes_mark_whitespace_and_break_the_line_after_a_newline(
        page: Page, app_url: str, screenshot_dir) -> None:
    page.goto(f"{app_url}/tokenize")
    wait_for_app(page)
    area = page.locator(".st-key-tok_text textarea")
    area.fill("a\tb c\nd")
    area.press("Control+Enter")
    wait_for_app(page)
    expect(boxes(page)).to_have_text(["a", "→", "b", "·c", "↵", "d"], timeout=SLOW)
    newline, after = boxes(page).nth(4).bounding_box(), boxes(page).nth(5).bounding_box()
    assert after["y"] > newline["y"] + newline["height"] / 2  # d starts the next line
    assert after["x"] < newline["x"]
    page.screenshot(path=screenshot_dir / "notation-tokenize.png")

    page.get_by_text("Show whitespace", exact=True).click()
    wait_for_app(page)
    # Hidden whitespace: the tab and the space are themselves, the newline token stays ↵.
    expect(boxes(page)).to_have_text(["a", "\t", "b", " c", "↵", "d"], timeout=SLOW)
    assert_no_exception(page)


def test_the_train_passage_shows_end_of_word_on_merged_tokens(page: Page, app_url: str) -> None:
    # Straight to the Train page on the sample, as a shared link opens it: picking the sample on
    # the Corpus page first drew a page this test never looks at (test_pages_browser picks one).
    open_page(page, app_url, "train?sample=low-lower", "Train — watch the vocabulary grow")
    expect(page.get_by_text("Corpus: low lower newest widest")).to_be_visible()
    page.get_by_role("button", name="Start training", exact=True).click()
    # A textbook corpus waits at merge 0: Finish makes the five merges.
    expect(page.get_by_text("Merge 0 of 5", exact=False)).to_be_visible(timeout=SLOW)
    wait_for_app(page)
    page.get_by_role("button", name="Finish", exact=True).click()
    expect(page.get_by_text("Done after 5 merges", exact=False)).to_be_visible(timeout=SLOW)
    wait_for_app(page)
    passage = page.locator(".bpe-tokens").filter(has=page.locator('[title^="id"]')).last
    expect(passage.locator(".t")).to_have_text(
        ["low", "</w>", "low", "e", "r", "</w>", "n", "e", "w", "est</w>", "w", "i", "d",
         "est</w>"], timeout=SLOW)
    assert_no_exception(page)
