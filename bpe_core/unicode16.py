"""Pre-tokenizer regexes read as Hugging Face's and OpenAI's regex engines read them: by
Unicode 16.

``regex`` classes characters by Unicode 17 (September 2025). Oniguruma, which runs the regexes
of ``tokenizers`` (Split, ByteLevel's GPT-2 regex, Whitespace), and tiktoken's regex engine
still class them by Unicode 16. The two differ on 4,804 characters: the 4,803 that Unicode 17
added (CJK Extension J, new scripts, new letters in old ones; unassigned in 16) and U+0295
"ʕ", a lowercase letter in 16 and an "other" letter (Lo) in 17. A regex may cut a text holding
one of them elsewhere than the peers do, and the ids then differ.

So a pre-tokenizer keeps a twin of its regex, rewritten to read those characters as Unicode 16
does (:func:`as_unicode16`), and runs it on the rare text that holds one (:func:`holds_changed`):
each class or property of the regex matches a new character as it matches an unassigned one,
and "ʕ" as it matches a lowercase letter. Every other character reads the same in both.

>>> import regex
>>> text = "ab\\u088fcd"  # U+088F: a letter new in Unicode 17
>>> regex.findall(r"\\p{L}+", text), regex.findall(as_unicode16(r"\\p{L}+"), text)
(['ab\\u088fcd'], ['ab', 'cd'])
>>> holds_changed(text), holds_changed("naïve 中文 😀")
(True, False)

The tables below are Unicode 17 against Unicode 16 (``unicodedata2`` 16.0.0); the tests check
them against the ``regex`` installed and say how to remake them when it moves on.
"""

from __future__ import annotations

import functools
import re

import regex

#: The characters Unicode 17 added, as ranges of a character class.
NEW_IN_17 = (
    "\u088f\u0c5c\u0cdc\u1acf-\u1add\u1ae0-\u1aeb\u20c1\u2b96\ua7ce-\ua7cf\ua7d2\ua7d4\ua7f1"
    "\ufbc3-\ufbd2\ufd90-\ufd91\ufdc8-\ufdce"
    "\U00010940-\U00010959\U00010ec5-\U00010ec7\U00010ed0-\U00010ed8\U00010efa-\U00010efb"
    "\U00011b60-\U00011b67\U00011db0-\U00011ddb\U00011de0-\U00011de9\U00016ea0-\U00016eb8"
    "\U00016ebb-\U00016ed3\U00016ff2-\U00016ff6\U000187f8-\U000187ff\U00018d09-\U00018d1e"
    "\U00018d80-\U00018df2\U0001ccfa-\U0001ccfc\U0001ceba-\U0001ced0\U0001cee0-\U0001cef0"
    "\U0001e6c0-\U0001e6de\U0001e6e0-\U0001e6f5\U0001e6fe-\U0001e6ff\U0001f6d8"
    "\U0001f777-\U0001f77a\U0001f8d0-\U0001f8d8\U0001fa54-\U0001fa57\U0001fa8a\U0001fa8e"
    "\U0001fac8\U0001facd\U0001faea\U0001faef\U0001fbfa\U0002b73a-\U0002b73f"
    "\U0002cea2-\U0002cead\U000323b0-\U00033479")
#: Characters Unicode 17 classes otherwise -> one that every version classes as Unicode 16
#: did them (ʕ and ɐ: Latin lowercase letters).
RECLASSED = {"\u0295": "\u0250"}
#: Unassigned in every Unicode version so far: how Unicode 16 reads a character new in 17.
UNASSIGNED = "\u0378"

CHANGED = NEW_IN_17 + "".join(RECLASSED)
#: The same, one by one.
CHANGED_CHARS = frozenset(c for r in regex.findall(r".-.|.", CHANGED)
                          for c in map(chr, range(ord(r[0]), ord(r[-1]) + 1)))
