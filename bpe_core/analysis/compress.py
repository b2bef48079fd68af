"""Byte-pair compression as Philip Gage described it in 1994 ("A New Algorithm for Data
Compression", The C Users Journal): the ancestor of BPE tokenization.

Find the most frequent pair of adjacent byte values, replace it everywhere with a byte value the
data does not use, write the replacement down in a table, and repeat. The classic example, with
Z, Y, X naming the first, second and third new byte value:

>>> result = compress(b"aaabdaaabac")
>>> names = symbol_names(result)
>>> [render(step, names) for step in result.steps]
['ZabdZabac', 'ZYdZYac', 'XdXac']
>>> [(names[r.symbol], bytes(r.pair)) for r in result.table]
[('Z', b'aa'), ('Y', b'ab'), ('X', b'\\xff\\xfe')]
>>> result.ratio  # 5 bytes left of 11; lower is better
0.45454545454545453
>>> decompress(result.data, result.table)
b'aaabdaaabac'

The rules, fixed so that every run gives the same answer:

- Counting sees every adjacent pair, overlapping ones too: ``aaa`` holds ``aa`` twice.
- Replacing goes left to right without overlap: ``aaa`` becomes ``Za``.
- Ties go to the smallest ``(left, right)`` pair of byte values.
- New symbols are the highest unused byte values first: 255, 254, ...
- It stops when no pair occurs at least twice or no byte value is left unused. (Gage's code
  waits for three, its THRESHOLD: a pair replaced twice saves what its table entry costs. Two
  keeps the textbook example, whose last two pairs occur twice.)

The table is part of the compressed message: without it the data cannot be expanded, so a real
compressor ships both (Gage wrote the table in front of each block).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable


@dataclass(frozen=True)
class Replacement:
    """One line of the table: ``symbol`` stands for the byte values ``pair``.

    ``count`` is how often the pair was counted when it was chosen (overlapping occurrences
    included), which can be more than the number of places it replaced: ``aaa`` counts ``aa``
    twice but becomes ``Za``.
    """

    symbol: int
    pair: tuple[int, int]
    count: int


@dataclass(frozen=True)
class Compression:
    """What :func:`compress` returns.

    ``data`` is only half the message: :func:`decompress` needs ``table`` too, so anything that
    stores or sends the data must send the table with it.
    """

    data: bytes
    table: tuple[Replacement, ...]
    steps: tuple[bytes, ...]  # the data after each replacement; steps[-1] == data
    original_size: int

    @property
    def ratio(self) -> float:
        """Compressed size / original size: lower is better, 1.0 means nothing was gained.

        The table is not counted, so this is the ratio of the data alone.
        """
        if self.original_size == 0:
            return 1.0
        return len(self.data) / self.original_size

    @property
    def repeated(self) -> tuple[tuple[int, int], int] | None:
        """The most frequent pair left in ``data`` if it occurs twice or more, with its count:
        then compression stopped because no byte value was left unused, not for want of pairs.

        >>> compress(bytes(range(256)) * 2).repeated
        ((0, 1), 2)
        >>> compress(b"aaabdaaabac").repeated is None
        True
        """
        best = _most_frequent(self.data)
        return best if best is not None and best[1] >= 2 else None


def compress(data: bytes) -> Compression:
    """Compress ``data`` by repeated byte-pair replacement (see the module docstring).

    >>> compress(b"abab").table
    (Replacement(symbol=255, pair=(97, 98), count=2),)
    """
    data = _as_bytes(data)
    original_size = len(data)
    # A byte value can be a new symbol only if it means nothing yet: not in the input, not
    # already taken. Taking the highest first keeps new symbols clear of ASCII text.
    free = sorted(set(range(256)) - set(data))
    table: list[Replacement] = []
    steps: list[bytes] = []
    while free:
        best = _most_frequent(data)
        if best is None or best[1] < 2:
            break  # replacing a pair seen once saves one byte but costs a table entry
        pair, count = best
        symbol = free.pop()
        # bytes.replace scans left to right and never overlaps: exactly the rule we want.
        data = data.replace(bytes(pair), bytes([symbol]))
        table.append(Replacement(symbol, pair, count))
        steps.append(data)
    return Compression(data, tuple(table), tuple(steps), original_size)


def _most_frequent(data: bytes) -> tuple[tuple[int, int], int] | None:
    """The pair to replace next and its count, or None when ``data`` has no pair at all."""
    # zip(data, data[1:]) walks every adjacent pair, so overlapping pairs are all counted.
    counts = Counter(zip(data, data[1:]))
    if not counts:
        return None
    # Highest count first; among equals, the smallest pair, so the result is reproducible.
    pair = min(counts, key=lambda p: (-counts[p], p))
    return pair, counts[pair]


def decompress(data: bytes, table: Iterable[Replacement]) -> bytes:
    """Undo :func:`compress`: expand each table entry, the last one made first.

    Reverse order matters: a later symbol may stand for a pair holding an earlier symbol (X is
    Z then Y above), so X must be expanded before Z and Y can be.

    >>> decompress(b"\\xffc", [Replacement(255, (97, 98), 2)])
    b'abc'
    """
    data = _as_bytes(data)
    for replacement in reversed(tuple(table)):
        # The symbol was unused when it was made, so every occurrence of it is this pair.
        data = data.replace(bytes([replacement.symbol]), bytes(replacement.pair))
    return data


def symbol_names(result: Compression) -> dict[int, str]:
    """Display names for the new symbols, in the order made: Z, Y, ..., A, then Z₂, Y₂, ...; a
    letter the original data holds is left out, so that no name reads as the data's own text.
    The round is a subscript, which no byte is drawn as: a symbol Y followed by the data's own
    2 reads Y2, never the symbol Y₂.

    >>> symbol_names(compress(b"aaabdaaabac"))
    {255: 'Z', 254: 'Y', 253: 'X'}
    >>> result = compress(b"ZZYYXX ZZYYXX ZZYYXX")  # Z, Y and X are the text's own
    >>> render(result.steps[2], symbol_names(result))
    'UVW UVW UVW'
    """
    held = set(decompress(result.data, result.table))
    letters = [chr(c) for c in range(ord("Z"), ord("A") - 1, -1) if c not in held]
    if not letters:  # (every capital is the text's: numbered marks, which no byte draws as)
        return {r.symbol: f"⟨{k + 1}⟩" for k, r in enumerate(result.table)}
    names = {}
    for i, replacement in enumerate(result.table):
        round_, offset = divmod(i, len(letters))
        suffix = str(round_ + 1).translate(_SUBSCRIPTS) if round_ else ""
        names[replacement.symbol] = letters[offset] + suffix
    return names


def render(data: bytes, names: dict[int, str]) -> str:
    """Show bytes as text: named symbols by name, printable ASCII, tab and newlines as
    themselves (for a page to draw in its notation), other bytes as ``<XX>``.

    >>> render(b"\\xffa\\n\\x00", {255: "Z"})
    'Za\\n<00>'
    """
    return "".join(names[b] if b in names else chr(b) if 0x20 <= b < 0x7F or b in _WHITESPACE
                   else f"<{b:02X}>" for b in data)


_WHITESPACE = frozenset(b"\t\n\r")
_SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def _as_bytes(data) -> bytes:
    if isinstance(data, str):
        raise TypeError(
            "byte-pair compression works on bytes, not str; encode the text first, "
            'e.g. text.encode("utf-8")'
        )
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"expected bytes, got {type(data).__name__}")
    return bytes(data)
