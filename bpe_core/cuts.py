"""Safe cuts: places in a long piece that no merge can ever cross, so the piece can be encoded in
parts, each part cached like a word.

Models converted from SentencePiece (Llama 2, Gemma, Yi) have no pre-tokenizer that splits: the
whole text is one piece. Byte-level models cut Chinese or Japanese only at punctuation, so their
pieces are long and rarely repeat. Merging such a piece costs far more than merging its words
one by one. But a merge joins a token ending in some character ``x`` to one starting with
``y``; if no merge of the model joins ``x`` to ``y``, no token the merges make holds ``x``
followed by ``y``, and between them the piece is cut for good, whatever the other merges do.
Rank-priority merging then gives the same ids on the parts as on the whole (on each side the
same merges win in the same order), and so do replaying the merges and the longest match.

>>> from bpe_core.models import BPE
>>> model = BPE.from_vocab({"▁": 0, "a": 1, "b": 2, "▁a": 3, "ab": 4, "▁ab": 5},
...                        [("▁", "a"), ("a", "b"), ("▁a", "b")])
>>> cutter = Cutter.for_characters(model)
>>> sorted(cutter.joined)  # the (last, first) characters some merge joins
[('a', 'b'), ('▁', 'a')]
>>> cutter.positions("▁ab▁a▁b")  # no merge joins "b" to "▁", "a" to "▁", nor "▁" to "b"
[3, 5, 6]
>>> cutter.split("▁ab▁a▁b")
['▁ab', '▁a', '▁', 'b']

Characters: cut only when the first symbols are the characters themselves (no
``continuing_subword_prefix``, no ``end_of_word_suffix``). A character that is no token of its
own starts as its bytes' ``<0xNN>`` tokens under ``byte_fallback``; where every byte has one
and no merge joins any (Llama 2, Gemma, Yi), those stand alone and it is cut beside like any
other (Llama 2 on 0.5 MB of Chinese: 0.100 -> 0.068 s). Otherwise it may become ``[UNK]``,
which fuses with the next one across other characters, and it is never cut beside.

Bytes: a byte-level token may hold part of a character, so the rule is read on UTF-8: a merge
can cross the place between characters ``x`` and ``y`` when its left token ends with all of
``x`` (or is the tail of ``x``'s bytes) and its right token starts with all of ``y`` (or is the
head of ``y``'s bytes). Merges that end or start with a part of a character are few: the
characters they touch are simply never cut beside.

Both need every merge to make a token that begins and ends as its two parts do (for bytes:
the token its two parts spell), so that a token's last character is the last character of the
text it stands for.
"""

from __future__ import annotations

import codecs
import re
from bisect import bisect_left
from itertools import accumulate, chain, compress, repeat
from operator import add, itemgetter, not_, or_, sub
from typing import Iterable, Sequence

from .alphabet import BYTE_CHARS, spelled_bytes
from .merging import runs
from .models import BPE

#: Pieces shorter than this are encoded whole: looking for cuts would cost more than it saves.
MIN_CUT_CHARS = 4
#: The longest piece whose characters are glued back where they stick (``Cutter.split``),
#: rather than sliced at its cuts.
GLUE_CHARS = 256
#: What SentencePiece writes for a space, which begins most words, and the most characters a
#: word may have on average for pieces to be cut into words first (``Cutter.split_words``).
WORD_MARKER, WORD_CHARS = "▁", 16
#: What ``Cutter.split_words`` may mark its cuts with: characters texts rarely hold.
_SEPARATORS = "\x00\x01\x02\x03\x04\x05\x06\x07"