# The check runs on every text beyond ASCII, so it is stdlib ``re``: it tests a character of
# the BMP against a bitmap, where ``regex`` walks the ranges (3 against 17 ns a character).
# Beyond the BMP it only picks the characters up (emoji, mostly), and a set tells.
_MAYBE = re.compile("[" + "".join(c for c in regex.findall(r".-.|.", CHANGED) if c < "\U00010000")
                    + "\U00010000-\U0010ffff]")
_NEW_SET = CHANGED_CHARS - set(RECLASSED)
_CHANGED_TEXT = "".join(sorted(CHANGED_CHARS))
_NON_ASCII = regex.compile(r"[^\x00-\x7f]+")

# A class or an escape whose meaning comes from Unicode's tables; anything else, one by one.
_PROPERTY = r"\\[pP](?:\{[^}]*\}|[A-Za-z])|\\[wWdDsS]|\[:\^?\w+:\]"
_TOKEN = regex.compile(rf"({_PROPERTY})|(\\[bB])|(\[\^?\]?(?:\\.|\[:[^\]]*:\]|[^\]\\])*\])"
                       r"|\\.|[\s\S]")
_ITEM = regex.compile(rf"({_PROPERTY})|\\.|[\s\S]")
# What a property stands for among a class's literal items: surrogates, which no text holds.
_NOTHING = r"\p{Cs}"


def holds_changed(text: str) -> bool:
    """Does ``text`` hold a character Unicode 16 and 17 class differently?"""
    if text.isascii():
        return False
    sample = text[::64]
    if len(sample.encode("utf-8", "surrogatepass")) < 1.25 * len(sample):
        # Mostly ASCII: only the other characters are looked at (2 MB of English: 7 -> 1 ms).
        text = "".join(_NON_ASCII.findall(text))
    m = _MAYBE.search(text)
    return m is not None and not CHANGED_CHARS.isdisjoint(_MAYBE.findall(text, m.start()))


@functools.lru_cache(maxsize=64)
def as_unicode16(pattern: str) -> str:
    """``pattern`` rewritten to match as it would by Unicode 16 (the same pattern when no
    class or property in it reads a changed character otherwise).

    >>> as_unicode16(r"\\s+|[a-z]+")
    '\\\\s+|[a-z]+'
    """
    if regex.compile(pattern).flags & regex.VERSION1:
        return pattern  # (set operations and nested sets, which this reading does not follow)
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
    union = regex.compile(f"[{''.join(props)}]")
    # The changed characters the properties match by Unicode 16, and those they match now.
    then = {c for c in RECLASSED if union.fullmatch(RECLASSED[c])}
    if union.fullmatch(UNASSIGNED):
        then |= _NEW_SET
    now = set(union.findall(_CHANGED_TEXT))
    if then == now:
        return cls
    changed = _ranges(CHANGED_CHARS)
    items = "".join(props)
    # Matched by Unicode 16: the literal items, or the properties (a changed character as they
    # matched it then); with ^, neither.
    if negated:
        keep = _ranges(CHANGED_CHARS - then)
        rest = f"[^{items}{changed}]" + (f"|[{keep}]" if keep else "")
        return (f"(?:(?![{''.join(literal)}])(?:{rest}))" if has_literal else f"(?:{rest})")
    branches = [f"[{''.join(literal)}]"] if has_literal else []
    branches.append(f"(?![{changed}])[{items}]")
    if then:
        branches.append(f"[{_ranges(then)}]")
    return f"(?:{'|'.join(branches)})"


def _ranges(chars) -> str:
    """A class body for a set of characters, as ranges.

    >>> _ranges({"a", "b", "c", "x"})
    'a-cx'
    """
    runs: list[list[str]] = []
    for c in sorted(chars):
        if runs and ord(c) == ord(runs[-1][1]) + 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(regex.escape(a) + (f"-{regex.escape(b)}" if b != a else "") for a, b in runs)
