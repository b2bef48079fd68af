"""The merges inside a rank file, recovered exactly and fast.

tiktoken encodes by merging, again and again, the adjacent pair whose *concatenation* has the
lowest rank. The token of rank r is one merge of two lower-ranked tokens, its *parts*, when that
merging, allowed only ranks below r, ends in two parts: :func:`bpe_split` runs it, the textbook
way, and is the reference. Run on each of cl100k's 100,000 tokens it takes most of a second.

:func:`recover` finds the same parts from the other end. The parts are two lower-ranked tokens
that spell the token (a *candidate* split; most tokens have one to three). Merging ends in the
candidate ``A|B`` when nothing ever merges across the place where A meets B. Going back in time
from ``A|B``, undoing each time the later-made of the two tokens that meet there (its parts
take its place), gives every pair that ever met there; each met until the token just undone
was made. A pair crosses if it is a merge that comes before then (strictly before, when that
token was made on the left: its own merge stands left of the crossing pair and wins a tie; up
to and with, on the right, where it loses the tie). A meeting pair that is a merge but comes
too late ends the search early: below it, the pairs are those of that merge's own token,
which was checked.

>>> table = {bytes([b]): b for b in range(256)} | {b"bc": 256, b"ab": 257, b"abc": 258}
>>> tokens, left, right = recover(table)
>>> left, right  # "bc" comes first, so "abc" is a + bc, not ab + c
([98, 97, 97], [99, 98, 256])

This holds because the tokens are checked in rank order: every lower token is the merge of its
parts, so merging with lower ranks only ever joins a token's two parts, in rank order (see
``tiktoken_file``). The first token no candidate passes is refused, as :func:`bpe_split` would.
"""

from __future__ import annotations

from itertools import repeat
from operator import itemgetter
from typing import Mapping

from .errors import TokenizerFileError


def bpe_split(token: bytes, table: Mapping[bytes, int], below: int) -> list[bytes]:
    """Byte-level BPE of ``token`` as tiktoken does it, with ranks below ``below`` only.

    >>> bpe_split(b"abc", {b"a": 0, b"b": 1, b"c": 2, b"bc": 3, b"ab": 4}, 5)
    [b'a', b'bc']
    """
    parts = [token[i:i + 1] for i in range(len(token))]

    def rank(i: int) -> int:  # rank of the pair at i, or `below` when it may not merge
        r = table.get(parts[i] + parts[i + 1], below)
        return r if r < below else below

    ranks = [rank(i) for i in range(len(parts) - 1)]
    while len(parts) > 2:  # two parts can only merge into the token itself, which is not allowed
        best = min(ranks)
        if best == below:
            break
        at = ranks.index(best)  # the leftmost, as in tiktoken
        parts[at:at + 2] = [parts[at] + parts[at + 1]]
        del ranks[at]
        if at > 0:
            ranks[at - 1] = rank(at - 1)
        if at < len(ranks):
            ranks[at] = rank(at)
    return parts


def by_rank(table: Mapping[bytes, int], *, source: str = "the ranks") -> list[bytes]:
    """The tokens in rank order, checked: ranks 0, 1, 2, ... without gaps, the 256 single bytes
    first (in any order), longer tokens after."""
    ranks = list(table.values())
    if ranks == list(range(len(ranks))):  # a file in rank order, as all are: C loops only
        tokens = list(table)
        lengths = list(map(len, tokens))
        if len(tokens) >= 256 and lengths[:256] == [1] * 256 and 1 not in lengths[256:]:
            return tokens
    ordered = sorted(table.items(), key=lambda item: item[1])
    for expected, (token, rank) in enumerate(ordered):
        if rank != expected:
            raise TokenizerFileError(f"{source}: ranks must run 0, 1, 2, ... without gaps; "
                                     f"rank {expected} is missing")
        if (len(token) == 1) != (rank < 256):
            raise TokenizerFileError(f"{source}: ranks 0-255 must be the 256 single bytes and "
                                     f"later ranks longer tokens; rank {rank} is {token!r}")
    if len(ordered) < 256:
        raise TokenizerFileError(f"{source} has {len(ordered)} single bytes; all 256 are needed")
    return [token for token, _ in ordered]


def recover(table: Mapping[bytes, int], *, source: str = "the ranks"
            ) -> tuple[list[bytes], list[int], list[int]]:
    """``(tokens, left parts, right parts)``: ``tokens[i]`` is the token of rank i (the 256
    bytes first, see :func:`by_rank`), and the token of rank ``256 + k`` is the merge of ranks
    ``left[k]`` and ``right[k]`` (see the module docstring). Raises TokenizerFileError for
    ranks no merge list reproduces.
    """
    tokens = by_rank(table, source=source)
    n = len(tokens)
    # A byte is its own parts, so that going back in time stops there.
    left, right = list(range(256)), list(range(256))
    merged: dict[int, int] = {}  # left * n + right -> the rank of the token they make
    rank_of, made = table.get, merged.get
    # The first candidate of every token, its last byte apart, looked up at once in C loops:
    # a third of the look-ups, and half the time the parts.
    firsts = list(map(rank_of, map(itemgetter(slice(None, -1)), tokens), repeat(n)))
    byte_rank = [table[bytes([v])] for v in range(256)]
    for r in range(256, n):
        token = tokens[r]
        cut = len(token) - 1
        a, b = firsts[r], byte_rank[token[cut]]
        while True:  # the candidates, longest left part first
            if a < r and b < r:
                # Back in time from a|b: x ends the left side, y begins the right one; the
                # later made is undone, and the pair left meeting must not merge before
                # `until`. (Inline: this runs some 150,000 times for cl100k.)
                x, y = a, b
                while True:
                    if x > y:
                        if x < 256:
                            crosses = False
                            break
                        until, x = x, right[x]
                    elif y >= 256:
                        until, y = y + 1, left[y]
                    else:
                        crosses = False
                        break
                    rank = made(x * n + y)
                    if rank is not None:  # a merge: it crosses now, or the rest was checked
                        crosses = rank < until
                        break
                if not crosses:
                    break
            cut -= 1
            if not cut:
                parts = bpe_split(token, table, r)
                raise TokenizerFileError(
                    f"{source}: token {r} ({token!r}) is not a merge of two lower-ranked tokens "
                    f"(lower ranks split it into {len(parts)} parts), so no merge list "
                    f"reproduces it")
            a = rank_of(token[:cut], r)
            b = rank_of(token[cut:], r) if a < r else r
        left.append(a)
        right.append(b)
        merged[a * n + b] = r
    return tokens, left[256:], right[256:]
