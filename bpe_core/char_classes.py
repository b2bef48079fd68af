"""Character classes as Hugging Face's ``tokenizers`` reads them, where Python's Unicode
database reads otherwise: for BERT's normalizer and StripAccents, and the pre-tokenizers' own
(punctuation, digits, Rust's ``\\w`` and whitespace) as regex classes.

``tokenizers`` classes characters with tables of its own, older than Python's: BertNormalizer's
control characters (dropped by ``clean_text``) and non-spacing marks (dropped by
``strip_accents``) are Unicode 8.0's ``Cc``, ``Cf``, ``Co`` and ``Mn`` (the unicode_categories
crate); StripAccents drops the combining marks of its normalization tables (Unicode 9.0). Python
3.11 knows Unicode 14: it would drop U+0890, a format character since Unicode 14, and keep
U+1734, a non-spacing mark in 8.0 and a spacing one since. So each class is the list of code
points that ``tokenizers`` itself puts in it (``char_classes.txt``, which
``tests/test_char_classes.py`` checks on every code point and can write again), whatever
Python's version.

>>> CONTROL.sub("", "a\\u200bb\\x85c\\u0890")  # zero-width space, NEL: gone; U+0890 stays
'abc\\u0890'
>>> NONSPACING.sub("", "e\\u0301\\u1734"), COMBINING.sub("", "e\\u0301\\u0903")
('e', 'e')
>>> CJK.sub(r" \\g<0> ", "ab中文")
'ab 中  文 '
"""

from __future__ import annotations

import re
from importlib import resources

from .unicode16 import class_body, parse_ranges

#: The file's classes, and what each holds in ``tokenizers``.
NAMES = {"control": "BertNormalizer's control characters (clean_text drops them)",
         "nonspacing": "BertNormalizer's non-spacing marks (strip_accents drops them after NFD)",
         "combining": "StripAccents' combining marks"}


def read_classes(text: str) -> dict[str, list[tuple[int, int]]]:
    """Each class of a ``char_classes.txt``: its ranges, under the line ``[name]``.

    >>> read_classes("# made by ...\\n[control]\\n0-8 E-1F\\n[combining]\\n300-36F")
    {'control': [(0, 8), (14, 31)], 'combining': [(768, 879)]}
    """
    classes: dict[str, list[tuple[int, int]]] = {}
    name = None
    for line in text.splitlines():
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            classes[name] = []
        elif name is not None:
            classes[name] += parse_ranges(line)
    return classes


CLASSES = read_classes(
    resources.files(__package__).joinpath("char_classes.txt").read_text(encoding="ascii"))
# Python's re, which tests a character of the BMP against a bitmap.
CONTROL = re.compile(f"[{class_body(CLASSES['control'])}]")
NONSPACING = re.compile(f"[{class_body(CLASSES['nonspacing'])}]")
COMBINING = re.compile(f"[{class_body(CLASSES['combining'])}]")
#: What BertNormalizer's ``handle_chinese_chars`` puts spaces around: the CJK Unified Ideographs
#: blocks as BERT listed them (Hangul, kana and CJK punctuation are not in them).
_CJK_BLOCKS = parse_ranges("""
4E00-9FFF 3400-4DBF 20000-2A6DF 2A700-2B73F 2B740-2B81F 2B920-2CEAF F900-FAFF 2F800-2FA1F""")
CJK = re.compile(f"[{class_body(_CJK_BLOCKS)}]")


# -- regex classes for the pre-tokenizers -------------------------------------------------------

# Rust's \w (regex crate) and char::is_whitespace, spelled out for Python's `regex`.
_WORD = r"\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}"
WORDS_AND_SYMBOLS = rf"[{_WORD}]+|[^{_WORD}\p{{White_Space}}]+"
# Hugging Face's punctuation is ASCII's and Unicode 8.0's P categories (the unicode_categories
# crate): the characters made punctuation since are not, and two that have left it still are
# (found by comparing the two on every code point; those added after Unicode 16 are left to
# the stage's Unicode 16 twin, see unicode16.py).
PUNCTUATION = (
    r"(?![\u061d\u09fd\u0a76\u0c77\u0c84\u1b4e-\u1b4f\u1b7d-\u1b7f\u2e43-\u2e4f\u2e52-\u2e5d"
    r"\U00010d6e\U00010ead\U00010f55-\U00010f59\U00010f86-\U00010f89"
    r"\U000113d4-\U000113d5\U000113d7-\U000113d8\U0001144b-\U0001144f\U0001145a-\U0001145b"
    r"\U0001145d\U00011660-\U0001166c\U000116b9\U0001183b\U00011944-\U00011946\U000119e2"
    r"\U00011a3f-\U00011a46\U00011a9a-\U00011a9c\U00011a9e-\U00011aa2\U00011b00-\U00011b09"
    r"\U00011be1\U00011c41-\U00011c45\U00011c70-\U00011c71\U00011ef7-\U00011ef8"
    r"\U00011f43-\U00011f4f\U00011fff\U00012ff1-\U00012ff2\U00016d6d-\U00016d6f"
    r"\U00016e97-\U00016e9a\U00016fe2\U0001e5ff\U0001e95e-\U0001e95f])"
    r"[\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[\u166d\U000111c9]")
NUMERIC = r"\p{N}"
SPACE = r"\p{White_Space}"
