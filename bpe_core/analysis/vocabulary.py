"""What a tokenizer learned, token by token: rows to browse, search, compare.

>>> from bpe_core import train
>>> tok = train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, unit="char",
...             pretokenizer="whitespace", max_merges=3, min_frequency=1)
>>> rows = vocabulary(tok)
>>> [r.token for r in rows if r.rank is not None]
['ug', 'un', 'hug']
>>> [rows[i].token for i, hit in enumerate(matches([r.token for r in rows], "ug")) if hit]
['ug', 'hug']
>>> [m.token for m in built_from(tok, tok.encode("u")[0])]
['ug', 'un']
>>> [m.token for m in built_from(tok, tok.encode("u")[0], recursive=True)]
['ug', 'un', 'hug']
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from functools import partial
from itertools import repeat
from typing import Iterable, Mapping, NamedTuple

import regex

from ..gc_pause import gc_paused
from ..merges import Merge
from ..presets import compile_typed, time_limit
from ..tokenizer import Tokenizer
from ..training.counting import Corpus, count_words, documents
from .writing_systems import listed, token_system


class VocabularySearchError(ValueError):
    """A search pattern that cannot be used (an invalid regular expression)."""


class TokenRow(NamedTuple):
    """One token of a vocabulary, as the Vocabulary page lists it.

    ``chars`` is None when the bytes are not valid UTF-8 on their own; ``rank`` and ``count`` (how
    often the pair occurred when it was merged) are None for base symbols and special tokens.
    """

    id: int
    token: str  # display text: "est</w>", " re", "<E4 BD>"
    hex: str  # the bytes, e.g. "20 72 65"
    n_bytes: int | None  # None for the unknown token, which stands for any text
    chars: int | None
    kind: str  # "byte", "char", "unk", "eow", "merge" or "special"
    rank: int | None
    count: int | None
    script: str  # its writing system: see bpe_core.analysis.writing_systems
    utf8: bool  # its bytes decode as UTF-8 on their own


def _text(data: bytes) -> str | None:
    """The bytes as text, None when they are not whole UTF-8 characters."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def vocabulary(tok: Tokenizer) -> list[TokenRow]:
    """A row per token, in id order (so ``len(vocabulary(tok)) == tok.vocab_size``).

    >>> from bpe_core import train
    >>> tok = train("ab ab", unit="byte", pretokenizer="none", max_merges=1, min_frequency=1)
    >>> rows = vocabulary(tok)
    >>> rows[256]
    TokenRow(id=256, token='ab', hex='61 62', n_bytes=2, chars=2, kind='merge', rank=0, count=2, script='Latin', utf8=True)
    >>> rows[0xE4].token, rows[0xE4].chars, rows[0xE4].script
    ('<E4>', None, 'Partial UTF-8')
    """
    with gc_paused(kept=True):  # (a row of new objects per token, none in a cycle)
        return _rows(tok)


def _rows(tok: Tokenizer) -> list[TokenRow]:
    view, ids = tok.view, tok.ids()
    # Each column for all ids at once, in C loops where it can be: listing Gemma 3's 262,145
    # tokens one by one took 2.2 s, now 0.8 s.
    data, kinds = view.bytes_of(ids), view.kinds(ids)
    texts = list(map(_text, data))
    ranks = list(map(view.made_by.get, ids))
    counts = tok.merges.count
    rows = list(map(
        TokenRow, ids, view.display_of(ids), map(str.upper, map(bytes.hex, data, repeat(" "))),
        map(len, data), [None if t is None else len(t) for t in texts], kinds, ranks,
        [None if r is None else counts[r] for r in ranks],
        map(partial(token_system, byte_fallback=tok.model.byte_fallback), kinds, texts),
        [t is not None for t in texts]))
    if "unk" in kinds:  # it stands for whatever text the vocabulary cannot spell: no length
        k = kinds.index("unk")
        r = rows[k]
        rows[k] = TokenRow(r.id, r.token, "", None, None, r.kind, None, None, r.script, True)
    return rows


def tokens_per_system(tok: Tokenizer) -> dict[str, int]:
    """How many tokens ``tok`` spends on each writing system (the rows' ``script``), listed as
    every table and chart lists them (:func:`~bpe_core.analysis.writing_systems.listed`).

    >>> from bpe_core import train
    >>> counts = tokens_per_system(train("x", unit="byte", max_merges=0))  # the 256 bytes alone
    >>> counts
    {'Latin': 52, 'Digits': 10, 'Punctuation & symbols': 56, 'Whitespace': 10, \
'Partial UTF-8': 128}
    """
    return listed(Counter(row.script for row in vocabulary(tok)))


