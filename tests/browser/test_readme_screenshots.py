"""The README's screenshots, taken from the running app: each page in the state the README
describes, checked to render without an exception.

They are written to tests/output/screenshots/ on every run, by this module and by the browser
tests that pass through the same states (:func:`readme_shot`); to refresh the README's own
copies in docs/screenshots/, run ``UPDATE_SCREENSHOTS=1 python3 -m pytest tests/browser -k
"readme or textbook_demo"``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import Page, expect

from tests.browser.conftest import REPO_ROOT, assert_no_exception, open_page, wait_for_app

README_DIR = REPO_ROOT / "docs" / "screenshots"
#: The README's pictures: the top of a window this size (a taller one shows the same top).
SIZE = {"width": 1400, "height": 1000}
MIXED = "The naïve café’s menu: 3× faster? <script> مرحبا بالعالم — hello again!"


def readme_shot(page: Page, name: str, screenshot_dir: Path) -> None:
    """The README's picture ``name``: the page as shown, once the app has run without an
    exception, with no link hovered and no focus ring; the window must be at least
    :data:`SIZE`."""
    wait_for_app(page)
    assert_no_exception(page)
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement.blur()")
    target = README_DIR if os.environ.get("UPDATE_SCREENSHOTS") else screenshot_dir
    page.screenshot(path=str(target / f"{name}.png"), clip={"x": 0, "y": 0, **SIZE})


def test_readme_tokenize_a_mixed_text(page: Page, app_url: str, screenshot_dir: Path) -> None:
    # (The README's other pictures: test_pages_browser and test_train_teaching_browser.)
    page.set_viewport_size(SIZE)
    # The title alone: "Compare tokenizers" is a heading too.
    open_page(page, app_url, f"tokenize?text={quote(MIXED)}", re.compile("^Tokenize$"))
    expect(page.locator(".bpe-tokens").first).to_be_visible()
    readme_shot(page, "tokenize", screenshot_dir)
