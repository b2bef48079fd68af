"""The Tokenize page's work as a worker process runs it (``ui.shared.jobs``): a long text's
tokens, under the active tokenizer or under the ones compared with it. Nothing here imports
Streamlit or pandas, so that a worker starts with only the engine loaded."""

from __future__ import annotations

from typing import Sequence

from bpe_core import Tokenizer, TokenSpan

from ..shared.jobs import Reporter

Spans = tuple[list[TokenSpan], list[TokenSpan] | None]


def encode(tok: Tokenizer, text: str, upto: int | None, method: str, *,
           report: Reporter) -> Spans:
    """The tokens by ``method``, and by rank priority when it differs (the page outlines where
    the two differ)."""
    report.progress(0.0, f"{len(text):,} characters")
    spans = tok.spans(text, upto=upto, method=method)
    report.progress(0.5 if method != "rank" else 1.0, f"{len(spans):,} tokens")
    return spans, None if method == "rank" else tok.spans(text, upto=upto, method="rank")


def encode_each(toks: Sequence[Tokenizer], text: str, method: str, *,
                report: Reporter) -> list[list[TokenSpan]]:
    """The tokens of ``text`` under each tokenizer in turn, with all its merges: the columns
    compared with the active tokenizer's."""
    done = []
    for k, tok in enumerate(toks):
        report.progress(k / len(toks), f"{k} of {len(toks)} tokenizers done")
        done.append(tok.spans(text, method=method))
    return done
