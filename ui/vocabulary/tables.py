"""The Vocabulary page's table: every token of a tokenizer, with its frequency in the active
corpus.

Tables are built once per tokenizer (keyed by ``Tokenizer.fingerprint``, so equal
tokenizers share them across sessions) and frequencies once per (tokenizer, corpus digest),
a large corpus's by a worker (``ui.vocabulary.jobs``) while the table shows without them.
"""

from __future__ import annotations

from collections import Counter

import pandas as pd
import streamlit as st

from bpe_core import Tokenizer

from ..shared import background
from ..shared.state import SessionCorpus
from ..shared.jobs import Reporter
from ..shared.slow_regex import attempt
from . import jobs
from .data import vocabulary_frame, with_frequencies

FREQUENCY_JOB = "vocab_frequency_job"  # session key of the job counting a large corpus


# The vocabulary's tables are kept as objects, shared by every session and never changed (each
# step of the page makes new frames from them): cache_data would hand each rerun a copy, and
# Gemma 3's 262,000 rows take 0.2 to 0.5 s to copy.
@st.cache_resource(show_spinner="Listing the vocabulary…", max_entries=8)
def _frame(key: str, _tok: Tokenizer) -> pd.DataFrame:
    return vocabulary_frame(_tok)


@st.cache_resource(show_spinner=False, max_entries=16)
def _table(key: str, digest: str | None, _tok: Tokenizer, _frequencies) -> pd.DataFrame:
    """The vocabulary with the frequencies of the corpus of ``digest`` (None: still being
    counted, and the column empty)."""
    return with_frequencies(_frame(key, _tok), _frequencies)


def frame(tok: Tokenizer) -> pd.DataFrame:
    """The vocabulary of ``tok``, one row per token, built once per tokenizer."""
    return _frame(tok.fingerprint(), tok)


def frequencies(tok: Tokenizer, corpus: SessionCorpus) -> Counter | None:
    """Token id -> occurrences in ``corpus``, kept for every session by (tokenizer, corpus
    digest). Counted at once below :data:`jobs.BACKGROUND_CHARS` characters; above, by a
    worker (None while it counts: its progress, or why it stopped, is drawn here)."""
    key = (tok.fingerprint(), corpus.digest)
    background.replaced(FREQUENCY_JOB, key)
    store = background.kept("token frequencies", size=16)
    found = store.get(key)
    if found is not None:
        return found
    size = corpus.characters
    if size < jobs.BACKGROUND_CHARS:
        with st.spinner("Counting tokens in the active corpus…"):
            found = jobs.frequencies(tok, corpus.training_input, report=Reporter(None))
    else:
        found = background.outcome(FREQUENCY_JOB, key, "vocabulary-frequencies",
                                   jobs.frequencies, tok, corpus.training_input,
                                   what=f"Counting the tokens of {size:,} characters")
    if found is not None:
        store.put(key, found)
    return found


def vocabulary_table(tok: Tokenizer, corpus: SessionCorpus) -> pd.DataFrame | None:
    """The vocabulary with each token's frequency in ``corpus``: one row per token (the
    frequencies empty while a worker counts a large corpus). None when a regex of the
    tokenizer's file was stopped on the corpus or a token (the sentence is shown)."""
    return attempt(_counted_table, tok, corpus)


def _counted_table(tok: Tokenizer, corpus: SessionCorpus) -> pd.DataFrame:
    found = frequencies(tok, corpus)
    return _table(tok.fingerprint(), None if found is None else corpus.digest, tok, found)
