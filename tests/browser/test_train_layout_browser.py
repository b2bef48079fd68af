"""The Train page's layout in Chromium: right-to-left text re-segmented in byte tokens reads as
the text itself does, and no button label or chosen setting is cut short on a narrow window."""

from __future__ import annotations

import re
from unicodedata import category
from urllib.parse import quote

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import open_page, resize, wait_for_app
from ui.shared.state import sample_corpus
from ui.shared.wording import PRETOKENIZERS
from ui.train.runs import sample_passage

HEADING = "Train — watch the vocabulary grow"
SLOW_MS = 60_000

# Each line of ``text`` as the browser shows the text itself (in a block of the direction of
# its first strong character, as dir="auto" picks): the x of each UTF-16 unit, by line.
_TEXT_XS = """text => {
    const out = [];
    for (const line of text.split('\\n')) {
        const block = document.createElement('div');
        block.dir = 'auto';
        block.style.cssText = 'white-space:pre;position:absolute;left:0;top:0';
        block.textContent = line || ' ';
        document.body.appendChild(block);
        const xs = [];
        for (let i = 0; i < line.length; i++) {
            const range = document.createRange();
            range.setStart(block.firstChild, i);
            range.setEnd(block.firstChild, i + 1);
            const r = range.getBoundingClientRect();
            xs.push(r.x + r.width / 2);
        }
        block.remove();
        out.push(xs);
    }
    return out;
}"""

# Each line of boxes: the characters each box covers and where it is drawn, in the DOM's order
# (the text's).
_BOX_LINES = """el => Array.from(el.querySelectorAll('.ln'), line =>
    Array.from(line.querySelectorAll('[data-i]'), box => {
        const r = box.getBoundingClientRect();
        return {s: Number(box.dataset.s), e: Number(box.dataset.e), x: r.x + r.width / 2, y: r.y};
    }))"""


def assert_reads_as_its_text(page: Page, tokens: Locator, text: str) -> None:
    """The boxes of ``tokens`` (one character or one byte each) come, line by line, in the order
    the browser shows the characters of ``text``; the bytes of one character left to right."""
    shown = page.evaluate(_TEXT_XS, text)
    boxes = tokens.evaluate(_BOX_LINES)
    assert len(boxes) >= len(shown)
    start = 0
    for xs, line in zip(shown, boxes):
        assert all(b["e"] - b["s"] == 1 for b in line)  # (before any merge)
        ys = [b["y"] for b in line] or [0]
        assert max(ys) - min(ys) < 10  # one row: the page keeps lines from wrapping
        by_char: dict[int, list[float]] = {}
        for b in line:
            by_char.setdefault(b["s"], []).append(b["x"])
        for at, lefts in by_char.items():
            assert lefts == sorted(lefts), f"the bytes of {text[at]!r} read right to left"
        # A combining mark has no place of its own in the text: it is drawn on its letter.
        own = [at for at in range(start, start + len(xs)) if category(text[at])[0] != "M"]
        drawn = sorted((at for at in by_char if at in own), key=lambda at: by_char[at][0])
        expected = sorted(own, key=lambda at: xs[at - start])
        assert drawn == expected, (f"line {text[start:start + len(xs)]!r}: the boxes read "
                                   f"{''.join(text[at] for at in drawn)!r}, the text "
                                   f"{''.join(text[at] for at in expected)!r}")
        start += len(xs) + 1


def test_byte_tokens_of_right_to_left_text_read_as_the_text(page: Page, app_url: str,
                                                            screenshot_dir) -> None:
    # English with Hebrew and Arabic in it; then a Hebrew line with numbers, brackets and a sign.
    sentence = "Hi שלום you, مرحبا 12 world\nמחיר 12 34 (abc) 5%"
    open_page(page, app_url, f"train?sample=arabic&step=0&sentence={quote(sentence)}", HEADING)
    expect(page.locator('[data-testid="stProgress"]')).to_contain_text("Merge 0 of",
                                                                       timeout=SLOW_MS)
    # The passage beside the user's sentence.
    both = page.locator('[data-testid="stHorizontalBlock"]').filter(
        has=page.get_by_role("textbox", name="Your own sentence"))
    segmented = both.locator(".bpe-tokens")
    expect(segmented).to_have_count(2, timeout=SLOW_MS)
    wait_for_app(page)
    page.set_viewport_size({"width": 1400, "height": 2600})  # the whole passage in view
    both.screenshot(path=screenshot_dir / "train-rtl-bytes.png")
    page.add_style_tag(content=".bpe-tokens .ln{white-space:nowrap}")
    assert_reads_as_its_text(page, segmented.first,
                             sample_passage(sample_corpus("arabic")))  # all Arabic
    assert_reads_as_its_text(page, segmented.last, sentence)


