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

from collections import Counter
from dataclasses import dataclass
from typing import AbstractSet, Collection, Iterable, Literal, Mapping, Sequence

from .pretokenize import compile_pattern, special_splitter
from .vocab import UNK, Base


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


@dataclass(frozen=True)
class TokenSpan:
    """A token as it lies in the input: ``text[start:end]`` (character offsets) is what it covers.

    ``partial`` is True when the token holds only part of a character's UTF-8 bytes; then its
    neighbour covers the same character too.
    """

    id: int
    token: str  # display text
    bytes: bytes  # the input bytes it covers
    start: int
    end: int
    partial: bool = False
    special: bool = False


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


class DisallowedSpecialError(ValueError):
    """The text holds a special token's string, and special tokens were not allowed."""


class Tokenizer:
    """A trained or loaded BPE tokenizer. Build one with :func:`bpe_core.train` or ``load``."""

    def __init__(self, base: Base, merges: Sequence[Merge], *, pattern: str,
                 pretokenizer: str | None = None, special_tokens: Iterable[str] | Mapping[str, int] = (),
                 name: str = "bpe", stop_reason: str | None = None, config: dict | None = None):
        self.base = base
        self.merges: tuple[Merge, ...] = tuple(merges)
        self.pattern = pattern
        self.pretokenizer = pretokenizer  # the preset name, or None for a custom regex
        self.name, self.stop_reason, self.config = name, stop_reason, dict(config or {})
        n_base = len(base)
        self._ranks: dict[tuple[int, int], int] = {}
        self._bytes = list(base.tokens)
        self._eow = [k == "eow" for k in base.kinds]
        self._length = [0 if k == "eow" else 1 for k in base.kinds]  # base symbols per token
        for m in self.merges:
            if m.token_id != n_base + m.rank or max(m.left_id, m.right_id) >= m.token_id:
                raise ValueError(f"merge {m.rank} is not in training order (ids {m.left_id}, "
                                 f"{m.right_id} -> {m.token_id})")
            self._ranks[(m.left_id, m.right_id)] = m.rank
            self._bytes.append(self._bytes[m.left_id] + self._bytes[m.right_id])
            self._eow.append(self._eow[m.right_id])
            self._length.append(self._length[m.left_id] + self._length[m.right_id])
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
        self._cache: dict[tuple[str, int], tuple[int, ...]] = {}

    @classmethod
    def from_pairs(cls, base: Base, pairs: Iterable[tuple[int, int, int]], **kwargs) -> "Tokenizer":
        """Build from ``(left_id, right_id, count)`` triples in merge order (count may be 0)."""
        shown = [base.display(i) for i in range(len(base))]
        merges = []
        for rank, (left, right, count) in enumerate(pairs):
            if not (0 <= left < len(shown) and 0 <= right < len(shown)):
                raise ValueError(f"merge {rank} refers to token {max(left, right)}, "
                                 f"which does not exist before it")
            shown.append(shown[left] + shown[right])
            merges.append(Merge(rank, shown[left], shown[right], shown[-1], count,
                                left, right, len(shown) - 1))
        return cls(base, merges, **kwargs)

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
                f"{len(self.merges)} merges, vocab_size={self.vocab_size}>")

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

    def display(self, i: int) -> str:
        """Readable text of a token: ``"est</w>"``, ``" re"``, or hex like ``<E4 BD>``."""
        self._check_id(i)
        if i in self._special_ids:
            return self._special_ids[i]
        if i < self.n_base:
            return self.base.display(i)
        return self.merges[i - self.n_base].token

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

    def _bpe(self, ids: list[int], limit: int) -> list[int]:
        """Rank-priority merging of one piece's base ids, with merges of rank < limit."""
        ranks, n_base = self._ranks, self.n_base
        while len(ids) > 1:
            best, at = limit, -1
            for i in range(len(ids) - 1):
                r = ranks.get((ids[i], ids[i + 1]))
                if r is not None and r < best:
                    best, at = r, i
            if at < 0:
                break
            a, b, new = ids[at], ids[at + 1], n_base + best
            out, i, n = ids[:at], at, len(ids)
            while i < n:  # merge every occurrence, left to right
                if i + 1 < n and ids[i] == a and ids[i + 1] == b:
                    out.append(new)
                    i += 2
                else:
                    out.append(ids[i])
                    i += 1
            ids = out
        return ids

    def _encode_piece(self, piece: str, limit: int) -> tuple[int, ...]:
        key = (piece, limit)
        ids = self._cache.get(key)
        if ids is None:
            ids = tuple(self._bpe(self.base.symbols(piece), limit))
            if len(self._cache) > 200_000:  # a bounded cache: forget everything, start again
                self._cache.clear()
            self._cache[key] = ids
        return ids

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

    def encode(self, text: str, *, allowed_special: Literal["all"] | AbstractSet[str] = frozenset(),
               disallowed_special: Literal["all"] | Collection[str] = "all",
               upto: int | None = None) -> list[int]:
        """Text to token ids. Special tokens in the text raise unless allowed (as in tiktoken)."""
        limit = self._limit(upto)
        out: list[int] = []
        for _, seg in self._segments(text, allowed_special, disallowed_special):
            if isinstance(seg, int):
                out.append(seg)
                continue
            for piece in self._regex.findall(seg):
                if piece:
                    out.extend(self._encode_piece(piece, limit))
        return out

    def spans(self, text: str, *, allowed_special: Literal["all"] | AbstractSet[str] = frozenset(),
              disallowed_special: Literal["all"] | Collection[str] = "all",
              upto: int | None = None) -> list[TokenSpan]:
        """Encode and say, for each token, which characters of ``text`` it covers."""
        limit = self._limit(upto)
        out: list[TokenSpan] = []
        for start, seg in self._segments(text, allowed_special, disallowed_special):
            if isinstance(seg, int):
                s = self._special_ids[seg]
                out.append(TokenSpan(seg, s, s.encode(), start, start + len(s), special=True))
                continue
            for m in self._regex.finditer(seg):
                if m.start() != m.end():
                    out.extend(self._piece_spans(m.group(), start + m.start(), limit))
        return out

    def _piece_spans(self, piece: str, start: int, limit: int) -> list[TokenSpan]:
        data = piece.encode("utf-8")
        # char_at[k]: index (in the piece) of the character holding byte k; boundary[k]: k starts one
        char_at, boundary = [], []
        for ci, ch in enumerate(piece):
            n = len(ch.encode("utf-8"))
            char_at.extend([ci] * n)
            boundary.extend([True] + [False] * (n - 1))
        char_at.append(len(piece))
        boundary.append(True)
        # Bytes each base symbol covers: one per byte, one character's per character.
        widths = []
        for ch in piece:
            n = len(ch.encode("utf-8"))
            if self.unit == "char" and (ch in self.base.char_ids or not self.base.byte_fallback):
                widths.append(n)
            else:
                widths.extend([1] * n)
        if self.end_of_word:
            widths.append(0)
        spans, b, sym = [], 0, 0
        for i in self._encode_piece(piece, limit):
            k = self._length[i]
            width = sum(widths[sym:sym + k])
            sym += k
            lo, hi = b, b + width
            b = hi
            first = char_at[lo] if lo < len(data) else len(piece)
            last = char_at[hi - 1] + 1 if hi > lo else first
            spans.append(TokenSpan(i, self.display(i), data[lo:hi], start + first, start + last,
                                   partial=not (boundary[lo] and boundary[hi])))
        return spans

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
