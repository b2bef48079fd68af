"""The Tokenize page in Chromium: live colouring, hostile text, clicking a token for its merge
tree, and the shareable address."""

from __future__ import annotations

import json
import re
from urllib.parse import quote

import pytest
from playwright.sync_api import Page, expect

import bpe_core
from tests.browser.conftest import assert_no_exception, choose, wait_for_app
from ui.shared import loaders, merge_tree
from ui.shared.samples import samples
from ui.shared.state import DEFAULT_SETTINGS
from ui.tokenize.presets import presets

BOXES = ".bpe-pick .bpe-tokens span[data-i]"
SLOW = 30_000  # ms: a loaded two-core machine can take a while to redraw


@pytest.fixture(scope="module")
def default_tok() -> bpe_core.Tokenizer:
    """The tokenizer the app trains for a new session (same corpus and settings)."""
    return bpe_core.train(list(samples()["english"].documents()), **DEFAULT_SETTINGS)


def open_tokenize(page: Page, app_url: str, query: str = "") -> None:
    # Straight to the page's address, as a shared link does.
    page.goto(f"{app_url}/tokenize{query}")
    wait_for_app(page)
    assert_no_exception(page)
    # The boxes are drawn before the page's script listens to them and to the text area: a
    # click or a key typed until then does nothing (under load, typing was never sent). Every
    # opening shows boxes (the page's own example text when the address has none), and they
    # may come after the run ends: checking for them first once let a click on a box go
    # unheard (the suite of 3f8601f, test_a_clicked_token_stays_framed).
    page.locator('body[data-token-boxes="live"]').wait_for(state="attached")


def text_area(page: Page):
    return page.locator(".st-key-tok_text textarea")


def tokens_metric(page: Page):
    return page.locator('[data-testid="stMetric"]').filter(has_text="Tokens").locator(
        '[data-testid="stMetricValue"]')


def enter_text(page: Page, text: str) -> None:
    """Put ``text`` in the text area and send it, as Ctrl+Enter does."""
    area = text_area(page)
    area.fill(text)
    area.press("Control+Enter")
    wait_for_app(page)


def load_file(page: Page, fmt: str, name: str, data: bytes, *, named: str) -> None:
    """Load a tokenizer file through the Tokenize page's panel (``fmt`` a key of
    ``loaders.FORMATS`` with one file) and see it loaded under a name holding ``named``."""
    page.get_by_text("Load a tokenizer").click()
    choose(page, "Format", loaders.FORMATS[fmt].label)
    page.locator(f'.st-key-tok_load_{fmt}_0 input[type="file"]').set_input_files(
        files=[{"name": name, "mimeType": "application/octet-stream", "buffer": data}])
    wait_for_app(page)
    page.get_by_role("button", name="Load", exact=True).click()
    wait_for_app(page)
    expect(page.locator('[data-testid="stAlertContentSuccess"]')).to_contain_text(
        named, timeout=SLOW)


def expect_merge_tree(page: Page, tree: bpe_core.MergeTree) -> None:
    """Wait until the page draws ``tree``: the same node labels as its DOT, in any order."""
    labels = re.findall(r'label="((?:[^"\\]|\\.)*)"', merge_tree.tree_dot(tree))
    expected = [line.replace("\\\\", "\\") for label in labels for line in label.split("\\n")]
    texts = page.locator('[data-testid="stGraphVizChart"] svg g.node text')
    expect(texts).to_have_count(len(expected), timeout=SLOW)
    page.wait_for_function(  # the same node labels, in whatever order Graphviz drew them
        "want => JSON.stringify([...document.querySelectorAll("
        "'[data-testid=stGraphVizChart] svg g.node text')].map(t => t.textContent).sort()) "
        "=== JSON.stringify(want)", arg=sorted(expected), timeout=SLOW)


