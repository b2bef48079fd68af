"""Token boxes with the notes every page gives them: how each token was made, and a legend.

A token's note says where it comes from, so a reader can tell a merge from a base symbol:

>>> from bpe_core import train
>>> tok = train("low lower lowest", unit="char", pretokenizer="space-prefix",
...             min_frequency=1, max_merges=2)
>>> how_made(tok, tok.encode("low")[0])
"merge 2 (rank 1): 'lo' + 'w'"
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Collection, Sequence

from bpe_core import Tokenizer, TokenSpan

from . import wording
from .bidi import quoted
from .tokens import boxes, md_escape, readable, readable_token, tokens_html

KIND_NAMES = {"byte": "base byte", "char": "base character", "unk": "unknown character",
              "eow": "end-of-word marker", "special": "special token", "added": "added token",
              "vocab": "in the vocabulary, made by no merge"}


def how_made(tok: Tokenizer, token_id: int) -> str:
    """Where a token comes from, in words: ``merge 4 (rank 3): 'l' + 'o'`` or ``base byte``:
    merges counted from 1, as the Train page counts them, and their rank (from 0, their place
    in Hugging Face's merges list; tiktoken ranks tokens, the 256 bytes first) beside."""
    m = tok.merge_for(token_id)
    kind = tok.kind(token_id)
    if m is None:
        if kind == "byte" and tok.unit == "char":
            return "byte fallback"  # a <0xNN> token: a character the vocabulary lacks, in bytes
        return KIND_NAMES.get(kind, kind)
    made = (f"{merge_name(m.rank)}: {quoted(readable_token(m.left))} + "
            f"{quoted(readable_token(m.right))}")
    return f"{KIND_NAMES[kind]}, also made by {made}" if kind in ("added", "special") else made


def merge_name(rank: int) -> str:
    """``merge 4 (rank 3)``: the merge of ``rank`` counted from 1, its rank beside."""
    return f"merge {rank + 1:,} (rank {rank:,})"


def tooltip(tok: Tokenizer, token_id: int) -> str:
    """The tooltip line about how a token was learned: rank and pair count when known."""
    m = tok.merge_for(token_id)
    if m is None:
        return how_made(tok, token_id)
    seen = f"; the pair was seen {wording.times(m.count)}" if m.count else ""
    return f"{how_made(tok, token_id)}{seen}"


def details(tok: Tokenizer, span: TokenSpan, text: str) -> str:
    """A box's tooltip line: how its token was learned, and for a token holding part of a
    character, which character (named, since it may be invisible)."""
    line = tooltip(tok, span.id)
    if span.partial and span.end > span.start:
        covered = text[span.start:span.end]
        read = read_characters(tok, span, covered)
        line += "; part of " + " and ".join(
            f"{readable(c)!r} (U+{ord(c):04X}, {len(c.encode('utf-8'))} bytes)"
            for c in read or split_characters(span, text))
        if read:
            line += f", which the text has as {quoted(readable(covered))}, rewritten before BPE"
    return line


def read_characters(tok: Tokenizer, span: TokenSpan, covered: str) -> list[str]:
    """The characters a token holds part of, as the model reads them, where its normalizer
    rewrote the text it ``covered`` so that the token's bytes are not in it: NFKC reads "ｶﾞ"
    as "ガ", NFC a syllable typed as its jamo as the syllable (macOS writes Korean so). [] when
    the bytes are the text's own (then :func:`split_characters` names them).

    >>> from dataclasses import replace
    >>> from bpe_core import normalizers, train
    >>> tok = replace(train("ab", unit="byte", max_merges=0), normalizer=normalizers.NFKC())
    >>> read_characters(tok, TokenSpan(1, "", "ガ".encode()[1:], 0, 2, True), "ｶﾞ")
    ['ガ']
    """
    if tok.normalizer is None or span.bytes in covered.encode("utf-8", "surrogatepass"):
        return []
    read = tok.normalizer.normalize_str(covered)
    data = read.encode("utf-8", "surrogatepass")
    at = data.find(span.bytes)
    if at < 0:
        return []
    # Each character's first byte in ``data``: the token's bytes begin or end inside these.
    starts = list(accumulate((len(c.encode("utf-8", "surrogatepass")) for c in read),
                             initial=0))
    first = bisect_right(starts, at) - 1
    last = bisect_right(starts, at + len(span.bytes) - 1) - 1
    cut = {first} if starts[first] != at else set()
    cut |= {last} if starts[last + 1] != at + len(span.bytes) else set()
    return [read[k] for k in sorted(cut)]


def split_characters(span: TokenSpan, text: str) -> list[str]:
    """The characters of ``text`` that a token holds only some bytes of: the one its bytes
    begin inside (a continuation byte first) and the one they end inside (the last
    character's bytes cut short). A token " <F0 9F>" holds a space whole and the start of an
    emoji: the emoji is named, not the space.

    >>> split_characters(TokenSpan(1, "", " \U0001f3f3".encode()[:3], 0, 2, True), " \U0001f3f3")
    ['\U0001f3f3']
    >>> split_characters(TokenSpan(1, "", "中".encode()[1:], 0, 1, True), "中")
    ['中']
    """
    data, at = span.bytes, []
    if data and 0x80 <= data[0] < 0xC0:
        at.append(span.start)
    lead = len(data) - 1
    while lead >= 0 and 0x80 <= data[lead] < 0xC0:
        lead -= 1
    if lead >= 0 and data[lead] >= 0xC0:  # a character's first byte: are all its bytes here?
        size = 2 if data[lead] < 0xE0 else 3 if data[lead] < 0xF0 else 4
        if len(data) - lead < size and span.end - 1 not in at:
            at.append(span.end - 1)
    return [text[k] for k in at if 0 <= k < len(text)] or [text[span.start]]


def coloured_html(tok: Tokenizer, spans: Sequence[TokenSpan], text: str, *,
                  show_whitespace: bool = True, marked: Collection[int] = (),
                  marked_note: str = "", label: str = "text", colours: str = "alternate",
                  window: range | None = None, chosen: int | None = None,
                  over: int | None = None, pickable: bool = False) -> str:
    """The colouring HTML with this page's tooltips (merge rank, pair count, split characters);
    only the tokens at the positions in ``window`` (all by default) are drawn. The options are
    those of :func:`~ui.shared.tokens.tokens_html`."""
    window = window if window is not None else range(len(spans))
    added = {k for k in window if tok.kind(spans[k].id) == "added"}
    return tokens_html(spans, text, show_whitespace=show_whitespace,
                       details={k: details(tok, spans[k], text) for k in window}, marked=marked,
                       marked_note=marked_note, added=added, label=label, colours=colours,
                       window=window, chosen=chosen, over=over, pickable=pickable)


#: What each box style means, in the order the legend lists them.
LEGEND = {"sp": "blue frame: a special token", "ad": "blue underline: an added token, "
          "found whole before BPE runs", "nz": "dotted underline: what the model reads where "
          "the text differs (normalized, or a space the tokenizer adds)",
          "pb": "<hex>: bytes of part of a character", "uk": "dotted frame: text the "
          "vocabulary cannot spell, read as the unknown token"}


def legend(tok: Tokenizer, spans: Sequence[TokenSpan], text: str, *,
           window: range | None = None) -> str:
    """The meaning of the box styles that ``spans`` use (those at the positions in ``window``,
    all by default), as one line ("" when none does)."""
    if window is not None:
        spans = spans[window.start:window.stop]
    used = {b.style for b in boxes(spans, text)}
    used |= {"sp"} if any(s.special for s in spans) else set()
    used |= {"ad"} if any(tok.kind(s.id) == "added" for s in spans) else set()
    line = " · ".join(v for k, v in LEGEND.items() if k in used)
    return line[:1].upper() + line[1:]


def md_literal(text: str) -> str:
    r"""``text`` escaped so that Markdown shows it as it is.

    >>> md_literal("**x** [a](b)")
    '\\*\\*x\\*\\* \\[a\\]\\(b\\)'
    """
    return md_escape(readable(text, whitespace=False))


def inline_code(text: str) -> str:
    """``text`` as Markdown inline code, fenced with more backticks than it holds in a row.

    >>> inline_code("ing"), inline_code("a`b")
    ('`ing`', '`` a`b ``')
    >>> inline_code(" [a-z]+ ")  # a regex with a space at each end keeps them
    '`  [a-z]+  `'
    """
    runs = re.findall("`+", text)
    fence = "`" * (max(map(len, runs), default=0) + 1)
    # Markdown strips one space each side when both sides have one: `` `x `` shows `x, and
    # ` [a-z]+ ` showed [a-z]+ (a custom regex named in a download's help).
    spaced = text[:1] == text[-1:] == " " and text.strip(" ")
    pad = " " if runs or spaced else ""
    return f"{fence}{pad}{text}{pad}{fence}"
