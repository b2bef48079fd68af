"""Pre-tokenizers: how the normalized text is cut into pieces before BPE sees it (HF's second
stage). Merges never cross a piece boundary, so this decides what a token can be.

Each one takes the pieces so far and returns the new ones: ``split(pieces, first)``, the fast
path (``first``: ``pieces[0]`` starts the whole text, which Metaspace's "first" scheme needs),
and ``split_aligned(pieces)``, where each piece travels with the original range of each of its
characters (see ``normalizers``).

>>> Split(r"\\w+|[^\\w\\s]+", "Isolated").split(["Hi there!"])
['Hi', ' ', 'there', '!']
>>> Metaspace().split(["Hello world"])
['▁Hello', '▁world']
>>> ByteLevel(add_prefix_space=False, use_regex=False).split(["é"])
['Ã©']
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import regex

from .alphabet import BYTE_CHARS
from .char_classes import NUMERIC, PUNCTUATION, SPACE, WORDS_AND_SYMBOLS
from .checked import checked, option, stage, stages
from .end_of_word import EndOfWord
from .oniguruma import pattern_from_dict
from .presets import MODEL_PATTERNS
from .split import ReadsUnicode, Split, Splitter, compiled, cuts, twin_split

Ranges = list[tuple[int, int]]
SUPPORTED = ("Split, ByteLevel, Metaspace, Digits, Punctuation, Whitespace, WhitespaceSplit, "
             "BertPreTokenizer and Sequence")
#: The regex Hugging Face's ByteLevel splits with (GPT-2's, as ``tokenizers`` writes it).
BYTE_LEVEL_REGEX = MODEL_PATTERNS["byte-level"]


_BYTE_LEVEL_SPLIT = Split(BYTE_LEVEL_REGEX)


@dataclass(frozen=True)
class Punctuation(ReadsUnicode):
    behavior: str = "Isolated"

    def _spans(self, text):
        return cuts(text, compiled(PUNCTUATION), self.behavior, False)

    def _fast(self) -> Split | None:
        # Isolated (BERT's) and Contiguous (Falcon's): the punctuation found in all the pieces
        # joined, in C, where piece by piece took a Python call each (2 MB of English after
        # BERT's whitespace split: 283,000 pieces).
        return _PUNCTUATION_FAST.get(self.behavior)

    def _twin(self) -> Split | None:  # (punctuation added since Unicode 16 is not)
        return twin_split(PUNCTUATION, self.behavior)

    def to_dict(self) -> dict:
        return {"type": "Punctuation", "behavior": self.behavior}


@dataclass(frozen=True)
class Digits(ReadsUnicode):
    individual_digits: bool = False
    _unicode = 17  # (Rust's char::is_numeric)

    def _spans(self, text):
        return cuts(text, compiled(NUMERIC), self._behavior(), False)

    def _behavior(self) -> str:
        return "Isolated" if self.individual_digits else "Contiguous"

    def _fast(self) -> Split:
        return _DIGIT_CUT if self.individual_digits else _DIGITS_CUT

    def _twin(self) -> Split | None:
        return twin_split(NUMERIC, self._behavior(), version=17)

    def to_dict(self) -> dict:
        return {"type": "Digits", "individual_digits": self.individual_digits}


@dataclass(frozen=True)
class Whitespace(ReadsUnicode):
    def _spans(self, text):
        return cuts(text, compiled(WORDS_AND_SYMBOLS), "Removed", True)

    def _twin(self) -> Split | None:  # (Hugging Face's \w is Oniguruma's)
        return twin_split(WORDS_AND_SYMBOLS, "Removed", invert=True)

    def _fast(self) -> Split:
        return _WORDS_CUT

    def to_dict(self) -> dict:
        return {"type": "Whitespace"}


@dataclass(frozen=True)
class WhitespaceSplit(Splitter):
    def _spans(self, text):
        return cuts(text, compiled(SPACE), "Removed", False)

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return _NOT_SPACE.split(pieces, first)  # (the runs between spaces, by findall)

    def to_dict(self) -> dict:
        return {"type": "WhitespaceSplit"}


# The fast Splits of the stages above (``_fast``): one findall, or one cut of all the pieces
# joined, where each piece was a Python call (a BPE on Whitespace then Digits, trained on 2 MB
# of English, encoded it at 0.67x tokenizers' speed, now 1.68x; on Whitespace alone 1.25x,
# now 2.17x).
_PUNCTUATION_CUT = Split(PUNCTUATION).as_ours(per_char=True, checked=True)
_PUNCTUATION_RUNS = Split(f"(?:{PUNCTUATION})+").as_ours(per_char=True, checked=True)
_PUNCTUATION_FAST = {"Isolated": _PUNCTUATION_CUT, "Contiguous": _PUNCTUATION_RUNS}
_DIGIT_CUT = Split(NUMERIC).as_ours(per_char=True, checked=True)
_DIGITS_CUT = Split(NUMERIC + "+").as_ours(checked=True)
_WORDS_CUT = Split(WORDS_AND_SYMBOLS, "Removed", invert=True).as_ours(checked=True)
_NOT_SPACE = Split(rf"[^{SPACE}]+", "Removed", invert=True).as_ours()

def byte_chars(text: str) -> str:
    """``text``'s UTF-8 bytes written as GPT-2's byte characters (a space is "Ġ")."""
    return "".join(map(BYTE_CHARS.__getitem__, text.encode("utf-8")))


@dataclass(frozen=True)
class ByteLevel:
    """GPT-2's byte level: optionally a space before each piece and GPT-2's regex, then every
    piece's bytes as byte characters."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True

    def text_pieces(self, pieces: list[str]) -> list[str]:
        """The pieces before the byte mapping: each with a space before it (add_prefix_space),
        then cut by GPT-2's regex (use_regex)."""
        if self.add_prefix_space:
            pieces = [p if not p or p.startswith(" ") else " " + p for p in pieces]
        if self.use_regex:
            pieces = _BYTE_LEVEL_SPLIT.split(pieces)
        return [p for p in pieces if p]

    def text_pieces_aligned(self, pieces):
        """The same for pieces that carry their characters' original ranges."""
        out = []
        for p, r in pieces:
            if self.add_prefix_space and p and not p.startswith(" "):
                p, r = " " + p, [r[0]] + list(r)
            if self.use_regex:
                out += _BYTE_LEVEL_SPLIT.split_aligned([(p, r)])
            elif p:
                out.append((p, r))
        return out

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return [byte_chars(p) for p in self.text_pieces(pieces)]

    def split_aligned(self, pieces):
        return [(byte_chars(p), [x for ch, x in zip(p, r)
                                 for _ in range(len(ch.encode("utf-8")))])
                for p, r in self.text_pieces_aligned(pieces)]

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


