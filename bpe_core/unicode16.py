"""Pre-tokenizer regexes read as Hugging Face's and OpenAI's regex engines read them: by
Unicode 16.

Oniguruma, which runs the regexes of ``tokenizers`` (Split, ByteLevel's GPT-2 regex,
Whitespace, Replace), the regex crate it uses for added tokens, and tiktoken's regex engine
class characters by Unicode 16; Rust's own char methods (``tokenizers``' Digits) by 17.
``regex`` classes them by its own, later version (17 or 18 as of late 2026). They differ on the
characters added since (unassigned in 16: 4,803 in Unicode 17, such as CJK Extension J, new
scripts and new letters in old ones; 13,007 more in 18), and on U+0295 "ʕ", a lowercase letter
in 16 and an "other" letter (Lo) since. A regex may cut a text holding one of them elsewhere
than the peers do, and the ids then differ.

So a pre-tokenizer keeps a twin of its regex, rewritten to read those characters as the peer's
version does (:func:`as_unicode`), and runs it on the rare text that holds one
(:func:`holds_changed`): each class or property of the regex matches a character that version
leaves unassigned as it matches an unassigned one, and "ʕ" as it matches a letter of the class
it had then. Every other character reads the same.

>>> import regex
>>> text = "ab\\u088fcd"  # U+088F: a letter new in Unicode 17
>>> regex.findall(r"\\p{L}+", text), regex.findall(as_unicode(r"\\p{L}+"), text)
(['ab\\u088fcd'], ['ab', 'cd'])
>>> holds_changed(text), holds_changed(text, 17), holds_changed("naïve 中文 😀")
(True, False, False)

What Unicode 16 leaves unassigned is ``unassigned16.txt``, and what 17 added of it
``ADDED_IN_17``; the tests check them, and the characters ``regex`` classes otherwise, against
Unicode 16's own tables (``unicodedata2``).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from importlib import resources
from itertools import repeat

import regex

#: Assigned in Unicode 16 and classed otherwise since -> for each version the peers read by, a
#: character every version classes as that one did (ʕ: a lowercase letter like ɐ in 16, an
#: "other" letter like ʔ from 17 on).
RECLASSED = {"\u0295": {16: "\u0250", 17: "\u0294"}}
#: Unassigned in every Unicode version so far: how a version reads a character added since.
UNASSIGNED = "\u0378"


def parse_ranges(text: str) -> list[tuple[int, int]]:
    """``(first, last)`` code points of hexadecimal ranges, ``#`` lines left out.

    >>> parse_ranges("# a comment\\n41-5A 5F")
    [(65, 90), (95, 95)]
    """
    return [tuple(int(end, 16) for end in (r.split("-") * 2)[:2])
            for line in text.splitlines() if not line.startswith("#") for r in line.split()]


#: The code points Unicode 16 leaves unassigned, as (first, last) ranges.
UNASSIGNED_16 = parse_ranges(
    resources.files(__package__).joinpath("unassigned16.txt").read_text(encoding="ascii"))
#: Those Unicode 17 assigned. Rust's char methods go by 17 (``tokenizers``' Digits).
ADDED_IN_17 = parse_ranges("""
88F C5C CDC 1ACF-1ADD 1AE0-1AEB 20C1 2B96 A7CE-A7CF A7D2 A7D4 A7F1 FBC3-FBD2 FD90-FD91
FDC8-FDCE 10940-10959 10EC5-10EC7 10ED0-10ED8 10EFA-10EFB 11B60-11B67 11DB0-11DDB
11DE0-11DE9 16EA0-16EB8 16EBB-16ED3 16FF2-16FF6 187F8-187FF 18D09-18D1E 18D80-18DF2
1CCFA-1CCFC 1CEBA-1CED0 1CEE0-1CEF0 1E6C0-1E6DE 1E6E0-1E6F5 1E6FE-1E6FF 1F6D8 1F777-1F77A
1F8D0-1F8D8 1FA54-1FA57 1FA8A 1FA8E 1FAC8 1FACD 1FAEA 1FAEF 1FBFA 2B73A-2B73F 2CEA2-2CEAD
323B0-33479""")
_STARTS = [a for a, _ in UNASSIGNED_16]
_STARTS_17 = [a for a, _ in ADDED_IN_17]
_ASSIGNED = regex.compile(r"\P{Cn}")


def class_body(ranges) -> str:
    """The inside of a regex character class holding the ``(first, last)`` ranges.

    >>> class_body([(65, 90), (95, 95)])
    'A-Z_'
    """
    return "".join(regex.escape(chr(a)) + (f"-{regex.escape(chr(b))}" if b > a else "")
                   for a, b in ranges)


# The check runs on every text beyond ASCII, so it is stdlib ``re``: it tests a character of
# the BMP against a bitmap, where ``regex`` walks the ranges (3 against 17 ns a character).
# Beyond the BMP it only picks the characters up (emoji, mostly), which are looked at one by one.
_MAYBE = re.compile("[" + class_body([r for r in UNASSIGNED_16 if r[0] < 0x10000])
                    + "".join(RECLASSED) + "\\U00010000-\\U0010ffff]")  # (16's are 17's too)
_NON_ASCII = regex.compile(r"[^\x00-\x7f]+")


def _changed(ch: str, version: int) -> bool:
    """Does ``regex`` class ``ch`` otherwise than Unicode ``version``?"""
    if ch in RECLASSED:
        return _category(ch) != _category(RECLASSED[ch][version])
    c = ord(ch)
    k = bisect_right(_STARTS, c) - 1
    if k < 0 or c > UNASSIGNED_16[k][1] or _ASSIGNED.match(ch) is None:
        return False
    k = bisect_right(_STARTS_17, c) - 1
    return version == 16 or k < 0 or c > ADDED_IN_17[k][1]


def _category(ch: str) -> str:
    """``ch``'s general category, as ``regex`` has it."""
    return next(gc for gc in _CATEGORIES if regex.fullmatch(rf"\p{{gc={gc}}}", ch))