class Cutter:
    """Where a piece of a model's input may be cut (see the module docstring)."""

    def __init__(self, joined: frozenset[tuple[str, str]], *, known: frozenset[str] | None = None,
                 words: bool = False, no_after: frozenset[str] = frozenset(),
                 no_before: frozenset[str] = frozenset()):
        self.joined = joined  # (x, y) where some merge joins a part ending in x to one starting y
        self.known = known  # the characters that may be cut beside (None: all)
        self.no_after, self.no_before = no_after, no_before  # never cut after / before these
        self._open = dict.fromkeys(joined, False)  # (x, y) -> whether a cut (absent: True)
        # Runs of the characters not cut beside. Python's re reads a large character class
        # from a bitmap (the regex module does not).
        self._unknown = None if known is None else re.compile(f"[^{_chars(known)}]+")
        # ``words``: the characters some merge joins to SentencePiece's word marker (Gemma 3
        # has two: "▁" and ">"); before the marker is a cut after any other that may be cut
        # beside.
        self._glued = frozenset(x for x, y in joined if y == WORD_MARKER) if words else None

    @classmethod
    def for_characters(cls, model: BPE) -> "Cutter | None":
        """The cutter of a model whose first symbols are the characters of the piece, or None
        when its pieces cannot be cut (see the module)."""
        if model.ignore_merges or model.continuing_subword_prefix or model.end_of_word_suffix:
            return None
        tokens, m = model.tokens, model.merges
        if None in tokens:  # unused ids
            tokens = [t or "" for t in tokens]
        first = list(map(itemgetter(slice(None, 1)), tokens))  # C loops: 262,000 tokens
        last = list(map(itemgetter(slice(-1, None)), tokens))
        first_of, last_of = first.__getitem__, last.__getitem__
        # What the cuts rest on: a token starts as its left part does and ends as its right
        # part does (so when merges spell their tokens; else checked here, in C loops).
        if not model.spelled and (list(map(first_of, m.result)) != list(map(first_of, m.left))
                                  or list(map(last_of, m.result)) != list(map(last_of, m.right))):
            return None
        joined = frozenset(zip(map(last_of, m.left), map(first_of, m.right)))
        known = None if _inert_unknowns(model) else frozenset(
            compress(model.vocab, map((1).__eq__, map(len, model.vocab))))
        if known is not None and not known:
            return None  # no character is a token: every one may join its neighbours' unknown
        return cls(joined, known=known, words=WORD_MARKER in model.vocab)

    @classmethod
    def for_bytes(cls, model: BPE, *, texts: list[str | None] | None = None) -> "Cutter | None":
        """The cutter of a byte-level model (tokens spelled in GPT-2's byte characters);
        ``texts`` are its :func:`token_texts`, when already at hand."""
        if not model.spells_merges():
            return None
        texts = token_texts(model.tokens) if texts is None else texts
        if None in texts or "" in texts:  # (no id to read a first character from)
            texts = [t or _NOT_TEXT for t in texts]
        # Each token's first and last characters, in C loops. Where one is not a whole
        # character (decoded as a surrogate), it comes from the bytes: the head or tail of a
        # character, or None. (A token of other characters may come out as anything: its
        # merges never fire on bytes, so whatever they forbid is no loss.)
        starts, ends = list(map(itemgetter(0), texts)), list(map(itemgetter(-1), texts))
        odd = map(or_, map(_UNDECODED.__contains__, starts), map(_UNDECODED.__contains__, ends))
        for k in compress(range(len(texts)), odd):
            token = model.tokens[k]
            data = spelled_bytes(token) if token else None
            if starts[k] in _UNDECODED:
                starts[k] = None if data is None else _first_char(data)
            if ends[k] in _UNDECODED:
                ends[k] = None if data is None else _last_char(data)
        joined, no_after, no_before = set(), set(), set()
        for x, y in set(zip(map(ends.__getitem__, model.merges.left),
                            map(starts.__getitem__, model.merges.right))):
            if x is None or y is None:
                continue  # a token of other characters, or one that ends or starts mid-character
            if isinstance(x, str) and isinstance(y, str):
                joined.add((x, y))
            elif isinstance(x, str):
                no_after.add(x)  # x, then the head of some character
            elif isinstance(y, str):
                no_before.add(y)  # the tail of some character, then y
            else:  # a tail, then a head: never cut before a character that head begins
                no_before.update(_starting_with(y))
        return cls(frozenset(joined), no_after=frozenset(no_after),
                   no_before=frozenset(no_before))

    def positions(self, piece: str) -> list[int]:
        """The offsets, inside ``piece``, where it may be cut, in order."""
        return list(compress(range(1, len(piece)), self._places(piece)))

    def _places(self, text: str) -> list[bool]:
        """Whether each place between two characters of ``text`` is a cut (item k: the place
        before ``text[k + 1]``), in C loops: one lookup a place, or the three passes of
        ``_stuck``; then no cut beside a run of characters that are not tokens, one slice a
        run (a Python loop over every place of a piece that held one made Yi's 0.5 MB of
        Chinese, much of which its vocabulary lacks, 0.123 s instead of 0.109 s)."""
        if self.no_after or self.no_before:
            cut = list(map(not_, self._stuck(list(text))))
        else:
            cut = list(map(self._open.get, zip(text, text[1:]), repeat(True)))
        if self._unknown is not None:
            for m in self._unknown.finditer(text):
                start, end = m.span()  # no cut before it, inside it or after it
                a, b = max(start - 1, 0), min(end, len(cut))
                cut[a:b] = [False] * (b - a)
        return cut

    def _stuck(self, chars: list[str]) -> list[bool]:
        """For a byte-level model with characters never cut beside, in C loops only: whether
        each place between ``chars`` is no cut: its two characters are joined, or the one
        before is never cut after, or the one at it never cut before. (Each pass over a str
        makes a new object for each character beyond Latin-1, and hashes it anew: the caller
        makes them once, in a list, for the three passes.)"""
        after = chars[1:]
        return list(map(or_, map(or_, map(self.joined.__contains__, zip(chars, after)),
                                 map(self.no_after.__contains__, chars)),
                        map(self.no_before.__contains__, after)))

    def split(self, piece: str) -> list[str]:
        """``piece`` cut at every safe place."""
        if self._unknown is None and (self.no_after or self.no_before):
            # A byte-level model's run of Chinese is cut at most places: its characters are
            # glued back where they stick, in fewer steps than there are parts to slice
            # (cl100k on 2.8 MB of mostly Chinese: 0.19 s -> 0.16 s).
            parts = list(piece)
            stuck = self._stuck(parts)
            # (Each glue moves the parts after it: a whole text as one piece, ByteLevel without
            # its regex, took 1.35 s for 1 MB of Chinese so, growing with the square of it.)
            if 2 * stuck.count(True) < len(stuck) and len(piece) <= GLUE_CHARS:
                for i in reversed(list(compress(range(1, len(piece)), stuck))):
                    parts[i - 1] += parts[i]
                    del parts[i]
                return parts
            cuts = list(compress(range(1, len(piece)), map(not_, stuck)))
        else:
            cuts = self.positions(piece)
            if len(cuts) == len(piece) - 1:  # cut everywhere: its characters, in C
                return list(piece)
        return [piece[a:b] for a, b in zip([0, *cuts], [*cuts, len(piece)])]

    def split_words(self, pieces: list[str]) -> tuple[list[str], list[int]] | None:
        """The words of many pieces, in order, and how many each piece has: the pieces cut
        only at the cuts before SentencePiece's word marker, ``▁``. Words repeat where pieces
        do not (a text's lines): only the new ones need ``split_all``, which looks at every
        place. None for a model without the marker, pieces with few of them (Chinese: the
        words would be the pieces, found at a cost), or a text that holds every separator.

        >>> cutter = Cutter(frozenset({("▁", "a"), ("▁", "▁")}), words=True)  # "▁" joins "▁"
        >>> cutter.split_words(["▁a▁b", "ab▁▁a"])
        (['▁a', '▁b', 'ab', '▁▁a'], [2, 2])
        >>> print(cutter.split_words(["▁" + "ab" * 9]))  # a 19-letter word
        None
        """
        glued, text = self._glued, "".join(pieces)
        if glued is None or text.count(WORD_MARKER) * WORD_CHARS < len(text):
            return None
        free = [c for c in _SEPARATORS if c not in glued and c not in text][:2]
        if len(free) < 2:
            return None
        cut, line = free
        # A cut before every marker, in C passes over the pieces joined by ``line``; then none
        # after a character joined to the marker (runs of "▁" stay whole) or not cut beside.
        # The words of all the pieces are then one split (Gemma 3's 2 MB of English lines:
        # 103 -> 58 ms, where a regex looked at every place).
        if self._unknown is not None:
            glued = glued.union(*self._unknown.findall(text))
        marked = line.join(pieces).replace(WORD_MARKER, cut + WORD_MARKER)
        for x in glued:
            marked = marked.replace(x + cut, x)
        # A piece has one word more than its cuts, less the empty one before a marker that
        # begins it.
        counts = map(add, map(str.count, marked.split(line), repeat(cut)), repeat(1))
        return (list(filter(None, marked.replace(line, cut).split(cut))),
                list(map(sub, counts, map(str.startswith, pieces, repeat(WORD_MARKER)))))

    def split_all(self, pieces: list[str]) -> tuple[list[str], list[int]]:
        """The parts of many pieces at once, in order, and how many each piece has: the steps
        of ``split``, taken once over all of them (a text's new pieces).

        >>> from bpe_core.models import BPE
        >>> model = BPE.from_vocab({"▁": 0, "a": 1, "b": 2, "▁a": 3}, [("▁", "a")])
        >>> Cutter.for_characters(model).split_all(["▁a▁b", "ab"])
        (['▁a', '▁', 'b', 'a', 'b'], [3, 2])
        """
        text = "".join(pieces)
        if not text:
            return [], []
        cut = self._places(text)
        ends = list(accumulate(map(len, pieces)))
        for end in ends[:-1]:
            cut[end - 1] = True  # where one piece ends and the next begins
        cuts = list(compress(range(1, len(text)), cut))
        # Each piece's last part is the one before the cut at its end, found by bisection in
        # C loops (twice as fast as counting each piece's cuts, Gemma 3's 33,000 lines).
        last = [*map(bisect_left, repeat(cuts), ends[:-1]), len(cuts)]
        return ([text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])],
                list(map(sub, last, [-1, *last[:-1]])))


