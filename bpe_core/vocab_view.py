"""What the pages show of each token id: its kind, the bytes it stands for, a readable text.

A model's tokens are strings in the model's own alphabet: GPT-2's byte characters (``Ġthe``),
SentencePiece's ``▁the``, byte-fallback tokens ``<0xE4>``, an end-of-word marker. The decoder
says what they stand for, so the readable text of a token is what the decoder's per-token
steps make of it, with bytes that are not whole UTF-8 characters shown as hex:

>>> from bpe_core import train
>>> tok = train("aaab", unit="byte", pretokenizer="none", max_merges=1, min_frequency=1)
>>> v = tok.view
>>> v.display(256), v.kind(256), v.kind(97), v.display(0xE4), v.bytes(0xE4)
('aa', 'merge', 'byte', '<E4>', b'\\xe4')
"""

from __future__ import annotations

import functools

from collections import Counter
from itertools import compress, count
from operator import eq, or_
from dataclasses import dataclass
from typing import Iterable, Sequence

from . import decoders
from .alphabet import END_OF_WORD, show_bytes
from .end_of_word import EndOfWord
from .identity import flatten
from .merges import Merge, MergeList
from .models import BPE, check_id


def end_of_word_marker(model: BPE, pre_tokenizer, decoder) -> str | None:
    """The suffix that marks a token as ending a word: the playground's end-of-word step's,
    the BPE decoder's, else the model's."""
    for p in flatten(pre_tokenizer):
        if isinstance(p, EndOfWord):
            return p.marker
    for d in flatten(decoder):
        if type(d).__name__ == "BPEDecoder":
            return d.suffix
    return model.end_of_word_suffix


@dataclass(frozen=True)
class MergeTree:
    """How a token was built: its two parts, recursively, down to tokens no merge makes."""

    id: int
    token: str
    rank: int | None = None  # None for a token no merge makes
    count: int | None = None
    left: "MergeTree | None" = None
    right: "MergeTree | None" = None

    def leaves(self) -> list[str]:
        """The tokens it is made of, left to right (in a loop: a tree can be thousands of
        merges deep, see :meth:`VocabView.merge_tree`)."""
        out, todo = [], [self]
        while todo:
            node = todo.pop()
            if node.left is None:
                out.append(node.token)
            else:
                todo += (node.right, node.left)
        return out


class _Lazy(Sequence[str]):
    """``f(ids)`` for every id, computed when first read, for one id or many at once (a large
    vocabulary is mostly never shown, and loading it should not pay for every token's text;
    the Vocabulary page lists them all, each step of ``f`` run once over all of them)."""

    def __init__(self, size: int, f):
        self._size, self._f, self._memo = size, f, [None] * size

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, i):
        if isinstance(i, slice):
            return self.many(range(*i.indices(self._size)))
        v = self._memo[i]
        if v is None:
            v = self._memo[i] = self._f([i])[0]
        return v

    def many(self, ids: Sequence[int]) -> list:
        memo = self._memo
        values = list(map(memo.__getitem__, ids))
        if None in values:
            missing = list(dict.fromkeys(i for i, v in zip(ids, values) if v is None))
            for i, v in zip(missing, self._f(missing)):
                memo[i] = v
            values = list(map(memo.__getitem__, ids))
        return values


