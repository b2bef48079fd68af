"""Token boxes a keyboard and a screen reader can use: on the Tokenize page a box is picked by
clicking it, so the boxes there are buttons named by their token and id, one at a time in the
Tab order (the page's script moves along them with the arrow keys, Enter picks), and a box
reached with the keyboard shows a focus ring."""

from __future__ import annotations

import re

from bpe_core import TokenSpan
from ui.shared import tokens

SPANS = [TokenSpan(15496, "Hello", b"Hello", 0, 5), TokenSpan(995, " world", b" world", 5, 11),
         TokenSpan(0, "!", b"!", 11, 12)]
TEXT = "Hello world!"
BOX = re.compile(r'<span class="t [^"]*" title="[^"]*" (.*?)data-s="\d+" data-e="\d+" '
                 r'data-i="(\d+)">')


def keys(**options) -> list[tuple[str, str]]:
    """``(attributes, position)`` of each box: what comes between its tooltip and its offsets."""
    return BOX.findall(tokens.tokens_html(SPANS, TEXT, **options))


def test_pickable_boxes_are_named_buttons_with_the_framed_one_in_the_tab_order():
    assert keys(pickable=True, chosen=1) == [
        ('role="button" tabindex="-1" aria-label="token &#x27;Hello&#x27;, id 15496" ', "0"),
        ('role="button" tabindex="0" aria-label="token &#x27;·world&#x27;, id 995" ', "1"),
        ('role="button" tabindex="-1" aria-label="token &#x27;!&#x27;, id 0" ', "2")]


def test_without_a_framed_box_the_first_drawn_one_is_reached_with_tab():
    # A page of a long text: the framed box is on another page, so this page's first box.
    assert [a.split()[1] for a, _ in keys(pickable=True, window=range(1, 3), chosen=0)] == [
        'tabindex="0"', 'tabindex="-1"']
    assert [a.split()[1] for a, _ in keys(pickable=True, label="id")] == [
        'tabindex="0"', 'tabindex="-1"', 'tabindex="-1"']


def test_boxes_that_cannot_be_picked_stay_out_of_the_tab_order():
    # Train's passage, Compare, Languages: a tooltip, but no Tab stop for each of their boxes.
    assert keys() == [("", "0"), ("", "1"), ("", "2")]


def test_a_box_reached_with_the_keyboard_shows_a_focus_ring_over_its_other_frames():
    assert f".bpe-tokens .t:focus-visible{{outline:3px solid {tokens.ACCENT};" in tokens.CSS
    # After the special-token, tie and picked frames, so it wins over them.
    assert tokens.CSS.index(":focus-visible") > tokens.CSS.index(".bpe-tokens .on{")
