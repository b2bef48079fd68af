"""The Tokenize page's data: counts, the token table, tooltips, differences and the shareable URL.

Nothing here draws; the page, ``ui.tokenize.view`` and ``ui.tokenize.compare`` do. Everything
takes the ``TokenSpan`` list that ``Tokenizer.spans`` gives:

>>> from bpe_core import train
>>> tok = train("low lower lowest", unit="char", pretokenizer="space-prefix",
...             min_frequency=1, max_merges=2)
>>> spans = tok.spans("low lowest")
>>> [s.token for s in spans]
['low', ' ', 'low', 'e', 's', 't']
>>> text_counts("low lowest", spans)
TextCounts(tokens=6, characters=10, bytes=10, words=2)
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass
from typing import Mapping, Sequence

import pandas as pd

from bpe_core import Tokenizer, TokenSpan

from ..shared.annotate import how_made, merge_name
from ..shared.bidi import cell, quoted
from ..shared.tokens import readable, readable_token, window_boxes
from ..shared.wording import plural

#: Longest text (in UTF-8 bytes) that is put in the page's URL; longer texts are not shared.
MAX_URL_BYTES = 1000



def limits_note(config: Mapping, n_tokens: int, added: int = 0) -> str | None:
    """What Hugging Face's ``encode`` does to a text's ``n_tokens`` ids that this page does not,
    as the file's ``truncation`` and ``padding`` ask (kept in ``Tokenizer.config``), with the
    ``added`` special tokens (BOS/EOS) its post-processor puts around them, as that ``encode``
    does by default; None when it does nothing to them.

    >>> print(limits_note({"truncation": {"max_length": 3, "direction": "Left"}}, 5))
    Hugging Face's encode() keeps only the last 3 of these 5 tokens (the file's truncation); \
this page shows every token, as bpe_core's encode does.
    >>> print(limits_note({"truncation": {"max_length": 5}}, 5, added=1))
    Hugging Face's encode() keeps only the first 4 of these 5 tokens (the file's truncation to \