def _inert_unknowns(model: BPE) -> bool:
    """Does a character that is not a token of its own stand alone, so that it may be cut beside
    like any other? So under ``byte_fallback`` when every such character has its bytes'
    ``<0xNN>`` tokens (no ``unk_token`` that could fuse across it) and no merge joins one
    of those (Llama 2, Gemma, Yi: none does): its symbols never merge, with anything."""
    if not model.byte_fallback:
        return False
    vocab = model.vocab
    fallback = [vocab.get(f"<0x{b:02X}>") for b in range(256)]
    # A byte without its token: the characters of that byte (a lone ASCII one may be a token).
    if any(i is None and (b >= 0x80 or chr(b) not in vocab) for b, i in enumerate(fallback)):
        return False
    ids, m = frozenset(fallback), model.merges
    return ids.isdisjoint(m.left) and ids.isdisjoint(m.right)


def assemble(keys: list[str], parts: list[str], counts: list[int], ids_of: dict,
             into: dict) -> None:
    """``into[key]``: the ids of the key's parts (the next ``counts[k]`` of ``parts``), for
    each key in turn, the parts looked up in ``ids_of`` in C loops.

    >>> into = {}
    >>> assemble(["ab", "c"], ["a", "b", "c"], [2, 1], {"a": (1,), "b": (2,), "c": (3,)}, into)
    >>> into
    {'ab': (1, 2), 'c': (3,)}
    """
    ids = list(map(ids_of.__getitem__, parts))
    into.update(zip(keys, map(tuple, map(chain.from_iterable, runs(ids, counts)))))