def token_frequencies(tok: Tokenizer, corpus: Corpus, *, upto: int | None = None) -> Counter:
    """Token id -> occurrences when ``corpus`` (what training accepts) is encoded.

    A tokenizer trained here counts the corpus's words once and encodes each distinct word;
    any other encodes the corpus's documents.
    """
    freq: Counter = Counter()
    pattern = tok.config.get("pattern")
    if pattern is not None and tok.normalizer is None:
        for word, n in count_words(corpus, pattern, special_tokens=tok.special_tokens).items():
            for i in tok.encode_piece(word, upto=upto):
                freq[i] += n
        return freq
    if isinstance(corpus, Mapping):  # word counts
        for word, n in corpus.items():
            for i in tok.encode(word, upto=upto):
                freq[i] += n
        return freq
    for doc in documents(corpus):
        freq.update(tok.encode(doc, upto=upto))
    return freq


def not_utf8(rows: Iterable[TokenRow]) -> list[TokenRow]:
    """The tokens whose bytes are not valid UTF-8 on their own: pieces of multi-byte characters.

    Byte-level BPE has them by design (the bytes 0x80-0xFF, and merges of a character's first
    bytes); they only make sense next to the tokens that complete the character.
    """
    return [r for r in rows if not r.utf8]


def matches(texts: Iterable[str], query: str, *, use_regex: bool = False,
            ignore_case: bool = False) -> list[bool]:
    """For each text, whether ``query`` occurs in it (as a substring, or a regex search).

    An empty query matches everything. Regular expressions are the ``regex`` module's, so
    ``\\p{Han}`` and ``\\p{Script=Cyrillic}`` work.

    >>> matches(["hug", "Hug", "pun"], "hu")
    [True, False, False]
    >>> matches(["hug", "Hug", "pun"], "hu", ignore_case=True)
    [True, True, False]
    >>> matches(["hug", "pun", "bun"], "^[pb]u", use_regex=True)
    [False, True, True]
    >>> matches(["x"], "(ab", use_regex=True)
    Traceback (most recent call last):
    ...
    bpe_core.analysis.vocabulary.VocabularySearchError: "(ab" is not a valid regular expression: missing ) at position 3. Fix the pattern, or turn regular expressions off to search for the text as typed.
    """
    texts = list(texts)
    if not query:
        return [True] * len(texts)
    if not use_regex:
        if ignore_case:
            folded = query.casefold()
            return [folded in t.casefold() for t in texts]
        return [query in t for t in texts]
    try:
        pattern = compile_typed(query, regex.IGNORECASE if ignore_case else 0)
    except regex.error as exc:
        raise VocabularySearchError(
            f'"{_cut(query)}" is not a valid regular expression: {exc}. Fix the pattern, or '
            f"turn regular expressions off to search for the text as typed.") from None
    # A pattern with nested repetitions can take exponential time on one token: the whole
    # search gets the time limit of a user's regex on text as long as all the tokens.
    deadline = time.monotonic() + time_limit(sum(map(len, texts)))
    try:
        return [pattern.search(t, timeout=max(deadline - time.monotonic(), 1e-3)) is not None
                for t in texts]
    except TimeoutError:
        raise VocabularySearchError(
            f'"{_cut(query)}" took too long and was stopped: a pattern that nests repetitions, '
            "such as (a+)+, can take time that doubles with each character. Write it without the "
            "nesting, or turn regular expressions off.") from None


def _cut(query: str, most: int = 80) -> str:
    """``query`` as an error message quotes it: a pasted page of text, cut to its start.

    >>> _cut("(ab"), _cut("(" * 100, most=5)
    ('(ab', '(((((… (100 characters)')
    """
    return query if len(query) <= most else f"{query[:most]}… ({len(query):,} characters)"


