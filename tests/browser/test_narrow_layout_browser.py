"""Every page in Chromium, at 1280 px and in a narrow window (760 px, the sidebar collapsed, as a
split screen or a classroom projector gives): no one-line label (a metric's figure, a toggle's
label) or button cut short, no placeholder cut, no chosen option of a multiselect out of sight,
nothing wider than the page, and no chart whose title, legend, annotations or axis titles run
into each other, into a plot or off the figure. At 1280 px, no table wider than its box either:
every column in sight without scrolling sideways (at 760 px a wide table may scroll).

Each state of a page is looked at in both widths in turn, first in the width it was drawn in,
the window resized in between (which lays the page out as a fresh load at that width does,
without running the app again)."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

import bpe_core
from bpe_core import formats
from tests.browser.conftest import choose, open_page, resize, wait_for_app
from tests.browser.test_tokenize_browser import BOXES, load_file, open_tokenize
from tests.browser.test_train_layout_browser import CUT_LABELS, CUT_TEXT, cut_buttons
from ui.languages.tabs import TABS as LANGUAGE_TABS
from ui.shared import loaders
from ui.vocabulary.view import TABS as VOCABULARY_TABS

WIDTHS = [1280, 760]
HEIGHT = 1600
#: From this window width on, every column of every table is in sight.
WHOLE_TABLES = 1280
SLOW_MS = 60_000
TEXT = "The lowest price is lower than the last one. Привет, мир! 日本語のテキスト 12345."

# A multiselect's chosen chips that lie outside the box they scroll in (out of sight).
_HIDDEN_CHIPS = """chips => chips.filter(c => {
    const chip = c.getBoundingClientRect();
    let box = c.parentElement;
    while (box && !/auto|hidden|scroll|clip/.test(getComputedStyle(box).overflowX)) {
        box = box.parentElement;
    }
    const room = box && box.getBoundingClientRect();
    return chip.width && room && (chip.right > room.right + 1 || chip.left < room.left - 1);
}).map(c => c.innerText)"""

_OVERFLOW = """() => {
    const doc = document.documentElement;
    const main = document.querySelector('[data-testid="stMain"]');
    return [doc.scrollWidth - doc.clientWidth, main.scrollWidth - main.clientWidth];
}"""

# In each Plotly chart: the chart's title, its legend, its annotations and its axis titles must
# not meet one another; an axis title must not meet a plot (the one beside it, say); titles and
# the legend must stay inside the figure. Boxes may touch (1 px).
_CHART_CLASHES = """charts => charts.flatMap(chart => {
    const svg = chart.querySelector('.main-svg');
    if (!svg) return ['a chart was not drawn'];
    const frame = svg.getBoundingClientRect();
    const boxOf = e => { const r = e.getBoundingClientRect(); return r.width && r.height && r; };
    const named = (e, kind) => ({kind, box: boxOf(e), name: e.textContent.trim() || kind});
    const axes = [...chart.querySelectorAll('g[class]')]
        .filter(g => /^g-[xy]\\d*title$/.test(g.getAttribute('class')))
        .map(g => named(g, 'axis title'));
    const others = [...chart.querySelectorAll('g.g-gtitle')].map(g => named(g, 'title'))
        .concat([...chart.querySelectorAll('g.legend')].map(g => named(g, 'legend')))
        .concat([...chart.querySelectorAll('g.annotation')].map(g => named(g, 'annotation')));
    const parts = axes.concat(others).filter(p => p.box);
    const plots = [...chart.querySelectorAll('.bglayer rect.bg')].map(boxOf).filter(Boolean);
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    const title = chart.querySelector('g.g-gtitle')?.textContent || 'an untitled chart';
    const out = [];
    parts.forEach((p, i) => parts.slice(i + 1).forEach(q => {
        if (meet(p.box, q.box)) out.push(`${title}: ${p.kind} "${p.name}" meets "${q.name}"`);
    }));
    axes.filter(p => p.box && plots.some(b => meet(p.box, b)))
        .forEach(p => out.push(`${title}: axis title "${p.name}" runs into a plot`));
    parts.filter(p => p.kind !== 'annotation')
        .filter(p => p.box.left < frame.left - 1 || p.box.right > frame.right + 1)
        .forEach(p => out.push(`${title}: ${p.kind} "${p.name}" runs off the figure`));
    return out;
})"""


# Tables (st.dataframe draws on a canvas) whose columns are wider than the table: the grid's
# scroller is then wider than its box, and the last columns are out of sight. Each is named by
# the headings in sight (which the grid also keeps in an accessible table). A table in a closed
# expander is not drawn, nor looked at.
_SHOWN = "t => t.checkVisibility({visibilityProperty: true, contentVisibilityAuto: true})"
_GRIDS_DRAWN = f"""() => [...document.querySelectorAll('[data-testid=stDataFrame]')]
    .filter({_SHOWN}).every(t => t.querySelector('.dvn-scroller'))"""
_WIDE_TABLES = f"""tables => tables.filter({_SHOWN}).flatMap(t => {{
    const scroller = t.querySelector('.dvn-scroller');
    const over = scroller ? scroller.scrollWidth - scroller.clientWidth : 0;
    const heads = [...t.querySelectorAll('[role=columnheader]')].map(h => h.innerText.trim());
    return over > 1 ? [`the table of ${{JSON.stringify(heads)}} is ${{over}} px too wide`] : [];
}})"""


def problems(page: Page, state: str, screenshot_dir, *, wide_tables: bool = False) -> list[str]:
    """What does not look right on the page as shown (``state`` names it) at each of WIDTHS;
    a screenshot of each. ``wide_tables``: its tables may scroll sideways at any width."""
    wait_for_app(page)
    # The width the state was drawn in first, then the other: one resize per state (a resize
    # redraws every chart and table, and going back and forth cost a quarter of a test's CPU).
    now = page.viewport_size["width"]
    found = []
    for width in sorted(WIDTHS, key=lambda w: w != now):
        if width != page.viewport_size["width"]:
            resize(page, width, HEIGHT)
        found += problems_at(page, state, width, screenshot_dir, wide_tables=wide_tables)
    return found


def problems_at(page: Page, state: str, width: int, screenshot_dir, *,
                wide_tables: bool = False) -> list[str]:
    """What does not look right on the page as shown (the app done running), in the window's
    width now."""
    charts = page.locator('[data-testid="stPlotlyChart"]')
    page.wait_for_function(  # Plotly draws after the script has run
        "() => [...document.querySelectorAll('[data-testid=stPlotlyChart]')]"
        ".every(c => c.querySelector('.js-plotly-plot')?._fullLayout)", timeout=SLOW_MS)
    main = page.locator('[data-testid="stMain"]')
    found = [f"label cut short: {t!r}"
             for t in main.locator(".stMarkdownEllipsis").evaluate_all(CUT_LABELS)]
    found += [f"button cut short: {t!r}" for t in cut_buttons(page)]
    found += [f"placeholder cut short: {t!r}"
              for t in main.locator("input, textarea").evaluate_all(CUT_TEXT, "placeholder")]
    found += [f"chosen option out of sight: {t!r}" for t in main.locator(
        '[data-testid="stMultiSelect"] [data-tag]').evaluate_all(_HIDDEN_CHIPS)]
    found += [f"{what} is {px} px wider than the window"
              for what, px in zip(("the page", "the main area"), page.evaluate(_OVERFLOW)) if px]
    found += charts.evaluate_all(_CHART_CLASHES)
    if width >= WHOLE_TABLES and not wide_tables:
        page.wait_for_function(_GRIDS_DRAWN, timeout=SLOW_MS)  # drawn after the script ran
        found += main.locator('[data-testid="stDataFrame"]').evaluate_all(_WIDE_TABLES)
    name = re.sub(r"\W+", "-", state.lower()).strip("-")
    page.screenshot(path=screenshot_dir / f"narrow-{name}-{width}.png")
    return [f"{state} at {width} px: {p}" for p in found]


def tab_names(tabs) -> list[str]:
    """The tabs' names as shown, without their icons."""
    return [re.sub(r"^:material/\w+: ", "", t) for t in tabs]


