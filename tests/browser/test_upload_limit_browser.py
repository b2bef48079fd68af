"""Uploads over the limit, in a real browser, on a server whose limit is 1 MB: the browser
refuses a file over it by itself, and the app refuses files that pass one by one but are over
it together, saying so before reading them."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import assert_no_exception, wait_for_app


def upload_files(page: Page, url: str, *files: tuple[str, bytes]) -> None:
    page.goto(url)
    wait_for_app(page)
    page.get_by_text("Upload files", exact=True).click()
    wait_for_app(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        [{"name": name, "mimeType": "text/plain", "buffer": data} for name, data in files])
    wait_for_app(page)
    assert_no_exception(page)


def test_files_over_the_limit_together_are_refused_with_their_size(
        page: Page, small_upload_app_url: str) -> None:
    half = b"hug pug pun bun\n" * 40_000  # 640,000 bytes: each file alone is under 1 MB
    upload_files(page, small_upload_app_url, ("a.txt", half), ("b.txt", half))
    refusal = page.locator('[data-testid="stAlertContentError"] p')
    expect(refusal).to_have_text(
        "Together, these 2 files are 1.2 MB, more than the 1 MB a corpus may have here. Load "
        "fewer at once (each file can be a corpus of its own). To allow more, raise "
        "maxUploadSize under [server] in .streamlit/config.toml and restart the app.")
    expect(page.get_by_role("button", name="Load as the active corpus")).to_have_count(0)
    expect(page.get_by_text("Up to 1 MB per file", exact=False)).to_be_visible()


def test_a_file_over_the_limit_is_refused_by_the_browser_with_its_size(
        page: Page, small_upload_app_url: str) -> None:
    upload_files(page, small_upload_app_url, ("big.txt", b"hug pug pun bun\n" * 80_000))
    # Streamlit's own refusal, beside the file's name; the file never reaches the server.
    expect(page.get_by_text("big.txt", exact=True)).to_be_visible()
    expect(page.get_by_text("File must be 1.0MB or smaller.", exact=False)).to_be_visible()
    expect(page.get_by_role("button", name="Load as the active corpus")).to_have_count(0)
