"""tiktoken's ``.tiktoken`` rank files: one ``base64(token bytes) rank`` line per token.

A rank file holds no merges and no pre-tokenizer, only each token's bytes and rank; tiktoken
encodes by merging the adjacent pair whose *concatenation* has the lowest rank. The merges are
still in there: the two parts of a token are what byte-level BPE, using only lower ranks, makes
of its bytes. Recovering them (``rank_merges.py``, exactly and fast) lets a loaded encoding show
merge trees and replay ``upto=k``.

>>> from bpe_core import train
>>> tok = train("hug pug pun bun hugs", unit="byte", pretokenizer="gpt2", max_merges=2,
...             min_frequency=1)
>>> data = dumps(tok)
>>> data.splitlines()[256:]  # b"ug" and b"hug" in base64, ranks 256 and 257
[b'dWc= 256', b'aHVn 257']
>>> again = loads(data, pretokenizer="gpt2")
>>> [m.token for m in again.merges], again.encode("hugs") == tok.encode("hugs")
(['ug', 'hug'], True)

Why tiktoken (concatenation ranks) and this engine (pair ranks) agree: if every token's bytes,
merged with lower ranks only, end in exactly its recorded pair, the only pairs tiktoken ever
merges are recorded merges; so both make the same merges in the same order. Tokenizers trained
here always pass; :func:`ranks` checks it and refuses a tokenizer that does not.
"""

from __future__ import annotations

import base64
import binascii
import re
from itertools import repeat
from typing import Mapping

from .. import recipes
from ..alphabet import byte_base, show_bytes
from ..identity import flatten
from ..presets import resolve
from ..tokenizer import Tokenizer
from .errors import FormatCannotHold, TokenizerFileError
from .hf import other_formats
from .merge_cache import recovered
from .rank_merges import bpe_split


def ranks(tok: Tokenizer) -> dict[bytes, int]:
    """The tokenizer as tiktoken's ``mergeable_ranks`` (token bytes -> id), checked to encode
    every text exactly as ``tok`` does. Special tokens are not part of it.

    Raises ValueError for tokenizers tiktoken cannot reproduce: not byte-level, with the ``</w>``
    symbol or a normalizer, two tokens with the same bytes, ids no rank file written in their
    order reads back (see ``_out_of_order``), or merges a rank file cannot express.
    """
    view = tok.view
    if not view.byte_level or view.marker is not None:
        raise FormatCannotHold(
            f"tiktoken files hold byte-level BPE only; {tok.name!r} is "
            f"{'byte-level with </w>' if view.byte_level else 'not byte-level'}",
            f". Save it in the {other_formats(tok)} format instead.")
    refuse_normalizer(tok, "tiktoken files")
    added = {t.id for t in tok.added_tokens}
    table: dict[bytes, int] = {}
    for i, t in enumerate(tok.model.tokens):
        if t is None or i in added:
            continue
        data = tok.token_bytes(i)
        if data in table:
            raise FormatCannotHold(f"tokens {table[data]} and {i} both stand for "
                                   f"{tok.display(i)!r}; a rank file needs distinct bytes per "
                                   f"token", "")
        table[data] = i
    unreadable = _out_of_order(tok, table)
    if unreadable:
        raise FormatCannotHold(f"a rank file's ranks run 0, 1, 2, ... with the 256 single bytes "
                               f"first, but {unreadable}, so the file could not be read back",
                               f". Save {tok.name!r} in the {other_formats(tok)} format "
                               f"instead.")
    for m in tok.merges:
        parts = bpe_split(tok.token_bytes(m.token_id), table, m.token_id)
        if parts != [tok.token_bytes(m.left_id), tok.token_bytes(m.right_id)]:
            alone = " + ".join(repr(show_bytes(p)) for p in parts)
            raise FormatCannotHold(
                f"merge {m.rank + 1} (rank {m.rank}) builds {m.token!r} from {m.left!r} + "
                f"{m.right!r}, but from ranks alone it is {alone} (lower-ranked merges get "
                f"there first), so tiktoken would encode some texts differently",
                f". Save it in the {other_formats(tok)} format instead.")
    return table


def _out_of_order(tok: Tokenizer, table: Mapping[bytes, int]) -> str | None:
    """Why ``table``'s ids are no ranks ``rank_merges.by_rank`` reads, if they are not: a gap
    (an id an added token holds, as tokenizers' trainer puts special tokens first), a single
    byte after a longer token, or a longer token that no merge makes."""
    ids = sorted(table.values())
    gap = next((rank for rank, i in enumerate(ids) if rank != i), None)
    if gap is not None:
        held = next((t.content for t in tok.added_tokens if t.id == gap), None)
        return f"id {gap} is {'the added token ' + repr(held) if held else 'no token'} " \
               f"(a rank file holds no added tokens)"
    late = next((i for i in ids[256:] if len(tok.token_bytes(i)) == 1), None)
    if late is not None:
        return f"the single byte {tok.display(late)!r} has id {late}"
    made = {m.token_id for m in tok.merges}
    stray = next((i for i in ids[256:] if i not in made), None)  # (tokenizers' "##" ones)
    return None if stray is None else (f"token {stray} ({tok.display(stray)!r}) is no merge's "
                                       f"result, as each token after the bytes must be")