@pytest.fixture(scope="module")
def second_tokenizer() -> bytes:
    """A small character-level tokenizer's file, to compare with the session's own."""
    tok = bpe_core.train(TEXT * 20, unit="char", pretokenizer="whitespace", max_merges=20,
                         min_frequency=1, name="mine")
    return formats.dumps(tok)


@pytest.fixture(autouse=True)
def wide_first(page: Page) -> None:
    """Each test opens its page in the first width."""
    page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})


def test_corpus_page(page: Page, app_url: str, screenshot_dir) -> None:
    open_page(page, app_url, "", "Corpus")
    assert problems(page, "Corpus", screenshot_dir) == []


def test_corpus_page_with_a_long_word(page: Page, app_url: str, screenshot_dir) -> None:
    # A pasted text whose most frequent words hold a 50-letter one, a ZWJ emoji and Hebrew:
    # the word column took the table's room and count and share went out of sight.
    page.set_viewport_size({"width": WHOLE_TABLES, "height": HEIGHT})
    words = ["x" * 50, "👨‍👩‍👧‍👦", "שלום", "price", "the"] * 3
    open_page(page, app_url, f"?corpus_text={quote(' '.join(words))}", "Corpus")
    expect(page.get_by_text("Most frequent words")).to_be_visible()
    assert problems_at(page, "Corpus long word", WHOLE_TABLES, screenshot_dir) == []