5, counting the 1 special token its post-processor adds); this page shows every token, as \
bpe_core's encode does.
    >>> limits_note({"truncation": {"max_length": 8}}, 5) is None
    True
    """
    notes, kept = [], n_tokens + added
    cut = config.get("truncation")
    at = cut.get("max_length") if isinstance(cut, Mapping) else None
    # Hugging Face truncates the text to max_length less the special tokens; where that is
    # below 0 its subtraction wraps around (in Rust's usize), and it cuts nothing.
    if isinstance(at, int) and added <= at < kept:
        end = "last" if cut.get("direction") == "Left" else "first"
        what = (f"only the {end} {at - added:,} of these {n_tokens:,} tokens" if at > added
                else f"none of these {n_tokens:,} tokens")
        why = (f" to {at:,}, counting the {plural(added, 'special token')} its post-processor "
               f"adds" if added else "")
        notes.append(f"keeps {what} (the file's truncation{why})")
        kept = at
    pad = config.get("padding")
    if isinstance(pad, Mapping):
        strategy, multiple = pad.get("strategy"), pad.get("pad_to_multiple_of")
        fixed = strategy.get("Fixed") if isinstance(strategy, Mapping) else None
        length = fixed if isinstance(fixed, int) else kept  # (BatchLongest: a batch of one)
        if isinstance(multiple, int) and multiple > 0 and length % multiple:
            length += multiple - length % multiple
        if length > kept:
            said = not notes and added  # (else the truncation said it)
            notes.append(f"pads them with {plural(length - kept, 'more token')} "
                         f"({quoted(str(pad.get('pad_token', '[PAD]')))}) to {length:,}"
                         + (f", counting the {plural(added, 'special token')} its "
                            f"post-processor adds" if said else ""))
    if not notes:
        return None
    return (f"Hugging Face's encode() {' and '.join(notes)}; this page shows every token, as "
            "bpe_core's encode does.")


@dataclass(frozen=True)
class TextCounts:
    """How long a text is, in tokens, characters, bytes and space-separated words."""

    tokens: int
    characters: int
    bytes: int
    words: int

    @property
    def chars_per_token(self) -> float:
        return self.characters / self.tokens if self.tokens else 0.0

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / self.tokens if self.tokens else 0.0


def text_counts(text: str, spans: Sequence[TokenSpan]) -> TextCounts:
    """Counts of ``text`` cut into ``spans``; words are runs of non-space characters."""
    return TextCounts(len(spans), len(text), len(text.encode("utf-8", "surrogatepass")),
                      len(text.split()))


def merge_step_note(tok: Tokenizer, k: int) -> str:
    """What the step slider at ``k`` means: the last merge in use and the next one left out."""
    n = len(tok.merges)

    def merge(r: int) -> str:
        m = tok.merges[r]
        return (f"{merge_name(r)}: {quoted(token_text(tok, m.left_id))} + "
                f"{quoted(token_text(tok, m.right_id))} → {quoted(token_text(tok, m.token_id))}")

    if k == n:
        if n == 1:
            return f"The one merge, {merge(0)}." + _stages(tok, k)
        return f"All {n:,} merges, the last being {merge(n - 1)}." + _stages(tok, k)
    if k == 0:
        note = f"No merges: base symbols only. The first would be {merge(0)}."
    elif k == 1:
        note = f"The first merge only, {merge(0)}; next would be {merge(1)}."
    else:
        note = (f"Merges 1–{k:,} (ranks 0–{k - 1:,}), the last being {merge(k - 1)}; next "
                f"would be {merge(k)}.")
    if tok.ignore_merges:
        note += (" Below all merges every piece is merged up from its symbols: the look-up of "
                 "whole pieces (ignore_merges) needs the full vocabulary.")
    return note + _stages(tok, k)


def _stages(tok: Tokenizer, k: int) -> str:
    """For a SuperBPE tokenizer, which merges are its stage 2's superwords, and how many of
    them the first ``k`` hold; "" for any other (or one whose stage 2 made none)."""
    first = tok.config.get("stage1_merges") if tok.config.get("method") == "superbpe" else None
    n = len(tok.merges)
    if not isinstance(first, int) or not 0 <= first < n:
        return ""
    used = max(0, k - first)
    return (f" SuperBPE: merges 1–{first:,} are stage 1 (inside words), {first + 1:,}–{n:,} "
            f"stage 2 (superwords across spaces), {used:,} of them in use here.")


def token_table(tok: Tokenizer, spans: Sequence[TokenSpan], text: str, *,
                window: range | None = None) -> pd.DataFrame:
    """One row per token (of those at the positions in ``window``, all by default), in order:
    id, token, bytes in hex, character span, how it was made. (No column of positions: the
    rows are in order, and a sixth column left too little room for how each was made.)"""
    window = window if window is not None else range(len(spans))
    shown, part = window_boxes(spans, text, window), [spans[k] for k in window]
    return pd.DataFrame({
        "id": [s.id for s in part],
        "token": [cell(readable_token(shown[k].label) if shown[k].style
                       else readable(shown[k].label)) for k in window],
        "bytes": [s.bytes.hex(" ").upper() for s in part],
        "characters": [f"{s.start}–{s.end}" for s in part],
        "how it was made": [how_made(tok, s.id) for s in part],
    })


def occurrences(spans: Sequence[TokenSpan]) -> dict[int, tuple[int, int]]:
    """Token id -> (position of its first occurrence, occurrences), in order of first appearance.

    >>> from bpe_core import TokenSpan as T
    >>> occurrences([T(5, "a", b"a", 0, 1), T(6, "b", b"b", 1, 2), T(5, "a", b"a", 2, 3)])
    {5: (0, 2), 6: (1, 1)}
    """
    out: dict[int, tuple[int, int]] = {}
    for k, s in enumerate(spans):
        first, n = out.get(s.id, (k, 0))
        out[s.id] = (first, n + 1)
    return out


def token_text(tok: Tokenizer, token_id: int) -> str:
    """A token's display text with whitespace made visible and invisible characters named."""
    return readable_token(tok.display(token_id))


def choice_label(tok: Tokenizer, token_id: int) -> str:
    """A token as the token picker lists it: ``·low (id 261)``. It depends on the token alone,
    so the picked token stays picked while the text around it changes."""
    return f"{token_text(tok, token_id)} (id {token_id})"


def cut_keys(spans: Sequence[TokenSpan]) -> list[tuple[int, int, bytes]]:
    """Each token's place in the text, to compare two ways of cutting it (two encoders, or two
    tokenizers that read the text differently: a ``▁`` for a space, a BOS): the characters it
    covers, and for a token that covers part of a character, or none, its bytes too.

    >>> from bpe_core import TokenSpan as T
    >>> cut_keys([T(1, "<s>", b"<s>", 0, 0, special=True), T(2, "▁hi", "▁hi".encode(), 0, 2)])
    [(0, 0, b'<s>'), (0, 2, b'')]
    """
    return [(s.start, s.end, s.bytes if s.partial or s.start == s.end else b"") for s in spans]


