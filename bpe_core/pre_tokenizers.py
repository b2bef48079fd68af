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
from itertools import accumulate
from typing import Any

import regex

from .alphabet import BYTE_CHARS
from .checked import checked, option
from .end_of_word import EndOfWord
from .oniguruma import match_spans, pattern_from_dict, pattern_to_dict
from .char_classes import NUMERIC, PUNCTUATION, SPACE, WORDS_AND_SYMBOLS
from .presets import MODEL_PATTERNS, needs_limit, piece_finder, time_limit, too_slow
from .unicode16 import as_unicode, holds_changed

Ranges = list[tuple[int, int]]
BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")
SUPPORTED = ("Split, ByteLevel, Metaspace, Digits, Punctuation, Whitespace, WhitespaceSplit, "
             "BertPreTokenizer and Sequence")
#: The regex Hugging Face's ByteLevel splits with (GPT-2's, as ``tokenizers`` writes it).
BYTE_LEVEL_REGEX = MODEL_PATTERNS["byte-level"]
# A pattern that is one run of one character class: a set without sets inside, a property or
# a class escape, then "+".
_ONE_RUN = regex.compile(r"(?:\[\^?\]?(?:\\.|[^\[\]\\])*\]|\\[pP]\{\w+\}|\\[dswDSW])\+")
# Escapes and classes whose meaning comes from Unicode's tables (see unicode16.py).
_READS_UNICODE = regex.compile(r"\\[pPwWdDsSbB]|\[:")


def _cuts(text: str, compiled, behavior: str, invert: bool,
          timeout: float | None = None) -> list[tuple[int, int]]:
    """The kept ``(start, end)`` of ``text`` when split on ``compiled``'s matches, exactly as
    Hugging Face folds matches and gaps for each behavior (empty pieces dropped)."""
    parts, pos = [], 0
    for start, end in match_spans(compiled, text, timeout):
        if start > pos:
            parts.append([pos, start, invert])
        parts.append([start, end, not invert])
        pos = end
    if pos < len(text) or not text:
        parts.append([pos, len(text), invert])
    if behavior == "Removed":
        kept = [p for p in parts if not p[2]]
    elif behavior == "Isolated":
        kept = parts
    else:
        kept, previous = [], False
        order = parts[::-1] if behavior == "MergedWithNext" else parts
        for p in order:
            match = p[2]
            join = (match == previous) if behavior == "Contiguous" else (match and not previous)
            if join and kept:
                if behavior == "MergedWithNext":
                    kept[-1][0] = p[0]
                else:
                    kept[-1][1] = p[1]
            else:
                kept.append(list(p))
            previous = match
        if behavior == "MergedWithNext":
            kept.reverse()
    return [(a, b) for a, b, _ in kept if b > a]


class _Splitter:
    """A stage that only cuts: ``split`` and ``split_aligned`` from its ``_spans(text)``."""

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return [p[a:b] for p in pieces for a, b in self._spans(p)]

    def split_aligned(self, pieces):
        return [(p[a:b], r[a:b]) for p, r in pieces for a, b in self._spans(p)]


class _ReadsUnicode(_Splitter):
    """A stage with a regex that may read a character otherwise than Hugging Face does, by
    Unicode 16 (its regex engines) or 17 (Rust's char methods; see unicode16.py): a text holding
    one is cut by its twin, the stage as a Split of the regex rewritten to read by that version
    (``_twin``; None where that reads no character otherwise)."""

    _reads_unicode = True  # (False: the regex has no class from Unicode's tables)
    _unicode = 16  # the version the peer reads by

    def _twin(self) -> Split | None:
        raise NotImplementedError

    def _twin_for(self, texts) -> Split | None:
        """The twin to cut ``texts`` with, when they hold such a character."""
        if not self._reads_unicode or not holds_changed("".join(texts), self._unicode):
            return None
        return self._twin()

    def _fast(self) -> Split | None:
        """A Split that cuts as this stage does, faster, on texts the twin is not for."""
        return None

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        twin = self._twin_for(pieces)
        if twin is not None:
            return twin.split(pieces, first)
        fast = self._fast()
        return super().split(pieces, first) if fast is None else fast.split(pieces, first)

    def split_aligned(self, pieces):
        twin = self._twin_for(p for p, _ in pieces)
        return super().split_aligned(pieces) if twin is None else twin.split_aligned(pieces)