def test_train_page(page: Page, app_url: str, screenshot_dir) -> None:
    found = []
    open_page(page, app_url, "train?sample=hug-pug", "Train — watch the vocabulary grow")
    found += problems(page, "Train settings", screenshot_dir)
    progress = page.locator('[data-testid="stProgress"]')
    page.get_by_role("button", name="Start training").click()
    expect(progress).to_contain_text("Merge 0 of 3", timeout=SLOW_MS)
    page.get_by_role("button", name="Step", exact=True).click()
    expect(progress).to_contain_text("Merge 1 of 3", timeout=SLOW_MS)
    found += problems(page, "Train stepping", screenshot_dir)
    page.get_by_role("button", name="Finish", exact=True).click()
    expect(progress).to_contain_text("Done after 3 merges", timeout=SLOW_MS)
    found += problems(page, "Train finished", screenshot_dir)
    # The curves of a real run (the default English corpus), at merge 40.
    page.goto(f"{app_url}/train?step=40")
    expect(progress).to_contain_text("Merge 40 of", timeout=SLOW_MS)
    found += problems(page, "Train English", screenshot_dir)
    # Ten merges of the textbook example: the pair merged next beside its count, then a merge
    # log of ten rows with tied pairs (at 1280 px, its count column, the words' counts and the
    # pairs' "← merged next" were out of sight).
    page.goto(f"{app_url}/train?sample=low-lower&max_merges=10&step=1")
    expect(progress).to_contain_text("Merge 1 of 10", timeout=SLOW_MS)
    found += problems(page, "Train textbook", screenshot_dir)
    page.get_by_role("button", name="Finish", exact=True).click()
    expect(progress).to_contain_text("Done after 10 merges", timeout=SLOW_MS)
    found += problems(page, "Train textbook finished", screenshot_dir)
    assert found == []


def test_tokenize_page(page: Page, app_url: str, screenshot_dir,
                       second_tokenizer: bytes) -> None:
    found = []
    open_tokenize(page, app_url, f"?text={quote(TEXT)}")
    found += problems(page, "Tokenize", screenshot_dir)
    page.locator(f'{BOXES}[data-i="3"]').click()  # its merge tree and merges below
    expect(page.locator(f"{BOXES}.on")).to_have_attribute("data-i", "3", timeout=SLOW_MS)
    found += problems(page, "Tokenize token detail", screenshot_dir)
    load_file(page, "native", "mine.json", second_tokenizer, named="mine")
    choose(page, "Compare with", "English byte-level 1k")
    page.keyboard.press("Escape")  # the multiselect's list stays open, over the page
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=SLOW_MS)
    found += problems(page, "Tokenize compared", screenshot_dir)
    page.get_by_role("radiogroup", name="View").get_by_role("radio", name="Table").click()
    expect(page.locator('[data-testid="stDataFrame"]').first).to_be_visible(timeout=SLOW_MS)
    found += problems(page, "Tokenize table", screenshot_dir)
    assert found == []


def test_languages_page(page: Page, app_url: str, screenshot_dir) -> None:
    open_page(page, app_url, "languages", "Languages: the tokenization premium")
    found = problems(page, "Languages", screenshot_dir)
    for tab in tab_names(LANGUAGE_TABS)[1:]:
        page.get_by_role("tab", name=tab).click()
        # The premium table's eleven columns: their headings alone are wider than the page
        # (it scrolls sideways, Tokenizer and Language pinned: tests/app/test_languages_page).
        found += problems(page, f"Languages {tab}", screenshot_dir,
                          wide_tables=tab == "Table")
    assert found == []


def test_vocabulary_page(page: Page, app_url: str, screenshot_dir,
                         second_tokenizer: bytes) -> None:
    open_page(page, app_url, "vocabulary", "Vocabulary")
    found = problems(page, "Vocabulary", screenshot_dir)
    for tab in tab_names(VOCABULARY_TABS)[1:]:
        page.get_by_role("tab", name=tab).click()
        found += problems(page, f"Vocabulary {tab}", screenshot_dir)
    # The last tab compares two vocabularies: load a second one there.
    choose(page, "Format", loaders.FORMATS["native"].label)
    page.locator('.st-key-vocab_load_native_0 input[type="file"]').set_input_files(
        files=[{"name": "mine.json", "mimeType": "application/json", "buffer": second_tokenizer}])
    wait_for_app(page)
    page.get_by_role("button", name="Load", exact=True).click()
    expect(page.get_by_text("Only in A", exact=True)).to_be_visible(timeout=SLOW_MS)
    found += problems(page, "Vocabulary compared", screenshot_dir)
    assert found == []
