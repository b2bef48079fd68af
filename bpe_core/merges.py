"""The merges of a BPE model: held as arrays of ids, read as :class:`Merge` records.

Each merge joins two tokens into a third, by id: ``left + right -> result``. In a tokenizer
trained here merge ``r`` makes token ``n_base + r``; in a loaded ``tokenizer.json`` the result
ids are whatever the file's vocabulary says (Llama 3: merge 1 is ``Ġ`` + ``ĠĠĠ`` -> 257), and
several merges may even make the same token. So the result id is stored, never derived.

A vocabulary such as o200k has some 200,000 merges. As 200,000 Python objects they would cost
memory, time to build and, above all, time in every full pass of the garbage collector. So a
model keeps four arrays of C integers, and ``merges[r]`` makes the record when it is read:

>>> merges = MergeList(left=[0, 3], right=[1, 2], result=[3, 4], count=[5, 2],
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
    """One merge: ``left + right -> token`` (display texts), with ids and its training count
    (0 when unknown, as in a loaded file)."""

    rank: int
    left: str
    right: str
    token: str
    count: int
    left_id: int
    right_id: int
    token_id: int


class MergeList(Sequence[Merge]):
    """The merges in rank order (the order they were learned, which is their priority).

    ``shown`` gives the display text of every token id; it is shared, not copied, so it must not
    change afterwards.
    """

    __slots__ = ("left", "right", "result", "count", "_shown")

    def __init__(self, *, left: Iterable[int], right: Iterable[int], result: Iterable[int],
                 count: Iterable[int] = (), shown: Sequence[str]):
        # "q": 64-bit, as counts over a large corpus can pass 2**31.
        self.left, self.right, self.result = array("q", left), array("q", right), array("q", result)
        self.count = array("q", count) if count else array("q", bytes(8 * len(self.left)))
        self._shown = shown
        if not len(self.left) == len(self.right) == len(self.result) == len(self.count):
            raise ValueError("a merge list needs a left id, a right id, a result id and a count "
                             "for every merge")

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
        a, b, t, shown = self.left[r], self.right[r], self.result[r], self._shown
        return Merge(r, shown[a], shown[b], shown[t], self.count[r], a, b, t)

    def triples(self) -> list[tuple[int, int, int]]:
        """``(left, right, result)`` ids of every merge, in rank order."""
        return list(zip(self.left, self.right, self.result))

    def is_canonical(self, n_base: int) -> bool:
        """Does merge ``r`` make token ``n_base + r`` from earlier tokens, as training does?"""
        return (self.result == array("q", range(n_base, n_base + len(self)))
                and all(max(a, b) < t for a, b, t in zip(self.left, self.right, self.result)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MergeList):
            return (self.left == other.left and self.right == other.right
                    and self.result == other.result and self.count == other.count
                    and list(self) == list(other))  # the same ids, and the same texts
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # equal to lists, which do not hash

    def __repr__(self) -> str:
        shown = ", ".join(repr(self[r].token) for r in range(min(5, len(self))))
        return f"<MergeList of {len(self)}: {shown}{', ...' if len(self) > 5 else ''}>"
