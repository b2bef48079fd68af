"""Three ways to encode with the same merges, to compare them side by side.

* ``"rank"`` (the default of :meth:`Tokenizer.encode`): rank priority. In each piece, merge the
  adjacent pair whose merge was learned first, again and again; tiktoken and Hugging Face do this.
* ``"merge-order"``: replay. Apply merge 0 everywhere, then merge 1, and so on in training order:
  the encoder most textbooks describe.
* ``"longest-match"``: greedy. From the left, take the longest vocabulary token that fits; some
  tutorials describe BPE encoding this way, but it is a different algorithm.

For a tokenizer trained here the first two always agree; the third does not:

>>> from bpe_core import train
>>> tok = train({"bc": 5, "ab": 3}, unit="char", pretokenizer="whitespace", min_frequency=1)
>>> [m.token for m in tok.merges]
['bc', 'ab']
>>> [tok.display(i) for i in tok.encode("abc", method="merge-order")]
['a', 'bc']
>>> [tok.display(i) for i in tok.encode("abc", method="longest-match")]
['ab', 'c']

Why rank priority and replay agree when training made the merges: merge ``r`` only uses tokens
that exist before it, so every pair that merge ``r`` creates belongs to a later merge. Once
merge ``r`` has run, no pair of merge ``r`` or earlier can appear again, so the lowest-ranked
pair present (what rank priority merges next) is always the merge replay applies next. A file
converted from SentencePiece lists merges by score instead, and there the two can differ.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Callable, Sequence

from .models import BPE

METHODS = ("rank", "merge-order", "longest-match")

PieceEncoder = Callable[[str, "int | None"], Sequence[int]]


def merge_pair(word: list[int], pair: tuple[int, int], new: int) -> list[int]:
    """Replace each occurrence of ``pair``, left to right, by ``new``.

    >>> merge_pair([1, 1, 1, 2], (1, 1), 9)
    [9, 1, 2]
    """
    out, i = [], 0
    while i < len(word):
        if i + 1 < len(word) and (word[i], word[i + 1]) == pair:
            out.append(new)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out


@dataclass(frozen=True)
class _Tables:
    triples: tuple[tuple[int, int, int], ...]  # rule r merges (left, right) into result
    ranks: dict[tuple[int, int], int]  # a pair's first rule
    by_symbols: dict[tuple[int, ...], tuple[int, int]]  # first symbols -> (rank, id); rank -1: base
    longest: int  # first symbols in the longest token


# Built once per model, dropped with it.
_tables: "weakref.WeakKeyDictionary[BPE, _Tables]" = weakref.WeakKeyDictionary()


def _tables_for(model: BPE) -> _Tables:
    tables = _tables.get(model)
    if tables is None:
        triples = tuple(model.merges.triples())
        made = {t for _, _, t in triples}
        # Tokens no merge makes spell themselves; a merged token spells what its first merge
        # joins.
        symbols = {i: (i,) for i, t in enumerate(model.tokens) if t is not None and i not in made}
        by_symbols = {s: (-1, i) for i, s in symbols.items()}
        for rank, (left, right, new) in enumerate(triples):
            if new not in symbols and left in symbols and right in symbols:
                symbols[new] = s = symbols[left] + symbols[right]
                by_symbols.setdefault(s, (rank, new))  # the same symbols twice: the earlier wins
        ranks: dict[tuple[int, int], int] = {}
        for r, (a, b, _) in enumerate(triples):
            ranks.setdefault((a, b), r)  # a repeated pair: replay applies only the first rule
        tables = _Tables(triples, ranks, by_symbols, max(map(len, by_symbols), default=1))
        _tables[model] = tables
    return tables


def merge_order(ids: list[int], triples: Sequence[tuple[int, int, int]], ranks: dict,
                limit: int) -> list[int]:
    """Replay rules ``0 .. limit-1`` in order on one piece's first symbols.

    A rule with no occurrence changes nothing, so the loop jumps to the next rule that has one.

    >>> merge_order([1, 2, 3], [(2, 3, 4), (1, 2, 5)], {(2, 3): 0, (1, 2): 1}, 2)
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
        left, right, new = triples[rule]
        ids = merge_pair(ids, (left, right), new)
        rule += 1
    return ids


def longest_match(ids: list[int], by_symbols: dict[tuple[int, ...], tuple[int, int]],
                  longest: int, limit: int) -> list[int]:
    """Greedy left-to-right segmentation: at each place the longest token made by a merge of
    rank below ``limit`` (or no merge at all).

    >>> longest_match([1, 2, 3], {(1,): (-1, 1), (2,): (-1, 2), (3,): (-1, 3), (2, 3): (0, 4),
    ...                           (1, 2): (1, 5)}, 2, 2)
    [5, 3]
    """
    out, i, n = [], 0, len(ids)
    while i < n:
        for k in range(min(longest, n - i), 0, -1):
            found = by_symbols.get(tuple(ids[i:i + k]))
            if found is not None and found[0] < limit:
                out.append(found[1])
                break
        else:  # a symbol no token spells alone (it cannot happen for a first symbol)
            k = 1
            out.append(ids[i])
        i += k
    return out


def piece_encoder(model: BPE, method: str) -> PieceEncoder:
    """``encode(piece, limit)`` for ``method`` ("merge-order" or "longest-match"), on ``model``."""
    tables = _tables_for(model)
    n = len(model.merges)
    if method == "merge-order":
        return lambda piece, limit: merge_order(model.symbols(piece), tables.triples,
                                                tables.ranks, n if limit is None else limit)
    if method == "longest-match":
        return lambda piece, limit: longest_match(model.symbols(piece), tables.by_symbols,
                                                  tables.longest, n if limit is None else limit)
    raise ValueError(f"unknown encoding method {method!r}; choose one of {', '.join(METHODS)}")
