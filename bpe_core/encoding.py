"""How a tokenizer turns text into ids, fast: the plan behind ``Tokenizer.encode``.

Hugging Face runs every stage on every piece. Here the pre-tokenizer is cut in two: the *head*
stages split the text into pieces, the *tail* stages only rewrite each piece (ByteLevel's byte
characters, the end-of-word marker). Pieces repeat (" the" thousands of times), so each piece's
ids are cached as it first comes out of the head, and the tail and the model run once per
distinct piece. When the tail is ByteLevel alone, a piece's UTF-8 bytes map straight to ids
through a table, without building the byte-character string. A piece not seen before is cut
where no merge can cross (cuts.py) and merged part by part, the parts cached apart: a whole text
(for a model with no pre-tokenizer) or a run of Chinese becomes words and characters that
repeat. Where a text's new pieces are many and long (lines) or mostly beyond ASCII, they are cut
all at once before any is looked up (``Plan.cut_new``).

>>> from bpe_core import train
>>> tok = train("hug pug hugs", unit="byte", pretokenizer="gpt2", max_merges=2, min_frequency=1)
>>> plan = Plan(tok.model, tok.normalizer, tok.pre_tokenizer, tok.added)
>>> plan.head_pieces("hug pug", True), plan.encode("hug pug", None, False, None)
(['hug', ' pug'], [257, 32, 112, 256])
"""

from __future__ import annotations

import threading
from collections import deque
from functools import partial
from itertools import chain, filterfalse, repeat
from operator import ne
from typing import Callable, Sequence

from . import pre_tokenizers
from .alphabet import BYTE_CHARS
from .char_starts import CharStarts, byte_ids
from .cuts import MIN_CUT_CHARS, Cutter, assemble, token_texts, whole_tokens
from .gc_pause import gc_paused
from .identity import flatten
from .models import BPE
from .normalizers import normalize_all
from .piece_cache import LONG_PIECE_CHARS, PieceCache
from .spans import identity

#: Characters of pieces that could be cut before a tokenizer builds its cutter (see ``Plan``).
CUTTER_AFTER_CHARS = 20_000
#: Pieces encoded with the first merges only (``upto``) are cut only from this long. Pieces of
#: plain ASCII are never cut: a large vocabulary leaves next to no place to cut between ASCII
#: characters, and looking costs more than it saves (cl100k on English: 8.3 -> 10 MB/s).
LONG_WORD_CHARS = 16
#: Pieces remembered per merge limit, and how many limits keep a cache.
CACHE_PIECES = 200_000
CACHED_LIMITS = 4

PieceEncoder = Callable[[str, "int | None"], Sequence[int]]


def _is_map(stage) -> bool:
    """Does a pre-tokenizer stage rewrite each piece into exactly one piece, splitting nothing?"""
    if isinstance(stage, pre_tokenizers.ByteLevel):
        return not stage.use_regex and not stage.add_prefix_space
    return isinstance(stage, pre_tokenizers.EndOfWord)


def split_stages(pre_tokenizer) -> tuple[list, list]:
    """``(head, tail)``: the stages that split, and the per-piece rewrites after them. A last
    ByteLevel that also cuts (its regex, its prefix space) is taken in two: its cutting joins
    the head and its byte mapping alone is the tail, so that pieces stay text up to the model
    (cached as text, their bytes read by a table, cut between characters: see cuts.py)."""
    stages = list(flatten(pre_tokenizer))
    if stages and isinstance(stages[-1], pre_tokenizers.ByteLevel) and not _is_map(stages[-1]):
        last = stages.pop()
        stages += [_ByteLevelCut(last), pre_tokenizers.ByteLevel(False, last.trim_offsets, False)]
    cut = len(stages)
    while cut and _is_map(stages[cut - 1]):
        cut -= 1
    return stages[:cut], stages[cut:]


class _ByteLevelCut:
    """The cutting half of a ByteLevel stage (see ``split_stages``)."""

    def __init__(self, byte_level: pre_tokenizers.ByteLevel):
        self.byte_level = byte_level

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return self.byte_level.text_pieces(pieces)

    def split_aligned(self, pieces):
        return self.byte_level.text_pieces_aligned(pieces)


