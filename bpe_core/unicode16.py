"""Pre-tokenizer regexes read as Hugging Face's and OpenAI's regex engines read them: by
Unicode 16.

Oniguruma, which runs the regexes of ``tokenizers`` (Split, ByteLevel's GPT-2 regex,
Whitespace), and tiktoken's regex engine class characters by Unicode 16. ``regex`` classes them
by its own, later version (17 or 18 as of late 2026). The two differ on the characters added
since, unassigned in 16 (4,803 in Unicode 17: CJK Extension J, new scripts, new letters in old
ones; 13,007 more in 18), and on U+0295 "ʕ", a lowercase letter in 16 and an "other" letter
(Lo) since. A regex may cut a text holding one of them elsewhere than the peers do, and the ids
then differ.

So a pre-tokenizer keeps a twin of its regex, rewritten to read those characters as Unicode 16
does (:func:`as_unicode16`), and runs it on the rare text that holds one (:func:`holds_changed`):
each class or property of the regex matches a character unassigned in 16 as it matches an
unassigned one, and "ʕ" as it matches a lowercase letter. Every other character reads the same.

>>> import regex
>>> text = "ab\\u088fcd"  # U+088F: a letter new in Unicode 17
>>> regex.findall(r"\\p{L}+", text), regex.findall(as_unicode16(r"\\p{L}+"), text)
(['ab\\u088fcd'], ['ab', 'cd'])
>>> holds_changed(text), holds_changed("naïve 中文 😀")
(True, False)

What Unicode 16 leaves unassigned is ``unassigned16.txt``; the tests check it, and the
characters ``regex`` classes otherwise, against Unicode 16's own tables (``unicodedata2``).
"""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from importlib import resources

import regex

#: Assigned in Unicode 16 and classed otherwise since -> a character every version classes
#: as Unicode 16 did them (ʕ and ɐ: Latin lowercase letters).
RECLASSED = {"\u0295": "\u0250"}
#: Unassigned in every Unicode version so far: how Unicode 16 reads a character added since.
UNASSIGNED = "\u0378"

_TABLE = resources.files(__package__).joinpath("unassigned16.txt").read_text(encoding="ascii")
#: The code points Unicode 16 leaves unassigned, as (first, last) ranges.
UNASSIGNED_16 = [tuple(int(end, 16) for end in (r.split("-") * 2)[:2])
                 for line in _TABLE.splitlines() if not line.startswith("#") for r in line.split()]
_STARTS = [a for a, _ in UNASSIGNED_16]
_ASSIGNED = regex.compile(r"\P{Cn}")


def _class_body(ranges) -> str:
    return "".join(regex.escape(chr(a)) + (f"-{regex.escape(chr(b))}" if b > a else "")
                   for a, b in ranges)


# The check runs on every text beyond ASCII, so it is stdlib ``re``: it tests a character of
# the BMP against a bitmap, where ``regex`` walks the ranges (3 against 17 ns a character).
# Beyond the BMP it only picks the characters up (emoji, mostly), which are looked at one by one.
_MAYBE = re.compile("[" + _class_body([r for r in UNASSIGNED_16 if r[0] < 0x10000])
                    + "".join(RECLASSED) + "\\U00010000-\\U0010ffff]")
_NON_ASCII = regex.compile(r"[^\x00-\x7f]+")


def _changed(ch: str) -> bool:
    """Does ``regex`` class ``ch`` otherwise than Unicode 16?"""
    if ch in RECLASSED:
        return _category(ch) != _category(RECLASSED[ch])
    c = ord(ch)
    k = bisect_right(_STARTS, c) - 1
    return k >= 0 and c <= UNASSIGNED_16[k][1] and _ASSIGNED.match(ch) is not None


def _category(ch: str) -> str:
    """``ch``'s general category, as ``regex`` has it."""
    return next(gc for gc in _CATEGORIES if regex.fullmatch(rf"\p{{gc={gc}}}", ch))


_CATEGORIES = ("Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc "
               "Cf Cs Co Cn").split()


