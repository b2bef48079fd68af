"""The tokenizer: a base alphabet, an ordered list of merges, a pre-tokenizer and special tokens.

Encoding is rank-priority, as in tiktoken and Hugging Face: in each piece, repeatedly merge the
adjacent pair whose merge was learned first. ``upto=k`` uses only the first k merges, which is
the segmentation training had reached after k steps.

>>> from bpe_core import train
>>> tok = train("low lower newest widest", unit="char", pretokenizer="end-of-word",
...             min_frequency=1, max_merges=3)
>>> [tok.display(i) for i in tok.encode("lowest")]
['low', 'es', 't', '</w>']
>>> [tok.display(i) for i in tok.encode("lowest", upto=1)]
['lo', 'w', 'e', 's', 't', '</w>']
"""

from __future__ import annotations

import os
import weakref
from collections import Counter
from dataclasses import dataclass
from itertools import chain, repeat
from typing import AbstractSet, Collection, Iterable, Literal, Mapping, Sequence

from .gc_pause import gc_paused
from .merges import Merge, MergeList, columns
from .pretokenize import compile_pattern, piece_finder, special_splitter
from .spans import TokenSpan, piece_spans
from .vocab import UNK, Base, token_display


@dataclass(frozen=True)
class MergeTree:
    """How a token was built: its two parts, recursively, down to base symbols."""

    id: int
    token: str
    rank: int | None = None  # None for a base symbol
    count: int | None = None
    left: "MergeTree | None" = None
    right: "MergeTree | None" = None

    def leaves(self) -> list[str]:
        """The base symbols it is made of, left to right."""
        if self.left is None:
            return [self.token]
        return self.left.leaves() + self.right.leaves()


#: How ``encode`` applies the merges: see ``bpe_core/encoders.py``.
EncodeMethod = Literal["rank", "merge-order", "longest-match"]


class DisallowedSpecialError(ValueError):
    """The text holds a special token's string, and special tokens were not allowed."""


#: Encoding caches: pieces remembered per merge limit, and how many limits keep a cache.
_CACHE_PIECES = 200_000
_CACHED_LIMITS = 4
#: Below this many characters, ``encode_batch`` does not start worker processes.
_BATCH_PARALLEL_MIN_CHARS = 1 << 20


