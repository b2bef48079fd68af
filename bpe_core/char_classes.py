"""Character classes as Hugging Face's ``tokenizers`` reads them, for BERT's normalizer and
StripAccents, where Python's Unicode database reads otherwise.

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
