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

A box shows the text it covers, unless the model read something else there: a prefix space
the tokenizer added, text a normalizer rewrote (NFKC turns "ﬁ" into "fi"), an unknown character
the model only knows as ``[UNK]``. Then the box shows what the model read, in a style that says
so, and its tooltip says what the text had (see :func:`box`).
"""

from __future__ import annotations

import html
import re
from typing import Collection, Mapping, NamedTuple, Sequence

from bpe_core import TokenSpan, show_bytes

from .bidi import direction, line_html

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
#: Hues of the colouring by token id: more than the palette, as neighbours may share one.
ID_HUES = 30
#: Tokens before a page that are looked at to draw it as the whole text would be drawn.
LEAD = 64

CSS = (
    ".bpe-tokens{line-height:2.1;font-size:1.05rem;white-space:pre-wrap;word-break:break-word}"
    ".bpe-tokens .ln{min-height:2.1em}"  # an empty line keeps its height
    ".bpe-tokens .run{unicode-bidi:isolate}"
    ".bpe-tokens .t{display:inline-block;margin:1px;padding:0 3px;border-radius:4px;"
    "color:#1c2331;white-space:pre-wrap;word-break:break-all;line-height:1.6;"
    "unicode-bidi:isolate}"
    ".bpe-tokens .sp{outline:2px solid #2f6fdb;font-weight:600}"
    ".bpe-tokens .pb{font-family:monospace;font-size:0.85em}"
    ".bpe-tokens .m{color:#6b7280;font-size:0.75em}"
    ".bpe-tokens .d{outline:2px dashed #d62828;outline-offset:1px}"
    ".bpe-tokens .nz{text-decoration:underline dotted #4b5563;text-underline-offset:3px}"
    ".bpe-tokens .uk{font-family:monospace;font-size:0.85em;outline:2px dotted #b45309}"
    ".bpe-tokens .ad{box-shadow:inset 0 -3px 0 #2f6fdb}"
    ".bpe-tokens .ov{opacity:0.4}"  # past the token budget
    ".bpe-tokens .hl{outline:3px solid #f59e0b;outline-offset:0}"  # linked to selected text
    ".bpe-tokens .on{outline:3px solid #111827;outline-offset:1px}"  # the token picked
    # One class per palette colour: a class costs the browser less than a style per box.
    + "".join(f".bpe-tokens .c{i}{{background:{c}}}" for i, c in enumerate(PALETTE))
    + "".join(f".bpe-tokens .h{i}{{background:hsl({i * 360 // ID_HUES} 80% 84%)}}"
              for i in range(ID_HUES))
)


def visible(text: str) -> str:
    """``text`` with spaces, tabs and newlines drawn as ``·``, ``→`` and ``↵`` (plain text)."""
    return text.translate(_VISIBLE)


def _named(c: str) -> str | None:
    name = INVISIBLE.get(c) or BIDI.get(c)
    if name is None and (ord(c) < 32 or 127 <= ord(c) < 160):
        name = f"U+{ord(c):04X}"
    return f"⟨{name}⟩" if name else None


_VISIBLE = str.maketrans(WHITESPACE)
_NAMED = {ord(c): _named(c) for c in [*INVISIBLE, *BIDI, *map(chr, range(32)),
                                      *map(chr, range(127, 160))]}
# Whitespace wins over the names of control characters: a tab is drawn →, not ⟨U+0009⟩.
_READABLE = {**_NAMED, **{ord(c): v for c, v in WHITESPACE.items()}}


def readable(text: str, *, whitespace: bool = True) -> str:
    """Plain text with whitespace made visible and invisible, bidi and control characters named.

    >>> readable("a b\\u200b<\\x00>"), readable("a\\tb", whitespace=False)
    ('a·b⟨ZWSP⟩<⟨U+0000⟩>', 'a⟨U+0009⟩b')
    """
    return text.translate(_READABLE if whitespace else _NAMED)


# A run of bytes that are not a whole character, as bpe_core.show_bytes writes it: <E4 BD>.
_HEX = re.compile(r"(<[0-9A-F]{2}(?: [0-9A-F]{2})*>)")


def readable_token(token: str) -> str:
    """A token's display text made readable as :func:`readable` does, except its runs of bytes
    in hex, whose spaces separate bytes.

    >>> readable_token(" <E4 BD>"), readable(" <E4 BD>")
    ('·<E4 BD>', '·<E4·BD>')
    """
    parts = _HEX.split(token)
    return "".join(p if k % 2 else readable(p) for k, p in enumerate(parts))


class Box(NamedTuple):
    """What a token's box shows (plain text), its style class, and a tooltip note."""

    label: str
    style: str = ""  # "pb" bytes of part of a character, "uk" unknown, "nz" rewritten text
    note: str = ""


