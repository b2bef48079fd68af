"""Long texts are tokenized in a worker process (:mod:`ui.shared.jobs`), not in the session's
thread: a pasted book never holds up the other sessions of the server, and closing the tab or
pasting another text stops the work at once. Short texts stay inline, so typing stays instant.

The job (``jobs.encode``) returns the tokens of the text, and with another encoder than rank
priority those of rank priority too. The tokenizers compared with the active one get one job
for them all (``jobs.encode_each``), beside it: the two run at once on two cores.
"""

from __future__ import annotations

import hashlib
from typing import Sequence

from bpe_core import PatternError, Tokenizer, TokenSpan

from ..shared.background import forget, outcome
from ..shared.jobs import Reporter
from ..shared.slow_regex import sentence
from .jobs import Spans, encode, encode_each

#: Texts at least this long (in characters) are tokenized in a worker process.
BACKGROUND_CHARS = 100_000
JOB = "tok_job"  # session key: (what the job encodes, the job), see work.job_for
COMPARE_JOB = "tok_compare_job"  # the same for the compared tokenizers' job


def spans(tok: Tokenizer, text: str, upto: int | None, method: str) -> Spans | None:
    """The tokens of ``text`` (and rank priority's, for another method): at once for a short
    text; for a long one from a worker, None until it is done (its progress, or why it
    stopped, is drawn here). Inline, a regex of the tokenizer's file that is stopped raises
    ``PatternError``."""
    if len(text) < BACKGROUND_CHARS:
        forget(JOB)  # a long text's work under way is replaced: its worker stops
        return encode(tok, text, upto, method, report=Reporter(None))
    key = (tok.fingerprint(), _digest(text), upto, method)
    return outcome(JOB, key, "tokenize", encode, tok, text, upto, method,
                   what=f"Tokenizing {len(text):,} characters")


def compared(toks: Sequence[Tokenizer], text: str,
             method: str) -> list[list[TokenSpan] | str] | None:
    """The tokens of ``text`` under each of ``toks`` (all their merges), in order, or for a
    tokenizer whose file's regex was stopped the sentence saying so: at once while the
    characters to encode (the text's times the tokenizers) stay under :data:`BACKGROUND_CHARS`;
    past it from one worker for them all, None until it is done (its progress, or why it
    stopped, is drawn here)."""
    if len(text) * len(toks) < BACKGROUND_CHARS:
        forget(COMPARE_JOB)  # (a long text's, replaced)
        encoded = encode_each(toks, text, method, report=Reporter(None))
    else:
        key = (tuple(t.fingerprint() for t in toks), _digest(text), method)
        n = len(toks)
        encoded = outcome(COMPARE_JOB, key, "tokenize-compare", encode_each, list(toks), text,
                          method, what=f"Tokenizing {len(text):,} characters with {n} more "
                                       f"tokenizer{'s' * (n > 1)}")
    return None if encoded is None else [
        sentence(found) if isinstance(found, PatternError) else found for found in encoded]


def not_compared() -> None:
    """Nothing is compared any more: the compared tokenizers' work under way stops."""
    forget(COMPARE_JOB)


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass")).digest()
