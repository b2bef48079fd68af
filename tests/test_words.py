"""Counting words: long texts and files are cut into parts, and the counts must not notice."""

from collections import Counter
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.presets import PRESETS
from bpe_core.training import counting as words

# Spaces, newlines, CRLF, punctuation, digits, contractions, CJK and no-break spaces: everything
# that sits next to a possible cut.
atoms = st.sampled_from(list("ab c\n\n  \t.,'1234é你。A\u00a0\u3000") + ["'ll", " 's", "\r\n", "  \n"])
texts = st.lists(atoms, max_size=120).map("".join)


def whole_text_counts(text, pattern, specials=()):
    counts = Counter()
    parts = regex.split("|".join(map(regex.escape, specials)), text) if specials else [text]
    for part in parts:
        counts.update(p for p in regex.findall(pattern, part) if p)
    return counts


@settings(max_examples=150)
@given(text=texts, size=st.integers(1, 30), preset=st.sampled_from(sorted(PRESETS)))
def test_cut_text_counts_as_the_whole(text, size, preset):
    expected = whole_text_counts(text, PRESETS[preset])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(words, "CHUNK_CHARS", size)
        got = words.count_words(text, PRESETS[preset], processes=1)
    assert got == dict(expected) and list(got) == list(expected)  # same first-appearance order


@settings(max_examples=40)
@given(text=texts, size=st.integers(1, 30))
def test_a_file_counts_as_its_text(tmp_path_factory, text, size):
    path = tmp_path_factory.mktemp("c") / "corpus.txt"
    path.write_bytes(text.encode("utf-8"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(words, "CHUNK_CHARS", size)
        for preset in ("gpt2", "cl100k", "o200k", "none"):
            assert words.count_words(Path(path), PRESETS[preset]) == dict(
                whole_text_counts(text, PRESETS[preset]))


def test_every_cut_of_a_tricky_text_counts_as_the_whole(tmp_path):
    # Trailing spaces before a line break, CRLF, punctuation before a newline, a contraction,
    # CJK lines without spaces: try every part size on the text and on a file holding it.
    text = "x  \nfoo bar\r\nbaz. \nqux's 123\n\n你好。\n世界 end  "
    path = tmp_path / "c.txt"
    path.write_bytes(text.encode("utf-8"))
    for size in range(1, len(text) + 1):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(words, "CHUNK_CHARS", size)
            for preset, pattern in PRESETS.items():
                expected = dict(whole_text_counts(text, pattern))
                assert words.count_words(text, pattern) == expected, (size, preset)
                assert words.count_words(Path(path), pattern) == expected, (size, preset)


@pytest.mark.parametrize("special", ["<|end|>", "a b", "x\ny"])
def test_special_tokens_are_never_cut_in_two(monkeypatch, special):
    monkeypatch.setattr(words, "CHUNK_CHARS", 3)
    text = f"one {special} two{special}three\n{special} a b\nx\ny"
    got = words.count_words(text, PRESETS["gpt2"], special_tokens=[special])
    assert got == dict(whole_text_counts(text, PRESETS["gpt2"], [special]))


def test_custom_regexes_are_never_cut(monkeypatch):
    # This regex takes a newline together with the letter after it: any cut would change it.
    monkeypatch.setattr(words, "CHUNK_CHARS", 2)
    text = "ab cd\nef gh\nij"
    assert words.count_words(text, r"\n?\w+|\s") == dict(whole_text_counts(text, r"\n?\w+|\s"))


def test_parallel_counts_equal_one_process(monkeypatch, tmp_path):
    monkeypatch.setattr(words, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(words, "CHUNK_CHARS", 64)
    text = "The cat's 12345 naïve café, 你好。\r\n  indented\n" * 200
    path = tmp_path / "c.txt"
    path.write_text(text, encoding="utf-8")
    for corpus in (text, path, [text, text[:500]]):
        one = words.count_words(corpus, PRESETS["cl100k"], processes=1)
        two = words.count_words(corpus, PRESETS["cl100k"], processes=2)
        assert one == two and list(one) == list(two)
    # A stream (size unknown up front) goes out in batches of BATCH_CHARS.
    monkeypatch.setattr(words, "BATCH_CHARS", 300)
    docs = [text[i:i + 1000] for i in range(0, len(text), 1000)]
    one = words.count_words(iter(docs), PRESETS["cl100k"], processes=1)
    two = words.count_words(iter(docs), PRESETS["cl100k"], processes=2)
    assert one == two and list(one) == list(two)