def _metaspace_first_after_others(normalizer, head: list) -> bool:
    """Does a Metaspace stage with the "first" scheme come after a normalizer or another stage,
    which may drop the start of the text?"""
    return any(isinstance(s, pre_tokenizers.Metaspace) and s.prepend_scheme == "first"
               and (normalizer is not None or k > 0) for k, s in enumerate(head))


#: Bytes that UTF-8 never uses: a vocabulary may leave out their characters (GPT-NeoX's and
#: OLMo's do), as no text ever needs them.
NOT_UTF8 = frozenset([0xC0, 0xC1, *range(0xF5, 0x100)])


def _byte_table(model: BPE) -> bytes | list[int] | None:
    """Byte value -> id of its byte character, when the model has all 256 of them (or all
    but some of ``NOT_UTF8``, whose place in the table no text's UTF-8 ever reads)."""
    ids = [model.vocab.get(c) for c in BYTE_CHARS]
    if model.continuing_subword_prefix or model.end_of_word_suffix or any(
            i is None and b not in NOT_UTF8 for b, i in enumerate(ids)):
        return None
    ids = [0 if i is None else i for i in ids]
    return bytes(ids) if max(ids) < 256 else ids


#: From this many characters a piece on average, a text's new pieces are cut all at once,
#: first (``Plan.cut_new``), this many pieces at a time: at most 256,000 characters, each
#: an object in a list while it is cut (a byte-level model's Chinese).
CUT_FIRST_CHARS = 8
CUT_AT_ONCE = 1024
#: One piece in this many is looked up to tell a text met before (see ``Plan.cut_new``).
SAMPLE_EVERY = 64
#: Gaps between added tokens the head is tried on before all of them (see ``Plan.keys``).
WHOLE_SAMPLE = 4
_NOT_EMPTY = partial(ne, "")  # (an added token's id may be 0)


def _worth_cutting_first(text: str, keys: list) -> bool:
    """Are the new pieces of ``text`` worth cutting all at once, first (``Plan.cut_new``)? So
    when its pieces are long (a SentencePiece model's lines) or when most of it is beyond
    ASCII (its pieces are cut: Chinese, Japanese, Korean), read from every 97th character.
    Short pieces of English are never cut, and gathering the new ones costs time."""
    if len(text) >= CUT_FIRST_CHARS * len(keys):
        return True
    if text.isascii():
        return False
    sample = text[::97]
    return len(sample.encode("utf-8", "surrogatepass")) > 1.5 * len(sample)