def built_from(tok: Tokenizer, token_id: int, *, recursive: bool = False) -> list[Merge]:
    """The merges that use token ``token_id``, in rank order.

    One level (the default): the merges with it as the left or right part. ``recursive=True``:
    also the merges that use those tokens, and so on; every token whose merge tree holds it.
    In a tokenizer trained here one pass in rank order finds them all, as a merge only uses
    tokens made before it; a loaded file's merge may use a token a later merge makes, so passes
    repeat until one finds nothing new. The passes read the id arrays, not a record per merge
    (a loaded vocabulary has some 500,000 merges).
    """
    tok.display(token_id)  # raises a clear ValueError for an id not in the vocabulary
    merges = tok.merges
    reached, found = {token_id}, set()
    while True:
        before = len(found)
        for r, (a, b, t) in enumerate(zip(merges.left, merges.right, merges.result)):
            if a in reached or b in reached:
                found.add(r)
                if recursive:
                    reached.add(t)
        if not recursive or len(found) == before:
            return [merges[r] for r in sorted(found)]


# -- comparing two tokenizers ----------------------------------------------------------------


class DiffEntry(NamedTuple):
    """A token in a comparison: its id and merge rank in A and in B (None where it is absent,
    and rank None for a base symbol or special token). A named tuple, made several times
    faster than a dataclass: two vocabularies of 262,000 and 151,000 tokens make 318,000."""

    token: str
    hex: str
    id_a: int | None = None
    rank_a: int | None = None
    id_b: int | None = None
    rank_b: int | None = None


@dataclass(frozen=True)
class VocabDiff:
    """Tokens only in A, only in B, and in both; each list in the order of its tokenizer's ids."""

    only_a: tuple[DiffEntry, ...]
    only_b: tuple[DiffEntry, ...]
    shared: tuple[DiffEntry, ...]


def _keys(tok: Tokenizer) -> dict[tuple, int]:
    """Token identity -> id. Tokens are the same when they stand for the same bytes, with the
    same ``</w>`` marker; special tokens and ``[UNK]`` match only their own kind. Of two tokens
    with the same bytes the first id stands for both, but a byte-fallback token gives way to
    the character it spells (Gemma's ``<0x41>`` and ``A``: the pair is listed as ``A``)."""
    keys: dict[tuple, int] = {}
    fallback = tok.model.byte_fallback
    view, ids = tok.view, tok.ids()
    ends = map(view.ends_word, ids) if view.marker is not None else repeat(False)
    for i, kind, data, eow in zip(ids, view.kinds(ids), view.bytes_of(ids), ends):
        marker = kind if kind in ("special", "unk") else ("eow" if eow else "")
        key = (marker, data)
        if key not in keys or (fallback and tok.kind(keys[key]) == "byte"):
            keys[key] = i
    return keys


def _shown(tok: Tokenizer, keys: dict[tuple, int]) -> dict[int, str]:
    """Id -> display text, for the ids of ``keys``, made all at once."""
    ids = list(keys.values())
    return dict(zip(ids, tok.view.display_of(ids)))


def diff(a: Tokenizer, b: Tokenizer) -> VocabDiff:
    """Compare two vocabularies by token bytes.

    >>> from bpe_core import train
    >>> counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    >>> opts = dict(unit="char", pretokenizer="whitespace", min_frequency=1)
    >>> d = diff(train(counts, max_merges=2, **opts), train(counts, max_merges=4, **opts))
    >>> [e.token for e in d.only_a], [(e.token, e.rank_b) for e in d.only_b]
    ([], [('hug', 2), ('pun', 3)])
    """
    with gc_paused(kept=True):
        return _diff(a, b)


def _diff(a: Tokenizer, b: Tokenizer) -> VocabDiff:
    keys_a, keys_b = _keys(a), _keys(b)
    ranks_a, ranks_b = a.view.made_by, b.view.made_by
    shown_a, shown_b = _shown(a, keys_a), _shown(b, keys_b)

    def entry(shown: dict[int, str], key: tuple, i: int, **ids) -> DiffEntry:
        return DiffEntry(shown[i], key[1].hex(" ").upper(), **ids)

    shared = [entry(shown_a, k, i, id_a=i, rank_a=ranks_a.get(i), id_b=keys_b[k],
                    rank_b=ranks_b.get(keys_b[k]))
              for k, i in keys_a.items() if k in keys_b]
    only_a = [entry(shown_a, k, i, id_a=i, rank_a=ranks_a.get(i))
              for k, i in keys_a.items() if k not in keys_b]
    only_b = [entry(shown_b, k, i, id_b=i, rank_b=ranks_b.get(i))
              for k, i in keys_b.items() if k not in keys_a]
    return VocabDiff(tuple(only_a), tuple(only_b), tuple(shared))
