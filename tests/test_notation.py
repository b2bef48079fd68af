"""One notation for characters that would not show, in every place tokens are drawn: plain text
(tables, captions, tooltips), token boxes (the Tokenize page and the Train passage), the Train
step tables, the Corpus tables.

Each class of character has one exact rendering: space ·, tab →, newline ↵ (a line break too in
boxes), NUL ⟨NUL⟩ (never invisible), zero-width ⟨ZWSP⟩, partial UTF-8 bytes <E4 BD>, and the
end-of-word marker </w>, kept on merged tokens.
"""

from __future__ import annotations

import colorsys
import re

import pytest

import bpe_core
from bpe_core import TokenSpan
from bpe_core.training.steps import FrequencyRow, PairRow, StepTables, WordRow
from ui.corpus.data import counts_stats, top_words_table
from ui.shared.annotate import coloured_html
from ui.shared.columns import column_width
from ui.shared.tokens import (CSS, ID_HUES, PALETTE, readable, readable_pair, readable_token,
                              tokens_html)
from ui.shared.wording import units
from ui.train import tables

# character -> how the notation draws it with whitespace made visible
CLASSES = {
    " ": "·",
    "\t": "→",
    "\n": "↵",
    "\r": "␍",
    "\x00": "⟨NUL⟩",
    "\x1b": "⟨ESC⟩",
    "\x7f": "⟨DEL⟩",
    "\x85": "⟨U+0085⟩",
    "\u200b": "⟨ZWSP⟩",
    "\u200d": "⟨ZWJ⟩",
    "\ufeff": "⟨BOM⟩",
    "\xa0": "⟨NBSP⟩",
    "\u3000": "⟨U+3000⟩",
    "\u202e": "⟨U+202E⟩",
}
# Drawn even with whitespace hidden: raw, these are invisible or reorder the page.
ALWAYS = {"\x00", "\x1b", "\x7f", "\x85", "\u202e"}


@pytest.mark.parametrize("char, shown", CLASSES.items())
def test_plain_text_draws_each_class_of_character(char, shown):
    assert readable(f"a{char}b") == f"a{shown}b"
    assert readable(f"a{char}b", whitespace=False) == (f"a{shown}b" if char in ALWAYS
                                                       else f"a{char}b")
    assert readable_token(f"a{char}b") == f"a{shown}b"


def test_tokens_keep_their_hex_bytes_and_end_of_word_marker():
    assert readable_token(" <E4 BD>") == "·<E4 BD>"
    assert readable_token("low</w>") == "low</w>"
    assert readable_pair("est", "</w>") == "est + </w>"
    assert readable_pair(" new", "\n") == "·new + ↵"


def _box(char: str, show_whitespace: bool = True) -> str:
    """The inside of the one box that ``tokens_html`` draws for a one-character token."""
    html = tokens_html([TokenSpan(1, char, char.encode(), 0, 1)], char,
                       show_whitespace=show_whitespace)
    return re.search(r'data-i="0">(.*?)</span></div>(?:<div class="ln"[^>]*></div>)?</div>$',
                     html).group(1)


@pytest.mark.parametrize("char, shown", CLASSES.items())
def test_a_box_draws_each_class_of_character(char, shown):
    assert _box(char) == f'<span class="m">{shown}</span>'
    hidden = _box(char, show_whitespace=False)
    if char in ALWAYS or char == "\n":  # a newline token is never an empty box
        assert hidden == f'<span class="m">{shown}</span>'
    else:
        assert hidden == char


def test_a_newline_box_is_followed_by_a_line_break():
    html = tokens_html([TokenSpan(1, "a", b"a", 0, 1), TokenSpan(2, "\n", b"\n", 1, 2),
                        TokenSpan(3, "b", b"b", 2, 3)], "a\nb")
    assert re.search(r'<span class="m">↵</span></span></div><div class="ln" [^>]*><span', html)


def test_the_passage_shows_the_end_of_word_marker_on_merged_tokens():
    tok = bpe_core.train("low lower newest widest\n", unit="char", pretokenizer="end-of-word",
                         max_merges=5, min_frequency=1)
    html = tokens_html(tok.spans("lowest low"), "lowest low")
    labels = re.findall(r'data-i="\d+">(.*?)</span>', html)
    marker = '<bdi dir="ltr">&lt;/w&gt;</bdi>'  # read left to right, even after Hebrew
    assert labels == ["low", "est" + marker, "low", marker]


