"""Every page of the real app renders in Chromium, and the Corpus page works end to end.

The server is started by the `app_url` fixture exactly as the README says (`streamlit run app.py`);
a screenshot of each page is saved to tests/output/screenshots/, and the README's pictures of
three of them.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_no_exception, choose, wait_for_app
from tests.browser.test_readme_screenshots import readme_shot

REPO = Path(__file__).resolve().parents[2]
TALL = {"width": 1400, "height": 2000}  # the main area scrolls inside the page: show it all
PNG = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000010000000100806000000") + bytes(300)


def page_titles() -> list[str]:
    """The titles of the pages that app.py puts in the navigation, in order."""
    source = (REPO / "app.py").read_text(encoding="utf-8")
    return re.findall(r'st\.Page\([^)]*?title="([^"]+)"', source)


def open_app(page: Page, app_url: str) -> None:
    page.goto(app_url)
    wait_for_app(page)
    assert_no_exception(page)


def metric(page: Page, label: str):
    box = page.locator('[data-testid="stMetric"]').filter(
        has=page.get_by_text(label, exact=True))
    return box.locator('[data-testid="stMetricValue"]')


def sidebar(page: Page):
    return page.locator('[data-testid="stSidebar"]')


def picker(page: Page, label: str):
    """The combobox of the sidebar selectbox labelled ``label``."""
    return sidebar(page).get_by_role("combobox", name=label)


def test_app_starts_with_the_readme_command(page: Page, app_url: str, screenshot_dir) -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", readme, re.S).group(1)
    assert first_block.strip().endswith("streamlit run app.py"), first_block
    page.set_viewport_size(TALL)
    open_app(page, app_url)  # the fixture runs `streamlit run app.py` from the repository root
    # It says what it is, in the window's title.
    assert "BPE Playground" in page.title(), page.title()
    expect(page.locator("h1").first).to_have_text("Corpus")
    # Every page works on the first visit: a default corpus and a default tokenizer are ready.
    expect(picker(page, "Active corpus")).to_have_value("English essays (default)")
    expect(picker(page, "Active tokenizer")).to_have_value("English byte-level 1k")
    expect(sidebar(page)).to_contain_text("Vocabulary size: 1,000")
    expect(metric(page, "Words")).to_have_text(re.compile(r"^\d{1,3}(,\d{3})+$"))
    # Then every page from the navigation, in order, each with its title and no exception.
    titles = page_titles()
    assert titles[0] == "Corpus" and len(titles) >= 2
    readme_shot(page, "corpus", screenshot_dir)  # as a first visit shows it
    nav = page.locator('[data-testid="stSidebarNav"]')
    expect(nav.get_by_role("link")).to_have_count(len(titles))
    for title in titles:
        nav.get_by_role("link", name=title, exact=True).click()
        wait_for_app(page)
        assert_no_exception(page)
        expect(page.locator("h1").first).to_be_visible()
        page.screenshot(path=screenshot_dir / f"page-{title.lower()}.png")
        if title in ("Languages", "Vocabulary"):
            readme_shot(page, title.lower(), screenshot_dir)


def test_picking_a_sample_updates_the_page_and_the_sidebar(page: Page, app_url: str,
                                                            screenshot_dir) -> None:
    open_app(page, app_url)
    page.set_viewport_size(TALL)
    choose(page, "Sample", "set new new renew reset renew")
    assert_no_exception(page)
    expect(metric(page, "Words")).to_have_text("6")
    expect(metric(page, "Distinct words")).to_have_text("4")
    expect(picker(page, "Active corpus")).to_have_value("set new new renew reset renew")
    expect(page.get_by_text("Jurafsky & Martin", exact=False)).to_be_visible()
    page.screenshot(path=screenshot_dir / "corpus-toy-sample.png")
    choose(page, "Sample", "Russian stories")
    expect(page.locator(".js-plotly-plot").get_by_text("Cyrillic")).to_be_visible()
    page.screenshot(path=screenshot_dir / "corpus-russian.png")
    choose(page, "Sample", "hug / pug / pun / bun / hugs (word counts)")
    expect(metric(page, "Words")).to_have_text("36")
    expect(page.get_by_text("Word counts", exact=True)).to_be_visible()
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "corpus-word-counts.png")


def test_uploading_files_in_the_browser(page: Page, app_url: str, screenshot_dir) -> None:
    open_app(page, app_url)
    page.set_viewport_size(TALL)
    page.get_by_text("Upload files", exact=True).click()
    wait_for_app(page)
    csv = b"title,review\nA walk,Lovely lovely walk in the rain\nStorms,Too wet\n"
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files([
        {"name": "reviews.csv", "mimeType": "text/csv", "buffer": csv},
        {"name": "cat.png", "mimeType": "image/png", "buffer": PNG},
    ])
    wait_for_app(page)
    expect(page.get_by_text("cat.png: unsupported file type .png", exact=False)).to_be_visible()
    choose(page, "Text column of reviews.csv", "title")
    page.get_by_role("button", name="Load as the active corpus").click()
    wait_for_app(page)
    assert_no_exception(page)
    expect(page.get_by_text("It is now the active corpus", exact=False)).to_be_visible()
    expect(metric(page, "Words")).to_have_text("3")
    expect(picker(page, "Active corpus")).to_have_value("reviews")
    page.screenshot(path=screenshot_dir / "corpus-upload.png")


def test_a_large_upload_is_read_and_counted_in_workers_in_the_real_server(
        page: Page, app_url: str) -> None:
    open_app(page, app_url)
    page.get_by_text("Upload files", exact=True).click()
    wait_for_app(page)
    text = "".join(f"line {i} of one long file\n" for i in range(60_000))  # 1.6 MB
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files([
        {"name": "long.txt", "mimeType": "text/plain", "buffer": text.encode()}])
    wait_for_app(page)
    page.get_by_role("button", name="Load as the active corpus").click()
    # Read, then counted, each by a worker; the page reruns itself when each one ends.
    expect(metric(page, "Words")).to_have_text("360,000", timeout=60_000)
    expect(page.get_by_text("Loaded long from long.txt", exact=False)).to_be_visible()
    assert_no_exception(page)
