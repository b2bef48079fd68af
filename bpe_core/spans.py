"""Where each token lies in the text: the characters of the ORIGINAL text each token covers.

Normalizers and pre-tokenizers rewrite the text (NFKC turns "ﬁ" into "fi", Metaspace turns
spaces into "▁", ByteLevel turns "é" into two byte characters), so every stage carries, beside
its text, the original character range of each of its characters. A token covers the union of
its characters' ranges. A byte-level token may hold part of a character: "é" is two bytes, and
a tokenizer that never merged them shows it as two tokens, each *partial*, both covering it.

>>> from bpe_core import train
>>> tok = train("hug", unit="byte", pretokenizer="gpt2", max_merges=0, min_frequency=1)
>>> [(s.token, s.start, s.end, s.partial) for s in tok.spans("hé")]
[('h', 0, 1, False), ('<C3>', 1, 2, True), ('<A9>', 1, 2, True)]
"""

from __future__ import annotations

from itertools import accumulate
from typing import NamedTuple, Sequence

Ranges = list[tuple[int, int]]


class TokenSpan(NamedTuple):
    """A token as it lies in the input: ``text[start:end]`` (character offsets) is what it covers.

    ``partial`` is True when the token holds only part of a character's UTF-8 bytes; then its
    neighbour covers the same character too. ``bytes`` are the bytes the token stands for.
    ``unknown``, for the unknown token (``[UNK]``), is what the model looked up and could not
    spell: the text after the normalizer, which may differ from what the span covers (NFKC
    reads "Ａ" as "A", Lowercase "A" as "a").

    A named tuple, not a dataclass: ``Tokenizer.spans`` makes one per token, and a tuple is made
    about six times faster (17,000 of them: 6 ms against 38 ms).
    """

    id: int
    token: str  # display text
    bytes: bytes
    start: int
    end: int
    partial: bool = False
    special: bool = False
    unknown: str = ""


def identity(start: int, n: int) -> Ranges:
    """The ranges of ``n`` characters copied unchanged from offset ``start``."""
    return list(zip(range(start, start + n), range(start + 1, start + n + 1)))


def token_spans(plan, view, text: str, limit: int | None, split_special: bool,
                piece_encoder) -> list[TokenSpan]:
    """The spans of ``text``'s tokens, through every stage of ``plan`` (an ``encoding.Plan``)."""
    out: list[TokenSpan] = []
    normalizer = plan.normalizer
    for start, end, tid in plan.added.split_raw(text, split_special_tokens=split_special):
        if tid is not None:
            out.append(_added(view, tid, start, end))
            continue
        seg, ranges = text[start:end], identity(start, end - start)
        if normalizer is not None:
            seg, ranges = normalizer.normalize_aligned(seg, ranges)
        for s, e, t in plan.added.split_normalized(seg, split_special_tokens=split_special):
            if t is not None:
                out.append(_added(view, t, *_cover(ranges, s, e)))
                continue
            pieces = [(seg[s:e], ranges[s:e])] if e > s else []
            for stage in plan.head:
                pieces = stage.split_aligned(pieces)
            for piece, piece_ranges in pieces:
                if piece_encoder is None:
                    ids = plan.cache(limit)[piece]
                else:
                    ids = piece_encoder(plan.to_model(piece), limit)
                out += _piece(plan, view, piece, piece_ranges, ids, limit)
    return out


def with_template(post_processor, view, spans: list[TokenSpan], end: int) -> list[TokenSpan]:
    """``spans`` with the tokens a post-processor adds (BOS, EOS), which cover no text, at the
    text's two ends (``end`` is its length). They are special, as Hugging Face's
    ``special_tokens_mask`` has them, even where the file lists one as a plain added token
    (Command R+'s ``<|END_OF_TURN_TOKEN|>``)."""
    if post_processor is None:
        return spans
    before, after = post_processor.wrap()
    return [*(_added(view, i, 0, 0, True) for i in before), *spans,
            *(_added(view, i, end, end, True) for i in after)]


