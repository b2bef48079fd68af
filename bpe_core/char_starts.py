"""Byte-level merging started from whole characters, where that changes nothing.

A byte-level model starts a piece from its UTF-8 bytes: a Chinese character is three symbols,
and most often two merges make it one token again, in every new part of every text. Made once
per character instead, the merges that are left are the ones between characters.

>>> from bpe_core import train
>>> tok = train("中文 中文 中文", unit="byte", pretokenizer="gpt2", min_frequency=1)
>>> [m.token for m in tok.merges][:3]  # 中 is made, then joined to the first byte of 文
['<E4 B8>', '中', '中<E6>']
>>> starts = CharStarts(tok.model, bytes(range(256)), Cutter.for_bytes(tok.model))
>>> starts["中"], starts["文"], starts["a"]  # (文's bytes merge only after 中)
((257,), (230, 150, 135), (97,))
>>> starts.free("文文"), starts.free("中文")
(True, False)
"""

from __future__ import annotations

from .cuts import Cutter
from .models import BPE


def byte_ids(piece: str, table: bytes | list[int]) -> list[int]:
    """The ids of the byte characters of ``piece``'s UTF-8 (``table``: byte value -> id)."""
    data = piece.encode("utf-8")
    return list(data.translate(table)) if isinstance(table, bytes) else [table[b] for b in data]


class CharStarts(dict):
    """Character -> the ids a byte-level model's merging makes of its bytes alone, filled on
    first lookup; a piece may start from them when none of its characters is one the cutter
    never cuts beside (``free``).

    Why merging then gives the same ids. No merge joins part of a character to anything
    beyond it, unless it joins a tail of some character to what follows (which the cutter
    never cuts before) or something ending in a whole character x to the head of another
    (x is never cut after): with neither in the piece, each character's bytes merge only
    among themselves until they are whole, or for good. When every merge comes after the
    merges that make its parts (``BPE.merges_in_order``), merging is making each merge in
    rank order wherever it occurs; the merges inside a character touch nothing else, and any
    merge of a whole character comes after the one that makes it. Made first, they change
    neither what the others meet nor when.
    """

    def __init__(self, model: BPE, table: bytes | list[int], cutter: Cutter):
        super().__init__()
        self.model, self.table = model, table
        self.free = (cutter.no_after | cutter.no_before).isdisjoint

    def __missing__(self, char: str) -> tuple[int, ...]:
        ids = self[char] = tuple(self.model.merge(byte_ids(char, self.table)))
        return ids
