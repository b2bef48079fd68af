"""Where each character of a text in a Unicode normal form (NFC, NFD, NFKC, NFKD) came from.

The Tokenize page colours the original text by what each token stands for, so every character
the normalizer makes needs the original characters it was made of: "ﬁ" becomes "f" and "i",
both from "ﬁ"; "a" and a combining acute become "á", from both; "ᄀ" and "ᅡ" (Hangul jamo)
become "가", from both. Each character outside such a change keeps its own place.

>>> import unicodedata
>>> forms = lambda text: unicodedata.normalize("NFC", text)
>>> align("NFC", "a\u1100\u1161b", [(k, k + 1) for k in range(4)], forms)
('a가b', [(0, 1), (1, 3), (3, 4)])
>>> align("NFC", "a\u0323\u0301", [(0, 1), (1, 2), (2, 3)], forms)  # ạ, then the acute
('ạ́', [(0, 2), (2, 3)])

The text is cut into *groups* that normalize on their own: a character of combining class 0
starts a group, unless it composes with, or reorders against, what comes before (a jamo vowel
after its consonant, the half-width voiced mark after its kana under NFKC): the group is then
joined with the next until its form is where the whole text's form has it. Inside a group that
changes, the decomposition, the canonical order and the composition of Unicode's algorithm are
replayed, each character carrying the set of original characters it came from; characters the
canonical order moves share their places, so that the places still run in order.
"""

from __future__ import annotations

import unicodedata
from typing import Callable

Ranges = list[tuple[int, int]]

#: A group is joined with the next one by one up to this many characters; beyond (a hostile
#: text: thousands of marks that all reorder together), the rest of the text is one group.
MAX_GROUP = 256


def align(form: str, text: str, ranges: Ranges, normalize: Callable[[str], str],
          alone: Callable[[str], bool] = lambda ch: False) -> tuple[str, Ranges]:
    """``(normalize(text), the original range of each of its characters)``; ``ranges[i]`` is
    that of ``text[i]``. ``alone``: characters the normalizer leaves as they are, which nothing
    composes or reorders across (those Hugging Face's older Unicode tables do not know)."""
    whole = normalize(text)
    cuts = [i for i, ch in enumerate(text) if i == 0 or unicodedata.combining(ch) == 0
            or alone(ch) or alone(text[i - 1])]
    cuts.append(len(text))
    spans: Ranges = []
    at, k = 0, 0  # in `whole`, and in `cuts`
    while k < len(cuts) - 1:
        start, j = cuts[k], k + 1
        part = normalize(text[start:cuts[j]])
        # Joined with the next group until its form is the whole form's at this place.
        while not whole.startswith(part, at) and j < len(cuts) - 1:
            j += 1
            if cuts[j] - start > MAX_GROUP:
                j = len(cuts) - 1
            part = normalize(text[start:cuts[j]])
        if not whole.startswith(part, at):  # (no grouping fits: the rest, taken whole)
            return whole, spans + [(ranges[start][0], ranges[-1][1])] * (len(whole) - at)
        group, own = text[start:cuts[j]], ranges[start:cuts[j]]
        if part == group:
            spans += own
        else:
            spans += _replayed(form, group, own, part)
        at, k = at + len(part), j
    return whole, spans


def _replayed(form: str, group: str, own: Ranges, part: str) -> Ranges:
    """The range of each character of ``part``, the form of ``group``, by Unicode's algorithm
    replayed on the group; if the replay does not give ``part``, every character takes the whole
    group's range."""
    decompose = "NFKD" if form in ("NFKC", "NFKD") else "NFD"
    marks = [(d, i) for i, ch in enumerate(group) for d in unicodedata.normalize(decompose, ch)]
    # Canonical order: each run of non-starters sorted by combining class, stably.
    a = 0
    while a < len(marks):
        b = a
        while b < len(marks) and unicodedata.combining(marks[b][0]):
            b += 1
        if b > a + 1:
            marks[a:b] = sorted(marks[a:b], key=lambda m: unicodedata.combining(m[0]))
        a = b + 1
    chars, sources = [d for d, _ in marks], [{i} for _, i in marks]
    if form in ("NFC", "NFKC"):
        chars, sources = _composed(marks)
    if "".join(chars) != part:
        return [(own[0][0], own[-1][1])] * len(part)
    spans = [(min(own[i][0] for i in s), max(own[i][1] for i in s)) for s in sources]
    # Marks the canonical order moved before others, and a letter that took a mark from beyond
    # another, share their places with those, so that places still run in order, starts and
    # ends alike: a page walks the tokens left to right.
    j = 1
    while j < len(spans):
        (a, b), (c, d) = spans[j - 1], spans[j]
        if c < a or d < b:
            spans[j - 1] = spans[j] = (min(a, c), max(b, d))
            j = max(j - 1, 1)
        else:
            j += 1
    return spans


def _composed(marks: list[tuple[str, int]]) -> tuple[list[str], list[set[int]]]:
    """Canonical composition of a decomposed, ordered sequence: a character joins the last
    starter when nothing between them blocks it (a character of its class or of class 0)."""
    chars: list[str] = []
    sources: list[set[int]] = []
    starter, last = -1, 0  # the last starter's place; the class of the last character kept
    for d, i in marks:
        cls = unicodedata.combining(d)
        if starter >= 0 and (last == 0 or last < cls):
            joined = unicodedata.normalize("NFC", chars[starter] + d)
            if len(joined) == 1:  # a primary composite
                chars[starter] = joined
                sources[starter].add(i)
                continue
        if cls == 0:
            starter = len(chars)
        last = cls
        chars.append(d)
        sources.append({i})
    return chars, sources