def test_typing_recolours_without_pressing_enter(page: Page, app_url: str, default_tok,
                                                 screenshot_dir) -> None:
    open_tokenize(page, app_url)
    area = text_area(page)
    area.click()
    area.press("Control+a")
    area.press("Delete")
    text = "Natural language processing is interesting"
    area.press_sequentially(text, delay=20)  # no Ctrl+Enter, no click elsewhere
    expected = default_tok.spans(text)
    expect(tokens_metric(page)).to_have_text(str(len(expected)), timeout=SLOW)
    wait_for_app(page)
    expect(page.locator(BOXES)).to_have_count(len(expected), timeout=SLOW)
    assert page.locator(BOXES).all_inner_texts() == [
        text[s.start:s.end].replace(" ", "·") for s in expected]
    expect(area).to_be_focused(timeout=SLOW)  # typing can go on
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-typing.png", full_page=True)


def test_hostile_text_is_shown_not_executed(page: Page, app_url: str, screenshot_dir) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    open_tokenize(page, app_url)
    hostile = presets()["Tricky: HTML, markdown, invisible characters"]
    enter_text(page, hostile)
    out = page.locator(".bpe-pick")
    expect(out).to_contain_text("<script>alert('hi')</script>", timeout=SLOW)
    expect(out).to_contain_text("<img·src=x·onerror=alert(1)>")  # spaces shown as ·
    expect(out).to_contain_text("&amp;·&lt;b&gt;")  # entities are not decoded
    expect(out).to_contain_text("**bold?**·`code?`·[link](javascript:alert(1))", timeout=SLOW)
    page.wait_for_timeout(500)
    assert dialogs == []
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("[onerror]").count() == 0
    assert out.locator("script, img, a, strong, em, code, h1").count() == 0
    # No raw bidi control reaches the page (it would reorder the text after it).
    assert "\u202e" not in out.inner_text() and "\u2067" not in out.inner_text()
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-hostile.png", full_page=True)


def test_clicking_a_token_draws_its_merge_tree(page: Page, app_url: str, default_tok,
                                               screenshot_dir) -> None:
    text = "the lowest price is lower than the last one"
    open_tokenize(page, app_url, "?text=" + quote(text))
    expect(text_area(page)).to_have_value(text, timeout=SLOW)
    spans = default_tok.spans(text)
    picker = page.get_by_role("combobox", name="Token", exact=True)
    shown_first = picker.input_value(timeout=SLOW)
    # A token built by merges that the picker does not show yet, so the click must change it.
    k = max((i for i, s in enumerate(spans)
             if default_tok.merge_for(s.id) and f"(id {s.id})" not in shown_first),
            key=lambda i: len(default_tok.merge_tree(spans[i].id).leaves()))
    page.locator(f'{BOXES}[data-i="{k}"]').click()
    expect(picker).to_have_value(re.compile(rf"\(id {spans[k].id}\)$"), timeout=SLOW)
    wait_for_app(page)
    expect_merge_tree(page, default_tok.merge_tree(spans[k].id))
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-merge-tree.png", full_page=True)


def test_an_uploaded_tiktoken_file_encodes_like_tiktoken(page: Page, app_url: str,
                                                         screenshot_dir) -> None:
    import base64
    import contextlib
    import io

    import tiktoken
    from tiktoken import _educational

    from bpe_core.presets import CL100K_PATTERN

    corpus = " ".join(presets().values()) * 3
    with contextlib.redirect_stdout(io.StringIO()):  # ranks trained by tiktoken's own code
        ranks = _educational.bpe_train(corpus, 350, CL100K_PATTERN, visualise=None)
    rank_file = b"".join(base64.b64encode(t) + b" %d\n" % r
                         for t, r in sorted(ranks.items(), key=lambda kv: kv[1]))
    open_tokenize(page, app_url)
    load_file(page, "tiktoken", "made.tiktoken", rank_file, named="made")
    text = "The lowest price: 12345 — naïve café, 你好! 😀"
    enter_text(page, text)
    page.get_by_role("radiogroup", name="View").get_by_role("radio", name="Ids").click()
    wait_for_app(page)
    enc = tiktoken.Encoding("made", pat_str=CL100K_PATTERN, mergeable_ranks=ranks,
                            special_tokens={})
    expected = [str(i) for i in enc.encode(text)]
    expect(page.locator(BOXES)).to_have_count(len(expected), timeout=SLOW)
    assert page.locator(BOXES).all_inner_texts() == expected
    # The same text beside the session's first tokenizer, with counts.
    choose(page, "Compare with", "English byte-level 1k")
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=SLOW)
    assert_no_exception(page)
    page.screenshot(path=screenshot_dir / "tokenize-tiktoken-compare.png", full_page=True)