@dataclass(frozen=True)
class Split(_ReadsUnicode):
    """Cut at the matches of ``pattern`` (a Python regex; a plain string when ``literal``)."""

    pattern: str
    behavior: str = "Isolated"
    invert: bool = False
    literal: bool = False

    def __post_init__(self):
        if self.behavior not in BEHAVIORS:
            raise ValueError(f"Split behavior {self.behavior!r} is unknown; Hugging Face's are "
                             f"{', '.join(BEHAVIORS)}")
        compiled = regex.compile(regex.escape(self.pattern) if self.literal else self.pattern)
        object.__setattr__(self, "_compiled", compiled)
        # Keeping the matches only is findall, the fastest way to cut a text; Isolated is the
        # same when the matches leave no gap, which is checked per text.
        fast = None
        if not compiled.groups and (self.behavior, self.invert) in (("Removed", True),
                                                                    ("Isolated", False)):
            fast = piece_finder(self.pattern) if not self.literal else compiled.findall
        # The pattern comes from a file or a user: it runs within a time limit (see
        # presets.needs_limit), decided once here, not per text.
        bounded = not self.literal and needs_limit(self.pattern)
        object.__setattr__(self, "_bounded", bounded)
        # Isolated keeps the gaps between matches too: ``split`` on the pattern as one group
        # gives gaps and matches in turn, in C (DeepSeek's digits and CJK runs leave gaps in
        # almost every piece). A pattern that leaves no gap (the presets) keeps findall, which
        # has a faster twin in ``re``: this is only for the pieces after one with a gap.
        isolate = None
        if not self.literal and fast is not None and self.behavior == "Isolated":
            try:
                isolate = regex.compile(f"({self.pattern})").split
            except regex.error:  # (a pattern that only compiles alone, such as a global flag)
                pass
        object.__setattr__(self, "_findall", fast)
        object.__setattr__(self, "_isolate", isolate)
        # One run of a character class (DeepSeek's CJK runs, "[一-龥぀-ゟ゠-ヿ]+") matches in
        # each piece exactly what it matches in all of them joined, cut where they meet: one
        # call for every piece (see ``_split_runs``).
        object.__setattr__(self, "_runs", isolate is not None and _ONE_RUN.fullmatch(
            self.pattern) is not None)
        # Only a regex with a class from Unicode's tables may read a text otherwise by Unicode
        # 16 (see _ReadsUnicode); the texts of the others are not looked at.
        object.__setattr__(self, "_reads_unicode", not self.literal and _READS_UNICODE.search(
            self.pattern) is not None)

    def as_ours(self, *, one_char: bool = False, checked: bool = False) -> Split:
        """This Split, of a pattern of ours, with no time limit (it never backtracks);
        ``one_char``: it matches one character at a time, so it cuts pieces as one run of a
        class does (``_split_runs``): its matches in the pieces joined are theirs; ``checked``:
        the stage it cuts for looks for the characters its twin is for (``_fast``)."""
        object.__setattr__(self, "_bounded", False)
        if checked:
            object.__setattr__(self, "_reads_unicode", False)
        if self._findall is not None:
            object.__setattr__(self, "_findall", self._compiled.findall)
        if one_char:
            object.__setattr__(self, "_runs", self._isolate is not None)
        return self

    def _spans(self, text: str) -> list[tuple[int, int]]:
        try:
            return _cuts(text, self._compiled, self.behavior, self.invert,
                         time_limit(len(text)) if self._bounded else None)
        except TimeoutError:
            raise too_slow(self.pattern, text) from None

    def _twin(self) -> Split | None:
        return _twin_split(self.pattern, self.behavior, self.invert)

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        # (Looked at first: Gemma 3 splits each of 42,000 segments of 2 MB by " ".)
        if self._reads_unicode and (twin := self._twin_for(pieces)) is not None:
            return twin.split(pieces, first)
        if self.literal and self.pattern and not self.invert and not any(
                self.pattern in p for p in pieces):
            # No match leaves a piece whole, whatever the behavior: Gemma's Split(" ") after its
            # normalizer turned every space into "▁".
            return [p for p in pieces if p]
        if self._runs:
            return self._split_runs(pieces)
        findall = self._findall
        if findall is None:
            return super().split(pieces, first)
        out: list[str] = []
        gaps = False  # once a piece had gaps, the next ones most likely have them too
        for p in pieces:
            if not gaps:
                found = findall(p)
                if "" not in found and (self.behavior != "Isolated"
                                        or sum(map(len, found)) == len(p)):
                    out += found
                    continue
                if not found and p:  # no match at all: an isolated piece is one gap
                    out.append(p)  # (DeepSeek's digits, between its words)
                    continue
                gaps = self._isolate is not None
            # Gaps to keep, or empty matches (which Hugging Face iterates otherwise).
            found = self._isolated(p) if gaps else None
            out += [p[a:b] for a, b in self._spans(p)] if found is None else found
        return out

    def _split_runs(self, pieces: list[str]) -> list[str]:
        """``split`` for a pattern that is one run of a character class: gaps and runs of the
        pieces joined, cut again where the pieces met (DeepSeek's CJK runs on 2 MB of English,
        36,000 pieces after its digits: 0.031 s one by one, 0.020 s so).

        >>> Split("[a-z]+").split(["ab1", "cd", "2e"])
        ['ab', '1', 'cd', '2', 'e']
        """
        text = "".join(pieces)
        found = self._isolated(text) or []  # (a run is never empty)
        cuts = set(accumulate(map(len, found)))
        ends = list(accumulate(map(len, pieces)))
        if not cuts.issuperset(ends):  # some pieces met inside a gap or a run
            cuts.update(ends)
            cuts.discard(0)
            ends = sorted(cuts)
            found = [text[a:b] for a, b in zip([0, *ends[:-1]], ends)]
        return found

    def _isolated(self, text: str) -> list[str] | None:
        """Gaps and matches in turn, the empty ones dropped; None if a match is empty."""
        try:  # gap, match, ..., gap
            found = (self._isolate(text, timeout=time_limit(len(text))) if self._bounded
                     else self._isolate(text))
        except TimeoutError:
            raise too_slow(self.pattern, text) from None
        return None if "" in found[1::2] else list(filter(None, found))

    def to_dict(self) -> dict:
        return {"type": "Split", "pattern": pattern_to_dict(self.pattern, self.literal),
                "behavior": self.behavior,
                "invert": self.invert}


