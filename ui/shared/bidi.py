"""Right-to-left text in token boxes: every line is laid out in its own direction.

A token box is an inline block, which the browser's bidi algorithm sees as one neutral
character. Left alone, the boxes of an Arabic phrase inside an English line would run left to
right, so its words would read backwards. So each line is a block with the direction of its first
strong character (what ``dir="auto"`` picks), and inside it the boxes of the other direction are
grouped in *runs*: isolates with their own ``dir``, so the boxes inside one follow it. The boxes
between two runs (spaces, punctuation) take the direction of the run around them when both sides
agree, else the line's, as the Unicode bidi algorithm resolves neutral characters. Digits in a
right-to-left run keep reading left to right: they get a run of their own.

>>> direction("مرحبا"), direction("Hello"), direction(" 12"), direction("·")
('R', 'L', 'N', '')
>>> line_html([("<a>", "L"), ("<_>", ""), ("<b>", "R"), ("<_>", ""), ("<c>", "R")])
'<div class="ln" dir="ltr"><a><_><span class="run" dir="rtl"><b><_><c></span></div>'
"""

from __future__ import annotations

import unicodedata
from typing import Sequence

_STRONG = {"L": "L", "R": "R", "AL": "R", "EN": "N", "AN": "N"}


def direction(text: str) -> str:
    """``"L"`` or ``"R"`` for the first strong character of ``text``; ``"N"`` when it has only
    digits as strong as that; ``""`` when it has neither (spaces, punctuation, markers)."""
    number = False
    for c in text:
        kind = _STRONG.get(unicodedata.bidirectional(c), "")
        if kind in ("L", "R"):
            return kind
        number = number or kind == "N"
    return "N" if number else ""


def resolve(kinds: Sequence[str], base: str) -> list[str]:
    """Each item's direction in a line of base direction ``base``: ``"L"``, ``"R"``, or ``"N"``
    for a number inside right-to-left text.

    >>> resolve(["R", "", "N", "", "N", "", "L"], "R")
    ['R', 'R', 'N', 'N', 'N', 'R', 'L']
    >>> resolve(["L", "", "N", "", "R"], "L")
    ['L', 'L', 'L', 'L', 'R']
    """
    out, last = [], base
    for kind in kinds:  # a number counts as right-to-left after right-to-left text only
        last = kind if kind in ("L", "R") else last
        out.append(("N" if last == "R" else "L") if kind == "N" else kind)
    strong = ["R" if k == "N" else k for k in out]
    after, nxt = [base] * len(out), base
    for i in range(len(out) - 1, -1, -1):
        after[i] = nxt
        nxt = strong[i] or nxt
    before = base
    for i, kind in enumerate(out):
        if not kind:
            between_digits = 0 < i < len(out) - 1 and out[i - 1] == out[i + 1] == "N"
            out[i] = "N" if between_digits else (before if before == after[i] else base)
        before = strong[i] or before
    return out


def _run(items: list[str], kind: str) -> str:
    return f'<span class="run" dir="{"ltr" if kind == "L" else "rtl"}">{"".join(items)}</span>'


def line_html(items: Sequence[tuple[str, str]]) -> str:
    """One line of boxes: ``(html, direction(text))`` pairs in the text's order."""
    kinds = [kind for _, kind in items]
    base = next((k for k in kinds if k in ("L", "R")), "L")
    groups: list[tuple[str, list[str]]] = []  # (direction, html) of consecutive items
    for (html, _), kind in zip(items, resolve(kinds, base)):
        if groups and groups[-1][0] == kind:
            groups[-1][1].append(html)
        else:
            groups.append((kind, [html]))
    out, rtl = [], []
    for kind, parts in groups:
        if kind in ("R", "N"):  # an RTL run holds its numbers as LTR runs of their own
            rtl.append(_run(parts, "L") if kind == "N" else "".join(parts))
            continue
        if rtl:
            out.append(_rtl_run(rtl, base))
            rtl = []
        out.append("".join(parts) if kind == base else _run(parts, kind))
    if rtl:
        out.append(_rtl_run(rtl, base))
    return f'<div class="ln" dir="{"rtl" if base == "R" else "ltr"}">{"".join(out)}</div>'


def _rtl_run(parts: list[str], base: str) -> str:
    """Right-to-left parts, in a run of their own unless the line is right-to-left already."""
    return "".join(parts) if base == "R" else _run(parts, "R")