#: Each byte character -> its byte, for codecs.charmap_encode (a table in C).
_BYTES_OF = codecs.charmap_build("".join(BYTE_CHARS))
#: What surrogateescape decodes a byte that is not UTF-8 on its own as; _NOT_TEXT stands for
#: a token with no text (an unused id, characters no byte stands for).
_UNDECODED = frozenset(map(chr, range(0xDC80, 0xDD00)))
_HAS_UNDECODED = re.compile("[\udc80-\udcff]").search
_NOT_TEXT = "\udc80"


def token_texts(tokens: Sequence[str | None]) -> list[str | None]:
    """What each token of GPT-2's byte characters stands for: its bytes decoded from UTF-8,
    a byte that is not a whole character there as a surrogate (``surrogateescape``); None
    for an unused id or a token of other characters.

    >>> token_texts(["Ġhi", "ä¸Ń", "ä¸", None, "中"])
    [' hi', '中', '\\udce4\\udcb8', None, None]
    """
    try:  # the usual vocabulary, in C loops: byte characters only, no unused id
        data = list(map(itemgetter(0), map(codecs.charmap_encode, tokens, repeat("strict"),
                                           repeat(_BYTES_OF))))
    except (TypeError, UnicodeEncodeError):
        data = [spelled_bytes(t) if t is not None else None for t in tokens]
        return [None if d is None else d.decode("utf-8", "surrogateescape") for d in data]
    return list(map(bytes.decode, data, repeat("utf-8"), repeat("surrogateescape")))


