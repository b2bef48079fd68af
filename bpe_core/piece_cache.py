"""The caches behind encoding: piece -> ids and part -> ids, one of each per merge limit.

Each fills itself: a piece or part not seen before is encoded on its first lookup, so that a
text's pieces are all looked up in C loops (``encoding.Plan.encode_pieces``).

>>> class Lengths:  # a plan whose "ids" of a piece are its length
...     def encode_new(self, piece, cache): return (len(piece),)
>>> plan = Lengths()
>>> cache = PieceCache(plan, None)
>>> cache["abc"], cache[7], list(cache)  # (an added token's id maps to itself)
((3,), (7,), ['abc', 7])
"""

from __future__ import annotations

import weakref
from typing import Protocol

#: Pieces this long are not kept in the cache (a whole text, for a model with no pre-tokenizer,
#: is one piece); their parts are.
LONG_PIECE_CHARS = 256


class Plan(Protocol):
    """What a cache asks of its plan (``encoding.Plan``)."""

    byte_table: bytes | list[int] | None

    def encode_new(self, piece: str, cache: PieceCache) -> tuple[int, ...]: ...

    def merge(self, part: str, limit: int | None) -> tuple[int, ...]: ...

    def merge_all(self, parts: list[str], limit: int | None) -> list[tuple[int, ...]]: ...


class PieceCache(dict):
    """Piece -> ids at one merge limit; a piece not seen before is encoded on first lookup.

    It refers to its plan weakly: a cycle would leave every dropped tokenizer to the garbage
    collector instead of freeing it at once.
    """

    def __init__(self, plan: Plan, limit: int | None):
        super().__init__()
        self.plan, self.limit = weakref.ref(plan), limit
        self.parts = PartCache(self.plan, limit)

    def __missing__(self, key: str | int) -> tuple[int, ...]:
        if isinstance(key, int):  # an added token's id
            ids = self[key] = (key,)
            return ids
        ids = self.plan().encode_new(key, self)
        if len(key) < LONG_PIECE_CHARS:
            self[key] = ids  # a long piece is not kept: it may be a whole text
        return ids


class PartCache(dict):
    """The parts of cut pieces -> ids at one merge limit, merged on first lookup and never cut
    again (no cut is left in them); ``cut_new`` also keeps words there, made of their parts'
    ids (``Cutter.split_words``). Apart from pieces: with ``ignore_merges`` a whole piece is
    looked up as a token, a part is not."""

    def __init__(self, plan: "weakref.ref[Plan]", limit: int | None):
        super().__init__()
        self.plan, self.limit = plan, limit

    def __missing__(self, part: str) -> tuple[int, ...]:
        ids = self.plan().merge(part, self.limit)
        if len(part) < LONG_PIECE_CHARS:
            self[part] = ids
        return ids

    def fill(self, parts: list[str]) -> None:
        """Merge the parts not met before all in one go, before they are looked up: for a
        model of characters, the calls for each cost more than most of them take to merge
        (Gemma, 0.5 MB of CJK: 12,738 new parts of 1-2 tokens, 0.096 -> 0.087 s). A byte-level
        model's parts are read by a table one by one as fast, and the extra pass costs."""
        plan = self.plan()
        if plan.byte_table is not None:
            return
        new = [p for p in dict.fromkeys(parts) if len(p) < LONG_PIECE_CHARS and p not in self]
        if new:
            self.update(zip(new, plan.merge_all(new, self.limit)))