def box(span: TokenSpan, text: str, claimed: int = 0) -> Box:
    """The box of ``span`` in ``text``. The characters before ``claimed`` are shown by the
    boxes before it already: a token on them is one more than the text has (Llama 2 reads a
    space after a special token as two ``▁``).

    >>> from bpe_core import TokenSpan as T
    >>> box(T(5, " Hello", b" Hello", 0, 5), "Hello")  # a prefix space the tokenizer added
    Box(label=' Hello', style='nz', note="rewritten before BPE: the text has 'Hello', the model reads '·Hello'")
    >>> box(T(0, "[UNK]", b"", 3, 4), "hi 😀")
    Box(label='[UNK]', style='uk', note="unknown: the vocabulary cannot spell '😀', so the model reads only [UNK]")
    """
    covered = text[span.start:span.end]
    if span.partial:
        return Box(show_bytes(span.bytes), "pb")
    if not span.bytes and covered:  # [UNK]: the model keeps nothing of the text it replaced
        return Box(span.token, "uk", f"unknown: the vocabulary cannot spell {readable(covered)!r}, "
                                     f"so the model reads only {span.token}")
    if span.bytes != covered.encode("utf-8", "surrogatepass"):  # NFKC, Lowercase, a prefix
        return Box(span.token, "nz", f"rewritten before BPE: the text has {readable(covered)!r}, "
                                     f"the model reads {readable_token(span.token)!r}")
    if span.start < claimed:  # one character read as several tokens, or a space added
        return Box(span.token, "nz", f"rewritten before BPE: the tokens before it cover "
                                     f"{readable(covered)!r} already, and the model reads "
                                     f"{readable_token(span.token)!r} once more")
    return Box(covered or span.token)  # a bare </w> covers no characters


def boxes(spans: Sequence[TokenSpan], text: str) -> list[Box]:
    """The box of every span, in order (see :func:`box`)."""
    out, claimed = [], 0
    for span in spans:
        out.append(box(span, text, claimed))
        if out[-1].style != "nz":  # the box shows these characters of the text
            claimed = max(claimed, span.end)
    return out


def window_boxes(spans: Sequence[TokenSpan], text: str, window: range) -> dict[int, Box]:
    """The boxes of the spans at the positions in ``window``, by position, as :func:`boxes`
    gives them. A box depends on the boxes before it, but only on the last few: those of a page
    are found from a little before it, not from the start of a long text."""
    lead = max(0, window.start - LEAD)
    return dict(zip(range(lead, window.stop), boxes(spans[lead:window.stop], text)))


def _palette_indices(spans: Sequence[TokenSpan]) -> list[int]:
    """A palette colour per token: by id, moved on one when the left neighbour has it."""
    out: list[int] = []
    for span in spans:
        i = span.id % len(PALETTE)
        if out and i == out[-1]:
            i = (i + 1) % len(PALETTE)
        out.append(i)
    return out


def id_colour(token_id: int) -> int:
    """The hue class of a token id when colouring by id: the same id has the same colour in
    every text and on every page. Ids are scattered (Knuth's multiplicative hash), so tokens
    with neighbouring ids, which are often alike, do not get alike colours.

    >>> [id_colour(i) for i in (0, 1, 2, 261)], id_colour(261) == id_colour(261)
    ([0, 18, 7, 9], True)
    """
    return (token_id * 2654435761 % 2**32) * ID_HUES >> 32


def utf16_offsets(text: str) -> Sequence[int]:
    """Each character's offset in UTF-16 code units, as a browser counts the text (one more
    entry for the end): what a text area's selection is measured in.

    >>> list(utf16_offsets("a😀b"))
    [0, 1, 3, 4]
    """
    if text.isascii() or max(text) < "\U00010000":
        return range(len(text) + 1)
    out, at = [0], 0
    for c in text:
        at += 2 if c >= "\U00010000" else 1
        out.append(at)
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


