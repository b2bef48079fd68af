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
from bpe_core.analysis.vocabulary import tokens_per_system

from ..shared import background, loaders, state
from ..shared.samples import parallel_sample
from ..shared.slow_regex import attempt
from ..shared.tokens import md_escape
from . import jobs

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
    """The corpus in the uploaded files, or the message saying what is wrong with them, as
    Markdown that shows the files' names and cells as they are ('$x$.csv' is no maths)."""
    try:
        return parallel.read_upload(files)
    except parallel.ParallelCorpusError as exc:
        return md_escape(str(exc))


# --- tokenizers --------------------------------------------------------------------------------

#: Session key: fingerprint of each balanced tokenizer trained here -> digest of its corpus.
BALANCED_KEY = "lang_balanced"


#: The reference encodings every comparison offers: one per generation of OpenAI's models.
#: The others (GPT-3's, Codex's, GPT-OSS's, nearly the same vocabularies) join once loaded in
#: the panel below: building all six for every visit would cost seconds and hundreds of MB.
REFERENCES = ("gpt2", "cl100k_base", "o200k_base")


def reference_tokenizers() -> dict[str, bpe_core.Tokenizer]:
    """Label -> tokenizer for the reference encodings of :data:`REFERENCES` that load (each
    kept for every session); ``loaders.missing_references`` says which do not, and why."""
    loaded = {}
    for name in (n for n in loaders.loadable_references() if n in REFERENCES):
        tok = loaders.reference(name)
        if not isinstance(tok, str):
            loaded[bpe_core.REFERENCE_ENCODINGS[name].title] = tok
    return loaded


def available_tokenizers() -> dict[str, bpe_core.Tokenizer]:
    """This session's tokenizers, then the reference encodings that load: one entry per distinct
    tokenizer (the same cl100k loaded twice, or fetched into the session and offered as a
    reference, is offered once, under the active tokenizer's name if it is that one)."""
    session, active = state.tokenizers(), state.active_tokenizer().name
    everything = {**session, **{k: v for k, v in reference_tokenizers().items()
                                if k not in session}}
    keep: dict[str, str] = {}  # fingerprint -> the name it is offered under
    for name, tok in everything.items():
        if tok.fingerprint() not in keep or name == active:
            keep[tok.fingerprint()] = name
    kept = set(keep.values())
    return {name: tok for name, tok in everything.items() if name in kept}


def balanced_sentences(source: ParallelCorpus) -> list[str]:
    """What the balanced tokenizer learns from: the training sentences of every language
    (:func:`parallel.split`)."""
    return [s for column in parallel.split(source).train.columns for s in column]


def add_balanced(tok: bpe_core.Tokenizer, source: ParallelCorpus) -> str:
    """Add a balanced tokenizer trained on ``source`` (``jobs.train_balanced``) to the session
    and make it active; return its name."""
    st.session_state.setdefault(BALANCED_KEY, {})[tok.fingerprint()] = source.digest
    # Named after the size reached: a small corpus can run out of pairs seen twice before.
    n = tok.vocab_size
    return state.add_tokenizer(
        tok.renamed(f"{source.name} byte-level {f'{n / 1000:g}k' if n >= 1000 else n}"))


def trained_here(source: ParallelCorpus,
                 chosen: dict[str, bpe_core.Tokenizer]) -> list[str]:
    """The chosen tokenizers that :func:`train_balanced` trained on ``source``'s training part."""
    balanced = st.session_state.get(BALANCED_KEY, {})
    return [name for name, tok in chosen.items()
            if balanced.get(tok.fingerprint()) == source.digest]


def scored_corpus(source: ParallelCorpus, chosen: dict[str, bpe_core.Tokenizer]) -> ParallelCorpus:
    """The sentences to score on: the held-out ones when a chosen tokenizer learned from the rest
    (every tokenizer is then scored on them, so the columns compare), else all of them."""
    return parallel.split(source).held_out if trained_here(source, chosen) else source