_BYTE_LEVEL_SPLIT = Split(BYTE_LEVEL_REGEX)


@dataclass(frozen=True)
class Punctuation(_ReadsUnicode):
    behavior: str = "Isolated"

    def _spans(self, text):
        return _cuts(text, _compiled(PUNCTUATION), self.behavior, False)

    def _fast(self) -> Split | None:
        # Isolated (BERT's): each punctuation character found in all the pieces joined, in C,
        # where piece by piece took a Python call each (2 MB of English after BERT's
        # whitespace split: 283,000 pieces).
        return _PUNCTUATION_CUT if self.behavior == "Isolated" else None

    def _twin(self) -> Split | None:  # (punctuation added since Unicode 16 is not)
        return _twin_split(PUNCTUATION, self.behavior)

    def to_dict(self) -> dict:
        return {"type": "Punctuation", "behavior": self.behavior}


@dataclass(frozen=True)
class Digits(_ReadsUnicode):
    individual_digits: bool = False
    _unicode = 17  # (Rust's char::is_numeric)

    def _spans(self, text):
        return _cuts(text, _compiled(NUMERIC), self._behavior(), False)

    def _behavior(self) -> str:
        return "Isolated" if self.individual_digits else "Contiguous"

    def _fast(self) -> Split:
        return _DIGIT_CUT if self.individual_digits else _DIGITS_CUT

    def _twin(self) -> Split | None:
        return _twin_split(NUMERIC, self._behavior(), version=17)

    def to_dict(self) -> dict:
        return {"type": "Digits", "individual_digits": self.individual_digits}


