"""The app starts, runs its entry script without an exception, and says what it is."""

from playwright.sync_api import Page

from tests.browser.conftest import assert_no_exception, wait_for_app


def test_app_loads_and_names_itself(page: Page, app_url: str, screenshot_dir) -> None:
    page.goto(app_url)
    wait_for_app(page)
    assert_no_exception(page)

    headings = page.locator("h1, h2, h3").all_inner_texts()
    title = page.title()
    assert "BPE Playground" in title or any("BPE Playground" in h for h in headings), (
        f"'BPE Playground' is neither in the page title {title!r} nor in any heading {headings!r}"
    )
    page.screenshot(path=screenshot_dir / "smoke-home.png", full_page=True)
