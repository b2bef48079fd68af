"""Sennrich et al.'s end-of-word symbol ``</w>``: a pre-tokenizer step of this playground.

Textbook BPE (Sennrich et al. 2016; Jurafsky & Martin's ``_``) ends every word with a symbol of
its own, which merges like any other ("t" + "</w>" -> "t</w>"). Hugging Face's pipeline has no
such step (its ``end_of_word_suffix`` glues the marker to the last character instead), so this
one is ours: it appends a marker character to every piece. The marker is a Unicode
noncharacter, which text never holds; one that does turns into U+FFFD.

>>> EndOfWord().split(["low", "er"])
['low\\ufdd0', 'er\\ufdd0']
>>> EndOfWord().split_aligned([("ab", [(0, 1), (1, 2)])])
[('ab\\ufdd0', [(0, 1), (1, 2), (2, 2)])]
"""

from __future__ import annotations

from dataclasses import dataclass

MARKER = "\ufdd0"


def without_marker(word_counts: dict[str, int]) -> dict[str, int]:
    """Character-level training words as ``EndOfWord`` hands them on: a marker in the text
    itself becomes U+FFFD (a byte-level tokenizer sees its bytes, which never collide).

    >>> without_marker({"a\ufdd0": 2, "a\ufffd": 1})
    {'a\ufffd': 3}
    """
    out: dict[str, int] = {}
    for word, n in word_counts.items():
        word = word.replace(MARKER, "\ufffd")
        out[word] = out.get(word, 0) + n
    return out


@dataclass(frozen=True)
class EndOfWord:
    """Append ``marker`` (one character, shown as ``</w>``) to every piece."""

    marker: str = MARKER

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        m = self.marker
        return [(p.replace(m, "\ufffd") if m in p else p) + m for p in pieces]

    def split_aligned(self, pieces):
        # The marker stands for no character: an empty range where the piece ends.
        return [(text, ranges + [(ranges[-1][1],) * 2] if ranges else [(0, 0)])
                for text, ranges in zip(self.split([p for p, _ in pieces]),
                                        (r for _, r in pieces))]

    def to_dict(self) -> dict:
        return {"type": "EndOfWord", "marker": self.marker}
