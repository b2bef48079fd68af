"""Long texts are tokenized in a worker process (:mod:`ui.shared.jobs`), not in the session's
thread: a pasted book never holds up the other sessions of the server, and closing the tab or
pasting another text stops the work at once. Short texts stay inline, so typing stays instant.

The job returns the tokens of the text, and with another encoder than rank priority those of
rank priority too (the page outlines where the two differ).
"""

from __future__ import annotations

import hashlib

import streamlit as st

from bpe_core import Tokenizer, TokenSpan

from ..shared import work
from ..shared.jobs import DONE, FAILED, Reporter

#: Texts at least this long (in characters) are tokenized in a worker process.
BACKGROUND_CHARS = 100_000
JOB = "tok_job"  # session key: (what the job encodes, the job), see work.job_for

Spans = tuple[list[TokenSpan], list[TokenSpan] | None]


def encode(tok: Tokenizer, text: str, upto: int | None, method: str, *,
           report: Reporter) -> Spans:
    """The worker's side: the tokens by ``method``, and by rank priority when it differs."""
    report.progress(0.0, f"{len(text):,} characters")
    spans = tok.spans(text, upto=upto, method=method)
    report.progress(0.5 if method != "rank" else 1.0, f"{len(spans):,} tokens")
    return spans, None if method == "rank" else tok.spans(text, upto=upto, method="rank")


def spans(tok: Tokenizer, text: str, upto: int | None, method: str) -> Spans | None:
    """The tokens of ``text`` (and rank priority's, for another method): at once for a short
    text; for a long one from a worker, None while it runs (its progress is drawn here)."""
    if len(text) < BACKGROUND_CHARS:
        return encode(tok, text, upto, method, report=Reporter(None))
    key = (tok.fingerprint(), hashlib.blake2b(text.encode("utf-8", "surrogatepass")).digest(),
           upto, method)
    job = work.job_for(JOB, key, "tokenize", encode, tok, text, upto, method)
    if job is None:
        return None  # the session holds too many jobs; work.start said so
    if job.state == DONE:
        return job.result
    if job.state == FAILED:
        st.error(f"Tokenizing this text failed: {job.error}", icon=":material/error:")
        return [], None
    if job.finished:  # cancelled
        st.info("Tokenizing was cancelled. Change the text or an option to start again.",
                icon=":material/stop_circle:")
        return [], None
    work.follow(job, what=f"Tokenizing {len(text):,} characters")
    return None
