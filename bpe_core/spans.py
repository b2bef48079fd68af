"""Where each token lies in the text: the characters (and bytes) each token of a piece covers.

A byte-level token may hold part of a character: "é" is two bytes, and a tokenizer that never
merged them shows it as two tokens, each *partial*, both covering that one character.

>>> from bpe_core.vocab import byte_base
>>> base = byte_base()
>>> shown = [base.display(i) for i in range(256)]
>>> [(s.start, s.end, s.partial) for s in piece_spans("hé", 0, [104, 195, 169], shown=shown,
...                                                   length=[1] * 256, base=base)]
[(0, 1, False), (1, 2, True), (1, 2, True)]
"""

from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple, Sequence

from .vocab import Base


class TokenSpan(NamedTuple):
    """A token as it lies in the input: ``text[start:end]`` (character offsets) is what it covers.

    ``partial`` is True when the token holds only part of a character's UTF-8 bytes; then its
    neighbour covers the same character too.

    A named tuple, not a dataclass: ``Tokenizer.spans`` makes one per token, and a tuple is made
    about six times faster (17,000 of them: 6 ms against 38 ms).
    """

    id: int
    token: str  # display text
    bytes: bytes  # the input bytes it covers
    start: int
    end: int
    partial: bool = False
    special: bool = False


def piece_spans(piece: str, start: int, ids: Sequence[int], *, shown: Sequence[str],
                length: Sequence[int], base: Base) -> list[TokenSpan]:
    """The spans of ``ids``, the tokens of ``piece``, which starts at character ``start``.

    ``shown`` and ``length`` give each token id's display text and its number of base symbols.
    """
    if piece.isascii():
        # The common case, fast: one byte per character and one base symbol per character
        # (</w> covers none), so a token covers as many characters as it has base symbols.
        data, spans, b = piece.encode("ascii"), [], 0
        for i in ids:
            k = length[i]
            spans.append(TokenSpan(i, shown[i], data[b:b + k], start + b, start + b + k))
            b += k
        return spans
    data = piece.encode("utf-8")
    if base.unit == "byte":
        # One base symbol per byte. lead[k]: byte k starts a character (k = len: the end);
        # before[k]: characters started before byte k. A token that starts or ends inside a
        # character is partial and shares that character with its neighbour.
        lead = [b & 0xC0 != 0x80 for b in data]
        lead.append(True)
        before = [0, *accumulate(lead)]
        spans, lo = [], 0
        for i in ids:
            hi = lo + length[i]
            first = before[lo + 1] - 1
            spans.append(TokenSpan(i, shown[i], data[lo:hi], start + first,
                                   start + (before[hi] if hi > lo else first),
                                   not (lead[lo] and lead[hi])))
            lo = hi
        return spans
    # char_at[k]: index (in the piece) of the character holding byte k; boundary[k]: k starts one
    char_at, boundary = [], []
    for ci, ch in enumerate(piece):
        n = len(ch.encode("utf-8"))
        char_at.extend([ci] * n)
        boundary.extend([True] + [False] * (n - 1))
    char_at.append(len(piece))
    boundary.append(True)
    # Bytes each base symbol covers: one per byte, one character's per character.
    widths = []
    for ch in piece:
        n = len(ch.encode("utf-8"))
        if base.unit == "char" and (ch in base.char_ids or not base.byte_fallback):
            widths.append(n)
        else:
            widths.extend([1] * n)
    if base.end_of_word:
        widths.append(0)
    spans, b, sym = [], 0, 0
    for i in ids:
        k = length[i]
        width = sum(widths[sym:sym + k])
        sym += k
        lo, hi = b, b + width
        b = hi
        first = char_at[lo] if lo < len(data) else len(piece)
        last = char_at[hi - 1] + 1 if hi > lo else first
        spans.append(TokenSpan(i, shown[i], data[lo:hi], start + first, start + last,
                               partial=not (boundary[lo] and boundary[hi])))
    return spans