class Tokenizer:
    """A trained or loaded BPE tokenizer. Build one with :func:`bpe_core.train` or ``load``."""

    def __init__(self, base: Base, merges: Sequence[Merge], *, pattern: str,
                 pretokenizer: str | None = None, special_tokens: Iterable[str] | Mapping[str, int] = (),
                 name: str = "bpe", stop_reason: str | None = None, config: dict | None = None,
                 ignore_merges: bool = False):
        """``ignore_merges``: a piece that is itself a token becomes that token without merging,
        as tiktoken always does and Hugging Face does with its ``ignore_merges`` option. It
        only changes ids when some token does not merge, alone, into itself; ``upto=k`` then
        splits such a token into its parts like any other (byte-level tokenizers only).
        """
        self.base = base
        self.pattern = pattern
        self.pretokenizer = pretokenizer  # the preset name, or None for a custom regex
        self.name, self.stop_reason, self.config = name, stop_reason, dict(config or {})
        n_base = len(base)
        left, right, count, tokens = columns(n_base, merges)
        # Display text of every id, base symbols first (spans need one per token).
        self._shown = [base.display(i) for i in range(n_base)] + tokens
        self.merges = MergeList(n_base, left=left, right=right, count=count, shown=self._shown)
        left, right = self.merges.left, self.merges.right
        self._ranks: dict[tuple[int, int], int] = dict(zip(zip(left, right), range(len(left))))
        data, eow, length = list(base.tokens), [k == "eow" for k in base.kinds], \
            [0 if k == "eow" else 1 for k in base.kinds]  # length: base symbols per token
        for a, b in zip(left, right):
            data.append(data[a] + data[b])
            eow.append(eow[b])
            length.append(length[a] + length[b])
        self._bytes, self._eow, self._length = data, eow, length
        first_special = n_base + len(self.merges)
        if isinstance(special_tokens, Mapping):
            self.special_tokens = dict(special_tokens)
        else:
            self.special_tokens = {s: first_special + i for i, s in enumerate(special_tokens)}
        if any(i < first_special for i in self.special_tokens.values()):
            raise ValueError("special token ids must come after the base symbols and merges")
        self._special_ids = {i: s for s, i in self.special_tokens.items()}
        self._splitter = special_splitter(self.special_tokens)
        self._regex = compile_pattern(pattern)
        self._findall = piece_finder(pattern)
        self.ignore_merges = bool(ignore_merges)
        # Piece -> token id, for pieces that are whole tokens (with ignore_merges; else None).
        self._whole: dict[str, int] | None = self._whole_tokens() if ignore_merges else None
        # Encoding caches, per merge limit: piece -> ids, and token -> its parts at that limit.
        self._cache: dict[int, dict[str, tuple[int, ...]]] = {}
        self._parts: dict[int, dict[int, tuple[int, ...]]] = {}

    @classmethod
    def from_pairs(cls, base: Base, pairs: Iterable[tuple[int, int, int]], **kwargs) -> "Tokenizer":
        """Build from ``(left_id, right_id, count)`` triples in merge order (count may be 0)."""
        shown = [base.display(i) for i in range(len(base))]
        data, eow = list(base.tokens), [k == "eow" for k in base.kinds]
        lefts, rights, counts = [], [], []
        for rank, (left, right, count) in enumerate(pairs):
            if not (0 <= left < len(shown) and 0 <= right < len(shown)):
                raise ValueError(f"merge {rank} refers to token {max(left, right)}, "
                                 f"which does not exist before it")
            data.append(data[left] + data[right])
            eow.append(eow[right])
            shown.append(token_display(data[-1], eow[-1]))
            lefts.append(left)
            rights.append(right)
            counts.append(count)
        return cls(base, MergeList(len(base), left=lefts, right=rights, count=counts, shown=shown),
                   **kwargs)

    # -- the vocabulary ----------------------------------------------------------------------

    @property
    def unit(self) -> str:
        return self.base.unit

    @property
    def end_of_word(self) -> bool:
        return self.base.end_of_word

    @property
    def n_base(self) -> int:
        return len(self.base)

    @property
    def vocab_size(self) -> int:
        """Base symbols + merges + special tokens."""
        return len(self._bytes) + len(self.special_tokens)

    def __len__(self) -> int:
        return self.vocab_size

    def __repr__(self) -> str:
        return (f"<Tokenizer {self.name!r}: {self.unit}, {self.pretokenizer or 'custom regex'}, "
                f"{len(self.merges)} merges, vocab_size={self.vocab_size}"
                f"{', ignore_merges' if self.ignore_merges else ''}>")

    def _check_id(self, i: int) -> None:
        if not (0 <= i < len(self._bytes) or i in self._special_ids):
            raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.vocab_size - 1})")

    def kind(self, i: int) -> str:
        """"byte", "char", "unk", "eow", "merge" or "special"."""
        self._check_id(i)
        if i in self._special_ids:
            return "special"
        return self.base.kinds[i] if i < self.n_base else "merge"

    def token_bytes(self, i: int) -> bytes:
        """The bytes a token stands for (without the ``</w>`` marker)."""
        self._check_id(i)
        if i in self._special_ids:
            return self._special_ids[i].encode("utf-8")
        return self._bytes[i]

    def ends_word(self, i: int) -> bool:
        """Does token ``i`` end with the ``</w>`` end-of-word marker?"""
        self._check_id(i)
        return i < len(self._eow) and self._eow[i]

    def display(self, i: int) -> str:
        """Readable text of a token: ``"est</w>"``, ``" re"``, or hex like ``<E4 BD>``."""
        self._check_id(i)
        if i in self._special_ids:
            return self._special_ids[i]
        return self._shown[i]

    def merge_for(self, i: int) -> Merge | None:
        """The merge that made token ``i`` (None for base symbols and special tokens)."""
        self._check_id(i)
        return self.merges[i - self.n_base] if self.n_base <= i < len(self._bytes) else None

    def merge_tree(self, i: int) -> MergeTree:
        """Which two tokens made ``i``, recursively, with rank and count when learned."""
        m = self.merge_for(i)
        if m is None:
            return MergeTree(i, self.display(i))
        return MergeTree(i, m.token, m.rank, m.count, self.merge_tree(m.left_id),
                         self.merge_tree(m.right_id))

    # -- encoding ----------------------------------------------------------------------------

    def _limit(self, upto: int | None) -> int:
        return len(self.merges) if upto is None else max(0, min(int(upto), len(self.merges)))

    def _bpe(self, ids: list[int]) -> list[int]:
        """Rank-priority merging of one piece's base ids, with every merge.

        (Fewer merges, ``upto=k``, are applied by splitting this result: see ``_encode_new``.)
        """
        # Beside the parts, the rank of each adjacent pair (past the last rank for none);
        # min() and index() find the leftmost lowest in C, and a merge re-ranks only its two
        # neighbours. Leftmost-first equals merging every occurrence of the pair at once: the
        # pairs a merge creates all hold the new token, so they rank after it.
        none = len(self.merges)
        get, n_base = self._ranks.get, len(self._bytes) - none
        ranks = list(map(get, zip(ids, ids[1:]), repeat(none)))
        while ranks:
            best = min(ranks)
            if best == none:
                break
            i = ranks.index(best)
            ids[i] = new = n_base + best
            del ids[i + 1], ranks[i]
            if i:
                ranks[i - 1] = get((ids[i - 1], new), none)
            if i < len(ranks):
                ranks[i] = get((new, ids[i + 1]), none)
        return ids

    def _whole_tokens(self) -> dict[str, int]:
        """Text -> id of every token that can be a whole piece (its bytes are valid UTF-8)."""
        if self.unit != "byte" or self.end_of_word:
            raise ValueError("ignore_merges is supported for byte-level tokenizers without </w> "
                             "only (a character-level piece is not its token's bytes)")
        whole = {}
        for i, data in enumerate(self._bytes):
            try:
                whole[data.decode("utf-8")] = i
            except UnicodeDecodeError:
                pass  # part of a character: never a whole piece
        return whole

    def _piece_cache(self, limit: int) -> dict[str, tuple[int, ...]]:
        """The piece -> ids cache for ``limit`` (the full one and a few ``upto`` ones are kept)."""
        cache = self._cache.get(limit)
        if cache is None:
            if len(self._cache) >= _CACHED_LIMITS:
                # Forget the oldest upto=k cache; the full one is the most used.
                old = next(k for k in self._cache if k != len(self.merges))
                del self._cache[old]
                self._parts.pop(old, None)
            cache = self._cache[limit] = _PieceCache(self, limit)
        elif len(cache) > _CACHE_PIECES:  # bounded: forget everything, start again
            cache.clear()
            cache[""] = ()
        return cache

    def _encode_piece(self, piece: str, limit: int) -> tuple[int, ...]:
        return self._piece_cache(limit)[piece]

    def __getstate__(self) -> dict:
        # Pickled (for encode_batch's workers, or a cache) without the encoding caches.
        state = dict(self.__dict__)
        state["_cache"], state["_parts"] = {}, {}
        return state

    def _encode_new(self, piece: str, limit: int) -> tuple[int, ...]:
        full = len(self.merges)
        if limit == full:
            whole = self._whole
            if whole is not None and piece in whole:
                return (whole[piece],)
            return tuple(self._bpe(self.base.symbols(piece)))
        # With fewer merges, take the full encoding and split every token made by merge
        # ``limit`` or later back into its parts: rank priority equals replaying the merges in
        # training order (see encoders.py), and the merges after ``limit`` only ever join
        # neighbours, each token by its own merge.
        return self._split_above(self._encode_piece(piece, full), limit)

    def _split_above(self, ids: Sequence[int], limit: int) -> tuple[int, ...]:
        """``ids`` with each token of merge rank >= ``limit`` split, recursively, into its parts."""
        top, n_base = self.n_base + limit, self.n_base
        left, right = self.merges.left, self.merges.right
        if max(ids, default=0) < top:
            return tuple(ids)
        memo = self._parts.setdefault(limit, {})
        out: list[int] = []
        for i in ids:
            if i < top:
                out.append(i)
                continue
            parts = memo.get(i)
            if parts is None:
                parts, stack = [], [i]  # a stack, not recursion: merge trees can be deep
                while stack:
                    t = stack.pop()
                    if t < top:
                        parts.append(t)
                    else:
                        stack += (right[t - n_base], left[t - n_base])
                parts = memo[i] = tuple(parts)
            out.extend(parts)
        return tuple(out)

    def _segments(self, text: str, allowed_special, disallowed_special):
        """Split off special tokens: yields (start, str) for ordinary text, (start, id) for specials."""
        if self._splitter is None:
            yield 0, text
            return
        allowed = set(self.special_tokens) if allowed_special == "all" else set(allowed_special)
        disallowed = (set(self.special_tokens) - allowed if disallowed_special == "all"
                      else set(disallowed_special))
        pos = 0
        for m in self._splitter.finditer(text):
            s = m.group()
            if s in disallowed:
                raise DisallowedSpecialError(
                    f"the text holds the special token {s!r} at character {m.start()}. "
                    f"Pass allowed_special={{{s!r}}} (or 'all') to encode it as a special token, "
                    f"or disallowed_special=() to encode it as ordinary text.")
            if s in allowed:
                if m.start() > pos:
                    yield pos, text[pos:m.start()]
                yield m.start(), self.special_tokens[s]
                pos = m.end()
        if pos < len(text):
            yield pos, text[pos:]

    def _piece_encoder(self, method: str):
        """``(piece, limit) -> ids`` for an encoding method; see ``encoders.py`` for the others."""
        if method == "rank":
            return self._encode_piece
        from .encoders import piece_encoder

        return piece_encoder(self, method)

    def encode_piece(self, piece: str, *, upto: int | None = None) -> tuple[int, ...]:
        """Token ids of one already pre-tokenized piece (a training word), without running the
        pre-tokenizer again; ``upto=k`` uses the first k merges.

        >>> from bpe_core import train
        >>> tok = train({"hug": 10, "pug": 5}, unit="char", pretokenizer="whitespace",
        ...             max_merges=2, min_frequency=1)
        >>> [tok.display(i) for i in tok.encode_piece("hug", upto=1)]
        ['h', 'ug']
        """
        return self._encode_piece(piece, self._limit(upto))

    def encode(self, text: str, *, allowed_special: Literal["all"] | AbstractSet[str] = frozenset(),
               disallowed_special: Literal["all"] | Collection[str] = "all",
               upto: int | None = None, method: EncodeMethod = "rank") -> list[int]:
        """Text to token ids. Special tokens in the text raise unless allowed (as in tiktoken).

        ``method`` is "rank" (rank priority, as tiktoken), "merge-order" (replay the merges in
        training order) or "longest-match" (greedy longest token first).
        """
        limit = self._limit(upto)
        encode_piece = None if method == "rank" else self._piece_encoder(method)
        if encode_piece is None and self._splitter is None:
            return self._encode_ordinary(text, limit)  # the common case, without a copy
        out: list[int] = []
        for _, seg in self._segments(text, allowed_special, disallowed_special):
            if isinstance(seg, int):
                out.append(seg)
            elif encode_piece is None:
                out += self._encode_ordinary(seg, limit)
            else:
                for piece in self._findall(seg):
                    if piece:
                        out.extend(encode_piece(piece, limit))
        return out

    def _encode_ordinary(self, text: str, limit: int) -> list[int]:
        """Rank-priority ids of text without special tokens: the hot loop of encoding."""
        # Every piece is looked up with C loops only (map, chain): a Python loop per piece would
        # cost more than the lookups. The cache merges a piece not seen before (__missing__).
        # New pieces add a tuple each to the cache: see gc_pause.py for why the pause.
        with gc_paused():
            pieces = self._findall(text)
            return list(chain.from_iterable(map(self._piece_cache(limit).__getitem__, pieces)))

    def encode_batch(self, texts: Iterable[str], *, processes: int | None = None,
                     allowed_special: Literal["all"] | AbstractSet[str] = frozenset(),
                     disallowed_special: Literal["all"] | Collection[str] = "all",
                     upto: int | None = None) -> list[list[int]]:
        """``[encode(t) for t in texts]``, spread over ``processes`` (None: every core).

        Worker processes start only when there is enough text to pay for them (about 1 MB);
        the ids are the same either way.
        """
        texts = list(texts)
        kwargs = dict(allowed_special=allowed_special, disallowed_special=disallowed_special,
                      upto=upto)
        processes = (os.cpu_count() or 1) if processes is None else processes
        total = sum(map(len, texts))
        if processes < 2 or len(texts) < 2 or total < _BATCH_PARALLEL_MIN_CHARS:
            return [self.encode(t, **kwargs) for t in texts]
        # Batches of about equal text, several per process so that none waits for a slow one;
        # imap keeps their order.
        batches, batch, size, goal = [], [], 0, total / (4 * processes)
        for t in texts:
            batch.append(t)
            size += len(t)
            if size >= goal:
                batches.append(batch)
                batch, size = [], 0
        if batch:
            batches.append(batch)
        from .words import worker_pool

        with worker_pool(processes, _batch_start, (self, kwargs)) as pool:
            return [ids for done in pool.imap(_batch_encode, batches) for ids in done]

    def spans(self, text: str, *, allowed_special: Literal["all"] | AbstractSet[str] = frozenset(),
              disallowed_special: Literal["all"] | Collection[str] = "all",
              upto: int | None = None, method: EncodeMethod = "rank") -> list[TokenSpan]:
        """Encode and say, for each token, which characters of ``text`` it covers."""
        limit = self._limit(upto)
        encode_piece = self._piece_encoder(method)
        out: list[TokenSpan] = []
        with gc_paused():  # one object per token, never in a cycle: see gc_pause.py
            for start, seg in self._segments(text, allowed_special, disallowed_special):
                if isinstance(seg, int):
                    s = self._special_ids[seg]
                    out.append(TokenSpan(seg, s, s.encode(), start, start + len(s), special=True))
                    continue
                for m in self._regex.finditer(seg):
                    if m.start() != m.end():
                        piece = m.group()
                        out += piece_spans(piece, start + m.start(), encode_piece(piece, limit),
                                           shown=self._shown, length=self._length,
                                           base=self.base)
        return out

    # -- decoding ----------------------------------------------------------------------------

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Token ids to bytes (``</w>`` becomes a space between words)."""
        parts, last = [], None
        specials, kinds = self._special_ids, self.base.kinds
        for i in ids:
            last = i
            self._check_id(i)
            if i in specials:
                parts.append(specials[i].encode("utf-8"))
            elif i < self.n_base and kinds[i] == "unk":
                parts.append(UNK.encode())
            else:
                parts.append(self._bytes[i] + (b" " if self._eow[i] else b""))
        data = b"".join(parts)
        if last is not None and last not in specials and self._eow[last]:
            data = data[:-1]  # the last word's </w> ends the text, not a gap
        return data

    def decode(self, ids: Iterable[int]) -> str:
        """Token ids to text; byte sequences that are not valid UTF-8 become U+FFFD."""
        return self.decode_bytes(ids).decode("utf-8", errors="replace")

    # -- over a corpus -----------------------------------------------------------------------

    def token_frequencies(self, corpus, *, upto: int | None = None) -> Counter:
        """Token id -> occurrences in ``corpus`` (same corpus kinds as training accepts)."""
        from .words import count_words

        limit = self._limit(upto)
        freq: Counter = Counter()
        for word, n in count_words(corpus, self.pattern, special_tokens=self.special_tokens).items():
            for i in self._encode_piece(word, limit):
                freq[i] += n
        return freq

    def effective_vocab(self, corpus, *, upto: int | None = None) -> set[int]:
        """The tokens that occur at least once when ``corpus`` is encoded."""
        return {i for i, n in self.token_frequencies(corpus, upto=upto).items() if n}

    # -- files -------------------------------------------------------------------------------

    def save(self, path, format: str = "native") -> None:
        """Write the tokenizer to ``path``; ``format="native"`` is the playground's own JSON."""
        from .files import save

        save(self, path, format=format)


class _PieceCache(dict):
    """Piece -> ids at one merge limit; a piece not seen before is encoded on first lookup.

    It refers to its tokenizer weakly: a cycle would leave every dropped tokenizer to the
    garbage collector instead of freeing it at once.
    """

    def __init__(self, tok: Tokenizer, limit: int):
        super().__init__({"": ()})
        self.tok, self.limit = weakref.ref(tok), limit

    def __missing__(self, piece: str) -> tuple[int, ...]:
        ids = self[piece] = self.tok()._encode_new(piece, self.limit)
        return ids


# encode_batch's workers: the tokenizer arrives once per process (inherited, with fork), not
# once per batch.
_batch_tokenizer: tuple[Tokenizer, dict] | None = None


def _batch_start(tok: Tokenizer, kwargs: dict) -> None:
    global _batch_tokenizer
    _batch_tokenizer = tok, kwargs


def _batch_encode(texts: list[str]) -> list[list[int]]:
    tok, kwargs = _batch_tokenizer
    return [tok.encode(t, **kwargs) for t in texts]
