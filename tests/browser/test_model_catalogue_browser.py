"""The model catalogue in Chromium: a Hugging Face model picked in Tokenize's load panel loads
from the Hub cache (a stand-in the test makes in the cache folder the server was started with,
offline) and its tokens show; a model not in that cache says so in one sentence.

The server of ``app_url`` is started with ``HF_HUB_CACHE`` set to the ``hub_cache`` folder and
``HF_HUB_OFFLINE=1`` (tests/browser/conftest.py): putting the model where that server already
looks needs no second server, and no test can reach the network or the machine's own cache.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

import bpe_core
from tests.browser.conftest import assert_no_exception, choose, switch_on, wait_for_app
from tests.browser.test_tokenize_browser import BOXES, SLOW, enter_text, open_tokenize
from tests.hub_cache import config_file, put_model
from tests.model_files import llama3_file
from ui.shared.catalogue import title
from ui.tokenize.data import token_table

MODEL = "Qwen/Qwen3-8B"


def test_a_hub_model_loads_from_the_cache_and_a_missing_one_says_why(
        page: Page, app_url: str, hub_cache: Path, screenshot_dir) -> None:
    data = llama3_file()
    put_model(hub_cache, MODEL, {"tokenizer.json": data, "tokenizer_config.json": config_file()})
    tok = bpe_core.loads(data, source="tokenizer.json")
    open_tokenize(page, app_url)
    page.get_by_text("Load a tokenizer").click()
    page.get_by_text("Hugging Face", exact=True).click()
    wait_for_app(page)

    choose(page, "Model", title("google/gemma-3-1b-it"))  # not in the cache, and offline
    page.get_by_role("button", name="Load model", exact=True).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stAlertContentError"]')).to_contain_text(
        f"google/gemma-3-1b-it is not in the Hugging Face cache ({hub_cache}) and cannot be "
        "downloaded (HF_HUB_OFFLINE is set); download its tokenizer.json once with internet, or "
        "upload the file under “Upload a file”.", timeout=SLOW)

    choose(page, "Model", title(MODEL))
    page.get_by_role("button", name="Load model", exact=True).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text(
        f"Loaded “{MODEL}”", timeout=SLOW)
    expect(page.locator('[data-testid="stSidebar"]').get_by_role(
        "combobox", name="Active tokenizer")).to_have_value(MODEL)

    text = "Hello wörld 😀 lower"
    enter_text(page, text)  # the boxes show the model's tokens, as the page's table names them
    expect(page.locator(BOXES)).to_have_text(
        list(token_table(tok, tok.spans(text), text)["token"]), timeout=SLOW)
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-hub-model.png", full_page=True)


def test_a_hub_model_beside_another_tokenizer_and_on_the_languages_page(
        page: Page, app_url: str, hub_cache: Path) -> None:
    put_model(hub_cache, MODEL, {"tokenizer.json": llama3_file(),
                                 "tokenizer_config.json": config_file()})
    open_tokenize(page, app_url)
    page.get_by_text("Load a tokenizer").click()
    page.get_by_text("Hugging Face", exact=True).click()
    wait_for_app(page)
    choose(page, "Model", title(MODEL))
    page.get_by_role("button", name="Load model", exact=True).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text(
        f"Loaded “{MODEL}”", timeout=SLOW)
    enter_text(page, "Hello wörld, hello tokens")

    # Side by side with the session's own tokenizer: where they cut differently is outlined,
    # and the model's BOS comes first once its special tokens are added.
    choose(page, "Compare with", "English byte-level 1k")
    page.keyboard.press("Escape")
    columns = page.locator('div.bpe-scroll:not(.bpe-pick) .bpe-tokens')
    expect(columns).to_have_count(2, timeout=SLOW)
    expect(columns.first.locator("span.d").first).to_be_visible()
    switch_on(page, "tok_compare_specials")
    first = columns.first.locator("span[data-i]").first
    expect(first).to_have_text("<|begin_of_text|>", timeout=SLOW)
    expect(first).to_have_class(re.compile(r"\bsp\b"))
    assert_no_exception(page)

    # The Languages page compares it with the others: its name labels the premium chart.
    page.get_by_role("link", name="Languages", exact=True).click()
    wait_for_app(page)
    expect(page.locator(".js-plotly-plot").first).to_contain_text(MODEL, timeout=SLOW)
    assert_no_exception(page)