_CATEGORIES = ("Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc "
               "Cf Cs Co Cn").split()


#: Up to this many characters to look at, each distinct one is looked up on its own (a few
#: microseconds); past it, all of them against the set of every changed character, made once
#: (0.2 s) and kept.
_LOOKED_UP_ONE_BY_ONE = 20_000


def holds_changed(text: str, version: int = 16) -> bool:
    """Does ``text`` hold a character ``regex`` classes otherwise than Unicode ``version``?"""
    if text.isascii():
        return False
    sample = text[::64]
    if len(sample.encode("utf-8", "surrogatepass")) < 1.25 * len(sample):
        # Mostly ASCII: only the other characters are looked at (2 MB of English: 7 -> 1 ms).
        text = "".join(_NON_ASCII.findall(text))
    m = _MAYBE.search(text)
    if m is None:
        return False
    found = _MAYBE.findall(text, m.start())
    if len(found) > _LOOKED_UP_ONE_BY_ONE:
        # (A text of every code point: 1,050,000 to look at, 0.7 to 2.5 s one by one, 0.3 s
        # against the set.)
        return not changed_chars(version).isdisjoint(found)
    return any(map(_changed, set(found), repeat(version)))


@functools.cache
def changed_chars(version: int = 16) -> frozenset[str]:
    """Every character ``regex`` classes otherwise than Unicode ``version`` (made on first
    use)."""
    if version != 16:
        return frozenset(c for c in changed_chars(16) if _changed(c, version))
    unassigned = "".join(chr(c) for a, b in UNASSIGNED_16 for c in range(a, b + 1))
    return frozenset(_ASSIGNED.findall(unassigned)) | {c for c in RECLASSED if _changed(c, 16)}


# A class or an escape whose meaning comes from Unicode's tables; anything else, one by one.
_PROPERTY = r"\\[pP](?:\{[^}]*\}|[A-Za-z])|\\[wWdDsS]|\[:\^?\w+:\]"
_TOKEN = regex.compile(rf"({_PROPERTY})|(\\[bB])|(\[\^?\]?(?:\\.|\[:[^\]]*:\]|[^\]\\])*\])"
                       r"|\\.|[\s\S]")