def _added(view, i: int, start: int, end: int, special: bool = False) -> TokenSpan:
    return TokenSpan(i, view.display(i), view.bytes(i), start, end,
                     special=special or view.raw(i) in view.special_texts)


def _cover(ranges: Ranges, lo: int, hi: int) -> tuple[int, int]:
    """The original range of characters ``lo:hi`` (an empty one sits where ``lo`` is)."""
    if hi > lo:
        return ranges[lo][0], max(ranges[hi - 1][1], ranges[lo][0])
    at = ranges[lo - 1][1] if lo else (ranges[0][0] if ranges else 0)
    return at, at


def _piece(plan, view, piece: str, ranges: Ranges, ids: Sequence[int],
           limit: int | None) -> list[TokenSpan]:
    """Spans of one head piece's tokens. Each token covers some *units* of the piece as the
    model saw it: its bytes on the byte path, its characters after the tail stages otherwise."""
    fields = view.token_fields(ids)
    if plan.byte_table is not None:
        units = ranges if piece.isascii() else [
            r for ch, r in zip(piece, ranges) for _ in range(len(ch.encode("utf-8")))]
        # One byte a character of the token as the vocabulary spells it (its bytes as the view
        # reads them are the UTF-8 of those characters where no ByteLevel decoder is given).
        bounds = _consecutive([len(view.raw(i)) for i in ids])
        model_piece = ""  # bytes: every one is known
    else:
        model_piece, units = piece, ranges
        for stage in plan.tail:
            (model_piece, units), = stage.split_aligned([(model_piece, units)])
        bounds = _bounds(plan, view, model_piece, ids, limit)
    n = len(units)
    out = [TokenSpan(i, shown, data, *_cover(units, min(lo, n), min(hi, n)), partial)
           for i, (shown, data, partial), (lo, hi) in zip(ids, fields, bounds)]
    unk = view.unk_id
    if model_piece and unk is not None and unk in ids:  # what it looked up (seldom: after)
        for k, (lo, hi) in enumerate(bounds):
            if ids[k] == unk:
                out[k] = TokenSpan(*out[k][:-1], model_piece[lo:hi])
    return out


def _consecutive(lengths: Sequence[int]) -> list[tuple[int, int]]:
    ends = list(accumulate(lengths))
    return list(zip([0, *ends], ends))


def _bounds(plan, view, model_piece: str, ids: Sequence[int], limit: int | None
            ) -> list[tuple[int, int]]:
    """The characters ``(lo, hi)`` of ``model_piece`` each token covers."""
    raws = [view.raw(i) or "" for i in ids]
    if "".join(raws) == model_piece:
        return _consecutive(list(map(len, raws)))  # the common case: the tokens spell the piece
    # Unknown characters, byte fallback, prefixes or suffixes: ask the model where its tokens
    # lie (in UTF-8 bytes of the piece). A byte-fallback token covers its whole character.
    found = plan.model.tokenize_with_offsets(model_piece, limit)
    if [i for i, _, _ in found] == list(ids):
        byte_bounds = [(lo, hi) for _, lo, hi in found]
    else:  # another encoding method
        byte_bounds = _symbol_bounds(plan.model, view, model_piece, ids)
    char_of = [k for k, c in enumerate(model_piece) for _ in range(len(c.encode("utf-8")))]
    char_of.append(len(model_piece))
    return [(char_of[lo], char_of[hi - 1] + 1 if hi > lo else char_of[lo])
            for lo, hi in byte_bounds]


def _symbol_bounds(model, view, piece: str, ids: Sequence[int]) -> list[tuple[int, int]]:
    """The UTF-8 bytes of ``piece`` each token covers, for encoders that join the piece's first
    symbols by merges (replay, longest match): a token joins as many symbols as its merge tree
    has leaves, and covers what they stand for."""
    _, offsets = model.symbols_with_offsets(piece)
    end = offsets[-1][1] if offsets else 0
    out, k = [], 0
    for i in ids:
        n = len(view.merge_tree(i).leaves())
        joined = offsets[k:k + n]
        out.append((min(a for a, _ in joined), max(b for _, b in joined)) if joined
                   else (end, end))
        k += n
    return out