@dataclass(frozen=True)
class Whitespace(_ReadsUnicode):
    def _spans(self, text):
        return _cuts(text, _compiled(WORDS_AND_SYMBOLS), "Removed", True)

    def _twin(self) -> Split | None:  # (Hugging Face's \w is Oniguruma's)
        return _twin_split(WORDS_AND_SYMBOLS, "Removed", invert=True)

    def _fast(self) -> Split:
        return _WORDS_CUT

    def to_dict(self) -> dict:
        return {"type": "Whitespace"}


@dataclass(frozen=True)
class WhitespaceSplit(_Splitter):
    def _spans(self, text):
        return _cuts(text, _compiled(SPACE), "Removed", False)

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return _NOT_SPACE.split(pieces, first)  # (the runs between spaces, by findall)

    def to_dict(self) -> dict:
        return {"type": "WhitespaceSplit"}


@lru_cache(maxsize=64)
def _twin_split(pattern: str, behavior: str, invert: bool = False, version: int = 16
                ) -> Split | None:
    """The Split of ``pattern`` rewritten to read by Unicode ``version`` (unicode16.py), or
    None where that reads no character otherwise. It reads so already: it has no twin."""
    read = as_unicode(pattern, version)
    if read == pattern:
        return None
    split = Split(read, behavior, invert)
    object.__setattr__(split, "_reads_unicode", False)
    return split


# The fast Splits of the stages above (``_fast``): one findall, or one cut of all the pieces
# joined, where each piece was a Python call (a BPE on Whitespace then Digits, trained on 2 MB
# of English, encoded it at 0.67x tokenizers' speed, now 1.68x; on Whitespace alone 1.25x,
# now 2.17x).
_PUNCTUATION_CUT = Split(PUNCTUATION).as_ours(one_char=True, checked=True)
_DIGIT_CUT = Split(NUMERIC).as_ours(one_char=True, checked=True)
_DIGITS_CUT = Split(NUMERIC + "+").as_ours(checked=True)
_WORDS_CUT = Split(WORDS_AND_SYMBOLS, "Removed", invert=True).as_ours(checked=True)
_NOT_SPACE = Split(rf"[^{SPACE}]+", "Removed", invert=True).as_ours()
_CACHE: dict[str, Any] = {}


def _compiled(pattern: str):
    found = _CACHE.get(pattern)
    if found is None:
        found = _CACHE[pattern] = regex.compile(pattern)
    return found


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
        spans = _cuts(p, _compiled(regex.escape(rep)), "MergedWithNext", False)
        return [(p[a:b], None if r is None else r[a:b]) for a, b in spans]

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return [q for k, p in enumerate(pieces) for q, _ in self._one(p, None, first and k == 0)]

    def split_aligned(self, pieces):
        return [x for p, r in pieces for x in self._one(p, r, bool(r) and r[0][0] == 0)]

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split_}


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
    return None if d is None else checked(_from_dict(d))


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
        return Sequence([from_dict(p) for p in d["pretokenizers"]])
    raise ValueError(f"the {kind} pre-tokenizer is not supported; bpe_core reads {SUPPORTED}")