@dataclass(frozen=True)
class Metaspace:
    """Spaces become ``replacement`` (SentencePiece's "▁"), which is also put before the piece
    ("always", or "first": only before the start of the text), then, with ``split``, each
    replacement begins a new piece."""

    replacement: str = "▁"
    prepend_scheme: str = "always"
    split_: bool = True

    def _one(self, p: str, r: Ranges | None, at_start: bool):
        rep = self.replacement
        p = p.replace(" ", rep)
        if (self.prepend_scheme == "always" or (self.prepend_scheme == "first" and at_start)) \
                and p and not p.startswith(rep):
            p = rep + p
            r = None if r is None else [r[0]] + list(r)
        if not self.split_:
            return [(p, r)] if p else []
        if r is None and len(rep) == 1:  # each rep with what follows it, by one findall
            return [(q, None) for q in _words_after(rep)(p)]
        spans = cuts(p, compiled(regex.escape(rep)), "MergedWithNext", False)
        return [(p[a:b], None if r is None else r[a:b]) for a, b in spans]

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return [q for k, p in enumerate(pieces) for q, _ in self._one(p, None, first and k == 0)]

    def split_aligned(self, pieces):
        return [x for p, r in pieces for x in self._one(p, r, bool(r) and r[0][0] == 0)]

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split_}


@lru_cache(maxsize=8)
def _words_after(rep: str):
    """``findall`` of the pieces Metaspace's split makes at a one-character ``rep``: each
    ``rep`` with what follows it up to the next, and what comes before the first (the cuts of
    MergedWithNext, found in C: 1 MB of English in 200,000 words, 0.15 s by ``cuts``).

    >>> _words_after("▁")("a▁▁bc▁d")
    ['a', '▁', '▁bc', '▁d']
    """
    r = regex.escape(rep)
    return regex.compile(f"[^{r}]+|{r}[^{r}]*").findall


@dataclass(frozen=True)
class Sequence:
    """Several pre-tokenizers, one after the other."""

    pretokenizers: tuple

    def __init__(self, pretokenizers):
        object.__setattr__(self, "pretokenizers", tuple(pretokenizers))

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        for p in self.pretokenizers:
            pieces = p.split(pieces, first)
        return pieces

    def split_aligned(self, pieces):
        for p in self.pretokenizers:
            pieces = p.split_aligned(pieces)
        return pieces

    def to_dict(self) -> dict:
        return {"type": "Sequence", "pretokenizers": [p.to_dict() for p in self.pretokenizers]}


class BertPreTokenizer(Sequence):
    """BERT's, which the first GPT and ``tokenizers``' CharBPETokenizer use too: words split at
    whitespace, then each punctuation character on its own.

    >>> BertPreTokenizer().split(["Hey friend!  How?!"])
    ['Hey', 'friend', '!', 'How', '?', '!']
    """

    def __init__(self):
        super().__init__([WhitespaceSplit(), Punctuation("Isolated")])

    def to_dict(self) -> dict:
        return {"type": "BertPreTokenizer"}


def from_dict(d: dict | None) -> Any:
    """The pre-tokenizer a ``tokenizer.json`` describes (None for none), its fields checked."""
    return None if d is None else checked(_from_dict(stage(d, "the pre-tokenizer")))


def _from_dict(d: dict) -> Any:
    kind = d.get("type")
    if kind == "Split":
        text, literal = pattern_from_dict(d["pattern"], where="the Split pre-tokenizer")
        return Split(text, d.get("behavior", "Isolated"), option(d, "invert", False), literal)
    if kind == "ByteLevel":
        return ByteLevel(option(d, "add_prefix_space", True), option(d, "trim_offsets", True),
                         option(d, "use_regex", True))
    if kind == "Metaspace":
        scheme = d.get("prepend_scheme")
        if scheme is None:  # files from before prepend_scheme: add_prefix_space said it
            scheme = "always" if d.get("add_prefix_space", True) else "never"
        return Metaspace(d.get("replacement", "▁"), scheme, option(d, "split", True))
    if kind == "Digits":
        return Digits(option(d, "individual_digits", False))
    if kind == "Punctuation":
        return Punctuation(d.get("behavior", "Isolated"))
    if kind == "Whitespace":
        return Whitespace()
    if kind == "WhitespaceSplit":
        return WhitespaceSplit()
    if kind == "BertPreTokenizer":
        return BertPreTokenizer()
    if kind == "EndOfWord":
        return EndOfWord(d.get("marker", EndOfWord.marker))
    if kind == "Sequence":
        return Sequence(list(map(from_dict, stages(d, "pretokenizers", "pre-tokenizer"))))
    raise ValueError(f"the {kind} pre-tokenizer is not supported; bpe_core reads {SUPPORTED}")
