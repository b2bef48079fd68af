"""Merging one piece's symbols as Hugging Face's BPE does: the adjacent pair of lowest rank
first, the leftmost of equals, until no pair has a merge.

A merge is looked up by its pair of ids, ``get((left, right), stop)``, and comes back as one int,
``rank << shift | result``: ints compare by rank first, so the lowest is the merge to make, and
``key & mask`` is its result. ``stop`` is the key no merge reaches (the first one past a limit,
``upto``): a pair with no merge, or one past the limit, gets it.

>>> keys = {(0, 1): 0 << 4 | 3, (3, 2): 1 << 4 | 4}  # a + b -> ab (3), ab + c -> abc (4)
>>> merge_short([0, 1, 2, 0, 1], keys.get, 15, 2 << 4)
[4, 3]
>>> merge_long([0, 1, 2, 0, 1], keys.get, 15, 1 << 4, None)[0]  # the first merge only
[3, 2, 3]
"""

from __future__ import annotations

import heapq
from itertools import accumulate, repeat
from typing import Callable, Iterable

#: Pieces longer than this (in symbols) are merged by ``merge_long``; shorter ones by
#: ``merge_short``, which is faster below about 64 (cl100k on prose: 8.8 against 14.1 us for
#: 16 bytes, equal at 64, 119 against 171 us for 128).
LONG_PIECE = 64

Keys = Callable[[tuple[int, int], int], int]


def merge_short(ids: list[int], get: Keys, mask: int, stop: int) -> list[int]:
    """Merge ``ids`` in place, by scanning the key of each adjacent pair."""
    # Beside the ids, the key of each adjacent pair (``stop`` for none); min() and index() find
    # the leftmost lowest in C, and a merge re-keys only its two neighbours. A key past the
    # limit is larger than every key within it, so it is only ever the minimum when no merge is
    # left to make.
    if len(ids) == 2:  # one pair: one lookup
        k = get((ids[0], ids[1]), stop)
        return [k & mask] if k < stop else ids
    keys = list(map(get, zip(ids, ids[1:]), repeat(stop)))
    while True:
        best = min(keys)
        if best >= stop:
            break
        i = keys.index(best)
        ids[i] = new = best & mask
        del ids[i + 1], keys[i]
        if not keys:
            break
        if i:
            keys[i - 1] = get((ids[i - 1], new), stop)
        if i < len(keys):
            keys[i] = get((new, ids[i + 1]), stop)
    return ids


def merge_long(ids: list[int], get: Keys, mask: int, stop: int,
               offsets: list[tuple[int, int]] | None = None
               ) -> tuple[list[int], list[tuple[int, int]] | None]:
    """The same merges for a long piece, over a linked list of symbols: the places where each
    merge can be made, kept in a bucket per merge, and a heap of the merges that have a bucket.
    A merge's places are made leftmost first; a place whose pair has changed since it was filed
    is skipped. ``offsets``, when given, follow the merges: a token spans what its parts span.

    A heap of every place costs a log factor per merge (200 kB of one letter took 26-29x 10 kB);
    a heap of merges stays small (a run of one letter has a dozen), so the time grows with the
    piece. A merge never makes a pair of its own key, so a bucket gets no place while it is
    worked through; a pair of a lower key (a merge list that uses a token before the merge that
    makes it) stops it, as Hugging Face would make that one first, and the rest of the bucket
    waits its turn again.
    """
    n = len(ids)
    offsets = list(offsets) if offsets is not None else None
    nxt = list(range(1, n + 1))
    prv = list(range(-1, n - 1))
    buckets: dict[int, list[int]] = {}
    for i, k in enumerate(map(get, zip(ids, ids[1:]), repeat(stop))):
        if k < stop:
            bucket = buckets.get(k)
            if bucket is None:
                buckets[k] = [i]
            else:
                bucket.append(i)
    heap = list(buckets)
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        k = pop(heap)
        places = buckets.pop(k)
        places.sort()  # filed as merges made them: leftmost first again
        lower = False  # a pair of a lower key was made: it goes first
        for at, i in enumerate(places):
            j = nxt[i]
            if j >= n or ids[i] < 0 or get((ids[i], ids[j])) != k:
                continue  # merged away, or its pair changed since
            ids[i] = new = k & mask
            if offsets is not None:
                (a, b), (c, d) = offsets[i], offsets[j]
                offsets[i] = (min(a, c), max(b, d))
            ids[j] = -1
            m = nxt[j]
            nxt[i] = m
            p = prv[i]
            if m < n:
                prv[m] = i
            for place, k2 in ((i, get((new, ids[m]), stop) if m < n else stop),
                              (p, get((ids[p], new), stop) if p >= 0 else stop)):
                if k2 < stop:
                    bucket = buckets.get(k2)
                    if bucket is None:
                        buckets[k2] = [place]
                        push(heap, k2)
                    else:
                        bucket.append(place)
                    lower = lower or k2 <= k
            if lower:  # (the rest joins any place of this key just filed, sorted again)
                rest = places[at + 1:]
                bucket = buckets.get(k)
                if bucket is None:
                    buckets[k] = rest
                    push(heap, k)
                else:
                    bucket.extend(rest)
                break
    keep = [k for k in range(n) if ids[k] >= 0]
    return [ids[k] for k in keep], None if offsets is None else [offsets[k] for k in keep]


def runs(items: list, lengths: Iterable[int]) -> list[list]:
    """``items`` cut into consecutive runs of the given lengths, in C loops: the symbols or ids
    of many pieces, handled as one list, given back piece by piece.

    >>> runs([1, 2, 3, 4, 5, 6], [1, 3, 2])
    [[1], [2, 3, 4], [5, 6]]
    """
    ends = list(accumulate(lengths))
    return list(map(items.__getitem__, map(slice, [0, *ends[:-1]], ends)))