def refuse_normalizer(tok: Tokenizer, files: str) -> None:
    """Raise ValueError if ``tok`` has a normalizer: ``files`` (a rank file, GPT-2's pair) keep
    none, and unlike the pre-tokenizer none can be given as they are read, so the ids read
    back would differ (a Lowercase one: "HELLO" as 5 tokens, not the 1 of "hello")."""
    if tok.normalizer is not None:
        names = " + ".join(type(c).__name__ for c in flatten(tok.normalizer))
        raise FormatCannotHold(f"{files} keep no normalizer, and {tok.name!r} has one "
                               f"({names}): read back without it, texts it changes would encode "
                               f"differently", f". Save it in the {other_formats(tok)} format "
                                              "instead.")


def dumps(tok: Tokenizer) -> bytes:
    """The ``.tiktoken`` file for ``tok`` (see :func:`ranks`); the pattern is not stored."""
    return b"".join(base64.b64encode(data) + b" %d\n" % rank for data, rank in ranks(tok).items())


#: A rank file as tiktoken writes it: ``base64 rank`` lines, the last one's newline optional.
_WELL_FORMED = re.compile(rb"(?:[A-Za-z0-9+/]+={0,2} [0-9]+\n)*+(?:[A-Za-z0-9+/]+={0,2} [0-9]+)?")


def parse(data: bytes, *, source: str = "the file") -> dict[bytes, int]:
    """Read the lines of a rank file into ``{token bytes: rank}``.

    >>> parse(b"YQ== 0\\nYWI= 1\\n")
    {b'a': 0, b'ab': 1}
    """
    # A file as tiktoken writes it, checked whole by one regex, is read in C loops (cl100k:
    # 0.064 -> 0.040 s); any other is read line by line, which says what is wrong where.
    if data and _WELL_FORMED.fullmatch(data) is not None:
        fields = data.split()
        try:
            tokens = list(map(binascii.a2b_base64, fields[0::2]))
        except binascii.Error:  # (its padding)
            pass
        else:
            ranks = list(map(int, fields[1::2]))
            out = dict(zip(tokens, ranks))
            if len(out) == len(ranks) == len(set(ranks)):
                return out
    return _parse_lines(data, source)


def _parse_lines(data: bytes, source: str) -> dict[bytes, int]:
    """:func:`parse`, line by line."""
    out: dict[bytes, int] = {}
    seen: set[int] = set()
    for number, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        fields = line.split()
        try:
            if len(fields) != 2:
                raise ValueError("expected two fields, base64 token and rank")
            if not fields[1].isdigit():  # (int() takes "-1", "+1" and "1_000", and says so badly)
                raise ValueError(f"the rank {fields[1].decode('ascii', 'replace')!r} is not a "
                                 f"whole number from 0")
            token, rank = base64.b64decode(fields[0], validate=True), int(fields[1])
        except (ValueError, binascii.Error) as exc:
            shown = line[:60].decode("ascii", "replace")
            raise TokenizerFileError(f"{source}, line {number} ({shown!r}) is not a tiktoken rank "
                                     f"line: {exc}") from None
        if token in out or rank in seen:
            raise TokenizerFileError(f"{source}, line {number}: token or rank {rank} appears twice")
        out[token] = rank
        seen.add(rank)
    if not out:
        raise TokenizerFileError(f"{source} holds no ranks")
    return out


def from_ranks(table: Mapping[bytes, int], *, pretokenizer: str,
               special_tokens: Mapping[str, int] | None = None, name: str = "tiktoken",
               source: str = "the ranks") -> Tokenizer:
    """A :class:`Tokenizer` with tiktoken's ids for ``table`` (``mergeable_ranks``).

    ``pretokenizer`` is a preset name ("gpt2", "cl100k", "o200k", ...) or tiktoken's ``pat_str``.
    """
    preset, pattern = resolve(pretokenizer)
    tokens, left, right = recovered(table, source=source)
    # tiktoken looks a piece that is a whole token up before merging (ignore_merges). For these
    # ranks that gives the ids merging would: recovery found every token to be, from lower
    # ranks alone, exactly its own pair, so each token merges, alone, into itself.
    return recipes.build(byte_base(order=b"".join(tokens[:256])), zip(left, right, repeat(0)),
                         pattern=pattern, preset=preset, name=name,
                         special_tokens=dict(special_tokens or {}), ignore_merges=True,
                         texts=list(map(bytes.decode, tokens, repeat("utf-8"),
                                        repeat("surrogateescape"))))


def loads(data: bytes, *, pretokenizer: str, special_tokens: Mapping[str, int] | None = None,
          name: str = "tiktoken", source: str = "the file") -> Tokenizer:
    """Read a ``.tiktoken`` file's bytes; the pre-tokenizer must be given (the file has none)."""
    return from_ranks(parse(data, source=source), pretokenizer=pretokenizer,
                      special_tokens=special_tokens, name=name, source=source)
