"""The README's screenshots, taken from the running app: each page in the state the README
describes, checked to render without an exception.

They are written to tests/output/screenshots/ on every run; to refresh the README's own copies
in docs/screenshots/, run ``UPDATE_SCREENSHOTS=1 python3 -m pytest
tests/browser/test_readme_screenshots.py``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import REPO_ROOT, assert_no_exception, open_page, wait_for_app

README_DIR = REPO_ROOT / "docs" / "screenshots"
MIXED = "The naïve café’s menu: 3× faster? <script> مرحبا بالعالم — hello again!"


@pytest.fixture
def shoot(page: Page, screenshot_dir: Path):
    page.set_viewport_size({"width": 1400, "height": 1000})

    def take(name: str) -> None:
        wait_for_app(page)
        assert_no_exception(page)
        target = README_DIR if os.environ.get("UPDATE_SCREENSHOTS") else screenshot_dir
        page.screenshot(path=str(target / f"{name}.png"))
    return take


def test_the_pages_as_they_open(page: Page, app_url: str, shoot) -> None:
    # Corpus, Languages and Vocabulary as a first visit shows them: one load, then the
    # navigation's links (a page's first run is the same either way).
    open_page(page, app_url, "", "Corpus")
    shoot("corpus")
    nav = page.locator('[data-testid="stSidebarNav"]')
    for title, heading in (("Languages", "Languages: the tokenization premium"),
                           ("Vocabulary", "Vocabulary")):
        nav.get_by_role("link", name=title, exact=True).click()
        wait_for_app(page)
        expect(page.get_by_role("heading", name=heading)).to_be_visible()
        page.mouse.move(0, 0)  # no hover on the link in the picture
        page.evaluate("document.activeElement.blur()")  # nor its focus ring
        shoot(title.lower())


def test_train_a_textbook_demo_stepped(page: Page, app_url: str, shoot) -> None:
    open_page(page, app_url, "train?sample=hug-pug", "Train — watch the vocabulary grow")
    page.get_by_role("button", name="Start training", exact=True).click()
    wait_for_app(page)
    for _ in range(2):
        page.get_by_role("button", name="Step", exact=True).click()
        wait_for_app(page)
    expect(page.get_by_text("Merge 2 of 3", exact=False)).to_be_visible()
    page.mouse.move(0, 0)  # no tooltip over the picture
    page.get_by_role("button", name="Restart", exact=True).evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    shoot("train")


def test_tokenize_a_mixed_text(page: Page, app_url: str, shoot) -> None:
    # The title alone: "Compare tokenizers" is a heading too.
    open_page(page, app_url, f"tokenize?text={quote(MIXED)}", re.compile("^Tokenize$"))
    expect(page.locator(".bpe-tokens").first).to_be_visible()
    shoot("tokenize")