def _box_html(shown: Box, show_whitespace: bool) -> str:
    """A box's label as HTML; runs of bytes in hex (of a token's own text) kept as they are."""
    if not shown.style:  # the text itself
        return _text_html(shown.label, show_whitespace, in_box=True)
    parts = _HEX.split(shown.label)
    return "".join(html.escape(p) if k % 2 else _text_html(p, show_whitespace, in_box=True)
                   for k, p in enumerate(parts))


def tokens_html(spans: Sequence[TokenSpan], text: str, *, show_whitespace: bool = True,
                id_label: str = "id", details: Mapping[int, str] | Sequence[str] | None = None,
                marked: Collection[int] = (), added: Collection[int] = (),
                label: str = "text", colours: str = "alternate", window: range | None = None,
                chosen: int | None = None, over: int | None = None) -> str:
    """HTML for ``text`` cut into ``spans`` (as ``Tokenizer.spans`` gives them).

    Text between spans (what a whitespace pre-tokenizer drops) is shown plain, without a box.
    Each box has a tooltip with ``id_label`` and the id, the bytes in hex and the display text,
    plus the line ``details[k]`` when given, and carries its position ``k`` as ``data-i`` (for
    pages that pick a token by clicking it) and the characters it covers as ``data-s`` and
    ``data-e``, counted as a browser counts them (UTF-16). A box shows what :func:`box` says,
    with its note in the tooltip. Boxes at the positions in ``marked`` are outlined in red (say,
    where two encoders disagree); those in ``added`` are underlined in blue (added tokens,
    matched whole before BPE); special tokens are outlined in blue. ``label="id"`` shows the
    ids instead. ``colours="id"`` colours each box by its id alone (:func:`id_colour`) rather
    than keeping neighbours apart. Only the positions in ``window`` are drawn (all by default);
    the box at ``chosen`` is framed, and those from ``over`` on are faded. Each line is laid out
    in the direction of its text (see :mod:`ui.shared.bidi`).
    """
    window = window if window is not None else range(len(spans))
    shown_boxes = window_boxes(spans, text, window)
    lead = max(0, window.start - LEAD)  # a colour depends on the few before it too
    near = spans[lead:window.stop]
    hues = dict(zip(range(lead, window.stop),
                    [f"c{i}" for i in _palette_indices(near)] if colours == "alternate"
                    else [f"h{id_colour(s.id)}" for s in near]))
    at16 = utf16_offsets(text)
    lines: list[list[tuple[str, str]]] = [[]]

    def plain(part: str) -> None:  # text between boxes, its newlines ending lines
        for j, (raw, piece) in enumerate(zip(part.split("\n"),
                                             _text_html(part, show_whitespace).split("<br>"))):
            if j:
                lines.append([])
            if piece:
                lines[-1].append((piece, direction(raw)))

    pos = max((s.end for s in spans[:window.start]), default=0)
    for k in window:
        span, shown = spans[k], shown_boxes[k]
        if span.start > pos and label == "text":
            plain(text[pos:span.start])
        pos = max(pos, span.end)
        hex_bytes = span.bytes.hex(" ").upper() or "none"
        tip = f"{id_label} {span.id} · bytes {hex_bytes} · {span.token!r}"
        tip += "".join(f"\n{line}" for line in (shown.note, details[k] if details else "") if line)
        kind = " ".join(filter(None, (f"t {hues[k]}", "sp" if span.special else shown.style,
                                      "ad" if k in added else "", "d" if k in marked else "",
                                      "on" if k == chosen else "",
                                      "ov" if over is not None and k >= over else "")))
        body = _box_html(shown, show_whitespace) if label == "text" else str(span.id)
        lines[-1].append((f'<span class="{kind}" title="{html.escape(tip)}" '
                          f'data-s="{at16[span.start]}" data-e="{at16[span.end]}" '
                          f'data-i="{k}">{body}</span>',
                          direction(text[span.start:span.end] or shown.label)))
        if label == "text":
            lines.extend([] for _ in range(shown.label.count("\n")))
    if pos < len(text) and label == "text" and window.stop >= len(spans):
        plain(text[pos:])
    return (f'<div class="bpe-tokens"><style>{CSS}</style>'
            + "".join(line_html(line) for line in lines) + "</div>")


_MARKDOWN_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~:$"})


def md_escape(text: str) -> str:
    r"""``text`` shown literally inside Streamlit markdown (names, file names, tokens).

    >>> md_escape("**x** [a](b)")
    '\\*\\*x\\*\\* \\[a\\]\\(b\\)'
    """
    return text.translate(_MARKDOWN_SPECIAL)
