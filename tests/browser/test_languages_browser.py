"""The Languages page in a real browser: the bundled sample, an upload, a bad upload, the curve."""

from __future__ import annotations

import csv

import pytest
from playwright.sync_api import Page, expect

import bpe_core
from bpe_core import formats
from tests.browser.conftest import assert_no_exception, choose, open_page, wait_for_app
from ui.shared import loaders
from ui.shared.samples import parallel_sample

CSV = ("en,German,Japanese\n"
       '"Good morning, friends.","Guten Morgen, Freunde.",おはよう、みなさん。\n'
       "The shop opens at nine.,Der Laden öffnet um neun.,店は九時に開きます。\n")


def open_languages(page: Page, app_url: str) -> None:
    open_page(page, app_url, "languages", "Languages: the tokenization premium")


def plot_data(page: Page, key: str) -> list[dict]:
    """The traces of the plotly chart with Streamlit key ``key`` (x and y of each)."""
    # Plotly draws after the script has finished: wait for the chart to hold its traces.
    page.wait_for_function(
        """key => document.querySelector(`.st-key-${key} .js-plotly-plot`)?.data""", arg=key)
    return page.evaluate(
        """key => {
            const box = document.querySelector(`.st-key-${key} .js-plotly-plot`);
            return box.data.map(t => ({name: t.name, x: Array.from(t.x), y: Array.from(t.y)}));
        }""", key)


def open_tab(page: Page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    wait_for_app(page)


def upload(page: Page, files: list[tuple[str, bytes, str]]) -> None:
    # The corpus's uploader (the page has another, for tokenizer files).
    uploader = page.locator('[class*="st-key-lang_upload_"]')
    dropzone = uploader.locator('[data-testid="stFileUploaderDropzone"]')
    if not dropzone.is_visible():
        page.locator('[data-testid="stExpander"] summary', has_text="Parallel corpus").click()
    expect(dropzone).to_be_visible()
    uploader.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        [{"name": n, "buffer": b, "mimeType": m} for n, b, m in files])
    wait_for_app(page)
    assert_no_exception(page)


def test_bundled_sample_bars_and_side_by_side(page: Page, app_url: str, screenshot_dir) -> None:
    open_languages(page, app_url)
    corpus = parallel_sample()
    bars = plot_data(page, "lang_bars")
    premiums = {x: y for trace in bars for x, y in zip(trace["x"], trace["y"])}
    assert sorted(premiums) == sorted(lang.label for lang in corpus.languages)
    assert premiums["English"] == 1.0
    assert [t["name"] for t in bars][0] == "Latin"
    page.screenshot(path=screenshot_dir / "languages-premium.png", full_page=True)

    open_tab(page, "Side by side")
    chips = page.locator('.st-key-lang_side_langs [data-tag]')
    boxes = page.locator(".bpe-tokens")
    expect(boxes).to_have_count(chips.count())
    assert chips.count() >= 2 and boxes.first.locator("span.t").count() > 5
    page.screenshot(path=screenshot_dir / "languages-side-by-side.png", full_page=True)


def test_upload_csv_then_a_misaligned_one(page: Page, app_url: str, screenshot_dir) -> None:
    open_languages(page, app_url)
    upload(page, [("greetings.csv", CSV.encode(), "text/csv")])
    expect(page.locator('[data-testid="stExpander"] summary')
           .filter(has_text="greetings.csv")).to_contain_text("2 sentences in 3 languages")
    bars = plot_data(page, "lang_bars")
    assert sorted(x for t in bars for x in t["x"]) == ["English", "German — Deutsch",
                                                    "Japanese — 日本語"]

    page.get_by_role("button", name="Remove greetings.csv").click()
    wait_for_app(page)
    upload(page, [("bad.csv", b"en,fr\nOne,Un\nTwo\n", "text/csv")])
    alert = page.locator('[data-testid="stAlertContentError"]')
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("bad.csv, line 3: 1 cells, but the header names 2 languages")
    # The last good corpus is still the one measured.
    assert sorted(x for t in plot_data(page, "lang_bars") for x in t["x"]) == [
        "English", "German — Deutsch", "Japanese — 日本語"]
    page.screenshot(path=screenshot_dir / "languages-bad-upload.png", full_page=True)


