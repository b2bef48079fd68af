"""The Split pre-tokenizer, and the cutting the other regex stages share with it: a text cut
at a regex's matches, folded by Hugging Face's behaviors (:func:`cuts`), piece by piece or, where
the matches are single characters or runs of one class, all the pieces joined; and the twin of a
regex that reads a character otherwise than the peers' Unicode 16 (see unicode16.py).

>>> Split(r"\\w+|[^\\w\\s]+", "Isolated").split(["Hi there!"])
['Hi', ' ', 'there', '!']
>>> cuts("a,b", compiled(","), "MergedWithPrevious", False)
[(0, 2), (2, 3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate
from typing import Any

import regex

from .oniguruma import match_spans, pattern_to_dict
from .presets import needs_limit, piece_finder, time_limit, too_slow
from .unicode16 import as_unicode, holds_changed

BEHAVIORS = ("Removed", "Isolated", "MergedWithPrevious", "MergedWithNext", "Contiguous")

# A pattern that is one run of one character class: a set without sets inside, a property or
# a class escape, then "+".
ONE_RUN = regex.compile(r"(?:\[\^?\]?(?:\\.|[^\[\]\\])*\]|\\[pP]\{\w+\}|\\[dswDSW])\+")
# Escapes and classes whose meaning comes from Unicode's tables (see unicode16.py).
READS_UNICODE = regex.compile(r"\\[pPwWdDsSbB]|\[:")

def cuts(text: str, compiled, behavior: str, invert: bool,
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


class Splitter:
    """A stage that only cuts: ``split`` and ``split_aligned`` from its ``_spans(text)``."""

    def split(self, pieces: list[str], first: bool = True) -> list[str]:
        return [p[a:b] for p in pieces for a, b in self._spans(p)]

    def split_aligned(self, pieces):
        return [(p[a:b], r[a:b]) for p, r in pieces for a, b in self._spans(p)]


class ReadsUnicode(Splitter):
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
class Split(ReadsUnicode):
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
        object.__setattr__(self, "_runs", isolate is not None and ONE_RUN.fullmatch(
            self.pattern) is not None)
        # Only a regex with a class from Unicode's tables may read a text otherwise by Unicode
        # 16 (see ReadsUnicode); the texts of the others are not looked at.
        object.__setattr__(self, "_reads_unicode", not self.literal and READS_UNICODE.search(
            self.pattern) is not None)

    def as_ours(self, *, per_char: bool = False, checked: bool = False) -> Split:
        """This Split, of a pattern of ours, with no time limit (it never backtracks);
        ``per_char``: whether a character matches depends on it alone (one character, or a run
        of such), so it cuts pieces as one run of a class does (``_split_runs``): its matches
        in the pieces joined, cut where they meet, are theirs; ``checked``: the stage it cuts
        for looks for the characters its twin is for (``_fast``)."""
        object.__setattr__(self, "_bounded", False)
        if checked:
            object.__setattr__(self, "_reads_unicode", False)
        if self._findall is not None:
            object.__setattr__(self, "_findall", self._compiled.findall)
        if per_char:
            object.__setattr__(self, "_runs", self._isolate is not None)
        return self

    def _spans(self, text: str) -> list[tuple[int, int]]:
        try:
            return cuts(text, self._compiled, self.behavior, self.invert,
                         time_limit(len(text)) if self._bounded else None)
        except TimeoutError:
            raise too_slow(self.pattern, text) from None

    def _twin(self) -> Split | None:
        return twin_split(self.pattern, self.behavior, self.invert)

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

@lru_cache(maxsize=64)
def twin_split(pattern: str, behavior: str, invert: bool = False, version: int = 16
                ) -> Split | None:
    """The Split of ``pattern`` rewritten to read by Unicode ``version`` (unicode16.py), or
    None where that reads no character otherwise. It reads so already: it has no twin."""
    read = as_unicode(pattern, version)
    if read == pattern:
        return None
    split = Split(read, behavior, invert)
    object.__setattr__(split, "_reads_unicode", False)
    return split

_PATTERNS: dict[str, Any] = {}


def compiled(pattern: str):
    found = _PATTERNS.get(pattern)
    if found is None:
        found = _PATTERNS[pattern] = regex.compile(pattern)
    return found