# Buttons whose label the page cuts short ("Back" drawn as "B…") or lets run out of the button.
_CUT = """buttons => buttons.filter(b => {
    const label = b.querySelector('[data-testid="stMarkdownContainer"]');
    return b.scrollWidth > b.clientWidth || (label && label.scrollWidth > label.clientWidth);
}).map(b => (b.querySelector('[data-testid="stMarkdownContainer"]') || b).innerText)"""


def cut_buttons(page: Page) -> list[str]:
    buttons = page.locator('[data-testid="stMain"]').get_by_role("button").filter(
        has_text=re.compile(r"\w"))  # (not the icons: help, the number box's steps)
    return buttons.evaluate_all(_CUT)


def test_no_button_label_is_cut_short(page: Page, app_url: str, screenshot_dir) -> None:
    widths = [760, 1280]  # (the window resized between them: one run of the app for both)
    page.set_viewport_size({"width": widths[0], "height": 1000})
    open_page(page, app_url, "train?sample=hug-pug&step=0", HEADING)
    progress = page.locator('[data-testid="stProgress"]')
    expect(progress).to_contain_text("Merge 0 of 3", timeout=SLOW_MS)
    wait_for_app(page)
    finish = page.get_by_role("button", name="Finish", exact=True)
    for width in widths:
        resize(page, width)
        finish.scroll_into_view_if_needed()
        page.screenshot(path=screenshot_dir / f"train-buttons-{width}.png")
        assert cut_buttons(page) == [], width
    finish.click()  # the results: keep and download buttons
    expect(progress).to_contain_text("Done after 3 merges", timeout=SLOW_MS)
    wait_for_app(page)
    expect(page.get_by_role("button", name="Keep this tokenizer in the session")).to_be_visible()
    for width in reversed(widths):
        resize(page, width)
        assert cut_buttons(page) == [], width


# Labels drawn on one line (a checkbox's) that the page cuts short with an ellipsis.
CUT_LABELS = """labels => labels.filter(l => l.scrollWidth > l.clientWidth + 1)
    .map(l => l.innerText)"""


# Inputs whose shown text is wider than the box, which cuts it: with the argument "value",
# what they hold (a select box's chosen option); with "placeholder", the hint of an empty one;
# with a list of texts, those of them that would be cut if the box showed them (its options).
CUT_TEXT = """(inputs, shown) => inputs.flatMap(i => {
    if (!i.offsetParent) return [];
    const texts = Array.isArray(shown) ? shown
        : [shown === 'value' ? i.value : (i.value ? '' : i.placeholder)];
    const s = getComputedStyle(i);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = s.font;
    const room = i.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    return texts.filter(text => text && ctx.measureText(text).width > room + 1);
})"""


#: Window widths the settings are looked at in, the window resized between them (one run of the
#: app for all): as narrow as a split screen, where the sidebar shuts; just wide enough for it
#: to stay open; a laptop's; a desktop's.
SETTING_WIDTHS = [760, 800, 1280, 1920]


def test_no_setting_label_is_cut_short(page: Page, app_url: str, screenshot_dir) -> None:
    # Character BPE shows the byte-fallback checkbox, whose label was cut ("Byte fallback fo…").
    # At 800 px the sidebar stays open, and three columns of settings were 113 px each: "Byte
    # fall…", "SuperBP…", the chosen "Whitespace words" and "first in the corpus wins" were cut.
    # And every pre-tokenizer shows whole in its box: "GPT-2 regex (words with their leading
    # space, numbers, punctuation)" showed as "GPT-2 regex (words with their le" in its third
    # of the page (the box is as wide whichever is chosen: each option is measured in it).
    page.set_viewport_size({"width": SETTING_WIDTHS[0], "height": 1000})
    open_page(page, app_url, "train?sample=hug-pug&unit=char", HEADING)
    wait_for_app(page)
    expect(page.get_by_role("checkbox").first).to_be_visible(timeout=SLOW_MS)
    main = page.locator('[data-testid="stMain"]')
    pretokenizer = page.get_by_role("combobox", name="Pre-tokenizer")
    expect(pretokenizer).to_be_visible()
    for width in SETTING_WIDTHS:
        resize(page, width)
        # (narrower than 768 px, Streamlit shuts the sidebar)
        expect(page.locator('[data-testid="stSidebar"]')).to_have_attribute(
            "data-collapsed", "false" if width > 768 else "true")
        page.screenshot(path=screenshot_dir / f"train-settings-{width}.png")
        labels = main.locator(".stMarkdownEllipsis").evaluate_all(CUT_LABELS)  # one-line ones
        values = main.locator('input[role="combobox"]').evaluate_all(CUT_TEXT, "value")
        hints = main.locator("input, textarea").evaluate_all(CUT_TEXT, "placeholder")
        options = pretokenizer.evaluate_all(CUT_TEXT, list(PRETOKENIZERS.values()))
        assert (labels, values, hints, options) == ([], [], [], []), width