class Plan:
    """The encoding plan of one tokenizer: stages, caches (see the module docstring)."""

    def __init__(self, model: BPE, normalizer, pre_tokenizer, added):
        self.model, self.normalizer, self.added = model, normalizer, added
        self.head, self.tail = split_stages(pre_tokenizer)
        is_bytes = len(self.tail) == 1 and isinstance(self.tail[0], pre_tokenizers.ByteLevel)
        self.byte_table = _byte_table(model) if is_bytes else None
        # With ignore_merges, a piece that is a whole token is looked up by its text.
        self.whole: dict[str, int] | None = None
        self._texts: list[str | None] | None = None  # for the cutter, until it is built
        if self.byte_table is not None and model.ignore_merges:
            self._texts = model.texts or token_texts(model.tokens)
            self.whole = whole_tokens(self._texts)
        self.start_by_offsets = _metaspace_first_after_others(normalizer, self.head)
        # Added tokens matched in normalized text, which ``segments`` looks for in each of its
        # segments (Gemma 3 has none of them, and 49,000 segments in 2 MB of English).
        self.normalized_added = any(t.normalized for t in added)
        self.plain = normalizer is None and not len(added) and not self.start_by_offsets
        self._caches: dict[int | None, PieceCache] = {}
        self._caches_lock = threading.Lock()
        # Pieces are cut where no merge can cross (cuts.py): as characters when the model sees
        # the head's pieces as they are, as bytes when ByteLevel's mapping alone comes after.
        # The cutter costs about what merging CUTTER_AFTER_CHARS characters does, so it is
        # built once that much text could have been cut (a short text never pays for it),
        # or at once by ``prepare`` (a tokenizer read from a file).
        self._cutter: Cutter | None | bool = (
            None if not self.tail or self.byte_table is not None else False)
        self._starts: CharStarts | None = None  # made with a byte-level cutter: see merge
        self._uncut = 0  # characters of pieces that could have been cut, before the cutter

    def cutter(self, chars: int) -> Cutter | None:
        """The cutter, once pieces of ``chars`` characters and those before could use it
        (``chars=0``: the cutter if it is built)."""
        if self._cutter is None and chars:
            self._uncut += chars
            if self._uncut < CUTTER_AFTER_CHARS:
                return None
            self.prepare()
        return self._cutter or None

    def prepare(self) -> None:
        """Build the cutter now, if pieces may be cut: a tokenizer read from a file does it at
        load, as Hugging Face builds its tables then, so that no encode waits for it."""
        if self._cutter is None:
            self._cutter = (Cutter.for_bytes(self.model, texts=self._texts)
                            if self.byte_table is not None
                            else Cutter.for_characters(self.model)) or False
            if self._cutter and self.byte_table is not None and self.model.merges_in_order():
                self._starts = CharStarts(self.model, self.byte_table, self._cutter)
        self._texts = None

    # -- pieces ------------------------------------------------------------------------------

    def head_pieces(self, text: str, first: bool, ranges: list | None = None) -> list[str]:
        """The pieces of ``text`` (already normalized) as the head stages cut it; with the
        original ``ranges`` of its characters, cut as spans.py cuts it (see ``segments``)."""
        if ranges is not None:
            aligned = [(text, ranges)] if text else []
            for stage in self.head:
                aligned = stage.split_aligned(aligned)
            return [p for p, _ in aligned]
        pieces = [text] if text else []
        for stage in self.head:
            pieces = stage.split(pieces, first)
        return pieces

    def pre_tokenize(self, text: str) -> list[str]:
        """The head pieces of every segment of ``text`` that is not an added token."""
        return [p for first, seg, _, ranges in self.segments(text, False) if seg is not None
                for p in self.head_pieces(seg, first, ranges)]

    def to_model(self, piece: str) -> str:
        """A head piece as the model sees it, after the tail stages."""
        for stage in self.tail:
            out = stage.split([piece], True)
            piece = out[0] if out else ""
        return piece

    def segments(self, text: str, split_special: bool):
        """``(first, text, None, ranges)`` or ``(first, None, added id, None)``: the text with
        added tokens split off and the rest normalized, as Hugging Face's added vocabulary does
        it. ``first`` says the segment starts the whole text, for Metaspace's "first" scheme,
        which prepends only to a piece that begins at the text's offset 0. Where a normalizer
        or an earlier stage may have dropped the text's start, the first segment comes with its
        characters' original ``ranges`` (else None) to tell."""
        normalizer = self.normalizer
        for start, end, tid in self.added.split_raw(text, split_special_tokens=split_special):
            if tid is not None:
                yield start == 0, None, tid, None
                continue
            seg, ranges = text[start:end], None
            if start == 0 and self.start_by_offsets:
                ranges = identity(0, end)
                if normalizer is not None:
                    seg, ranges = normalizer.normalize_aligned(seg, ranges)
            elif normalizer is not None:
                seg = normalizer.normalize_str(seg)
            if not self.normalized_added:  # nothing to look for after normalizing
                yield start == 0, seg, None, ranges
                continue
            for s, e, t in self.added.split_normalized(seg, split_special_tokens=split_special):
                yield (start == 0 and s == 0, seg[s:e] if t is None else None, t,
                       None if ranges is None or t is not None else ranges[s:e])

    def keys(self, text: str, split_special: bool) -> list[str | int]:
        """The head pieces of ``text``, an added token as its id (an int key, which the cache
        maps to itself), for a plan whose segments need no more (see ``segments``): the text
        between added tokens normalized at once (``normalize_all``), and left whole at once
        where the head cuts none of it (Gemma 3, 2 MB of English: 91,547 keys, 83 -> 30 ms).

        >>> from bpe_core import train
        >>> tok = train("hug pug", unit="char", pretokenizer="whitespace", special_tokens=["<s>"])
        >>> Plan(tok.model, None, tok.pre_tokenizer, tok.added).keys("<s>hug pug<s>", False)
        [6, 'hug', 'pug', 6]
        """
        gaps, ids = self.added.cut_raw(text, split_special_tokens=split_special)
        if self.normalizer is not None:
            gaps = normalize_all(self.normalizer, gaps)
        if self.head and not self._cuts_none(gaps):
            keys: list[str | int] = []
            for k, gap in enumerate(gaps):  # each one's pieces, then the token after it
                keys += self.head_pieces(gap, k == 0)
                if k < len(ids):
                    keys.append(ids[k])
            return keys
        both: list[str | int] = [""] * (len(gaps) + len(ids))
        both[0::2], both[1::2] = gaps, ids
        return list(filter(_NOT_EMPTY, both))

    def _cuts_none(self, gaps: list[str]) -> bool:
        """Does the head leave each of many ``gaps`` whole? Tried on the first few first: it
        most often cuts all or none, and a text of few gaps goes one by one anyway."""
        if len(gaps) <= WHOLE_SAMPLE:
            return False
        for some in (gaps[:WHOLE_SAMPLE], gaps):
            pieces = kept = list(filter(None, some))
            for stage in self.head:
                pieces = stage.split(pieces, gaps[0] != "")
            if pieces != kept:
                return False
        return True

    # -- ids ---------------------------------------------------------------------------------

    def encode(self, text: str, limit: int | None, split_special: bool,
               piece_encoder: PieceEncoder | None) -> list[int]:
        # Segments, pieces and new cache entries are many objects, none in a cycle: see
        # gc_pause.py. (A full collection that Gemma 3's 91,000 lines set off walked every
        # object of the process: 40-80 ms of a 0.7 s encode, with a second tokenizer loaded.)
        with gc_paused():
            if self.plain:
                keys = self.head_pieces(text, True)
            elif not self.start_by_offsets and not self.normalized_added:
                keys = self.keys(text, split_special)
            else:
                keys = []
                for first, seg, tid, ranges in self.segments(text, split_special):
                    if seg is None:
                        keys.append(tid)
                    else:
                        keys += self.head_pieces(seg, first, ranges)
            return self.encode_pieces(keys, limit, piece_encoder, cut_first=(
                limit is None and _worth_cutting_first(text, keys)))

    def encode_pieces(self, pieces: list[str | int], limit: int | None,
                      piece_encoder: PieceEncoder | None, *, cut_first: bool = False
                      ) -> list[int]:
        """Ids of head pieces (and of added tokens, given as their ids); ``cut_first``: the
        new pieces that may be cut are encoded all at once first (see ``cut_new``)."""
        if piece_encoder is not None:
            return [i for p in pieces for i in (
                (p,) if isinstance(p, int) else piece_encoder(self.to_model(p), limit))]
        cache = self.cache(limit)
        if cut_first:
            self.cut_new(pieces, cache)
        # Every piece is looked up with C loops only; the cache encodes a piece it has not seen
        # (__missing__). list.extend takes each piece's tuple of ids whole, where chain steps
        # through it with an iterator of its own (cl100k, 2.3 million pieces: 0.025 s less).
        ids: list[int] = []
        deque(map(ids.extend, map(cache.__getitem__, pieces)), 0)
        return ids

    def encode_piece(self, piece: str, limit: int | None) -> tuple[int, ...]:
        return self.cache(limit)[piece]

    def cache(self, limit: int | None) -> "PieceCache":
        """The piece -> ids cache for ``limit`` (the full one and a few ``upto`` ones are kept)."""
        cache = self._caches.get(limit)
        if cache is None:
            # The app's sessions are threads sharing one tokenizer: two that miss at once
            # would both forget the same oldest cache (KeyError), one while the other
            # iterates (RuntimeError). A miss is rare, so a lock on it costs nothing.
            with self._caches_lock:
                cache = self._caches.get(limit)
                if cache is None:
                    if len(self._caches) >= CACHED_LIMITS:
                        # Forget the oldest upto=k cache; the full one is the most used.
                        del self._caches[next(k for k in self._caches if k is not None)]
                    cache = self._caches[limit] = PieceCache(self, limit)
        elif len(cache) + len(cache.parts) > CACHE_PIECES:  # bounded: forget all, start again
            cache.clear()
            cache.parts.clear()
            if self._starts is not None:
                self._starts.clear()
        return cache

    def cut_new(self, keys: list[str | int], cache: "PieceCache") -> None:
        """Encode, into the cache, the new pieces of ``keys`` that may be cut, all of them at
        once (``Cutter.split_all``), as ``encode_new`` would one by one, into the same parts:
        the steps taken for each piece cost more than its characters do (cold, 0.5 MB of CJK:
        Qwen 3 0.25 -> 0.21 s, Gemma 3 0.16 -> 0.15 s; Gemma 3's 2 MB of English lines
        0.66 -> 0.63 s)."""
        cutter = self.cutter(0)  # (one that is not built yet waits for ``encode_new``)
        if cutter is None:
            return
        # A text met before (a page's rerun) has next to nothing new: one piece in 64, looked
        # up first, says so before every piece is gone through (2.8 MB of multilingual text,
        # warm: 0.21 s, of which that pass was 0.02 s). The few new ones go one by one.
        if not any(filterfalse(cache.__contains__, keys[::SAMPLE_EVERY])):
            return
        whole = self.whole
        new = [p for p in dict.fromkeys(keys) if p.__class__ is str and not p.isascii()
               and MIN_CUT_CHARS <= len(p) < LONG_PIECE_CHARS and p not in cache
               and (whole is None or p not in whole)]
        if len(new) < 2:
            return
        parts, by_words = cache.parts, True
        for start in range(0, len(new), CUT_AT_ONCE):  # (a bounded list of characters)
            batch = new[start:start + CUT_AT_ONCE]
            words = cutter.split_words(batch) if by_words else None
            if words is None:
                cut = cutter.split_all(batch)
                parts.fill(cut[0])
                assemble(batch, *cut, parts, cache)
                continue
            # Cut into words first, where a regex finds the cuts: only the words not met
            # before are cut at every place (Gemma 3's 2 MB of English lines: 1,794,730
            # characters looked at there, 517,852 so; the text 0.547 -> 0.498 s). It pays
            # while most words are met before: at most a third are new in each 1,024 lines
            # of English, 58-76 % of its Chinese, Japanese and Korean, which go on directly.
            fresh = list(filterfalse(parts.__contains__, dict.fromkeys(words[0])))
            if fresh:
                cut = cutter.split_all(fresh)
                parts.fill(cut[0])
                assemble(fresh, *cut, parts, parts)
            assemble(batch, *words, parts, cache)
            by_words = 2 * len(fresh) <= len(words[0])

    def encode_new(self, piece: str, cache: "PieceCache") -> tuple[int, ...]:
        """Ids of a head piece not seen before. A piece that can be cut (cuts.py) is merged part
        by part, each part looked up in the cache of parts (``PartCache``)."""
        limit = cache.limit
        if self.whole is not None and limit is None:
            i = self.whole.get(piece)
            if i is not None:
                return (i,)
        if self._cutter is not False and not piece.isascii() and len(piece) >= (
                MIN_CUT_CHARS if limit is None else LONG_WORD_CHARS):
            # (A replay of the first merges, ``upto``, does not build the cutter: it is for
            # the encodings a page shows once, and the replay step that built it would wait.)
            cutter = self.cutter(len(piece) if limit is None else 0)
            if cutter is not None:
                parts = cutter.split(piece)
                if len(parts) > 1:  # looked up in C loops: most parts are known
                    if len(piece) >= LONG_PIECE_CHARS:  # (a whole text: many parts are new)
                        cache.parts.fill(parts)
                    return tuple(chain.from_iterable(map(cache.parts.__getitem__, parts)))
        return self.merge(piece, limit)

    def merge(self, piece: str, limit: int | None) -> tuple[int, ...]:
        """Ids of one piece, by the model's merges alone."""
        table = self.byte_table
        if table is None:
            return tuple(self.model.tokenize(self.to_model(piece), limit))
        starts = self._starts
        if limit is None and starts is not None and not piece.isascii() and starts.free(piece):
            # Each character as what merging makes of its bytes anyway (char_starts.py): the
            # two merges that join a Chinese character's three bytes are made once per
            # character, not in every new part (0.5 MB of CJK: DeepSeek V3 0.24 -> 0.18 s).
            ids = list(chain.from_iterable(map(starts.__getitem__, piece)))
        else:
            ids = byte_ids(piece, table)
        return tuple(self.model.merge(ids, limit))

    def merge_all(self, parts: list[str], limit: int | None) -> list[tuple[int, ...]]:
        """:meth:`merge` of many parts of pieces cut as characters (no tail stage), their
        first symbols found all at once."""
        return list(map(tuple, map(self.model.merge, self.model.symbols_all(parts),
                                   repeat(limit))))

    def __getstate__(self):
        raise TypeError("a Plan is rebuilt with its tokenizer, not pickled")
