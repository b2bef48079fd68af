"""A model's tokenizer.json loaded on the Tokenize page in Chromium: the boxes say what the model
reads (a prefix space, byte fallback, a special token), clicking a merged token draws its tree
and clicking a special token says why it has none; the end-of-word marker after a Hebrew word
reads "</w>", left to right, in the boxes and in the table's canvas."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

import bpe_core
from bpe_core.formats import dumps
from tests.browser.conftest import assert_no_exception, wait_for_app
from tests.browser.test_tokenize_browser import (BOXES, SLOW, enter_text, expect_merge_tree,
                                                 load_file, open_tokenize)
from tests.model_files import llama2_file
from ui.shared import merge_tree
from ui.tokenize.data import token_table


def test_a_llama2_file_shows_what_the_model_reads_and_explains_its_trees(
        page: Page, app_url: str, screenshot_dir) -> None:
    data = llama2_file()
    tok = bpe_core.loads(data, source="tokenizer.json")
    open_tokenize(page, app_url)
    load_file(page, "hf", "tokenizer.json", data,
              named=f"tokenizer.json ({tok.vocab_size} tokens, byte fallback, <s>)")
    text = "Hello wörld 😀 <s> lower"
    enter_text(page, text)
    spans = tok.spans(text)
    boxes = page.locator(BOXES)
    expect(boxes).to_have_count(len(spans), timeout=SLOW)
    assert boxes.all_inner_texts() == list(token_table(tok, spans, text)["token"])
    # The space Llama 2 puts before the text is drawn, under a dotted line; the bytes of 😀
    # are hex in monospace; <s> is framed.
    first = boxes.nth(0)
    assert first.inner_text().startswith("·")
    assert first.evaluate("e => getComputedStyle(e).textDecorationStyle") == "dotted"
    fallback = [k for k, s in enumerate(spans) if s.partial]
    assert [boxes.nth(k).inner_text() for k in fallback] == ["<F0>", "<9F>", "<98>", "<80>"]
    assert "monospace" in boxes.nth(fallback[0]).evaluate("e => getComputedStyle(e).fontFamily")
    special = next(k for k, s in enumerate(spans) if s.special)
    assert boxes.nth(special).evaluate("e => getComputedStyle(e).outlineStyle") == "solid"

    picker = page.get_by_role("combobox", name="Token", exact=True)
    merged = max((k for k, s in enumerate(spans) if tok.merge_for(s.id)),
                 key=lambda k: len(tok.merge_tree(spans[k].id).leaves()))
    for k in (merged, special):  # the second click must change what the picker shows
        page.locator(f'{BOXES}[data-i="{k}"]').click()
        expect(picker).to_have_value(re.compile(rf"\(id {spans[k].id}\)$"), timeout=SLOW)
        wait_for_app(page)
        if k == merged:
            expect_merge_tree(page, tok.merge_tree(spans[k].id))
    expect(page.get_by_text(merge_tree.why_no_tree(tok, spans[special].id))).to_be_visible(
        timeout=SLOW)
    expect(page.locator('[data-testid="stGraphVizChart"]')).to_have_count(0)
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-loaded-llama2.png", full_page=True)


def test_the_end_of_word_marker_reads_left_to_right_at_the_end_of_a_hebrew_word(
        page: Page, app_url: str) -> None:
    # The bidi algorithm turned a bare "</w>" round after Hebrew letters: "ם</w>" read "<w/>ם".
    tok = bpe_core.train("שלום עולם שלום", unit="char", pretokenizer="end-of-word",
                         max_merges=4, min_frequency=1)
    assert [m.token for m in tok.merges] == ["ם</w>", "של", "שלו", "שלום</w>"]
    page.add_init_script(RECORD_HEBREW_CELLS)
    open_tokenize(page, app_url)
    load_file(page, "hf", "hebrew.json", dumps(tok, format="hf"), named="hebrew")
    text = "שלום עולם"
    enter_text(page, text)
    expect(page.locator(BOXES)).to_have_count(len(tok.spans(text)), timeout=SLOW)
    marked = page.locator(BOXES).filter(has_text="</w>")
    expect(marked).to_have_count(2)
    # Each box's characters from left to right as drawn: the letters, right to left, then the
    # marker, which reads "</w>" left to right, on their left, where a right-to-left word ends
    # (it was ">w/<ם": drawn mirrored, "<w/>ם").
    drawn = [marked.nth(k).evaluate("""b => {
        const chars = [], walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
        for (let n = walk.nextNode(); n; n = walk.nextNode())
            for (let i = 0; i < n.length; i++) {
                const r = document.createRange();
                r.setStart(n, i);
                r.setEnd(n, i + 1);
                chars.push([n.data[i], r.getBoundingClientRect().left]);
            }
        return chars.sort((a, b) => a[1] - b[1]).map(c => c[0]).join('');
    }""") for k in range(2)]
    assert drawn == ["</w>םולש", "</w>ם"]
    # The table draws its cells on a canvas, which takes no HTML: each cell of a token ending a
    # word must draw the same pixels as the marker then the letters laid out left to right by
    # hand (a left-to-right override), as the boxes are (it drew "<w/>ם" there too).
    page.get_by_role("radiogroup", name="View").get_by_role("radio", name="Table").click()
    wait_for_app(page)
    page.wait_for_function("() => window.hebrewCells.some(c => c.text.includes('w'))",
                           timeout=SLOW)
    matched = page.evaluate(COMPARE_CELLS, ["</w>םולש", "</w>ם"])
    assert sorted(matched.values()) == ["</w>ם", "</w>םולש"], matched


# Each text the page draws on a canvas that begins with a Hebrew letter (a table's token), with
# the font and direction it is drawn in.
RECORD_HEBREW_CELLS = """
window.hebrewCells = [];
const fillText = CanvasRenderingContext2D.prototype.fillText;
CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    if (/^[\u05d0-\u05ea]/.test(text))
        window.hebrewCells.push({text, font: this.font, direction: this.direction});
    return fillText.call(this, text, ...rest);
};
"""
# Of each drawn cell holding "w": the visual order (left to right) whose pixels it drew, or "".
COMPARE_CELLS = """visuals => {
    const pixels = (text, font, direction) => {
        const canvas = document.createElement('canvas');
        canvas.width = 300; canvas.height = 40;
        const ctx = canvas.getContext('2d');
        Object.assign(ctx, {font, direction, textAlign: 'right'});
        ctx.fillText(text, 290, 28);
        return ctx.getImageData(0, 0, 300, 40).data.join();
    };
    const out = {};
    for (const c of window.hebrewCells.filter(c => c.text.includes('w'))) {
        const drawn = pixels(c.text, c.font, c.direction);
        out[c.text] = visuals.find(v => pixels('\u202d' + v + '\u202c', c.font, 'ltr') === drawn)
            || '';
    }
    return out;
}"""