# --- measurements (cached) ---------------------------------------------------------------------

#: Session keys of the jobs measuring a large corpus (see ``background.outcome``).
COUNTS_JOB, CURVE_JOB = "lang_counts_job", "lang_curve_job"


def _kept():
    """The measurements, kept for every session: counts by (tokenizer, corpus digest), curves
    by (tokenizer, corpus digest, baseline, merge counts)."""
    return background.kept("language measurements", size=128)


def counts(tok: bpe_core.Tokenizer, source: ParallelCorpus) -> premium.Counts:
    """Tokens per sentence, fallback tokens and entries used, per language: cached (for a
    large corpus, :func:`measured` has had them counted by a worker)."""
    key = (tok.fingerprint(), source.digest)
    done = _kept().get(key)
    if done is None:
        done = premium.count_tokens(tok, source)
        _kept().put(key, done)
    return done


def measured(source: ParallelCorpus, chosen: dict[str, bpe_core.Tokenizer]) -> bool:
    """Whether :func:`counts` of every chosen tokenizer can be had now. The tokenizers not
    measured yet encode the corpus here below :data:`jobs.BACKGROUND_CHARACTERS`; from there on
    a worker encodes it, and this says False while it works. False too when a regex of a
    tokenizer's file was stopped on the corpus. Its progress, or why it stopped, is drawn here."""
    missing = {name: tok for name, tok in chosen.items()
               if _kept().get((tok.fingerprint(), source.digest)) is None}
    size = jobs.characters(source)
    if size * len(missing) < jobs.BACKGROUND_CHARACTERS:
        background.replaced(COUNTS_JOB, None)  # (another corpus's or tokenizers', replaced)
        return all(attempt(counts, tok, source) is not None for tok in missing.values())
    key = (source.digest, tuple(tok.fingerprint() for tok in missing.values()))
    labels = [md_escape(lang.name) for lang in source.languages]
    n = len(missing)
    result = background.outcome(
        COUNTS_JOB, key, "languages-counts", jobs.count_all,
        [(md_escape(name), tok) for name, tok in missing.items()], source, labels,
        what=f"Encoding {size:,} characters with {n} tokenizer{'s' * (n > 1)}")
    if result is None:
        return False
    for tok, done in zip(missing.values(), result):
        _kept().put((tok.fingerprint(), source.digest), done)
    return True


def curve(tok, source: ParallelCorpus, baseline: str,
          merge_counts) -> dict[str, list[float]] | None:
    """Each language's premium at each merge count: cached. Below
    :data:`jobs.BACKGROUND_CHARACTERS` (the corpus's characters times the merge counts) at
    once; from there on by a worker, None while it works (its progress drawn here). None too
    when a regex of the tokenizer's file was stopped (the sentence drawn here)."""
    merge_counts = tuple(merge_counts)
    key = (tok.fingerprint(), source.digest, baseline, merge_counts)
    background.replaced(CURVE_JOB, key)
    done = _kept().get(key)
    if done is not None:
        return done
    size = jobs.characters(source)
    if size * len(merge_counts) < jobs.BACKGROUND_CHARACTERS:
        with st.spinner("Re-encoding at each merge count…"):
            done = attempt(premium.premium_curve, tok, source, baseline=baseline,
                           merge_counts=merge_counts)
    else:
        done = background.outcome(
            CURVE_JOB, key, "languages-curve", jobs.curve, tok, source, baseline, merge_counts,
            what=f"Encoding {size:,} characters at {len(merge_counts)} merge counts")
    if done is not None:
        _kept().put(key, done)
    return done


@st.cache_data(show_spinner=False, max_entries=32)
def _vocabulary_systems(tok_id: str, _tok) -> dict[str, int]:
    return tokens_per_system(_tok)


def vocabulary_systems(tok: bpe_core.Tokenizer) -> dict[str, int]:
    """Vocabulary entries per writing system, as the Vocabulary page counts them: cached."""
    return _vocabulary_systems(tok.fingerprint(), tok)


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