def test_vocabulary_size_curve_one_point_per_merge_count(page: Page, app_url: str,
                                                         screenshot_dir) -> None:
    open_languages(page, app_url)
    open_tab(page, "Vocabulary size")
    traces = plot_data(page, "lang_curve")
    chips = page.locator('[class*="st-key-lang_merge_counts_"] [data-tag]')
    expect(chips).not_to_have_count(0)  # (read at once, they were missing on a slow machine)
    counts = [int(t.replace(",", "")) for t in chips.all_inner_texts()]
    assert len(traces) == len(parallel_sample().codes)
    assert all(len(t["x"]) == len(counts) for t in traces)
    assert next(t for t in traces if t["name"] == "English")["y"] == [1.0] * len(counts)
    page.screenshot(path=screenshot_dir / "languages-vocabulary-size.png", full_page=True)


def test_the_chart_and_the_table_download_under_names_that_say_what_they_show(
        page: Page, app_url: str) -> None:
    open_languages(page, app_url)
    plot_data(page, "lang_bars")
    chart = page.locator(".st-key-lang_bars .js-plotly-plot")
    chart.hover()
    with page.expect_download() as download:
        chart.locator('.modebar-btn[data-title="Download plot as a PNG"]').click()
    assert download.value.suggested_filename == (
        "tokenization-premium-with-english-byte-level-1k-baseline-english.png")

    # The table, a row per tokenizer and language.
    open_tab(page, "Table")
    with page.expect_download() as download:
        page.get_by_role("button", name="Download CSV").click()
    assert download.value.suggested_filename == "tokenization-premium.csv"
    with open(download.value.path(), encoding="utf-8-sig") as file:  # (a BOM, for Excel)
        rows = list(csv.DictReader(file))
    corpus = parallel_sample()
    assert [r["Code"] for r in rows] == list(corpus.codes)  # one tokenizer: the active one
    assert {r["Tokenizer"] for r in rows} == {"English byte-level 1k"}
    english = next(r for r in rows if r["Code"] == "en")
    assert float(english["Premium"]) == 1.0 and int(english["Sentences"]) == corpus.n_sentences


@pytest.fixture(scope="module")
def small_tokenizers() -> dict[str, bytes]:
    """Two small character-level tokenizers' files, named by their file names."""
    text = "The lowest price is lower than the last one. Привет, мир! " * 20
    return {name: formats.dumps(bpe_core.train(text, unit="char", pretokenizer="whitespace",
                                               max_merges=merges, min_frequency=1, name=name))
            for name, merges in (("mine", 20), ("other", 30))}


def load_tokenizer(page: Page, name: str, data: bytes) -> None:
    """Load a tokenizer file through the page's own panel; it joins the tokenizers compared."""
    panel = page.locator('[data-testid="stExpander"] summary', has_text="Load a tokenizer")
    if not page.locator(".st-key-lang_load_format").is_visible():
        panel.click()
    choose(page, "Format", loaders.FORMATS["native"].label)
    page.locator('.st-key-lang_load_native_0 input[type="file"]').set_input_files(
        files=[{"name": f"{name}.json", "mimeType": "application/json", "buffer": data}])
    wait_for_app(page)
    page.get_by_role("button", name="Load", exact=True).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text(name)


def test_bars_for_keeps_its_choice_when_its_labels_change(page: Page, app_url: str,
                                                          small_tokenizers) -> None:
    # Its options are named after the tokenizer in detail and how many are compared: when
    # either changed, the radio showed no option chosen (the bars drawn were one of them).
    open_languages(page, app_url)
    load_tokenizer(page, "mine", small_tokenizers["mine"])
    bars_for = page.locator(".st-key-lang_bars_for")

    options = bars_for.locator("label").filter(has=page.locator("input"))

    def chosen() -> list[str]:
        return options.filter(has=page.locator("input:checked")).all_inner_texts()

    focus = options.first.inner_text()  # the tokenizer in detail
    assert chosen() == [focus]
    other = next(n for n in ("mine", "English byte-level 1k") if n != focus)
    choose(page, "Details for", other)
    expect(bars_for.get_by_text(other, exact=True)).to_be_visible()
    assert chosen() == [other]
    bars_for.get_by_text("all 2 tokenizers").click()
    wait_for_app(page)
    assert chosen() == ["all 2 tokenizers"]
    load_tokenizer(page, "other", small_tokenizers["other"])
    expect(bars_for.get_by_text("all 3 tokenizers")).to_be_visible()
    assert chosen() == ["all 3 tokenizers"]
    expect(page.locator(".st-key-lang_bars_all")).to_be_visible()
    assert_no_exception(page)