_ITEM = regex.compile(rf"({_PROPERTY})|\\.|[\s\S]")
# What a property stands for among a class's literal items: surrogates, which no text holds.
_NOTHING = r"\p{Cs}"


@functools.lru_cache(maxsize=64)
def as_unicode(pattern: str, version: int = 16) -> str:
    """``pattern`` rewritten to match as it would by Unicode ``version`` (the same pattern when
    no class or property in it reads a changed character otherwise).

    >>> as_unicode(r"\\s+|[a-z]+")
    '\\\\s+|[a-z]+'
    """
    if regex.compile(pattern).flags & regex.VERSION1:
        return pattern  # (set operations and nested sets, which this reading does not follow)
    read = _rewritten(pattern, version)
    try:
        regex.compile(read)
    except regex.error:  # (a user's regex the rewriting cannot follow: read as it is)
        return pattern
    return read


def _rewritten(pattern: str, version: int) -> str:
    out = []
    for m in _TOKEN.finditer(pattern):
        prop, boundary, cls = m.groups()
        if cls:
            out.append(_class_as(cls, version))
        elif prop:
            read = _class_as(f"[{prop}]", version)
            out.append(prop if read == f"[{prop}]" else read)
        elif boundary:
            word = _class_as(r"[\w]", version)
            if word == r"[\w]":
                out.append(boundary)
            elif boundary == r"\b":
                out.append(f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))")
            else:
                out.append(f"(?:(?<={word})(?={word})|(?<!{word})(?!{word}))")
        else:
            out.append(m.group())
    return "".join(out)


def _class_as(cls: str, version: int) -> str:
    """A character class as Unicode ``version`` reads it: its literal items as they are, its
    properties with the changed characters read as their stand-ins of that version."""
    negated = cls.startswith("[^")
    props, literal, has_literal = [], [], False
    for m in _ITEM.finditer(cls[2 if negated else 1:-1]):
        if m.group(1):
            props.append(m.group(1))
            literal.append(_NOTHING)
        else:
            literal.append(m.group())
            has_literal = True
    if not props:
        return cls
    changed, text, every = _changed_as_class(version)
    union = regex.compile(f"[{''.join(props)}]")
    # The changed characters the properties match by that version (all the unassigned ones
    # alike, as their stand-in), and those they match now.
    reclassed = changed & RECLASSED.keys()
    then = {c for c in reclassed if union.fullmatch(RECLASSED[c][version])}
    if union.fullmatch(UNASSIGNED):
        then |= changed - reclassed
    now = set(union.findall(text))
    if then == now:
        return cls
    items = "".join(props)
    # Matched by that version: the literal items, or the properties (a changed character as
    # they matched it then); with ^, neither.
    if negated:
        keep = _ranges(changed - then)
        rest = f"[^{items}{every}]" + (f"|[{keep}]" if keep else "")
        return (f"(?:(?![{''.join(literal)}])(?:{rest}))" if has_literal else f"(?:{rest})")
    branches = [f"[{''.join(literal)}]"] if has_literal else []
    branches.append(f"(?![{every}])[{items}]")
    if then:
        branches.append(f"[{_ranges(then)}]")
    return f"(?:{'|'.join(branches)})"


@functools.cache
def _changed_as_class(version: int) -> tuple[frozenset[str], str, str]:
    """The changed characters, one after another, and as a class body (once per version)."""
    changed = changed_chars(version)
    return changed, "".join(sorted(changed)), _ranges(changed)


def _ranges(chars) -> str:
    """A class body for a set of characters, as ranges.

    >>> _ranges({"a", "b", "c", "x"})
    'a-cx'
    """
    return class_body(runs_of(chars))


def runs_of(chars) -> list[tuple[int, int]]:
    """The ``(first, last)`` code points of a set of characters' runs.

    >>> runs_of({"a", "b", "c", "x"})
    [(97, 99), (120, 120)]
    """
    runs: list[list[int]] = []
    for c in sorted(map(ord, chars)):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return [(a, b) for a, b in runs]