def whole_tokens(texts: Sequence[str | None]) -> dict[str, int]:
    """Text -> id of each token whose text (see :func:`token_texts`) is whole characters (of
    two ids with one text, the first): what a piece that is a whole token is looked up in.

    >>> sorted(whole_tokens(token_texts(["a", "Ġb", "ä¸", "ä¸Ń", "a", None, "中"])).items())
    [(' b', 1), ('a', 0), ('中', 3)]
    """
    ids: Sequence[int] = range(len(texts))
    if None in texts:
        ids = [i for i, t in enumerate(texts) if t is not None]
        texts = [texts[i] for i in ids]
    whole = dict(zip(texts, ids))
    if len(whole) < len(texts):  # a text two tokens spell: filled from the last id back instead
        whole = dict(zip(reversed(texts), reversed(ids)))
    for text in filter(_HAS_UNDECODED, compress(texts, map(not_, map(str.isascii, texts)))):
        whole.pop(text, None)  # part of a character: never a whole piece
    return whole


def _lead(b: int) -> int:
    """The length of the UTF-8 sequence a byte begins (0 for a continuation byte)."""
    return 1 if b < 0x80 else 0 if b < 0xC0 else 2 if b < 0xE0 else 3 if b < 0xF0 else 4


def _last_char(data: bytes) -> str | bytes | None:
    """How ``data`` ends: its last character, or the bytes themselves when they are the tail of
    a character (continuation bytes only), or None when it ends inside a character."""
    k = len(data) - 1
    while k >= 0 and _lead(data[k]) == 0:
        k -= 1
    if k < 0:
        return data if len(data) < 4 else None
    try:
        return data[k:].decode("utf-8") if len(data) - k == _lead(data[k]) else None
    except UnicodeDecodeError:
        return None


def _first_char(data: bytes) -> str | bytes | None:
    """How ``data`` starts: its first character, or the bytes themselves when they are the head
    of a character, or None when it starts inside a character."""
    n = _lead(data[0])
    if n == 0:
        return None
    if len(data) < n:
        return data
    try:
        return data[:n].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _starting_with(head: bytes) -> Iterable[str]:
    """Every character whose UTF-8 begins with ``head``: the head fixes the high bits of the
    code point, the missing continuation bytes leave 6 bits each free."""
    n = _lead(head[0])
    bits = head[0] & (0x7F >> n)
    for b in head[1:]:
        bits = bits << 6 | b & 0x3F
    free = 6 * (n - len(head))
    for cp in range(bits << free, (bits + 1) << free):
        if cp <= 0x10FFFF and not 0xD800 <= cp < 0xE000 and chr(cp).encode()[:len(head)] == head:
            yield chr(cp)


def _chars(chars) -> str:
    """The inside of a regex character class holding ``chars``."""
    return "".join(map(re.escape, sorted(chars)))
