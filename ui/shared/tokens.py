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

One notation for characters that would not show, on every page: in boxes, passages, tables and
tooltips (:func:`readable` for text, :func:`readable_token` for a token's display text).

- Whitespace, when it is made visible: space ``·`` (as code editors draw it), tab ``→``,
  newline ``↵``, carriage return ``␍``; other spaces and zero-width characters by their Unicode
  abbreviation, ``⟨NBSP⟩`` ``⟨ZWSP⟩`` ``⟨ZWJ⟩`` ``⟨BOM⟩``, or code point, ``⟨U+3000⟩``. In boxes
  and passages a newline is also a line break, and a newline token is ``↵`` even with
  whitespace hidden (an empty box would hide it).
- Always: control characters by name, ``⟨NUL⟩`` ``⟨ESC⟩`` ``⟨DEL⟩`` (C1 ones by code point,
  ``⟨U+0085⟩``), since raw they are invisible; bidi controls by code point, ``⟨U+202E⟩``, since
  raw they reorder the page; bytes of part of a character in hex, ``<E4 BD>``; the end-of-word
  marker ``</w>``, on merged tokens too (``low</w>``).

>>> readable(" a\\tb\\n\\x00\\u200b\\u00a0"), readable_token("<E4 BD>est</w>")
('·a→b↵⟨NUL⟩⟨ZWSP⟩⟨NBSP⟩', '<E4 BD>est</w>')

A box shows the text it covers, unless the model read something else there: a prefix space
the tokenizer added, text a normalizer rewrote (NFKC turns "ﬁ" into "fi"), an unknown character
the model only knows as ``[UNK]``. Then the box shows what the model read, in a style that says
so, and its tooltip says what the text had (see :func:`box`).
"""

from __future__ import annotations

import html
import re
from typing import Collection, Mapping, NamedTuple, Sequence
from unicodedata import category

from bpe_core import TokenSpan, show_bytes
from bpe_core.alphabet import END_OF_WORD

from .bidi import byte_run, line_html, quoted

#: Pastel backgrounds, readable under dark text, distinct from their neighbours in the list.
#: The theme's primaryColor (.streamlit/config.toml): special and added tokens' marks, charts.
ACCENT = "#2563c9"
PALETTE = ("#ffd6a5", "#caffbf", "#9bf6ff", "#bdb2ff", "#ffc6ff", "#fdffb6", "#a0c4ff",
           "#ffadad", "#d0f4de", "#e4c1f9", "#f1c0e8", "#b9fbc0")

WHITESPACE = {" ": "·", "\t": "→", "\n": "↵", "\r": "␍"}
# Characters that take no room, or look like a space: named when whitespace is made visible
# (by Unicode's abbreviation, or by code point where Unicode gives none).
INVISIBLE = {"\u200b": "ZWSP", "\u200c": "ZWNJ", "\u200d": "ZWJ", "\u2060": "WJ",
             "\ufeff": "BOM", "\u200e": "LRM", "\u200f": "RLM", "\u00ad": "SHY",
             "\u00a0": "NBSP", "\u202f": "NNBSP", "\u034f": "CGJ", "\u061c": "ALM",
             "\u180e": "MVS",
             **{chr(i): f"U+{i:04X}" for i in [0x1680, *range(0x2000, 0x200b), 0x2028, 0x2029,
                                                0x205f, 0x3000, *range(0x2061, 0x2065), 0x115f,
                                                0x1160, 0x17b4, 0x17b5, 0x3164, 0xffa0,
                                                *range(0xe0000, 0xe0080)]},
             # Variation selectors: the emoji one after ❤ (VS16), and those of ideographs.
             **{chr(0xfe00 + k): f"VS{k + 1}" for k in range(16)},
             **{chr(0xe0100 + k): f"VS{k + 17}" for k in range(240)}}
# Bidi embeddings, overrides and isolates: shown as markers always, because left raw they would
# flip the order of everything after them on the page.
BIDI = {c: f"U+{ord(c):04X}" for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"}
# Control characters (other than tab and newlines) by their ASCII names, C1 ones by code point:
# shown always, because raw they are invisible (a NUL token would be an empty box).
_ASCII_CONTROLS = ("NUL SOH STX ETX EOT ENQ ACK BEL BS HT LF VT FF CR SO SI DLE DC1 DC2 DC3 DC4 "
                   "NAK SYN ETB CAN EM SUB ESC FS GS RS US").split()
CONTROL = {**{chr(i): name for i, name in enumerate(_ASCII_CONTROLS) if chr(i) not in WHITESPACE},
           "\x7f": "DEL", **{chr(i): f"U+{i:04X}" for i in range(0x80, 0xa0)}}

#: The notation in one sentence (Markdown), for the help of toggles and table columns.
NOTATION_HELP = ("Space `·`, tab `→`, newline `↵`, carriage return `␍`; other spaces, zero-width "
                 "and control characters by name, as `⟨NBSP⟩`, `⟨ZWSP⟩`, `⟨NUL⟩`; bytes that "
                 "are not a whole character in hex, as `<E4 BD>`; `</w>` ends a word. Files "
                 "write some of these their own way: GPT-2's byte-level vocabularies a space "
                 "as `Ġ` and a newline as `Ċ`, SentencePiece's a space as `▁`.")

#: Hues of the colouring by token id: more than the palette, as neighbours may share one.
ID_HUES = 30
#: Tokens before a page that are looked at to draw it as the whole text would be drawn.
LEAD = 64

CSS = (
    ".bpe-tokens{line-height:2.1;font-size:1.05rem;white-space:pre-wrap;word-break:break-word}"
    ".bpe-tokens .ln{min-height:2.1em}"  # an empty line keeps its height
    ".bpe-tokens .run{unicode-bidi:isolate}"
    # The bytes of a character in one block: a line break between them would split it in two.
    ".bpe-tokens .bytes{display:inline-block}"
    ".bpe-tokens .t{display:inline-block;margin:1px;padding:0 3px;border-radius:4px;"
    "color:#1c2331;white-space:pre-wrap;word-break:break-all;line-height:1.6;"
    "unicode-bidi:isolate}"
    f".bpe-tokens .sp{{outline:2px solid {ACCENT};font-weight:600}}"
    ".bpe-tokens .pb{font-family:monospace;font-size:0.85em}"
    # Dark enough to read at 4.5:1 (WCAG AA) on the darkest box colour: the marks are small.
    ".bpe-tokens .m{color:#374151;font-size:0.75em}"
    ".bpe-tokens .d{outline:2px dashed #d62828;outline-offset:1px}"
    ".bpe-tokens .nz{text-decoration:underline dotted #4b5563;text-underline-offset:3px}"
    ".bpe-tokens .uk{font-family:monospace;font-size:0.85em;outline:2px dotted #b45309}"
    f".bpe-tokens .ad{{box-shadow:inset 0 -3px 0 {ACCENT}}}"
    ".bpe-tokens .ov{opacity:0.4}"  # past the token budget
    ".bpe-tokens .hl{outline:3px solid #f59e0b;outline-offset:0}"  # linked to selected text
    ".bpe-tokens .on{outline:3px solid #111827;outline-offset:1px}"  # the token picked
    # A box reached with the keyboard (pickable boxes, see tokens_html), over any other frame.
    f".bpe-tokens .t:focus-visible{{outline:3px solid {ACCENT};outline-offset:2px}}"
    # One class per palette colour: a class costs the browser less than a style per box.
    + "".join(f".bpe-tokens .c{i}{{background:{c}}}" for i, c in enumerate(PALETTE))
    + "".join(f".bpe-tokens .h{i}{{background:hsl({i * 360 // ID_HUES} 80% 84%)}}"
              for i in range(ID_HUES))
)


# What readable and the boxes draw for each character: with whitespace made visible, and without.
_MARKS = {**{c: f"⟨{name}⟩" for c, name in {**INVISIBLE, **BIDI, **CONTROL}.items()},
          **WHITESPACE}
_ALWAYS = {c: f"⟨{name}⟩" for c, name in {**BIDI, **CONTROL}.items()}
_READABLE = str.maketrans(_MARKS)
_READABLE_PLAIN = str.maketrans(_ALWAYS)


def readable(text: str, *, whitespace: bool = True) -> str:
    """Plain text in the notation (see above); ``whitespace=False`` leaves whitespace and
    invisible characters as they are, as boxes do with whitespace hidden.

    >>> readable("a b\\u200b<\\x00>\\u202e"), readable("a\\tb\\x1b", whitespace=False)
    ('a·b⟨ZWSP⟩<⟨NUL⟩>⟨U+202E⟩', 'a\\tb⟨ESC⟩')
    >>> readable("\\u2764\\ufe0f")  # a token of the emoji variation selector alone is no blank
    '❤⟨VS16⟩'
    """
    return text.translate(_READABLE if whitespace else _READABLE_PLAIN)


# A run of bytes that are not a whole character, as bpe_core.show_bytes writes it: <E4 BD>.
_HEX = re.compile(r"(<[0-9A-F]{2}(?: [0-9A-F]{2})*>)")


def readable_token(token: str) -> str:
    """A token's display text made readable as :func:`readable` does, except its runs of bytes
    in hex, whose spaces separate bytes.

    >>> readable_token(" <E4 BD>"), readable(" <E4 BD>")
    ('·<E4 BD>', '·<E4·BD>')
    """
    if "<" not in token:  # (most tokens: listing a vocabulary of 262,000 took 0.5 s)
        return token.translate(_READABLE)
    parts = _HEX.split(token)
    return "".join(p if k % 2 else readable(p) for k, p in enumerate(parts))


def readable_pair(left: str, right: str) -> str:
    """A pair of tokens (display texts) in the notation, as merges are written.

    >>> readable_pair(" langu", "age</w>")
    '·langu + age</w>'
    """
    return f"{readable_token(left)} + {readable_token(right)}"


class Box(NamedTuple):
    """What a token's box shows (plain text), its style class, and a tooltip note."""

    label: str
    style: str = ""  # "pb" bytes of part of a character, "uk" unknown, "nz" rewritten text
    note: str = ""
    ends_word: bool = False  # the label ends in the end-of-word marker, not in text "</w>"


def box(span: TokenSpan, text: str, claimed: int = 0, after: int | None = None) -> Box:
    """The box of ``span`` in ``text``. The characters before ``claimed`` are shown by the
    boxes before it already: a token on them is one more than the text has (Llama 2 reads a
    space after a special token as two ``▁``). ``after`` is where the next token begins: when
    that token reads this one's characters itself, a lone space here is one the tokenizer put
    before them (Llama 2 reads a tab as ``▁`` then ``<0x09>``), not what it read them as.

    >>> from bpe_core import TokenSpan as T
    >>> box(T(5, " Hello", b" Hello", 0, 5), "Hello")[:3]  # a prefix space the tokenizer added
    (' Hello', 'nz', "rewritten before BPE: the text has 'Hello', the model reads '·Hello'")
    >>> box(T(9, "est</w>", b"est", 3, 6), "lowest")  # the end-of-word marker stays
    Box(label='est</w>', style='', note='', ends_word=True)
    >>> box(T(9, "<A9></w>", b"\\xa9", 0, 1, partial=True), "é").label  # bytes end a word too
    '<A9></w>'
    >>> box(T(1, "<s>", b"<s>", 0, 0, special=True), "Hi").note  # a BOS
    "added by the tokenizer's post-processor: not in the text"
    >>> box(T(0, "[UNK]", b"", 3, 4), "hi 😀")[:3]
    ('[UNK]', 'uk', "unknown: the vocabulary cannot spell '😀', so the model reads only [UNK]")
    >>> box(T(7, " ", b" ", 0, 1), "\\tx", after=0).note
    "rewritten before BPE: the tokenizer puts '·' before '→', which the text has without it"
    """
    covered = text[span.start:span.end]
    if span.special and span.start == span.end:  # BOS, EOS: no text of the user's
        return Box(span.token, note="added by the tokenizer's post-processor: not in the text")
    # The marker, not a token of the text "</w>": what the token stands for, then the marker.
    marker = END_OF_WORD if span.token == show_bytes(span.bytes) + END_OF_WORD else ""
    if marker and not span.bytes:  # a bare </w>, wherever a file's offsets put it: no [UNK]
        return Box(marker, ends_word=True)
    if span.partial:
        return Box(show_bytes(span.bytes) + marker, "pb", ends_word=bool(marker))
    if not span.bytes and covered:  # [UNK]: the model keeps nothing of the text it replaced
        return Box(span.token, "uk", _unknown_note(span, covered))
    if span.bytes != covered.encode("utf-8", "surrogatepass"):  # NFKC, Lowercase, a prefix
        if after is not None and after < span.end and not span.bytes.strip(b" "):
            return _rewritten(span, covered, "the tokenizer puts {1} before {0}, which the text "
                                             "has without it", bool(marker))
        return _rewritten(span, covered, "the text has {}, the model reads {}", bool(marker))
    if span.start < claimed:  # one character read as several tokens, or a space added
        return _rewritten(span, covered, "the tokens before it cover {} already, and the model "
                                         "reads {} once more", bool(marker))
    if marker and span.token == covered + marker:  # the marker closes the word: shown
        return Box(span.token, ends_word=True)
    return Box(covered or span.token)


def _rewritten(span: TokenSpan, covered: str, note: str, ends_word: bool) -> Box:
    """The box of a token the model read otherwise than the text has it: ``note`` says how,
    given what the text has and what the model reads."""
    return Box(span.token, "nz", "rewritten before BPE: " + note.format(
        quoted(readable(covered)), quoted(readable_token(span.token))), ends_word)


def _unknown_note(span: TokenSpan, covered: str) -> str:
    """An unknown token's tooltip: what the model looked up, and the text's own characters where
    they were rewritten (NFKC reads "Ａ" as "A").

    >>> _unknown_note(TokenSpan(0, "<unk>", b"", 0, 1, unknown="a"), "Ａ")
    "unknown: the text has 'Ａ', rewritten before BPE as 'a', which the vocabulary cannot \
spell, so the model reads only <unk>"
    """
    seen, had = quoted(readable(span.unknown or covered)), quoted(readable(covered))
    if seen == had:
        return f"unknown: the vocabulary cannot spell {seen}, so the model reads only {span.token}"
    return (f"unknown: the text has {had}, rewritten before BPE as {seen}, which the "
            f"vocabulary cannot spell, so the model reads only {span.token}")


def boxes(spans: Sequence[TokenSpan], text: str) -> list[Box]:
    """The box of every span, in order (see :func:`box`)."""
    out, claimed = [], 0
    for k, span in enumerate(spans):
        out.append(box(span, text, claimed, spans[k + 1].start if k + 1 < len(spans) else None))
        if out[-1].style != "nz":  # the box shows these characters of the text
            claimed = max(claimed, span.end)
    return out


def window_boxes(spans: Sequence[TokenSpan], text: str, window: range) -> dict[int, Box]:
    """The boxes of the spans at the positions in ``window``, by position, as :func:`boxes`
    gives them. A box depends on the boxes before it, but only on the last few: those of a page
    are found from a little before it, not from the start of a long text."""
    lead = max(0, window.start - LEAD)  # (and one after it, which a box may depend on)
    return dict(zip(range(lead, window.stop), boxes(spans[lead:window.stop + 1], text)))


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
    """Escaped text in the notation; whitespace and invisible characters drawn when asked.

    In a box a newline is always drawn as ``↵`` (a newline token would be an empty box
    otherwise) and the line break itself is left to the caller, to come after the box.
    """
    parts = []
    for c in text:
        mark = (_MARKS if show_whitespace or (in_box and c == "\n") else _ALWAYS).get(c)
        if mark:
            parts.append(f'<span class="m">{mark}</span>')
            if c == "\n" and not in_box:
                parts.append("<br>")
        elif c == "\n":
            parts.append("" if in_box else "<br>")
        else:
            parts.append(html.escape(c))
    return "".join(parts)


_MARKER_HTML = f'<bdi dir="ltr">{html.escape(END_OF_WORD)}</bdi>'


def _box_html(shown: Box, show_whitespace: bool) -> str:
    """A box's label as HTML; runs of bytes in hex (of a token's own text) kept as they are.
    A label that begins with a combining mark gets a dotted circle to sit on, as Unicode's
    charts draw one: alone, the mark would join the box before it.

    >>> _box_html(Box("\\u0301"), True), _box_html(Box("e\\u0301"), True)
    ('<span class="m">◌</span>\\u0301', 'e\\u0301')
    >>> _box_html(Box("\\ufe0f"), True), _box_html(Box("\\ufe0f"), False)  # a mark by name
    ('<span class="m">⟨VS16⟩</span>', '<span class="m">◌</span>\\ufe0f')

    The end-of-word marker reads ``</w>`` left to right, at the end of a right-to-left word too
    (the bidi algorithm would turn it round, ``<w/>``):

    >>> _box_html(Box("ם</w>", ends_word=True), True)
    'ם<bdi dir="ltr">&lt;/w&gt;</bdi>'
    """
    if shown.ends_word:
        word = shown._replace(label=shown.label[:-len(END_OF_WORD)], ends_word=False)
        return _box_html(word, show_whitespace) + _MARKER_HTML
    first = shown.label[:1]
    drawn = first in (_MARKS if show_whitespace else _ALWAYS)  # named: ⟨VS16⟩ needs no circle
    base = '<span class="m">◌</span>' if first and not drawn and category(first)[0] == "M" else ""
    if not shown.style:  # the text itself
        return base + _text_html(shown.label, show_whitespace, in_box=True)
    parts = _HEX.split(shown.label)
    return base + "".join(html.escape(p) if k % 2 else _text_html(p, show_whitespace, in_box=True)
                          for k, p in enumerate(parts))


def tokens_html(spans: Sequence[TokenSpan], text: str, *, show_whitespace: bool = True,
                id_label: str = "id", details: Mapping[int, str] | Sequence[str] | None = None,
                marked: Collection[int] = (), marked_note: str = "",
                added: Collection[int] = (), label: str = "text", colours: str = "alternate",
                window: range | None = None, chosen: int | None = None,
                over: int | None = None, pickable: bool = False) -> str:
    """HTML for ``text`` cut into ``spans`` (as ``Tokenizer.spans`` gives them).

    Text between spans (what a whitespace pre-tokenizer drops) is shown plain, without a box.
    Each box has a tooltip with ``id_label`` and the id, the bytes in hex and the display text,
    plus the line ``details[k]`` when given, and carries its position ``k`` as ``data-i`` (for
    pages that pick a token by clicking it) and the characters it covers as ``data-s`` and
    ``data-e``, counted as a browser counts them (UTF-16). A box shows what :func:`box` says,
    with its note in the tooltip. Boxes at the positions in ``marked`` are outlined in red (say,
    where two encoders disagree), their tooltip saying why in ``marked_note`` (the outline is
    lost on a screen reader and on red-blind eyes); those in ``added`` are underlined in blue
    (added tokens, matched whole before BPE); special tokens are outlined in blue.
    ``label="id"`` shows the ids instead. ``colours="id"`` colours each box by its id alone
    (:func:`id_colour`) rather than keeping neighbours apart. Only the positions in ``window``
    are drawn (all by default); the box at ``chosen`` is framed, and those from ``over`` on are
    faded. Each line is laid out as the browser lays out its text, the bytes of a character
    split over several boxes left to right (see :mod:`ui.shared.bidi`). ``pickable`` boxes are
    buttons named by their token and id, for the keyboard and screen readers: the framed one
    (else the first) is in the Tab order, the page's script moves along them with the arrows.

    >>> re.findall(r' role=.*? data-s', tokens_html([TokenSpan(7, "hi", b"hi", 0, 2)], "hi",
    ...                                              pickable=True))
    [' role="button" tabindex="0" aria-label="token &#x27;hi&#x27;, id 7" data-s']
    """
    window = window if window is not None else range(len(spans))
    shown_boxes = window_boxes(spans, text, window)
    lead = max(0, window.start - LEAD)  # a colour depends on the few before it too
    near = spans[lead:window.stop]
    hues = dict(zip(range(lead, window.stop),
                    [f"c{i}" for i in _palette_indices(near)] if colours == "alternate"
                    else [f"h{id_colour(s.id)}" for s in near]))
    at16 = utf16_offsets(text)
    focus = chosen if chosen in window else window.start  # the box Tab reaches (pickable)
    # Each line's items: the html of one box, or of a few that split characters into bytes
    # (drawn in byte order, see bidi.byte_run), or of text between boxes; and the text covered.
    lines: list[list[tuple[list[str], str]]] = [[]]
    group: tuple[int, int, bool] | None = None  # the last item's boxes: start, end, partial

    def plain(part: str) -> None:  # text between boxes, its newlines ending lines
        for j, (raw, piece) in enumerate(zip(part.split("\n"),
                                             _text_html(part, show_whitespace).split("<br>"))):
            if j:
                lines.append([])
            if piece:
                lines[-1].append(([piece], raw))

    pos = max((s.end for s in spans[:window.start]), default=0)
    for k in window:
        span, shown = spans[k], shown_boxes[k]
        if span.start > pos and label == "text":
            plain(text[pos:span.start])
            group = None
        pos = max(pos, span.end)
        hex_bytes = span.bytes.hex(" ").upper() or "none"
        tip = f"{id_label} {span.id} · bytes {hex_bytes} · {quoted(readable_token(span.token))}"
        why = marked_note if k in marked else ""
        tip += "".join(f"\n{line}" for line in (shown.note, details[k] if details else "", why)
                       if line)
        kind = " ".join(filter(None, (f"t {hues[k]}", "sp" if span.special else shown.style,
                                      "ad" if k in added else "", "d" if k in marked else "",
                                      "on" if k == chosen else "",
                                      "ov" if over is not None and k >= over else "")))
        body = _box_html(shown, show_whitespace) if label == "text" else str(span.id)
        keys = ""
        if pickable:  # (named only then: a page draws up to 5,000 boxes)
            name = f"token {quoted(readable_token(span.token))}, {id_label} {span.id}"
            keys = (f'role="button" tabindex="{0 if k == focus else -1}" '
                    f'aria-label="{html.escape(name)}" ')
        box_html = (f'<span class="{kind}" title="{html.escape(tip)}" {keys}'
                    f'data-s="{at16[span.start]}" data-e="{at16[span.end]}" '
                    f'data-i="{k}">{body}</span>')
        line = lines[-1]
        if group and span.start < group[1] and (span.partial or group[2]):  # a shared character
            start, end = group[0], max(group[1], span.end)
            line[-1][0].append(box_html)
            line[-1] = (line[-1][0], text[start:end])
        else:
            start, end = span.start, span.end
            line.append(([box_html], text[start:end]))
        group = (start, end, span.partial)
        if label == "text" and "\n" in shown.label:
            lines.extend([] for _ in range(shown.label.count("\n")))
            group = None
    if pos < len(text) and label == "text" and window.stop >= len(spans):
        plain(text[pos:])
    return (f'<div class="bpe-tokens"><style>{CSS}</style>'
            + "".join(line_html([(byte_run(parts), covered) for parts, covered in line])
                      for line in lines) + "</div>")


# Markdown's special characters escaped; bidi controls and control characters in the notation, as
# readable writes them: an RLO in a name turned the rest of its sentence round.
_MARKDOWN_SPECIAL = str.maketrans({**{c: "\\" + c for c in "\\`*_{}[]()<>#+-.!|~:$"},
                                   **_ALWAYS})
#: Where Streamlit's markdown would turn plain text into a link (GitHub's autolinks: a web or
#: mail address), escaped or not: a word joiner (U+2060, invisible) goes in there. Addresses
#: of the two sites the app downloads from stay links: messages point there (a gated model's
#: licence page).
_AUTOLINK = re.compile(r"(?i)(?:https?(?!://(?:huggingface\.co|openaipublic\.blob\.core\."
                       r"windows\.net)/)|mailto|xmpp)(?=:)|www(?=\.)|(?=@)")


def md_escape(text: str) -> str:
    r"""``text`` shown literally inside Streamlit markdown (names, file names, tokens): no
    markup, and no address drawn as a link (a shared link's ``?corpus=https://…`` or a search
    for ``www.example.com`` must not offer the user a link); bidi and control characters in the
    notation, as :func:`readable` writes them (an RLO turned the rest of the sentence round).

    >>> md_escape("**x** [a](b)")
    '\\*\\*x\\*\\* \\[a\\]\\(b\\)'
    >>> md_escape("https://e.example a@b.co https://huggingface.co/x")
    'https\u2060\\://e\\.example a\u2060@b\\.co https\\://huggingface\\.co/x'
    >>> md_escape("my\u202enotes\x00.txt")
    'my⟨U+202E⟩notes⟨NUL⟩\\.txt'
    """
    return _AUTOLINK.sub("\\g<0>\u2060", text).translate(_MARKDOWN_SPECIAL)
