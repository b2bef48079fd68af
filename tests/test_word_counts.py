"""Typed word-frequency tables (``bpe_core.analysis.word_counts``): the forms courses use, the
messages for malformed entries, and training on them giving the textbook's merges."""

from __future__ import annotations

import pytest

import bpe_core
from bpe_core.analysis.word_counts import (MAX_WORDS, WordCountError, format_word_counts,
                                           parse_word_counts)
from bpe_core.training.textbook import reference_train

HF_COURSE = "hug 10, pug 5, pun 12, bun 4, hugs 5"


@pytest.mark.parametrize("text", [
    HF_COURSE,
    "hug 10\npug 5\npun 12\nbun 4\nhugs 5\n",
    "hug: 10, pug:5\r\npun :12\nbun\t4,, hugs\t 5",
    "  hug   10 ,\n\n pug 5, pun 12, bun 4, hugs 5 , ",
])
def test_the_forms_courses_use_give_the_same_table(text):
    counts = parse_word_counts(text)
    assert counts == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    assert list(counts) == ["hug", "pug", "pun", "bun", "hugs"]  # typed order: the tie rule's


def test_the_table_reads_back_from_its_one_line_form():
    counts = {"low": 5, "lowest": 2, "a:b": 1, "привет": 3, "👍🏽": 2}
    assert parse_word_counts(format_word_counts(counts)) == counts


@pytest.mark.parametrize("text, message", [
    ("hug 10, pug", "'pug' has no count: write the word, a space and how often it occurs"),
    ("hug 10, 7", "'7' has no count"),
    ("hug 10, : 7", "': 7' has no word before its count."),
    ("hug 10 pug 5", "'hug 10 pug 5' is not one word and its count: separate entries with "
                     "commas or new lines"),
    ("hug ten", "'hug ten': the count 'ten' is not a whole number of 1 or more."),
    ("hug -3", "'hug -3': the count '-3' is not a whole number of 1 or more."),
    ("hug 2.5", "'hug 2.5': the count '2.5' is not a whole number of 1 or more."),
    ("hug 0", "'hug 0': a count must be at least 1."),
    # Past 64-bit integers, the Corpus page's table of words stopped with an error box.
    ("hug 99999999999999999999", "'hug 99999999999999999999': a count must be at most "
                                 "1,000,000,000."),
    ("hug 1, pug 2, hug 3", "'hug' is given twice (1 and 3): give each word once"),
    (" ,\n ", "no words: type each word with its count"),
    # An Arabic-Indic digit:
    ("hug ٣", "'hug ٣': the count '٣' is not a whole number of 1 or more."),
])
def test_a_malformed_entry_is_named(text, message):
    with pytest.raises(WordCountError) as info:
        parse_word_counts(text)
    assert str(info.value).startswith(message)


def test_a_huge_table_is_refused_with_a_pointer_to_uploads():
    text = ", ".join(f"w{i} 1" for i in range(MAX_WORDS + 1))
    with pytest.raises(WordCountError, match="upload its text instead"):
        parse_word_counts(text)


@pytest.mark.parametrize("pretokenizer, merges", [
    # The Hugging Face course: u+g (20), u+n (16), h+ug (15), then p+un (12).
    ("whitespace", [("u", "g", 20), ("u", "n", 16), ("h", "ug", 15), ("p", "un", 12)]),
    # With Sennrich's end-of-word marker, un</w> (pun, bun) comes before hug.
    ("end-of-word", [("u", "g", 20), ("u", "n", 16), ("un", "</w>", 16), ("h", "ug", 15)]),
])
def test_training_on_the_typed_table_gives_the_textbook_merges(pretokenizer, merges):
    counts = parse_word_counts(HF_COURSE)
    tok = bpe_core.train(counts, unit="char", pretokenizer=pretokenizer, max_merges=4,
                         min_frequency=1)
    assert [(m.left, m.right, m.count) for m in tok.merges] == merges
    # The textbook loop, recounting every pair of every occurrence, agrees id for id.
    assert [(m.left_id, m.right_id, m.count) for m in tok.merges] == reference_train(
        counts, unit="char", pretokenizer=pretokenizer, max_merges=4, min_frequency=1)
