"""Long texts are tokenized in a worker process (:mod:`ui.shared.jobs`), not in the session's
thread: a pasted book never holds up the other sessions of the server, and closing the tab or
pasting another text stops the work at once. Short texts stay inline, so typing stays instant.

The job (``jobs.encode``) returns the tokens of the text, and with another encoder than rank
priority those of rank priority too.
"""

from __future__ import annotations

import hashlib

from bpe_core import Tokenizer

from ..shared.background import outcome
from ..shared.jobs import Reporter
from ..shared.slow_regex import attempt
from .jobs import Spans, encode

#: Texts at least this long (in characters) are tokenized in a worker process.
BACKGROUND_CHARS = 100_000
JOB = "tok_job"  # session key: (what the job encodes, the job), see work.job_for

def spans(tok: Tokenizer, text: str, upto: int | None, method: str) -> Spans | None:
    """The tokens of ``text`` (and rank priority's, for another method): at once for a short
    text; for a long one from a worker, None until it is done (its progress, or why it
    stopped, is drawn here). None too when a regex of the tokenizer's file was stopped (the
    sentence saying so is drawn here)."""
    if len(text) < BACKGROUND_CHARS:
        return attempt(encode, tok, text, upto, method, report=Reporter(None))
    key = (tok.fingerprint(), hashlib.blake2b(text.encode("utf-8", "surrogatepass")).digest(),
           upto, method)
    return outcome(JOB, key, "tokenize", encode, tok, text, upto, method,
                   what=f"Tokenizing {len(text):,} characters")