def differences(a: Sequence[TokenSpan], b: Sequence[TokenSpan]) -> tuple[set[int], set[int]]:
    """Positions of the tokens of ``a`` that ``b`` does not have, and of ``b`` that ``a`` lacks
    (a token is the same when it lies at the same place in the text: see :func:`cut_keys`).

    >>> from bpe_core import TokenSpan as T
    >>> differences([T(1, "ab", b"ab", 0, 2), T(2, "c", b"c", 2, 3)],
    ...             [T(3, "a", b"a", 0, 1), T(4, "bc", b"bc", 1, 3)])
    ({0, 1}, {0, 1})
    """
    ka, kb = cut_keys(a), cut_keys(b)
    sa, sb = set(ka), set(kb)
    return ({i for i, k in enumerate(ka) if k not in sb},
            {i for i, k in enumerate(kb) if k not in sa})


def outlines(columns: list) -> dict[int, set[int]]:
    """Per column (by position), the tokens to outline: in the first, those some other column
    lacks; in the others, those the first lacks. A column that could not load or encode the text
    (a message) has none and is left out of the comparison; without the first, none has any.

    >>> from bpe_core import TokenSpan as T
    >>> ab, a_b = [T(1, "ab", b"ab", 0, 2)], [T(2, "a", b"a", 0, 1), T(3, "b", b"b", 1, 2)]
    >>> outlines([ab, a_b, "could not load", ab]), outlines(["could not encode", ab])
    ({0: {0}, 1: {0, 1}, 3: set()}, {})
    """
    first = columns[0]
    if isinstance(first, str):
        return {}
    out: dict[int, set[int]] = {0: set()}
    for k, spans in enumerate(columns[1:], 1):
        if isinstance(spans, str):
            continue
        lacking, extra = differences(first, spans)
        out[0] |= lacking
        out[k] = extra
    return out


@dataclass(frozen=True)
class Shared:
    """What a link to the page reproduces: the text, the tokenizer and every view option.

    ``merges`` is the number of merges used (None for all), ``limit`` the token budget.
    """

    text: str
    tokenizer: str
    view: str = "text"  # "text", "ids" or "table"
    whitespace: bool = True
    merges: int | None = None
    encoder: str = "rank"
    colours: str = "alternate"  # or "id"
    limit: int | None = None
    compare: tuple[str, ...] = ()


_DEFAULTS = Shared("", "")


def url_params(shared: Shared) -> dict[str, str | list[str]]:
    """The query parameters of a link to ``shared``: what differs from the defaults, and the
    text when it is short enough for an address.

    >>> url_params(Shared("hi", "gpt2", view="ids", whitespace=False, compare=("a", "b")))
    {'tokenizer': 'gpt2', 'text': 'hi', 'view': 'ids', 'whitespace': 'off', 'compare': ['a', 'b']}
    >>> url_params(Shared("x" * 5000, "gpt2", merges=0, limit=100))
    {'tokenizer': 'gpt2', 'merges': '0', 'limit': '100'}
    """
    params: dict[str, str | list[str]] = {"tokenizer": shared.tokenizer}
    if shared.text and len(shared.text.encode("utf-8", "surrogatepass")) <= MAX_URL_BYTES:
        params["text"] = shared.text
    for key in ("view", "whitespace", "merges", "encoder", "colours", "limit", "compare"):
        value = getattr(shared, key)
        if value != getattr(_DEFAULTS, key):
            params[key] = (list(value) if key == "compare" else "on" if value is True
                           else "off" if value is False else str(value))
    return params


def from_url(params: Mapping[str, list[str]]) -> dict[str, object]:
    """The options a link's query parameters (name -> values) set, checked: what is not a valid
    value is left out, so a mangled link still opens.

    >>> from_url({"view": ["ids"], "whitespace": ["off"], "merges": ["12"], "limit": ["x"],
    ...           "compare": ["a", "b"], "colours": ["plaid"]})
    {'view': 'ids', 'whitespace': False, 'merges': 12, 'compare': ('a', 'b')}
    """
    def last(key: str) -> str | None:
        return params[key][-1] if params.get(key) else None

    out: dict[str, object] = {}
    checks = {"view": ("text", "ids", "table"), "encoder": ("rank", "merge-order", "longest-match"),
              "colours": ("alternate", "id")}
    for key, allowed in checks.items():
        if last(key) in allowed:
            out[key] = last(key)
    if last("whitespace") in ("on", "off"):
        out["whitespace"] = last("whitespace") == "on"
    for key in ("merges", "limit"):
        value = last(key)
        if value is not None and value.isdigit() and (key == "merges" or int(value) > 0):
            out[key] = int(value)
    if params.get("compare"):
        out["compare"] = tuple(params["compare"])
    return out


