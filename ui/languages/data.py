"""The Languages page's data: the parallel corpus in the session, tokenizers to compare, and the
measurements, cached per (tokenizer identity, corpus digest) so reruns cost nothing.

>>> import bpe_core
>>> tok = bpe_core.train(["aaab"], unit="byte", max_merges=1, min_frequency=1)
>>> tok.fingerprint() == bpe_core.train(["aaab"], unit="byte", max_merges=1, min_frequency=1,
...                                      name="another name").fingerprint()
True
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

import bpe_core
from bpe_core.analysis import parallel, premium
from bpe_core.analysis.parallel import ParallelCorpus

from ..shared import state
from ..shared.samples import parallel_sample

#: Session key of the parallel corpus the page measures (the bundled sample until an upload).
CORPUS_KEY = "languages_corpus"
#: Columns of the results table, as :func:`results_table` names them.
COLUMNS = ["Tokenizer", "Language", "Code", "Script", "Sentences", "Tokens", "Premium",
           "Chars/token", "Bytes/token", "Tokens/word", "Fallback share"]

# --- the corpus ------------------------------------------------------------------------------

@st.cache_resource(show_spinner=False)
def bundled_corpus() -> ParallelCorpus:
    return parallel_sample()


def corpus() -> ParallelCorpus:
    """The parallel corpus the page measures: the last upload read, else the bundled sample."""
    return st.session_state.get(CORPUS_KEY) or bundled_corpus()


def use_corpus(new: ParallelCorpus | None) -> None:
    """Measure ``new`` from now on (``None``: the bundled sample)."""
    st.session_state[CORPUS_KEY] = new


@st.cache_data(show_spinner="Reading the parallel corpus…", max_entries=16)
def read_upload(files: tuple[tuple[str, bytes], ...]) -> ParallelCorpus | str:
    """The corpus in the uploaded files, or the message saying what is wrong with them."""
    try:
        return parallel.read_upload(files)
    except parallel.ParallelCorpusError as exc:
        return str(exc)


# --- tokenizers --------------------------------------------------------------------------------

@st.cache_resource(show_spinner="Fetching the reference encodings…")
def reference_tokenizers() -> tuple[dict[str, bpe_core.Tokenizer], tuple[str, ...]]:
    """(label -> tokenizer for the references that load, names of those that could not)."""
    loaded, failed = {}, []
    for name, ref in bpe_core.REFERENCE_ENCODINGS.items():
        try:
            loaded[ref.title] = bpe_core.reference_encoding(name)
        except (bpe_core.ReferenceUnavailableError, ImportError):  # offline, or no tiktoken
            failed.append(name)
    return loaded, tuple(failed)


def available_tokenizers() -> dict[str, bpe_core.Tokenizer]:
    """This session's tokenizers, then the reference encodings that could be loaded."""
    loaded, _ = reference_tokenizers()
    session = state.tokenizers()
    return {**session, **{k: v for k, v in loaded.items() if k not in session}}


def train_balanced(source: ParallelCorpus, vocab_size: int) -> str:
    """Train byte-level BPE (GPT-2 pre-tokenizer) on every sentence of every language, add it
    to the session and make it active; return its name."""
    sentences = [s for column in source.columns for s in column]
    tok = bpe_core.train(sentences, vocab_size, unit="byte", pretokenizer="gpt2", min_frequency=2)
    # Named after the size reached: a small corpus can run out of pairs seen twice before.
    n = tok.vocab_size
    return state.add_tokenizer(
        tok.renamed(f"{source.name} byte-level {f'{n / 1000:g}k' if n >= 1000 else n}"))


# --- measurements (cached) ---------------------------------------------------------------------

@st.cache_data(show_spinner=False, max_entries=128)
def _counts(tok_id: str, digest: str, _tok, _corpus) -> premium.Counts:
    return premium.count_tokens(_tok, _corpus)


def counts(tok: bpe_core.Tokenizer, source: ParallelCorpus) -> premium.Counts:
    """Tokens per sentence, fallback tokens and entries used, per language: cached."""
    return _counts(tok.fingerprint(), source.digest, tok, source)


@st.cache_data(show_spinner="Re-encoding at each merge count…", max_entries=64)
def _curve(tok_id: str, digest: str, baseline: str, merge_counts: tuple[int, ...], _tok, _corpus):
    return premium.premium_curve(_tok, _corpus, baseline=baseline, merge_counts=merge_counts)


def curve(tok, source: ParallelCorpus, baseline: str, merge_counts) -> dict[str, list[float]]:
    """Each language's premium at each merge count: cached."""
    return _curve(tok.fingerprint(), source.digest, baseline, tuple(merge_counts), tok, source)


@st.cache_data(show_spinner=False, max_entries=32)
def _vocabulary_scripts(tok_id: str, _tok) -> dict[str, int]:
    return premium.vocabulary_scripts(_tok)


def vocabulary_scripts(tok: bpe_core.Tokenizer) -> dict[str, int]:
    """Vocabulary entries per script: cached."""
    return _vocabulary_scripts(tok.fingerprint(), tok)


def results_table(source: ParallelCorpus, chosen: dict[str, bpe_core.Tokenizer],
                  baseline: str) -> pd.DataFrame:
    """Every measurement, a row per (tokenizer, language)."""
    rows = []
    for name, tok in chosen.items():
        for r in premium.measure(source, counts(tok, source), baseline=baseline):
            rows.append([name, r.name, r.code, r.script, r.sentences, r.tokens, r.premium,
                         r.chars_per_token, r.bytes_per_token, r.tokens_per_word,
                         r.fallback_share])
    return pd.DataFrame(rows, columns=COLUMNS)