def test_tokenize_boxes_show_partial_bytes_nul_and_zero_width():
    tok = bpe_core.train("a\u200b a\u200b 你", unit="byte", pretokenizer="gpt2", max_merges=4,
                         min_frequency=1)  # ZWSP's three bytes are merged, 你's are not
    text = "a\x00\u200b你"
    html = coloured_html(tok, tok.spans(text), text)
    labels = re.findall(r'data-i="\d+">((?:[^<]|<span class="m">[^<]*</span>)*)</span>', html)
    assert labels == ["a", '<span class="m">⟨NUL⟩</span>', '<span class="m">⟨ZWSP⟩</span>',
                      "&lt;E4&gt;", "&lt;BD&gt;", "&lt;A0&gt;"]
    assert "bytes 00 · &#x27;⟨NUL⟩&#x27;" in html  # the tooltip names the NUL too


def test_train_tables_draw_tokens_in_the_notation():
    t = StepTables(
        step=1,
        words=(WordRow("a\tb\x00", 3, (1, 2, 3, 4), ("a", "\t", "b", "\x00")),
               WordRow("low", 2, (5,), ("low</w>",))),
        pairs=(PairRow(1, 2, "a", "\t", 3, "winner"), PairRow(6, 7, " <E4 BD>", "\u200b", 1)),
        frequencies=(FrequencyRow(5, "low</w>", 2, 2), FrequencyRow(8, "\n", 1, 0)),
        total_tokens=7)
    words = tables.words_frame(t, None, pieces=units("none"))
    assert list(words["piece"]) == ["a→b⟨NUL⟩", "low"]
    assert list(words["tokens"]) == ["a → b ⟨NUL⟩", "low</w>"]
    assert list(tables.pairs_frame(t, None)["pair"]) == ["a + →", "·<E4 BD> + ⟨ZWSP⟩"]
    assert list(tables.frequencies_frame(t, None)["token"]) == ["low</w>", "↵"]


def test_corpus_tables_draw_words_in_the_notation():
    table = top_words_table(counts_stats({"\n": 5, "a\x00": 3, "x\u200by": 1}),
                            pieces=units("gpt2"))
    assert list(table["piece"]) == ["↵", "a⟨NUL⟩", "x⟨ZWSP⟩y"]


def test_columns_are_wide_enough_for_their_longest_token():
    # By the pixels of each character in the grid's font, plus the cell's padding (16).
    assert column_width(["·language"]) == 2 * 3.75 + 7 * 7.5 + 16  # · and l are thin
    assert column_width(["語彙語彙"]) == 4 * 16 + 16  # wide characters count double
    assert column_width(["x"]) == 50 and column_width(["x" * 200]) == 320  # at most: numbers stay


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG 2's contrast ratio of two sRGB colours, each given as three fractions."""
    def luminance(rgb: tuple[float, ...]) -> float:
        r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def css_colour(value: str) -> tuple[float, ...]:
    """A CSS colour, #rrggbb or hsl(h s% l%), as three fractions."""
    if value.startswith("#"):
        return tuple(int(value[i:i + 2], 16) / 255 for i in (1, 3, 5))
    hue, sat, light = (float(x) for x in re.findall(r"[\d.]+", value))
    return colorsys.hls_to_rgb(hue / 360, light / 100, sat / 100)


def test_the_notation_marks_in_token_boxes_are_readable_on_every_box_colour():
    """The marks (· ↵ ⟨NBSP⟩ ⟨ZWSP⟩ ◌) are all a box of whitespace or an invisible character
    shows, drawn small: each must reach WCAG AA's 4.5:1 on every colour a box can have
    (#6b7280 gave 2.53:1 on the lavender #bdb2ff)."""
    mark = re.search(r"\.bpe-tokens \.m\{color:(#[0-9a-f]{6})", CSS).group(1)
    boxes = re.findall(r"\.bpe-tokens \.[ch]\d+\{background:([^}]+)\}", CSS)
    assert len(boxes) == len(PALETTE) + ID_HUES
    worst = min(contrast(css_colour(mark), css_colour(b)) for b in boxes)
    assert worst >= 4.5, f"the marks' {mark} reach only {worst:.2f}:1"
