"""``bpe_core/char_classes.txt`` against ``tokenizers`` on every code point: each class holds
exactly the characters ``tokenizers`` treats so. ``UPDATE_CHAR_CLASSES=1`` writes the file from
what ``tokenizers`` does (after a release that changes its tables)."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import regex
from tokenizers import normalizers as N

from bpe_core import char_classes, normalizers
from bpe_core.unicode16 import runs_of

FILE = Path(char_classes.__file__).with_name("char_classes.txt")
EVERY = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)


def _bert(**on) -> N.BertNormalizer:
    options = dict(clean_text=False, handle_chinese_chars=False, strip_accents=False,
                   lowercase=False)
    return N.BertNormalizer(**(options | on))


@functools.cache
def theirs() -> dict[str, list[tuple[int, int]]]:
    """Each class as ``tokenizers`` has it, found by running its normalizers on every code
    point at once."""
    # clean_text drops control characters and makes the rest of the whitespace " " (two
    # characters, NUL and U+FFFD, it drops by name): what it drops, spaces apart.
    # (Sets of a million characters: made once, and the texts taken from them as they are,
    # not made sets first: 1.6 s -> 0.5 s each.)
    every = set(EVERY)
    clean = _bert(clean_text=True)
    spaces = {c for c in regex.findall(r"\p{White_Space}", EVERY) if clean.normalize_str(c)}
    control = every.difference(clean.normalize_str(EVERY), spaces, "\x00\ufffd")
    # strip_accents: NFD, then no non-spacing mark; a mark NFD never leaves is never looked at.
    decomposed = N.NFD().normalize_str(EVERY)
    nonspacing = set(decomposed).difference(_bert(strip_accents=True).normalize_str(EVERY))
    combining = every.difference(N.StripAccents().normalize_str(EVERY))
    return {"control": runs_of(control), "nonspacing": runs_of(nonspacing),
            "combining": runs_of(combining)}


def _file_text(classes: dict[str, list[tuple[int, int]]]) -> str:
    lines = ["# Hugging Face tokenizers' character classes (see bpe_core/char_classes.py), as",
             "# hexadecimal code point ranges; written by tests/test_char_classes.py from what",
             "# tokenizers does on every code point (UPDATE_CHAR_CLASSES=1)."]
    for name, ranges in classes.items():
        lines += [f"[{name}]", f"# {char_classes.NAMES[name]}"]
        words = [f"{a:X}" if a == b else f"{a:X}-{b:X}" for a, b in ranges]
        lines += [" ".join(words[k:k + 8]) for k in range(0, len(words), 8)]
    return "\n".join(lines) + "\n"


def test_the_classes_are_those_of_tokenizers():
    want = theirs()
    if os.environ.get("UPDATE_CHAR_CLASSES"):
        FILE.write_text(_file_text(want), encoding="ascii")
    assert char_classes.CLASSES == want
    for name, pattern in (("control", char_classes.CONTROL), ("nonspacing",
                          char_classes.NONSPACING), ("combining", char_classes.COMBINING)):
        assert runs_of(set(pattern.findall(EVERY))) == want[name], name


def test_the_classes_differ_from_pythons_where_tokenizers_is_older():
    # The reason for the file: Python 3.11 (Unicode 14) would class these otherwise.
    assert not char_classes.CONTROL.match("\u0890")  # a format character since Unicode 14
    assert char_classes.NONSPACING.match("\u1734")  # non-spacing in 8.0, spacing since
    assert not char_classes.NONSPACING.match("\u0898")  # a mark since Unicode 14
    assert char_classes.COMBINING.match("\u0903")  # a spacing mark is a combining mark


def test_chinese_characters_are_the_blocks_tokenizers_spaces():
    spaced = _bert(handle_chinese_chars=True).normalize_str(EVERY)
    assert char_classes.CJK.sub(r" \g<0> ", EVERY) == spaced


def test_the_normalizers_on_every_code_point():
    for options in ({}, {"lowercase": False}, {"strip_accents": True, "lowercase": False}):
        want = N.BertNormalizer(**options).normalize_str(EVERY)
        ours = normalizers.BertNormalizer(**options)
        assert ours.normalize_str(EVERY) == want, options
    marks = "".join(regex.findall(r"[\p{M}\p{Cc}\p{Cf}\p{Zs}\p{Lu}]", EVERY))
    aligned = ours.normalize_aligned(marks, [(k, k + 1) for k in range(len(marks))])[0]
    assert aligned == N.BertNormalizer(**options).normalize_str(marks)
    assert normalizers.StripAccents().normalize_str(EVERY) == N.StripAccents().normalize_str(EVERY)