# --- long texts ------------------------------------------------------------------------------


def pages(n: int, size: int) -> list[range]:
    """Positions ``0..n-1`` in pages of ``size`` tokens.

    >>> pages(5, 2), pages(0, 2)
    ([range(0, 2), range(2, 4), range(4, 5)], [range(0, 0)])
    """
    return [range(a, min(a + size, n)) for a in range(0, n, size)] or [range(0, 0)]


def covering(spans: Sequence[TokenSpan], start: int, end: int) -> range:
    """The positions of the tokens that begin in characters ``start..end-1`` (another
    tokenizer's share of the characters a page shows).

    >>> from bpe_core import TokenSpan as T
    >>> covering([T(1, "ab", b"ab", 0, 2), T(2, "c", b"c", 2, 3), T(3, "d", b"d", 3, 4)], 2, 4)
    range(1, 3)
    """
    starts = [s.start for s in spans]
    return range(bisect_left(starts, start), bisect_left(starts, end))


def budget_note(text: str, spans: Sequence[TokenSpan], limit: int, *,
                page: int | None = None) -> str:
    """How the text fares against a token budget, and where it crosses it (on ``page`` of
    the tokens, when they are shown in pages).

    >>> from bpe_core import TokenSpan as T
    >>> spans = [T(1, "ab", b"ab", 0, 2), T(2, " c", b" c", 2, 4), T(3, "d", b"d", 4, 5)]
    >>> for sentence in budget_note("ab cd", spans, 2).split(". "):
    ...     print(sentence)
    3 tokens: 1 over the budget of 2
    The budget ends at character 4, before 'd'; the faded tokens are past it.
    >>> budget_note("ab cd", spans, 5), budget_note("ab", spans[:1], 5)
    ('3 tokens: 2 left of the budget of 5.', '1 token: 4 left of the budget of 5.')

    A budget that ends between the bytes of one character (a model cut there reads a broken
    character) says so:

    >>> cut = [T(1, "<E4>", b"\\xe4", 0, 1, True), T(2, "<B8 AD>", b"\\xb8\\xad", 0, 1, True)]
    >>> budget_note("中", cut, 1).split(". ")[1]
    "The budget ends inside character 0, '中', some of whose bytes are past it; the faded tokens \
are past it."

    So does one that ends within what a normalizer made of one character (NFKC: ㌀ → アパート):

    >>> nfkc = [T(1, "ア", "ア".encode(), 0, 1), T(2, "パート", "パート".encode(), 0, 1)]
    >>> budget_note("㌀", nfkc, 1).split(". ")[1]
    "The budget ends inside character 0, '㌀', which the tokenizer's normalizer expands into \
tokens on both sides of it; the faded tokens are past it."
    """
    n = len(spans)
    if n <= limit:
        return f"{plural(n, 'token')}: {limit - n:,} left of the budget of {limit:,}."
    cut = spans[limit].start
    where = f" (page {page:,})" if page else ""
    if spans[limit - 1].end > cut:  # one character's tokens on both sides of the budget
        # Its bytes (a model cut there reads a broken character), or the characters a
        # normalizer made of it (NFKC turns ㌀ into アパート): not all of it is past.
        split = ("some of whose bytes are past it" if spans[limit].partial else
                 "which the tokenizer's normalizer expands into tokens on both sides of it")
        ends = f"inside character {cut:,}, {readable(text[cut])!r}, {split}{where}"
    else:
        ends = f"at character {cut:,}, before {readable(text[cut:cut + 20])!r}{where}"
    return (f"{plural(n, 'token')}: {n - limit:,} over the budget of {limit:,}. The budget ends "
            f"{ends}; the faded tokens are past it.")


def id_lists(spans: Sequence[TokenSpan]) -> tuple[str, str]:
    """The token ids as a Python list and as plain numbers, to copy.

    >>> from bpe_core import TokenSpan as T
    >>> id_lists([T(1, "a", b"a", 0, 1), T(20, "b", b"b", 1, 2)])
    ('[1, 20]', '1 20')
    """
    ids = [str(s.id) for s in spans]
    return f"[{', '.join(ids)}]", " ".join(ids)
