"""A word-frequency table typed by hand, the form in which courses give their toy corpora.

Entries are separated by commas or new lines; each is a word and its count, with a space, a
colon or a tab between them. The result maps each word to its count, in the order typed (which
the "first" tie rule goes by), ready for ``bpe_core.train``:

>>> parse_word_counts("hug 10, pug 5, pun 12, bun 4, hugs 5")
{'hug': 10, 'pug': 5, 'pun': 12, 'bun': 4, 'hugs': 5}
>>> parse_word_counts("low: 5\\nlowest\\t2\\n")
{'low': 5, 'lowest': 2}
>>> format_word_counts({'hug': 10, 'pug': 5})
'hug 10, pug 5'
"""

from __future__ import annotations

import re
from collections.abc import Mapping

#: Typed tables stay small: a teacher's example, not a corpus counted elsewhere (upload that).
MAX_WORDS = 5_000
#: The largest count: the statistics and step tables hold counts, pair counts and bytes as
#: 64-bit integers, and 5,000 words of this count stay far inside them (a count of 10**20
#: stopped the Corpus page with an error box).
MAX_COUNT = 10**9
# The count is the last run of digits, after a space, a colon or a tab; the word is what precedes.
_ENTRY = re.compile(r"(?P<word>.*?)\s*(?::\s*|\s)\s*(?P<count>\S+)")
_SEPARATORS = re.compile(r"[,\n\r]+")


class WordCountError(ValueError):
    """A word-frequency table that cannot be read; the message names the entry at fault."""


def parse_word_counts(text: str) -> dict[str, int]:
    """Read ``word count`` entries (also ``word: count`` or tab-separated) into a mapping.

    Raises :class:`WordCountError` naming the first malformed entry: a missing or non-numeric
    count, a count below 1, a word with spaces inside (two entries missing their comma), or a
    word given twice.

    >>> try:
    ...     parse_word_counts("hug 10, pug five")
    ... except WordCountError as exc:
    ...     print(exc)
    'pug five': the count 'five' is not a whole number of 1 or more.
    """
    counts: dict[str, int] = {}
    for raw in _SEPARATORS.split(text):
        entry = raw.strip()
        if not entry:
            continue
        m = _ENTRY.fullmatch(entry)
        if m is None:
            raise WordCountError(f"{entry!r} has no count: write the word, a space and how "
                                 f"often it occurs, as in hug 10.")
        if not m["word"]:
            raise WordCountError(f"{entry!r} has no word before its count.")
        word, count = m["word"], m["count"]
        if any(c.isspace() for c in word):
            raise WordCountError(f"{entry!r} is not one word and its count: separate entries "
                                 f"with commas or new lines, as in hug 10, pug 5.")
        if not (count.isascii() and count.isdigit()):
            raise WordCountError(f"{entry!r}: the count {count!r} is not a whole number of 1 "
                                 f"or more.")
        if int(count) < 1:
            raise WordCountError(f"{entry!r}: a count must be at least 1.")
        if int(count) > MAX_COUNT:
            raise WordCountError(f"{entry!r}: a count must be at most {MAX_COUNT:,}.")
        if word in counts:
            raise WordCountError(f"{word!r} is given twice ({counts[word]} and {count}): give "
                                 f"each word once, with its total count.")
        counts[word] = int(count)
        if len(counts) > MAX_WORDS:
            raise WordCountError(f"more than {MAX_WORDS:,} words: for a bigger corpus, upload "
                                 f"its text instead.")
    if not counts:
        raise WordCountError("no words: type each word with its count, as in hug 10, pug 5.")
    return counts


def format_word_counts(counts: Mapping[str, int]) -> str:
    """The table as :func:`parse_word_counts` reads it back, one line: ``hug 10, pug 5``."""
    return ", ".join(f"{word} {n}" for word, n in counts.items())
