"""The Tokenize page's data: counts, the token table, tooltips, differences and the shareable URL.

Nothing here draws; the page and ``ui.tokenize.view`` do. Everything takes the ``TokenSpan`` list
that ``Tokenizer.spans`` gives:

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

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from bpe_core import Tokenizer, TokenSpan

from ..shared.annotate import how_made
from ..shared.tokens import boxes, readable, readable_token

#: Longest text (in UTF-8 bytes) that is put in the page's URL; longer texts are not shared.
MAX_URL_BYTES = 1000



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
        return (f"#{r} {token_text(tok, m.left_id)!r} + {token_text(tok, m.right_id)!r} → "
                f"{token_text(tok, m.token_id)!r}")

    if k == n:
        return f"All {n:,} merges, the last being {merge(n - 1)}."
    if k == 0:
        note = f"No merges: base symbols only. The first merge is {merge(0)}."
    else:
        note = f"Merges #0–#{k - 1}, the last being {merge(k - 1)}; next would be {merge(k)}."
    if tok.ignore_merges:
        note += (" Below all merges every piece is merged up from its symbols: the look-up of "
                 "whole pieces (ignore_merges) needs the full vocabulary.")
    return note


def token_table(tok: Tokenizer, spans: Sequence[TokenSpan], text: str) -> pd.DataFrame:
    """One row per token: position, id, token, bytes in hex, character span, how it was made."""
    return pd.DataFrame({
        "#": range(len(spans)),
        "id": [s.id for s in spans],
        "token": [readable_token(b.label) if b.style else readable(b.label)
                  for b in boxes(spans, text)],
        "bytes": [s.bytes.hex(" ").upper() for s in spans],
        "characters": [f"{s.start}–{s.end}" for s in spans],
        "how it was made": [how_made(tok, s.id) for s in spans],
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


def byte_bounds(spans: Sequence[TokenSpan]) -> list[tuple[int, int]]:
    """Each token's (first byte, end byte) offsets in the encoded text."""
    out, at = [], 0
    for s in spans:
        out.append((at, at + len(s.bytes)))
        at += len(s.bytes)
    return out


def differences(a: Sequence[TokenSpan], b: Sequence[TokenSpan]) -> tuple[set[int], set[int]]:
    """Positions of the tokens of ``a`` that ``b`` does not have, and of ``b`` that ``a`` lacks
    (a token is the same when it covers the same bytes of the same text).

    >>> from bpe_core import TokenSpan as T
    >>> differences([T(1, "ab", b"ab", 0, 2), T(2, "c", b"c", 2, 3)],
    ...             [T(3, "a", b"a", 0, 1), T(4, "bc", b"bc", 1, 3)])
    ({0, 1}, {0, 1})
    """
    ka, kb = byte_bounds(a), byte_bounds(b)
    sa, sb = set(ka), set(kb)
    return {i for i, k in enumerate(ka) if k not in sb}, {i for i, k in enumerate(kb) if k not in sa}


def url_params(text: str, tokenizer: str) -> dict[str, str]:
    """The query parameters that share this view: the tokenizer, and the text when short.

    >>> url_params("hi", "gpt2")
    {'tokenizer': 'gpt2', 'text': 'hi'}
    >>> url_params("x" * 5000, "gpt2")
    {'tokenizer': 'gpt2'}
    """
    params = {"tokenizer": tokenizer}
    if text and len(text.encode("utf-8", "surrogatepass")) <= MAX_URL_BYTES:
        params["text"] = text
    return params
