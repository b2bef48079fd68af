"""Right-to-left text in token boxes: boxes read in the order the browser shows the text itself.

A token box is an inline block, which the browser's bidi algorithm sees as one neutral character
(U+FFFC). Left alone, the boxes of an Arabic phrase inside an English line would run left to
right, so its words would read backwards. So this module runs the Unicode bidi algorithm
(UAX #9) on each line's own text, gives each box the embedding level of its text, and nests the
boxes in isolates of alternating direction, one per level: laid out in their isolates, the
boxes come in the order rule L2 gives the characters. Each line is a block with the direction of
its first strong character (what ``dir="auto"`` picks). Embeddings, overrides and isolates are
not obeyed: the boxes show them as markers (``⟨U+202E⟩``), so they count as neutral characters
here.

The bytes of one character split over several boxes read left to right, in byte order, as hex
is read: the boxes that share a character form a left-to-right isolate (:func:`byte_run`),
which takes its place among the characters around it, as a number does in Arabic text.

>>> levels("abc שלום 12!")
(0, [0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 0])
>>> line_html([("<a>", "Hi "), ("<b>", "שלום"), ("<_>", " "), ("<c>", "12")])
'<div class="ln" dir="ltr"><a><span class="run" dir="rtl"><b><_><span class="run" \
dir="ltr"><c></span></span></div>'
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

import regex

from bpe_core.alphabet import END_OF_WORD

# Characters that can make a line anything but left to right throughout: without any, every
# level is 0 (most lines), and the algorithm is skipped.
_RIGHT_TO_LEFT = regex.compile(r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}\p{Bidi_Class=AN}]")
# Classes kept as they are; the rest (explicit embeddings and isolates, which are shown as
# markers and not obeyed) are other neutrals, ON.
_KEPT = {"L", "R", "AL", "EN", "ES", "ET", "AN", "CS", "NSM", "BN", "B", "S", "WS", "ON"}
_NEUTRAL = {"B", "S", "WS", "ON"}
# The two paired brackets whose closing one is not the next Pe character (BidiBrackets.txt).
_CLOSING = {"\u298d": "\u2990", "\u298f": "\u298e"}
_MAX_BRACKETS = 63  # BD16: deeper nesting stops the pairing


def right_to_left(text: str) -> bool:
    """Whether ``text`` has a character that reads right to left (Hebrew, Arabic, ...).

    >>> right_to_left("low"), right_to_left("שלום"), right_to_left("١٢")
    (False, True, True)
    """
    return _RIGHT_TO_LEFT.search(text) is not None


def _bidi_class(c: str) -> str:
    kind = unicodedata.bidirectional(c) or "L"  # unassigned in this Python's Unicode: L
    return kind if kind in _KEPT else "ON"


def _closing(opening: str) -> str | None:
    """The paired closing bracket of ``opening``, or None if it is no opening bracket."""
    if unicodedata.category(opening) != "Ps" or not unicodedata.mirrored(opening):
        return None
    if opening in _CLOSING:
        return _CLOSING[opening]
    n = ord(opening)
    return next((chr(m) for m in (n + 1, n + 2) if unicodedata.category(chr(m)) == "Pe"),
                None)


def _same_bracket(a: str, b: str) -> bool:
    # U+2329/U+232A and U+3008/U+3009 are canonically equivalent, which BD16 honours.
    return unicodedata.normalize("NFD", a) == unicodedata.normalize("NFD", b)


def _strong(kind: str) -> str:
    """The direction a resolved type counts as for neutrals (N0, N1): numbers count as R."""
    return "L" if kind == "L" else "R" if kind in ("R", "EN", "AN") else ""


def levels(text: str) -> tuple[int, list[int]]:
    """The paragraph level of one line of text (0 left to right, 1 right to left: its first
    strong character's, rule P2) and each character's embedding level (UAX #9, rules W1-W7,
    N0-N2, I1-I2 and L1): odd levels run right to left, a level one higher inside them left to
    right, as numbers in Arabic text do.

    >>> levels("مرحبا 12 (abc)")
    (1, [1, 1, 1, 1, 1, 1, 2, 2, 1, 1, 2, 2, 2, 1])
    """
    if not right_to_left(text):
        return 0, [0] * len(text)
    original = [_bidi_class(c) for c in text]
    base = next((1 if k in ("R", "AL") else 0 for k in original if k in ("L", "R", "AL")), 0)
    e = "R" if base else "L"
    # X9: boundary neutrals (zero-width joiners, soft hyphens) are left out, and get the level
    # of the character before them at the end.
    at = [i for i, k in enumerate(original) if k != "BN"]
    kinds = [original[i] for i in at]
    _weak(kinds, e)
    _brackets([text[i] for i in at], kinds, [original[i] for i in at], e)
    _neutrals(kinds, e)
    out = [base] * len(text)
    for i, kind in zip(at, kinds):
        if base == 0:
            out[i] = 1 if kind == "R" else 2 if kind in ("EN", "AN") else 0
        else:
            out[i] = 2 if kind in ("L", "EN", "AN") else 1
    for i, kind in enumerate(original):
        if kind == "BN":
            out[i] = out[i - 1] if i else base
    # L1: tabs, line ends and the whitespace before them or at the end of the line take the
    # paragraph level.
    reset = True
    for i in range(len(text) - 1, -1, -1):
        kind = original[i]
        if kind in ("S", "B"):
            out[i], reset = base, True
        elif kind in ("WS", "BN") and reset:
            out[i] = base
        else:
            reset = False
    return base, out


def _weak(kinds: list[str], e: str) -> None:
    """Rules W1-W7, in place (``e``: the direction of the paragraph, its sos and eos)."""
    last = e  # W1: a mark takes the type of what it follows
    for i, kind in enumerate(kinds):
        kinds[i] = last = last if kind == "NSM" else kind
    strong = e  # W2: numbers after Arabic letters are Arabic numbers; W3: AL is R
    for i, kind in enumerate(kinds):
        if kind in ("L", "R", "AL"):
            strong = kind
        if kind == "EN" and strong == "AL":
            kinds[i] = "AN"
        elif kind == "AL":
            kinds[i] = "R"
    for i in range(1, len(kinds) - 1):  # W4: one separator between two numbers joins them
        before, kind, after = kinds[i - 1:i + 2]
        if before == after == "EN" and kind in ("ES", "CS"):
            kinds[i] = "EN"
        elif before == after == "AN" and kind == "CS":
            kinds[i] = "AN"
    i = 0
    while i < len(kinds):  # W5: currency and percent signs next to a number join it
        j = i
        while j < len(kinds) and kinds[j] == "ET":
            j += 1
        if j > i and ((i and kinds[i - 1] == "EN") or (j < len(kinds) and kinds[j] == "EN")):
            kinds[i:j] = ["EN"] * (j - i)
        i = j + 1
    strong = e  # W6: other separators are neutral; W7: numbers in left-to-right text are L
    for i, kind in enumerate(kinds):
        if kind in ("ES", "ET", "CS"):
            kinds[i] = "ON"
        elif kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            kinds[i] = "L"


def _brackets(chars: list[str], kinds: list[str], original: list[str], e: str) -> None:
    """Rule N0, in place: a pair of brackets takes the direction of what it encloses (the
    paragraph's if it holds both), and the direction before it when that agrees."""
    pairs, stack = [], []
    for i, (c, kind) in enumerate(zip(chars, kinds)):
        if kind != "ON":
            continue
        closing = _closing(c)
        if closing is not None:
            if len(stack) == _MAX_BRACKETS:
                break
            stack.append((closing, i))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if _same_bracket(stack[depth][0], c):
                pairs.append((stack[depth][1], i))
                del stack[depth:]
                break
    for opening, closing in sorted(pairs):
        inside = {_strong(k) for k in kinds[opening + 1:closing]} - {""}
        if not inside:
            continue
        # Only the other direction inside: the brackets take the direction before them.
        kind = e if e in inside else next(
            (_strong(k) for k in reversed(kinds[:opening]) if _strong(k)), e)
        for i in (opening, closing):
            kinds[i] = kind
            j = i + 1  # marks on a bracket follow it
            while j < len(kinds) and original[j] == "NSM":
                kinds[j] = kind
                j += 1


def _neutrals(kinds: list[str], e: str) -> None:
    """Rules N1 and N2, in place: a run of neutrals between two of the same direction takes
    it (numbers count as R), any other the paragraph's."""
    i = 0
    while i < len(kinds):
        if kinds[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < len(kinds) and kinds[j] in _NEUTRAL:
            j += 1
        before = _strong(kinds[i - 1]) if i else e
        after = _strong(kinds[j]) if j < len(kinds) else e
        kinds[i:j] = [before if before == after else e] * (j - i)
        i = j


def byte_run(parts: Sequence[str]) -> str:
    """Boxes that split characters into bytes, as one left-to-right isolate (of class
    ``bytes``: drawn as one block, so that a line never ends inside a character).

    >>> byte_run(["<D8>", "<A7>"]), byte_run(["<x>"])
    ('<span class="run bytes" dir="ltr"><D8><A7></span>', '<x>')
    """
    if len(parts) == 1:
        return parts[0]
    return f'<span class="run bytes" dir="ltr">{"".join(parts)}</span>'


def _run(html: str, level: int) -> str:
    return f'<span class="run" dir="{"rtl" if level % 2 else "ltr"}">{html}</span>'


def _item_level(kinds: Sequence[str], at: Sequence[int]) -> int:
    """An item's level: that of its first strong character or digit, else of its first."""
    for kind, level in zip(kinds, at):
        if kind in ("L", "R", "AL", "EN", "AN"):
            return level
    return at[0]


def _nest(items: list[tuple[str, int]], level: int) -> str:
    """Items at ``level`` as they are; each run of higher ones in an isolate of its own."""
    out, i = [], 0
    while i < len(items):
        if items[i][1] == level:
            out.append(items[i][0])
            i += 1
            continue
        j = i
        while j < len(items) and items[j][1] > level:
            j += 1
        out.append(_run(_nest(items[i:j], level + 1), level + 1))
        i = j
    return "".join(out)


def line_html(items: Sequence[tuple[str, str]]) -> str:
    """One line of boxes: ``(html, text)`` pairs in the text's order, ``text`` being the
    characters the item stands for ("" for a box of none, which counts as an object, U+FFFC).
    """
    texts = [text or "\ufffc" for _, text in items]
    base, at = levels("".join(texts))
    if not any(at):  # left to right throughout
        return f'<div class="ln" dir="ltr">{"".join(html for html, _ in items)}</div>'
    placed, start = [], 0
    for (html, _), text in zip(items, texts):
        kinds = [unicodedata.bidirectional(c) for c in text]
        placed.append((html, _item_level(kinds, at[start:start + len(text)])))
        start += len(text)
    return f'<div class="ln" dir="{"rtl" if base else "ltr"}">{_nest(placed, base)}</div>'


# The end-of-word marker in a left-to-right isolate: U+2066 (LRI) ... U+2069 (PDI), invisible.
_ISOLATED_MARKER = f"\u2066{END_OF_WORD}\u2069"


def cell(shown: str) -> str:
    """Text in the notation as a table cell (``st.dataframe``) holds it: with right-to-left
    letters, its end-of-word markers in left-to-right isolates. The grid draws a cell on a
    canvas, which takes no HTML (the boxes' ``<bdi>``), right to left when its first letter is
    Hebrew or Arabic, and the bidi algorithm turned ``ם</w>`` round there (``<w/>ם``). Isolated,
    the marker reads ``</w>`` where the word ends, on its left, as in the boxes. Other text is
    left as it is (a search for ``low</w>`` finds its cell).

    >>> cell("low</w>"), cell("שלו + ם</w>")
    ('low</w>', 'שלו + ם\u2066</w>\u2069')
    """
    if END_OF_WORD not in shown or not right_to_left(shown):
        return shown
    return shown.replace(END_OF_WORD, _ISOLATED_MARKER)


def isolated(text: str) -> str:
    """``text`` to be set inside a left-to-right sentence: with right-to-left letters, in a
    first-strong isolate (U+2068 ... U+2069, invisible). Else a number after it joins its run:
    "Arabic — العربية · 114 tokens" was drawn "Arabic — 114 · العربية tokens".

    >>> isolated("English"), isolated("Arabic — العربية")
    ('English', '\u2068Arabic — العربية\u2069')
    """
    if not right_to_left(text):
        return text
    return f"\u2068{text}\u2069"


def quoted(text: str) -> str:
    """``repr(text)`` for a sentence: with right-to-left letters, the inside of the quotes in a
    first-strong isolate (U+2068 ... U+2069, invisible) and its markers as :func:`cell` puts
    them, so that the sentence keeps its order (``'של' + 'ו'`` was drawn ``'ו' + 'של'``).

    >>> quoted("low"), quoted("ם</w>")
    ("'low'", "'\u2068ם\u2066</w>\u2069\u2069'")
    """
    shown = repr(text)
    if not right_to_left(text):
        return shown
    return f"{shown[0]}\u2068{cell(shown[1:-1])}\u2069{shown[-1]}"
