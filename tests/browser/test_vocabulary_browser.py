"""The Vocabulary page in a real browser: it renders, searches, picks a token, draws charts,
counts tokens by writing system and compares two vocabularies."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

import bpe_core
from bpe_core.analysis.vocabulary import diff, vocabulary
from tests.browser.conftest import assert_no_exception, choose, open_page, wait_for_app
from tests.browser.test_tokenize_browser import SLOW
from tests.model_files import llama2_file
from ui.shared import loaders
from ui.shared.samples import DEFAULT_SAMPLE, samples
from ui.shared.state import DEFAULT_SETTINGS
from ui.vocabulary.data import default_token

ROW_PX = 35  # the height of a header or body row of st.dataframe's grid
TALL = {"width": 1400, "height": 2400}  # the main area scrolls inside the page: show it all


@pytest.fixture(scope="module")
def default_tokenizer() -> bpe_core.Tokenizer:
    """The tokenizer a new session starts with, trained here the same way."""
    return bpe_core.train(list(samples()[DEFAULT_SAMPLE].documents()), **DEFAULT_SETTINGS)


def open_vocabulary(page: Page, app_url: str) -> None:
    page.set_viewport_size(TALL)
    open_page(page, app_url, "vocabulary", "Vocabulary")


def search(page: Page, text: str) -> None:
    box = page.get_by_label("Search tokens", exact=True)
    box.fill(text)
    box.press("Enter")
    wait_for_app(page)


def test_browse_search_and_pick_a_token(page: Page, app_url: str, screenshot_dir,
                                        default_tokenizer) -> None:
    open_vocabulary(page, app_url)
    rows = vocabulary(default_tokenizer)
    n = len(rows)
    expect(page.get_by_text(f"{n:,} of {n:,} tokens.")).to_be_visible()
    expect(page.locator('[data-testid="stMetricValue"]').first).to_have_text(f"{n:,}")
    token_id = page.get_by_label("Token id", exact=True)
    expect(token_id).to_have_value(str(default_token(default_tokenizer)))
    expect(page.locator('[data-testid="stGraphVizChart"] svg')).to_be_visible()

    hits = [r for r in rows if "ing" in r.token]
    assert len(hits) > 3  # an English vocabulary of 1,000 tokens learns several "-ing" pieces
    search(page, "ing")
    expect(page.get_by_text(f"{len(hits):,} of {n:,} tokens.")).to_be_visible()
    # Clicking the second row's selection box makes it the token shown below the table.
    picked = hits[1]
    assert picked.id != default_token(default_tokenizer)
    grid = page.locator('[data-testid="stDataFrame"]').first.bounding_box()
    page.mouse.click(grid["x"] + 15, grid["y"] + ROW_PX * 2.5)
    wait_for_app(page)
    expect(token_id).to_have_value(str(picked.id))
    expect(page.get_by_role("heading", name=picked.token.replace(" ", "·"))).to_be_visible()
    page.screenshot(path=screenshot_dir / "vocabulary-browse.png", full_page=True)

    page.get_by_text("Regular expression").click()
    wait_for_app(page)
    search(page, "(ing")
    message = page.get_by_text(re.compile(r'"\(ing" is not a valid regular expression'))
    expect(message).to_be_visible()
    assert_no_exception(page)


def test_charts_fragments_and_compare_tabs(page: Page, app_url: str, screenshot_dir,
                                           default_tokenizer) -> None:
    open_vocabulary(page, app_url)
    page.get_by_role("tab", name=re.compile("Charts")).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stPlotlyChart"]')).to_have_count(2)
    expect(page.locator('[data-testid="stPlotlyChart"] .main-svg').first).to_be_visible()
    page.screenshot(path=screenshot_dir / "vocabulary-charts.png", full_page=True)
    page.get_by_role("tab", name=re.compile("Byte tokens")).click()
    fragments = sum(not r.utf8 for r in vocabulary(default_tokenizer))
    expect(page.get_by_text(f"{fragments:,} tokens hold part of a multi-byte character",
                            exact=False)).to_be_visible()
    page.get_by_role("tab", name=re.compile("Compare")).click()
    expect(page.get_by_text("This session has one tokenizer.", exact=False)).to_be_visible()
    assert_no_exception(page)


def test_writing_systems_and_a_comparison_with_a_loaded_model(page: Page, app_url: str,
                                                               screenshot_dir,
                                                               default_tokenizer) -> None:
    open_vocabulary(page, app_url)
    page.get_by_role("tab", name=re.compile("Writing systems")).click()
    wait_for_app(page)
    chart = page.locator('[data-testid="stPlotlyChart"]')
    expect(chart).to_have_count(1)
    systems = {r.script for r in vocabulary(default_tokenizer)}
    assert "Latin" in systems
    labels = chart.locator("g.ytick text")  # a bar per writing system, named on its axis
    expect(labels).to_have_count(len(systems))
    assert set(labels.evaluate_all("ts => ts.map(t => t.textContent)")) == systems
    expect(page.get_by_text("for the Unicode script most of its letters belong to",
                            exact=False)).to_be_visible()
    page.screenshot(path=screenshot_dir / "vocabulary-writing-systems.png", full_page=True)

    page.get_by_role("tab", name=re.compile("Compare")).click()
    wait_for_app(page)
    data = llama2_file()
    model = bpe_core.loads(data, source="tokenizer.json")
    choose(page, "Format", loaders.FORMATS["hf"].label)
    page.locator('.st-key-vocab_load_hf_0 input[type="file"]').set_input_files(
        files=[{"name": "tokenizer.json", "mimeType": "application/json", "buffer": data}])
    wait_for_app(page)
    page.get_by_role("button", name="Load", exact=True).click()
    wait_for_app(page)
    d = diff(model, default_tokenizer)  # the loaded model is the active one, so it is A
    values = page.locator('[data-testid="stMetricValue"]')
    expect(page.get_by_text("Only in A", exact=True)).to_be_visible(timeout=SLOW)
    expect(page.get_by_role("tab", name=f"Shared ({len(d.shared):,})")).to_be_visible(
        timeout=SLOW)
    assert [f"{len(x):,}" for x in (d.only_a, d.only_b, d.shared)] == \
        values.all_inner_texts()[-3:]
    expect(page.get_by_text("By writing system, side by side")).to_be_visible()
    box = page.get_by_label("Search the lists", exact=True)
    box.fill("·th")
    box.press("Enter")
    wait_for_app(page)
    hits = sum(" th" in e.token for e in d.shared)
    assert hits > 0
    shared = page.get_by_role("tab", name=f"Shared ({hits:,})")
    expect(shared).to_be_visible(timeout=SLOW)
    shared.click()
    expect(page.get_by_text(f"{hits:,} of {len(d.shared):,} tokens.")).to_be_visible()
    page.screenshot(path=screenshot_dir / "vocabulary-compare.png", full_page=True)
    assert_no_exception(page)
