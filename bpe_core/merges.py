"""The learned merges of a tokenizer: held as arrays of ids, read as :class:`Merge` records.

A vocabulary such as o200k has some 200,000 merges. As 200,000 Python objects they would cost
memory, time to build and, above all, time in every full pass of the garbage collector, which
visits each of them and everything they point to (tens of milliseconds per 32,000, landing on
whatever the app is doing). So a tokenizer keeps three arrays of C integers and the display
texts it needs anyway, and ``tok.merges[i]`` makes the record when it is read:

>>> merges = MergeList(3, left=[0, 3], right=[1, 2], count=[5, 2],
...                    shown=["a", "b", "c", "ab", "abc"])
>>> merges[1]
Merge(rank=1, left='ab', right='c', token='abc', count=2, left_id=3, right_id=2, token_id=4)
>>> [m.token for m in merges], len(merges)
(['ab', 'abc'], 2)
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Iterable, Iterator, Sequence, overload


@dataclass(frozen=True)
class Merge:
    """One learned merge: ``left + right -> token`` (display texts), with ids and its count."""

    rank: int
    left: str
    right: str
    token: str
    count: int
    left_id: int
    right_id: int
    token_id: int


class MergeList(Sequence[Merge]):
    """The merges in training order; merge ``r`` makes token ``n_base + r``.

    ``shown`` holds the display text of every token id (base symbols first); it is shared, not
    copied, so it must not change afterwards.
    """

    __slots__ = ("n_base", "left", "right", "count", "_shown")

    def __init__(self, n_base: int, *, left: Iterable[int], right: Iterable[int],
                 count: Iterable[int], shown: Sequence[str]):
        self.n_base = n_base
        # "q": 64-bit, as counts over a large corpus can pass 2**31.
        self.left, self.right, self.count = array("q", left), array("q", right), array("q", count)
        self._shown = shown
        if not len(self.left) == len(self.right) == len(self.count) <= len(shown) - n_base:
            raise ValueError("a merge list needs a left id, a right id, a count and a display "
                             "text for every merge")

    def __len__(self) -> int:
        return len(self.left)

    @overload
    def __getitem__(self, i: int) -> Merge: ...

    @overload
    def __getitem__(self, i: slice) -> list[Merge]: ...

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self._record(r) for r in range(*i.indices(len(self)))]
        r = i + len(self) if i < 0 else i
        if not 0 <= r < len(self):
            raise IndexError(f"merge {i} is out of range: there are {len(self)} merges")
        return self._record(r)

    def __iter__(self) -> Iterator[Merge]:
        return map(self._record, range(len(self)))

    def _record(self, r: int) -> Merge:
        a, b, shown = self.left[r], self.right[r], self._shown
        t = self.n_base + r
        return Merge(r, shown[a], shown[b], shown[t], self.count[r], a, b, t)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MergeList):
            return (self.n_base == other.n_base and self.left == other.left
                    and self.right == other.right and self.count == other.count
                    and list(self) == list(other))  # the same ids, and the same texts
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # equal to lists, which do not hash

    def __repr__(self) -> str:
        shown = ", ".join(repr(m.token) for m in self[:5])
        return f"<MergeList of {len(self)}: {shown}{', ...' if len(self) > 5 else ''}>"


def columns(n_base: int, merges: Sequence[Merge]
            ) -> tuple[Sequence[int], Sequence[int], Sequence[int], list[str]]:
    """``(left ids, right ids, counts, token display texts)`` of merges after ``n_base`` base
    symbols, checked to be in training order (a :class:`MergeList` is taken as it is)."""
    if isinstance(merges, MergeList):
        if merges.n_base != n_base:
            raise ValueError(f"these merges follow {merges.n_base} base symbols, not {n_base}")
        return merges.left, merges.right, merges.count, list(merges._shown[n_base:])
    merges = list(merges)
    for rank, m in enumerate(merges):
        if m.rank != rank or m.token_id != n_base + rank or max(m.left_id, m.right_id) >= m.token_id:
            raise ValueError(f"merge {m.rank} is not in training order (ids {m.left_id}, "
                             f"{m.right_id} -> {m.token_id})")
    return ([m.left_id for m in merges], [m.right_id for m in merges], [m.count for m in merges],
            [m.token for m in merges])