def box_boxes(page: Page) -> list[dict]:
    """Every token box of the main output: its position, characters and where it is drawn."""
    return page.eval_on_selector_all(BOXES, """els => els.map(e => {
        const r = e.getBoundingClientRect();
        return {i: Number(e.dataset.i), s: Number(e.dataset.s), e: Number(e.dataset.e),
                x: r.x, y: r.y, right: r.right, classes: e.className};
    })""")


def reads_right_to_left(boxes: list[dict]) -> bool:
    """Whether ``boxes`` (in the text's order) show their characters from right to left, the
    bytes of each character left to right, as hex is read."""
    chars: dict[int, list[dict]] = {}
    for b in boxes:
        chars.setdefault(b["s"], []).append(b)
    lefts = [[b["x"] for b in bytes_] for bytes_ in chars.values()]
    return (all(xs == sorted(xs) for xs in lefts)
            and all(min(a) > max(b) for a, b in zip(lefts, lefts[1:])))


def test_right_to_left_text_runs_right_to_left(page: Page, app_url: str, default_tok,
                                               screenshot_dir) -> None:
    text = "سلام\nHi שלום you"
    open_tokenize(page, app_url, "?text=" + quote(text))
    spans = default_tok.spans(text)
    expect(page.locator(BOXES)).to_have_count(len(spans), timeout=SLOW)
    found = box_boxes(page)
    arabic = [b for b, s in zip(found, spans) if s.end <= 4]  # the first line
    assert len(arabic) == 8 and len({b["y"] for b in arabic}) == 1  # two bytes a letter
    assert reads_right_to_left(arabic)
    # The mixed line: English left to right, the Hebrew word right to left between its parts.
    heb = text.index("ש")
    line = [(b, s) for b, s in zip(found, spans) if s.start > 4]
    before = [b["x"] for b, s in line if s.end <= heb]
    hebrew = [b for b, s in line if heb <= s.start and s.end <= heb + 4]
    after = [b["x"] for b, s in line if s.start >= heb + 4]
    assert len(before) >= 2 and len(hebrew) == 8 and len(after) >= 1
    assert reads_right_to_left(hebrew)
    assert before == sorted(before) and after == sorted(after)
    assert max(before) < min(b["x"] for b in hebrew) and max(b["x"] for b in hebrew) < min(after)
    page.locator(".bpe-pick").screenshot(path=screenshot_dir / "tokenize-rtl.png")