def holds_changed(text: str) -> bool:
    """Does ``text`` hold a character ``regex`` classes otherwise than Unicode 16?"""
    if text.isascii():
        return False
    sample = text[::64]
    if len(sample.encode("utf-8", "surrogatepass")) < 1.25 * len(sample):
        # Mostly ASCII: only the other characters are looked at (2 MB of English: 7 -> 1 ms).
        text = "".join(_NON_ASCII.findall(text))
    m = _MAYBE.search(text)
    return m is not None and any(map(_changed, set(_MAYBE.findall(text, m.start()))))


@functools.cache
def changed_chars() -> frozenset[str]:
    """Every character ``regex`` classes otherwise than Unicode 16 (made on first use)."""
    unassigned = "".join(chr(c) for a, b in UNASSIGNED_16 for c in range(a, b + 1))
    return frozenset(_ASSIGNED.findall(unassigned)) | {c for c in RECLASSED if _changed(c)}


# A class or an escape whose meaning comes from Unicode's tables; anything else, one by one.
_PROPERTY = r"\\[pP](?:\{[^}]*\}|[A-Za-z])|\\[wWdDsS]|\[:\^?\w+:\]"
_TOKEN = regex.compile(rf"({_PROPERTY})|(\\[bB])|(\[\^?\]?(?:\\.|\[:[^\]]*:\]|[^\]\\])*\])"
                       r"|\\.|[\s\S]")
_ITEM = regex.compile(rf"({_PROPERTY})|\\.|[\s\S]")
# What a property stands for among a class's literal items: surrogates, which no text holds.
_NOTHING = r"\p{Cs}"


@functools.lru_cache(maxsize=64)
def as_unicode16(pattern: str) -> str:
    """``pattern`` rewritten to match as it would by Unicode 16 (the same pattern when no
    class or property in it reads a changed character otherwise).

    >>> as_unicode16(r"\\s+|[a-z]+")
    '\\\\s+|[a-z]+'
    """
    if regex.compile(pattern).flags & regex.VERSION1:
        return pattern  # (set operations and nested sets, which this reading does not follow)
    read = _rewritten(pattern)
    try:
        regex.compile(read)
    except regex.error:  # (a user's regex the rewriting cannot follow: read as it is)
        return pattern
    return read


def _rewritten(pattern: str) -> str:
    out = []
    for m in _TOKEN.finditer(pattern):
        prop, boundary, cls = m.groups()
        if cls:
            out.append(_class16(cls))
        elif prop:
            read = _class16(f"[{prop}]")
            out.append(prop if read == f"[{prop}]" else read)
        elif boundary:
            word = _class16(r"[\w]")
            if word == r"[\w]":
                out.append(boundary)
            elif boundary == r"\b":
                out.append(f"(?:(?<={word})(?!{word})|(?<!{word})(?={word}))")
            else:
                out.append(f"(?:(?<={word})(?={word})|(?<!{word})(?!{word}))")
        else:
            out.append(m.group())
    return "".join(out)


def _class16(cls: str) -> str:
    """A character class as Unicode 16 reads it: its literal items as they are, its properties
    with the changed characters read as their Unicode 16 stand-ins."""
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
    changed = changed_chars()
    union = regex.compile(f"[{''.join(props)}]")
    # The changed characters the properties match by Unicode 16, and those they match now.
    then = {c for c in changed if union.fullmatch(RECLASSED.get(c, UNASSIGNED))}
    now = set(union.findall("".join(sorted(changed))))
    if then == now:
        return cls
    every, items = _ranges(changed), "".join(props)
    # Matched by Unicode 16: the literal items, or the properties (a changed character as they
    # matched it then); with ^, neither.
    if negated:
        keep = _ranges(changed - then)
        rest = f"[^{items}{every}]" + (f"|[{keep}]" if keep else "")
        return (f"(?:(?![{''.join(literal)}])(?:{rest}))" if has_literal else f"(?:{rest})")
    branches = [f"[{''.join(literal)}]"] if has_literal else []
    branches.append(f"(?![{every}])[{items}]")
    if then:
        branches.append(f"[{_ranges(then)}]")
    return f"(?:{'|'.join(branches)})"


def _ranges(chars) -> str:
    """A class body for a set of characters, as ranges.

    >>> _ranges({"a", "b", "c", "x"})
    'a-cx'
    """
    runs: list[list[int]] = []
    for c in sorted(map(ord, chars)):
        if runs and c == runs[-1][1] + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return _class_body(runs)