class VocabView:
    """Kinds, bytes and display texts of every id of a tokenizer (see the module docstring)."""

    def __init__(self, model: BPE, pre_tokenizer, decoder, added):
        self.model, self.decoder, self.added = model, decoder, added
        for t in added:  # (before the tables below give every id a place)
            check_id(t.id, t.content, len(model.tokens) + len(added))
        self.size = max(len(model.tokens), max((t.id + 1 for t in added), default=0))
        self.marker = end_of_word_marker(model, pre_tokenizer, decoder)
        self.byte_level = any(type(d).__name__ == "ByteLevel" for d in flatten(decoder))
        self.special_texts = frozenset(t.content for t in added if t.special)
        self._added = {t.id: t for t in added}
        # The unknown token is "unk" even when the file also lists it as a special token (as
        # most do): what it stands for is whatever text the vocabulary could not spell.
        self._unk = model.vocab.get(model.unk_token) if model.unk_token is not None else None
        self._shown = _Lazy(self.size, self._shown_of)
        self._bytes = _Lazy(self.size, self._bytes_of)
        self._fields: dict[int, tuple[str, bytes, bool]] = {}  # see token_fields
        self._merged: dict[int, tuple[list[int], int | None]] = {}  # see remerged
        m = model.merges
        self.merges = MergeList(left=m.left, right=m.right, result=m.result, count=m.count,
                                shown=self._shown)

    @functools.cached_property
    def made_by(self) -> dict[int, int]:
        """Token id -> the first merge that makes it (several may, in files converted from
        SentencePiece); made when first asked, not at load (cl100k: 8 ms of 0.3 s)."""
        m = self.model.merges
        # Filled from the last merge back, in C: the first one wins.
        made = dict(zip(reversed(m.result), range(len(m.result) - 1, -1, -1)))
        # A merge with the empty token, "a" + "" -> "a" (tokenizers reads such a file), makes
        # nothing: "a" is not built of itself, and a tree of it would never end.
        for rank in compress(count(), map(or_, map(eq, m.result, m.left),
                                          map(eq, m.result, m.right))):
            if made.get(m.result[rank]) == rank:
                del made[m.result[rank]]
        return made

    @functools.cached_property
    def made_again(self) -> frozenset[int]:
        """The tokens that more than one merge makes: a file converted from SentencePiece
        lists every split of a token (Llama 2 makes ``▁that`` by ``▁t`` + ``hat``, rank 130,
        and by ``▁th`` + ``at``, rank 131)."""
        return frozenset(t for t, n in Counter(self.model.merges.result).items() if n > 1)

    @functools.cached_property
    def n_base(self) -> int:
        """How many tokens no merge makes: the base of the vocabulary."""
        tokens = self.model.tokens
        return len(tokens) - tokens.count(None) - len(self.made_by)

    def ids(self) -> list[int]:
        """Every id in use, in order."""
        tokens = self.model.tokens
        return [i for i in range(self.size) if i in self._added
                or (i < len(tokens) and tokens[i] is not None)]

    def raw(self, i: int) -> str | None:
        """The token's string as the decoder receives it (added tokens first, as in HF)."""
        return self._raws((i,))[0]

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = True) -> str:
        """What :meth:`Tokenizer.decode` gives: the tokens' strings through the decoder."""
        ids, decoded = list(ids), self.added.decoded
        tokens = [t for t in (decoded.get(i, r) for i, r in zip(ids, self._raws(ids)))
                  if t is not None and not (skip_special_tokens and t in self.special_texts)]
        return " ".join(tokens) if self.decoder is None else self.decoder.decode(tokens)

    @property
    def unk_id(self) -> int | None:
        """The unknown token's id (None: the model has none)."""
        return self._unk

    def check(self, i: int) -> None:
        if self.raw(i) is None:
            raise ValueError(f"token id {i} is not in this vocabulary (0 to {self.size - 1})")

    def kind(self, i: int) -> str:
        self.check(i)
        return self._kind(i)

    def kinds(self, ids: Sequence[int]) -> list[str]:
        """:meth:`kind` of every id in ``ids`` (ids in use)."""
        return list(map(self._kind, ids))

    def _kind(self, i: int) -> str:
        if i == self._unk:
            return "unk"
        added = self._added.get(i)
        if added is not None:
            return "special" if added.special else "added"
        if i in self.made_by:
            return "merge"
        t = self.model.tokens[i]
        if self.marker is not None and t == self.marker:
            return "eow"
        fallback = self.model.byte_fallback and decoders.fallback_byte(t) is not None
        if (self.byte_level and len(t) == 1) or fallback:
            return "byte"
        return "char" if len(self._symbol_core(t)) == 1 else "vocab"

    def _symbol_core(self, t: str) -> str:
        """``t`` without the model's own suffix and prefix: Hugging Face's BPE starts a word's
        last character as ``o</w>`` (CharBPETokenizer, the first GPT) and a later one as
        ``##o``, base symbols that no merge makes."""
        suffix, prefix = self.model.end_of_word_suffix, self.model.continuing_subword_prefix
        if suffix and t.endswith(suffix) and t != suffix:
            t = t[:-len(suffix)]
        if prefix and t.startswith(prefix) and t != prefix:
            t = t[len(prefix):]
        return t

    def ends_word(self, i: int) -> bool:
        self.check(i)
        t = self.raw(i)
        return i not in self._added and self.marker is not None and t.endswith(self.marker)

    def bytes(self, i: int) -> bytes:
        self.check(i)
        return self._bytes[i]

    def display(self, i: int) -> str:
        self.check(i)
        return self._shown[i]

    def bytes_of(self, ids: Sequence[int]) -> list[bytes]:
        """:meth:`bytes` of every id in ``ids`` (ids in use), made all at once."""
        return self._bytes.many(ids)

    def display_of(self, ids: Sequence[int]) -> list[str]:
        """:meth:`display` of every id in ``ids`` (ids in use), made all at once."""
        return self._shown.many(ids)

    def token_fields(self, ids: Sequence[int]) -> list[tuple[str, bytes, bool]]:
        """``(display text, bytes, partial)`` of each id, as a span shows it (``partial``: the
        bytes are not whole UTF-8 characters). Made once per id, then looked up in C: a page
        shows a span per token, 17,000 of them for 10,000 characters of Chinese.

        >>> from bpe_core import train
        >>> train("hé", unit="byte", max_merges=0).view.token_fields([104, 0xC3])
        [('h', b'h', False), ('<C3>', b'\\xc3', True)]
        """
        fields = list(map(self._fields.get, ids))
        if None in fields:
            new = list(dict.fromkeys(i for i, f in zip(ids, fields) if f is None))
            for i in new:
                self.check(i)
            for i, shown, data in zip(new, self._shown.many(new), self._bytes.many(new)):
                self._fields[i] = (shown, data, not _is_utf8(data))
            fields = list(map(self._fields.__getitem__, ids))
        return fields

    def merge_for(self, i: int) -> Merge | None:
        """The merge that makes token ``i`` when its own symbols are merged, as the model
        merges a piece; of several that make it, the first unless merging takes another (Llama
        2's ``▁t`` + ``hat`` needs ``hat``, made at rank 7,501: merging takes rank 131)."""
        self.check(i)
        rank = self.made_by.get(i)
        if i in self.made_again:
            ids, last = self._merging(i)
            rank = last if ids == [i] else rank
        return None if rank is None else self.merges[rank]

    def remerged(self, i: int) -> list[int]:
        """What merging token ``i``'s own symbols gives: ``[i]``, unless merges never make it
        from them (a file may hold such a token, which only the look-up of a whole piece gives,
        under ignore_merges)."""
        self.check(i)
        return list(self._merging(i)[0])

    def _merging(self, i: int) -> tuple[list[int], int | None]:
        """``model.last_merge`` of token ``i``'s symbols, found once."""
        found = self._merged.get(i)
        if found is None:
            found = self._merged[i] = self.model.last_merge(self._symbols(i))
        return found

    def _symbols(self, i: int) -> list[int]:
        """The tokens no merge makes that token ``i`` is spelled in, left to right."""
        m, made_by, out, todo = self.model.merges, self.made_by, [], [i]
        while todo:  # (a loop: see merge_tree)
            j = todo.pop()
            rank = made_by.get(j)
            if rank is None:
                out.append(j)
            else:
                todo += (m.right[rank], m.left[rank])
        return out

    def merge_tree(self, i: int) -> MergeTree:
        """How token ``i`` is made, each part by the merge :meth:`merge_for` names: as merging
        makes it from its own symbols, which is how the model makes it inside any piece.

        Built bottom up in a loop, each part once: training on one long piece ("none") can
        make a chain of merges each adding a symbol, thousands deep, past Python's recursion.
        """
        made: dict[int, MergeTree] = {}
        todo = [i]
        while todo:
            j = todo[-1]
            m = self.merge_for(j)
            if m is None:
                made[j] = MergeTree(j, self.display(j))
            else:
                parts = [k for k in (m.left_id, m.right_id) if k not in made]
                if parts:
                    todo += parts
                    continue
                made[j] = MergeTree(j, m.token, m.rank, m.count, made[m.left_id],
                                    made[m.right_id])
            todo.pop()
        return made[i]

    def _raws(self, ids: Sequence[int]) -> list[str | None]:
        """:meth:`raw` of every id in ``ids`` (None for an id not in use)."""
        tokens, added = self.model.tokens, self._added
        n = len(tokens)
        return [added[i].content if i in added else tokens[i] if 0 <= i < n else None
                for i in ids]

    def _bytes_of(self, ids: Sequence[int]) -> list[bytes]:
        out = [b""] * len(ids)  # an id not in use, and the unknown token (any text)
        decoded, texts = [], []  # what the decoder's per-token steps turn into bytes
        added, marker, unk = self._added, self.marker, self._unk
        # A special token is a marker, shown as written. Another added token is text, which
        # the decoder's per-token steps turn back into what it stands for (Gemma's "▁▁" is two
        # spaces); not ByteLevel's byte characters, which only the model's tokens use.
        plain_added = self.decoder is None or self.byte_level
        for k, (i, t) in enumerate(zip(ids, self._raws(ids))):
            if t is None or i == unk:
                continue
            a = added.get(i)
            if a is not None:
                if a.special or plain_added:
                    out[k] = t.encode("utf-8")
                    continue
            elif marker is not None and t.endswith(marker):
                t = t[:-len(marker)]
            decoded.append(k)
            texts.append(t)
        if self.decoder is None:
            data = [t.encode("utf-8") for t in texts]
        else:
            data = decoders.tokens_bytes(self.decoder, texts)
        for k, d in zip(decoded, data):
            out[k] = d
        return out

    def _shown_of(self, ids: Sequence[int]) -> list[str]:
        out = []
        added, marker, unk = self._added, self.marker, self._unk
        for i, t, data in zip(ids, self._raws(ids), self._bytes.many(ids)):
            if t is None:
                out.append("")
            elif i == unk or (i in added and added[i].special):
                out.append(t)
            else:
                try:  # (most tokens: whole UTF-8 characters)
                    shown = data.decode("utf-8")
                except UnicodeDecodeError:
                    shown = show_bytes(data)
                eow = i not in added and marker is not None and t.endswith(marker)
                out.append(shown + END_OF_WORD if eow else shown)
        return out