def test_a_long_text_scrolls_in_its_box_and_links_text_and_tokens(page: Page, app_url: str,
                                                                   default_tok) -> None:
    open_tokenize(page, app_url)
    text = "the lowest price is lower 😀 than the last one.\n" * 60
    text_area(page).fill(text)
    text_area(page).press("Control+Enter")
    wait_for_app(page)
    spans = default_tok.spans(text)
    expect(tokens_metric(page)).to_have_text(f"{len(spans):,}", timeout=SLOW)
    scroller = page.locator(".bpe-pick.bpe-scroll")
    size = scroller.evaluate("e => [e.clientHeight, e.scrollHeight]")
    assert 200 < size[0] < 500 < 3 * size[0] < size[1]  # a box of fixed height that scrolls
    # Hovering a token selects its characters in the text (offsets as the text area counts).
    k = next(i for i, s in enumerate(spans) if i > 10 and text[s.start:s.end] == " than")
    area = text_area(page)
    page.locator("h1").first.click()  # the text area loses the focus
    before = area.evaluate("a => [a.selectionStart, a.selectionEnd]")
    page.locator(f'{BOXES}[data-i="{k}"]').hover()
    at16 = [len(text[:i].encode("utf-16-le")) // 2 for i in (spans[k].start, spans[k].end)]
    page.wait_for_function("([want]) => { const a = document.querySelector("
                           "'.st-key-tok_text textarea'); return a.selectionStart === want[0] "
                           "&& a.selectionEnd === want[1]; }", arg=[at16], timeout=SLOW)
    page.mouse.move(5, 5)  # leaving the box puts the text area back as it was
    page.wait_for_function("() => document.activeElement !== document.querySelector("
                           "'.st-key-tok_text textarea')", timeout=SLOW)
    assert area.evaluate("a => [a.selectionStart, a.selectionEnd]") == before
    # Selecting characters marks their tokens, and the box scrolls to the first of them.
    area.click()
    area.press("Control+End")
    for _ in range(6):
        area.press("Shift+ArrowLeft")
    start16 = len(text.encode("utf-16-le")) // 2 - 6
    marked = page.locator(f"{BOXES}.hl")
    expect(marked.first).to_be_visible(timeout=SLOW)
    want = [b["i"] for b in box_boxes(page) if b["s"] < start16 + 6 and b["e"] > start16]
    assert sorted(int(i) for i in marked.evaluate_all("els => els.map(e => e.dataset.i)")) == want
    assert scroller.evaluate("e => e.scrollTop") > 0
    view = scroller.bounding_box()
    box = marked.last.bounding_box()
    assert view["y"] <= box["y"] and box["y"] + box["height"] <= view["y"] + view["height"] + 1


def test_a_clicked_token_stays_framed(page: Page, app_url: str, default_tok) -> None:
    text = "the lowest price is the lowest"
    open_tokenize(page, app_url, "?text=" + quote(text))
    spans = default_tok.spans(text)
    k = max(range(len(spans)), key=lambda i: (len(spans[i].bytes), i))
    # Box k holds the token picked already (the last of the longest, box 8, is another
    # "·low" like box 2, which is framed): only the frame shows the click, so it must land once
    # the boxes answer (open_tokenize waits for that).
    page.locator(f'{BOXES}[data-i="{k}"]').click()
    picker = page.get_by_role("combobox", name="Token", exact=True)
    expect(picker).to_have_value(re.compile(rf"\(id {spans[k].id}\)$"), timeout=SLOW)
    wait_for_app(page)
    expect(page.locator(f"{BOXES}.on")).to_have_count(1, timeout=SLOW)
    expect(page.locator(f"{BOXES}.on")).to_have_attribute("data-i", str(k))
    # The box's place counted from 1, as the Page picker counts tokens.
    expect(page.get_by_text(f"framed above: token {k + 1} of {len(spans)},", exact=False)
           ).to_be_visible()


def test_the_address_carries_the_view_a_reload_restores_it_and_copy_link_copies_it(
        page: Page, app_url: str, default_tok) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    open_tokenize(page, app_url, "?text=" + quote("héllo wörld 👋"))
    expect(text_area(page)).to_have_value("héllo wörld 👋", timeout=SLOW)
    text = "the lowest price is lower"
    enter_text(page, text)
    expect(page).to_have_url(re.compile(r"[?&]text=the(\+|%20)lowest"), timeout=SLOW)
    expect(page).to_have_url(re.compile(r"[?&]tokenizer="), timeout=SLOW)
    page.get_by_role("radiogroup", name="View").get_by_role("radio", name="Ids").click()
    wait_for_app(page)
    page.get_by_text("By token id", exact=True).click()
    wait_for_app(page)
    page.get_by_text("Show whitespace", exact=True).click()
    wait_for_app(page)
    budget = page.locator(".st-key-tok_limit input")
    budget.fill("3")
    budget.press("Enter")
    wait_for_app(page)
    expect(page).to_have_url(re.compile(r"[?&]limit=3"), timeout=SLOW)
    for part in ("view=ids", "colours=id", "whitespace=off"):
        expect(page).to_have_url(re.compile(rf"[?&]{part}"), timeout=SLOW)
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Link copied")).to_be_visible(timeout=SLOW)
    assert page.evaluate("navigator.clipboard.readText()") == page.url
    page.reload()
    wait_for_app(page)
    spans = default_tok.spans(text)
    expect(page.locator(BOXES)).to_have_count(len(spans), timeout=SLOW)
    assert page.locator(BOXES).all_inner_texts() == [str(s.id) for s in spans]
    assert page.locator(f"{BOXES}.ov").count() == len(spans) - 3
    assert re.search(r"\bh\d+\b", page.locator(BOXES).first.get_attribute("class"))
    expect(page.locator(".st-key-tok_limit input")).to_have_value("3")


def test_a_long_text_is_tokenized_in_the_background_and_shown_when_done(
        page: Page, app_url: str, default_tok) -> None:
    open_tokenize(page, app_url)
    text = "The lowest price is lower than the last one. " * 2_400  # past BACKGROUND_CHARS
    text_area(page).fill(text)
    text_area(page).press("Control+Enter")
    # The worker's result arrives without a click: the progress fragment reruns the page.
    expect(tokens_metric(page)).to_have_text(f"{len(default_tok.spans(text)):,}", timeout=SLOW)
    wait_for_app(page)
    assert_no_exception(page)
    expect(page.get_by_role("button", name="Cancel")).to_have_count(0)


def test_a_long_text_compared_with_another_tokenizer_gets_its_columns_without_a_click(
        page: Page, app_url: str, default_tok) -> None:
    from bpe_core import formats

    text = "The lowest price is lower than the last one. " * 2_400  # past BACKGROUND_CHARS
    mine = bpe_core.train(text[:2_000], unit="char", pretokenizer="whitespace", max_merges=20,
                          min_frequency=1, name="mine")
    open_tokenize(page, app_url)
    load_file(page, "native", "mine.json", formats.dumps(mine), named="mine")
    choose(page, "Compare with", "English byte-level 1k")
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=SLOW)
    text_area(page).fill(text)
    text_area(page).press("Control+Enter")
    # Both workers' results arrive without a click: the main view's and the comparison's.
    expect(tokens_metric(page)).to_have_text(f"{len(mine.encode(text)):,}", timeout=SLOW)
    other = page.get_by_text(f"{len(default_tok.encode(text)):,} tokens", exact=True)
    expect(other).to_have_count(1, timeout=SLOW)  # the compared column's count
    expect(page.locator(".bpe-tokens")).to_have_count(3, timeout=SLOW)
    wait_for_app(page)
    assert_no_exception(page)
    expect(page.get_by_role("button", name="Cancel")).to_have_count(0)


def test_a_conversation_is_shown_as_the_model_receives_it(page: Page, app_url: str) -> None:
    from tests.model_files import llama3_file

    open_tokenize(page, app_url)
    load_file(page, "hf", "tokenizer.json", llama3_file(), named="tokenizer")
    template = ("{{ bos_token }}{% for m in messages %}<|x|>{{ m['role'] }}\n{{ m['content'] }}"
                "<|x|>{% endfor %}{% if add_generation_prompt %}<|x|>assistant\n{% endif %}")
    config = json.dumps({"chat_template": template, "bos_token": "<|begin_of_text|>"}).encode()
    page.locator('[class*="st-key-tok_chat_config_"] input[type="file"]').set_input_files(
        files=[{"name": "tokenizer_config.json", "mimeType": "application/json",
                "buffer": config}])
    wait_for_app(page)
    special = page.locator('[data-testid="stMetric"]').filter(has_text="Special tokens")
    expect(special.locator('[data-testid="stMetricValue"]')).to_have_text("6", timeout=SLOW)
    # The template's tokens are framed as special tokens, the user's text is coloured.
    chat = page.locator(".bpe-tokens").last
    expect(chat.locator("span.sp")).to_have_count(6)
    assert_no_exception(page)
