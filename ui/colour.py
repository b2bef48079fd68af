"""Token colouring: text shown as coloured token boxes, in HTML that is safe for any input.

Every token is a ``<span>`` box. Neighbouring boxes never share a colour, and a token keeps the
same colour wherever it appears unless its left neighbour already has it. Everything taken from
the text is HTML-escaped, so ``<script>`` shows as text; bidi overrides (which would reorder the
rest of the page) are always shown as markers, and invisible characters are when
``show_whitespace`` is on.

>>> from bpe_core import TokenSpan
>>> html = tokens_html([TokenSpan(7, "<b>", b"<b>", 0, 3), TokenSpan(9, " x", b" x", 3, 5)],
...                    "<b> x")
>>> "&lt;b&gt;" in html and "<b>" not in html
True
>>> visible(" a\\tb\\n")
'·a→b↵'
"""

from __future__ import annotations

import html
from typing import Collection, Sequence

from bpe_core import TokenSpan, show_bytes

#: Pastel backgrounds, readable under dark text, distinct from their neighbours in the list.
PALETTE = ("#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff", "#ffc6ff", "#fdffb6", "#a0c4ff",
           "#ffadad", "#d0f4de", "#e4c1f9", "#f1c0e8", "#b9fbc0")

WHITESPACE = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}
# Characters that take no room: shown as a marker when whitespace is made visible.
INVISIBLE = {"\u200b": "ZWSP", "\u200c": "ZWNJ", "\u200d": "ZWJ", "\u2060": "WJ",
             "\ufeff": "BOM", "\u200e": "LRM", "\u200f": "RLM", "\u00ad": "SHY"}
# Bidi embeddings, overrides and isolates: shown as markers always, because left raw they would
# flip the order of everything after them on the page.
BIDI = {c: f"U+{ord(c):04X}" for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"}

CSS = (
    ".bpe-tokens{line-height:2.1;font-size:1.05rem;white-space:pre-wrap;word-break:break-word}"
    ".bpe-tokens .t{display:inline-block;margin:1px;padding:0 3px;border-radius:4px;"
    "color:#1c2331;white-space:pre-wrap;word-break:break-all;line-height:1.6}"
    ".bpe-tokens .sp{outline:2px solid #2f6fdb;font-weight:600}"
    ".bpe-tokens .pb{font-family:monospace;font-size:0.85em}"
    ".bpe-tokens .m{color:#6b7280;font-size:0.75em}"
    ".bpe-tokens .d{outline:2px dashed #d62828;outline-offset:1px}"
    # One class per palette colour: a class costs the browser less than a style per box.
    + "".join(f".bpe-tokens .c{i}{{background:{c}}}" for i, c in enumerate(PALETTE))
)


def visible(text: str) -> str:
    """``text`` with spaces, tabs and newlines drawn as ``·``, ``→`` and ``↵`` (plain text)."""
    return "".join(WHITESPACE.get(c, c) for c in text)


def _palette_indices(spans: Sequence[TokenSpan]) -> list[int]:
    """A palette colour per token: by id, moved on one when the left neighbour has it."""
    out: list[int] = []
    for span in spans:
        i = span.id % len(PALETTE)
        if out and i == out[-1]:
            i = (i + 1) % len(PALETTE)
        out.append(i)
    return out


def _text_html(text: str, show_whitespace: bool, *, in_box: bool = False) -> str:
    """Escaped text, with whitespace and invisible characters drawn when asked.

    In a box a newline is always drawn as ``↵`` (a newline token would be an empty box
    otherwise) and the line break itself is left to the caller, to come after the box.
    """
    parts = []
    for c in text:
        if c in BIDI or (show_whitespace and c in INVISIBLE):
            parts.append(f'<span class="m">⟨{BIDI.get(c) or INVISIBLE[c]}⟩</span>')
        elif c in WHITESPACE and (show_whitespace or (in_box and c == "\n")):
            parts.append(f'<span class="m">{WHITESPACE[c]}</span>')
            if c == "\n" and not in_box:
                parts.append("<br>")
        elif c == "\n":
            parts.append("" if in_box else "<br>")
        else:
            parts.append(html.escape(c))
    return "".join(parts)


def _label(span: TokenSpan, text: str) -> str:
    """What a box shows: its slice of the text, or its bytes when it splits a character."""
    if span.partial:
        return show_bytes(span.bytes)
    return text[span.start:span.end] or span.token  # a bare </w> covers no characters


def tokens_html(spans: Sequence[TokenSpan], text: str, *, show_whitespace: bool = True,
                id_label: str = "id", details: Sequence[str] | None = None,
                marked: Collection[int] = (), label: str = "text") -> str:
    """HTML for ``text`` cut into ``spans`` (as ``Tokenizer.spans`` gives them).

    Text between spans (what a whitespace pre-tokenizer drops) is shown plain, without a box.
    Each box has a tooltip with ``id_label`` and the id, the bytes in hex and the display text,
    plus the line ``details[k]`` when given, and carries its position ``k`` as ``data-i`` (for
    pages that pick a token by clicking it). Boxes at the positions in ``marked`` are outlined
    in red (say, where two encoders disagree). ``label="id"`` shows the ids instead of the text.
    """
    out, pos = [f"<style>{CSS}</style>"], 0
    for k, (span, colour) in enumerate(zip(spans, _palette_indices(spans))):
        if span.start > pos and label == "text":
            out.append(_text_html(text[pos:span.start], show_whitespace))
        pos = max(pos, span.end)
        shown = _label(span, text) if label == "text" else str(span.id)
        hex_bytes = span.bytes.hex(" ").upper() or "none"
        tip = f"{id_label} {span.id} · bytes {hex_bytes} · {span.token!r}"
        title = html.escape(tip + (f"\n{details[k]}" if details else ""))
        kind = f"t c{colour}" + (" sp" if span.special else " pb" if span.partial else "")
        kind += " d" if k in marked else ""
        body = (html.escape(shown) if span.partial or label != "text"
                else _text_html(shown, show_whitespace, in_box=True))
        out.append(f'<span class="{kind}" title="{title}" '
                   f'data-i="{k}">{body}</span>' + "<br>" * shown.count("\n"))
    if pos < len(text) and label == "text":
        out.append(_text_html(text[pos:], show_whitespace))
    return '<div class="bpe-tokens">' + "".join(out) + "</div>"


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~:$"})


def md_escape(text: str) -> str:
    r"""``text`` shown literally inside Streamlit markdown (names, file names, tokens).

    >>> md_escape("**x** [a](b)")
    '\\*\\*x\\*\\* \\[a\\]\\(b\\)'
    """
    return text.translate(_MARKDOWN_SPECIAL)
