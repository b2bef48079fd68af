"""Three ways to encode with the same merges, to compare them side by side.

* ``"rank"`` (the default of :meth:`Tokenizer.encode`): rank priority. In each piece, merge the
  adjacent pair whose merge was learned first, again and again; tiktoken and Hugging Face do this.
* ``"merge-order"``: replay. Apply merge 0 everywhere, then merge 1, and so on in training order:
  the encoder most textbooks describe.
* ``"longest-match"``: greedy. From the left, take the longest vocabulary token that fits; some
  tutorials describe BPE encoding this way, but it is a different algorithm.

The first two always agree; the third does not:

>>> from bpe_core import train
>>> tok = train({"bc": 5, "ab": 3}, unit="char", pretokenizer="whitespace", min_frequency=1)
>>> [m.token for m in tok.merges]
['bc', 'ab']
>>> [tok.display(i) for i in tok.encode("abc", method="merge-order")]
['a', 'bc']
>>> [tok.display(i) for i in tok.encode("abc", method="longest-match")]
['ab', 'c']

Why rank priority and replay agree: merge ``r`` makes token ``n_base + r``, and a merge can only
use tokens that exist before it, so every pair that merge ``r`` creates belongs to a later merge.
Once rule ``r`` has run, no pair of rule ``r`` or earlier can appear again, so the lowest-ranked
pair present (what rank priority merges next) is always the rule replay applies next. For the
same reason, merging the leftmost occurrence again and again equals merging all of them at once.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Sequence

from .reference import merge_pair

if TYPE_CHECKING:
    from .tokenizer import Tokenizer

METHODS = ("rank", "merge-order", "longest-match")

PieceEncoder = Callable[[str, int], Sequence[int]]


@dataclass(frozen=True)
class _Tables:
    pairs: tuple[tuple[int, int], ...]  # rule r merges pairs[r]
    ranks: dict[tuple[int, int], int]
    by_symbols: dict[tuple[int, ...], int]  # base symbols of a token -> its (lowest) id
    longest: int  # base symbols in the longest token


# Built once per tokenizer, dropped with it.
_tables: "weakref.WeakKeyDictionary[Tokenizer, _Tables]" = weakref.WeakKeyDictionary()


def _tables_for(tok: "Tokenizer") -> _Tables:
    tables = _tables.get(tok)
    if tables is None:
        pairs = tuple((m.left_id, m.right_id) for m in tok.merges)
        symbols: list[tuple[int, ...]] = [(i,) for i in range(tok.n_base)]
        for left, right in pairs:
            symbols.append(symbols[left] + symbols[right])
        by_symbols: dict[tuple[int, ...], int] = {}
        for i, s in enumerate(symbols):
            by_symbols.setdefault(s, i)  # two tokens with the same symbols: the earlier wins
        ranks: dict[tuple[int, int], int] = {}
        for r, p in enumerate(pairs):
            ranks.setdefault(p, r)  # a repeated pair: replay applies only the first rule
        tables = _Tables(pairs, ranks, by_symbols, max(map(len, symbols)))
        _tables[tok] = tables
    return tables


def merge_order(ids: list[int], pairs: Sequence[tuple[int, int]], ranks: dict, n_base: int,
                limit: int) -> list[int]:
    """Replay rules ``0 .. limit-1`` in order on one piece's base ids.

    A rule with no occurrence changes nothing, so the loop jumps to the next rule that has one.

    >>> merge_order([1, 2, 3], [(2, 3), (1, 2)], {(2, 3): 0, (1, 2): 1}, 4, 2)
    [1, 4]
    """
    rule = 0
    while len(ids) > 1:
        # Rules before `rule` are done: replay never goes back, even if their pair reappeared.
        waiting = [r for r in map(ranks.get, zip(ids, ids[1:]))
                   if r is not None and rule <= r < limit]
        if not waiting:
            break
        rule = min(waiting)
        ids = merge_pair(ids, pairs[rule], n_base + rule)
        rule += 1
    return ids


def longest_match(ids: list[int], by_symbols: dict[tuple[int, ...], int], longest: int,
                  limit_id: int) -> list[int]:
    """Greedy left-to-right segmentation: at each place the longest token (id < ``limit_id``).

    >>> longest_match([1, 2, 3], {(1,): 1, (2,): 2, (3,): 3, (2, 3): 4, (1, 2): 5}, 2, 6)
    [5, 3]
    """
    out, i, n = [], 0, len(ids)
    while i < n:
        for k in range(min(longest, n - i), 0, -1):
            token = by_symbols.get(tuple(ids[i:i + k]))
            if token is not None and token < limit_id:  # k == 1 always fits: a base symbol
                break
        out.append(token)
        i += k
    return out


def piece_encoder(tok: "Tokenizer", method: str) -> PieceEncoder:
    """``encode(piece, limit)`` for ``method`` ("merge-order" or "longest-match"), on ``tok``."""
    tables = _tables_for(tok)
    symbols, n_base = tok.base.symbols, tok.n_base
    if method == "merge-order":
        return lambda piece, limit: merge_order(symbols(piece), tables.pairs, tables.ranks,
                                                n_base, limit)
    if method == "longest-match":
        return lambda piece, limit: longest_match(symbols(piece), tables.by_symbols,
                                                  tables.longest, n_base + limit)
    raise ValueError(f"unknown encoding method {method!r}; choose one of {', '.join(METHODS)}")
