"""Unicode scripts of characters and texts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core.analysis.scripts import dominant_script, script_counts, script_of


@pytest.mark.parametrize(
    "ch, script",
    [
        ("a", "Latin"), ("Ž", "Latin"), ("я", "Cyrillic"), ("λ", "Greek"), ("ب", "Arabic"),
        ("א", "Hebrew"), ("न", "Devanagari"), ("ক", "Bengali"), ("த", "Tamil"), ("ก", "Thai"),
        ("ა", "Georgian"), ("Ա", "Armenian"), ("አ", "Ethiopic"), ("က", "Myanmar"), ("中", "Han"),
        ("あ", "Hiragana"), ("カ", "Katakana"), ("한", "Hangul"), ("Ꮳ", "Cherokee"),
        ("ⵜ", "Tifinagh"), ("7", "Common"), ("!", "Common"), (" ", "Common"), ("\n", "Common"),
        ("😀", "Common"), ("\u0301", "Inherited"), ("\u200d", "Inherited"),
        ("\ue000", "Unknown"), ("\U000e0080", "Unknown"),
    ],
)
def test_script_of(ch, script):
    assert script_of(ch) == script


def test_script_of_takes_exactly_one_character():
    with pytest.raises(ValueError, match="one character, got 2"):
        script_of("ab")


def test_mixed_text_exact_counts_largest_first():
    text = "Hello мир 世界 سلام 😀!"
    counts = script_counts(text)
    assert counts == {"Common": 6, "Latin": 5, "Arabic": 4, "Cyrillic": 3, "Han": 2}
    assert list(counts) == ["Common", "Latin", "Arabic", "Cyrillic", "Han"]


def test_ties_keep_the_order_of_first_appearance():
    assert list(script_counts("ab αβ")) == ["Latin", "Greek", "Common"]
    assert list(script_counts("αβ ab")) == ["Greek", "Latin", "Common"]


def test_inherited_characters_take_the_script_of_the_one_before():
    assert script_counts("e\u0301") == {"Latin": 2}
    assert script_counts("\u0301x") == {"Common": 1, "Latin": 1}  # nothing before: Common
    assert script_counts("кра\u0301сный") == {"Cyrillic": 8}  # stress mark
    assert script_counts("بِسْمِ") == {"Arabic": 6}  # harakat are Inherited
    family = "👨\u200d👩\u200d👧"  # emoji joined by ZWJ, themselves Common
    assert script_counts(family + "a\u0300\u0323") == {"Common": 5, "Latin": 3}


def test_dominant_script_ignores_common():
    assert dominant_script("Привет, world!") == "Cyrillic"
    assert dominant_script("2024年3月") == "Han"
    assert dominant_script("123 !!! 😀") == "Common"
    assert dominant_script("") == "Common"


@given(st.text())
def test_counts_add_up_to_the_length(text):
    counts = script_counts(text)
    assert sum(counts.values()) == len(text)
    assert "Inherited" not in counts
    assert list(counts.values()) == sorted(counts.values(), reverse=True)
