"""Regular expressions in ``tokenizer.json`` files are Oniguruma's (what Hugging Face
``tokenizers`` runs); bpe_core runs Python's ``regex``. The two read a few things differently.

>>> convert_pattern(r"\\s+$", to_onig=True), convert_pattern(r"\\s+\\Z", to_onig=False)
('\\\\s+\\\\Z', '\\\\s+$')
"""

from __future__ import annotations

import regex

from .checked import shown
from .presets import compile_typed

_TOKEN = regex.compile(r"""\\[pPxNu]\{[^}]*\}|\\.|\[\^?\]?(?:\\.|\[:[^\]]*:\]|[^\]\\])*\]
    |\(\?[a-zA-Z-]*[:)]|\{\d*,?\d*\}\+?|[\s\S]""", regex.VERBOSE)
# Classes Oniguruma draws differently, POSIX classes, and inline flags other than i (Oniguruma's
# (?m) is Python's (?s)).
_DIFFERENT = regex.compile(r"^\\[wWbBhHX]$"  # an escape on its own
                           r"|^\[.*(?<!\\)(?:\\\\)*(?:\\[wWbBhHX]|\[:)"  # one inside a class
                           r"|^\(\?.*[a-hj-zA-Z]")  # a flag group


def match_spans(compiled, text: str, timeout: float | None = None) -> list[tuple[int, int]]:
    """The ``(start, end)`` of every match of ``compiled`` in ``text``, in the order Hugging Face
    finds them (Oniguruma's iterator). It differs from ``finditer`` on empty matches only: one
    right where the previous match ended is skipped, and the search goes on one character
    further, so a longer match starting there is skipped too (Python keeps both).

    >>> match_spans(regex.compile("a*"), "baab"), [m.span() for m in regex.finditer("a*", "baab")]
    ([(0, 0), (1, 3), (4, 4)], [(0, 0), (1, 3), (3, 3), (4, 4)])
    >>> match_spans(regex.compile(r"^|\\w+"), "foo")
    [(0, 0), (1, 3)]

    ``timeout`` bounds each search, in seconds (``TimeoutError`` past it).
    """
    spans = [m.span() for m in compiled.finditer(text, timeout=timeout)]
    if all(start < end for start, end in spans):
        return spans  # no empty match: the two iterators agree
    spans, pos, last_end = [], 0, None
    while pos <= len(text) and (m := compiled.search(text, pos, timeout=timeout)) is not None:
        start, end = m.span()
        if start == end == last_end:
            pos += 1
            continue
        spans.append((start, end))
        pos = last_end = end
    return spans


def replaced(text: str, spans: list[tuple[int, int]], content: str) -> str:
    """``text`` with each of ``spans`` (from ``match_spans``) replaced by ``content``.

    >>> replaced("baab", match_spans(regex.compile("a*"), "baab"), "-")
    '-b-b-'
    """
    out, pos = [], 0
    for start, end in spans:
        out += [text[pos:start], content]
        pos = end
    out.append(text[pos:])
    return "".join(out)


def pattern_to_dict(pattern: str, literal: bool = False) -> dict:
    """A pattern as ``tokenizer.json`` writes it: ``{"String": ...}`` or ``{"Regex": ...}``
    (Oniguruma). A Python regex Oniguruma would read otherwise stays ``{"PythonRegex": ...}``,
    which the playground's own format keeps and a Hugging Face file refuses.

    >>> pattern_to_dict(r"\\s+$"), pattern_to_dict(r"\\w+")
    ({'Regex': '\\\\s+\\\\Z'}, {'PythonRegex': '\\\\w+'})
    """
    if literal:
        return {"String": pattern}
    try:
        return {"Regex": convert_pattern(pattern, to_onig=True)}
    except ValueError:
        return {"PythonRegex": pattern}


def pattern_from_dict(d: dict, *, where: str) -> tuple[str, bool]:
    """``(Python pattern, literal)`` from a ``{"String"|"Regex"|"PythonRegex": ...}`` object.

    A regex that does not compile is a ValueError naming it, ``where`` it is and why (a file's
    reader turns it into its own error), not ``regex``'s error from deep inside a stage.

    >>> pattern_from_dict({"Regex": "(?<x"}, where="the Split pre-tokenizer")
    ... # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the regex '(?<x' of the Split pre-tokenizer does not compile: missing > at ...
    """
    kinds = [k for k in ("String", "PythonRegex", "Regex")
             if isinstance(d, dict) and isinstance(d.get(k), str)]
    if not kinds:
        raise ValueError(f"the pattern of {where} must be {{\"String\": ...}} or "
                         f"{{\"Regex\": ...}} holding a string, not {shown(d)}")
    written = d[kinds[0]]
    if kinds[0] == "String":
        return written, True
    pattern = written if kinds[0] == "PythonRegex" else convert_pattern(written, to_onig=False)
    try:
        compile_typed(pattern)  # kept in regex's own cache for the stage that runs it
    except regex.error as exc:
        quoted = repr(written) if len(written) <= 80 else shown(written)
        raise ValueError(f"the regex {quoted} of {where} does not compile: {exc}") from None
    return pattern, False


#: Oniguruma's "^": the start of the text, or of a line after a newline that does not end it
#: (Python's "(?m:^)" also matches after a last newline).
_LINE_START = r"(?:\A|(?<=\n)(?!\Z))"


def convert_pattern(pattern: str, *, to_onig: bool) -> str:
    """Translate a pre-tokenizer regex between Python's ``regex`` and Oniguruma.

    Anchors differ (Python's ``$`` is Oniguruma's ``\\Z``, Python's ``\\Z`` its ``\\z``) and so
    does ``x{1,3}+``: possessive in Python, "one or more of x{1,3}" in Oniguruma.

    >>> convert_pattern(r"\\p{N}{1,3}+|\\s++$", to_onig=True)
    '(?>\\\\p{N}{1,3})|\\\\s++\\\\Z'
    >>> convert_pattern(r"\\w+", to_onig=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the regex '\\\\w+' uses \\w, which means something else in Hugging Face...
    """
    anchors = ({"$": r"\Z", "^": r"\A", r"\Z": r"\z"} if to_onig
               else {"$": "(?m:$)", "^": _LINE_START, r"\Z": "$", r"\z": r"\Z"})
    out: list[str] = []
    groups: list[int] = []  # where each open group starts in `out`
    for tok in _TOKEN.findall(pattern):
        if _DIFFERENT.search(tok):
            raise ValueError(f"the regex {pattern!r} uses {tok}, which means something else in "
                             f"Hugging Face tokenizers (Oniguruma); spell classes out, e.g. "
                             f"[\\p{{L}}\\p{{N}}_] for \\w, and use no inline flag but i")
        if tok in anchors:
            out.append(anchors[tok])
        elif tok.startswith("{") and tok.endswith("}+") and out:
            # Possessive in Python is atomic in Oniguruma; Oniguruma's reading is a nested repeat.
            atom = out.pop()
            out.append(f"(?>{atom}{tok[:-1]})" if to_onig else f"(?:{atom}{tok[:-1]})+")
        elif tok.startswith("(") and not tok.endswith(")"):
            groups.append(len(out))
            out.append(tok)
        elif tok == ")" and groups:
            start = groups.pop()
            out[start:] = ["".join(out[start:]) + ")"]  # the group is one atom from now on
        else:
            out.append(tok)
    return "".join(out)