class VocabularyMethods:
    """What a :class:`~bpe_core.Tokenizer` says about its vocabulary, read from its ``view`` (a
    :class:`VocabView`) and its ``model``."""

    view: VocabView
    model: BPE

    @property
    def merges(self) -> MergeList:
        return self.view.merges

    @property
    def vocab_size(self) -> int:
        """One more than the highest id of a model or added token: ids that name no token count
        too, as in tiktoken's ``n_vocab`` (Hugging Face's ``get_vocab_size`` counts only tokens).

        >>> from bpe_core import BPE, Tokenizer
        >>> Tokenizer(BPE.from_vocab({"a": 0, "b": 1, "ab": 5}, [("a", "b")])).vocab_size
        6
        """
        return self.view.size

    def __len__(self) -> int:
        return self.vocab_size

    @property
    def unit(self) -> str:
        """"byte" when tokens are byte strings (ByteLevel), else "char"."""
        return "byte" if self.view.byte_level else "char"

    @property
    def n_base(self) -> int:
        """How many of the model's tokens no merge makes: the alphabet merging starts from."""
        return self.view.n_base

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special token text -> id (the added tokens marked special)."""
        return {t.content: t.id for t in self.added_tokens if t.special}

    @property
    def ignore_merges(self) -> bool:
        return self.model.ignore_merges

    def ids(self) -> list[int]:
        """Every id of the vocabulary, in order."""
        return self.view.ids()

    def kind(self, i: int) -> str:
        """"byte", "char", "vocab" (a longer token no merge makes), "unk", "eow", "merge",
        "special" or "added"."""
        return self.view.kind(i)

    def token_bytes(self, i: int) -> bytes:
        """The bytes a token stands for (without a ``</w>`` marker)."""
        return self.view.bytes(i)

    def ends_word(self, i: int) -> bool:
        """Does token ``i`` end with the end-of-word marker (``</w>``)?"""
        return self.view.ends_word(i)

    def display(self, i: int) -> str:
        """Readable text of a token: ``"est</w>"``, ``" re"``, or hex like ``<E4 BD>``."""
        return self.view.display(i)

    def merge_for(self, i: int) -> Merge | None:
        """The merge that makes token ``i`` from its own symbols (None for tokens no merge
        makes; see :meth:`VocabView.merge_for`)."""
        return self.view.merge_for(i)

    def merge_tree(self, i: int) -> MergeTree:
        """Which two tokens made ``i``, recursively, with rank and count when known."""
        return self.view.merge_tree(i)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False
