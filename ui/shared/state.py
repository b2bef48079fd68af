"""Session state, set up in one place: the active corpus and this session's tokenizers.

Pages read and change state only through these functions, so the keys live here alone.

- ``corpora``: name -> :class:`SessionCorpus` (bundled samples are added when first picked)
- ``corpus``: the active corpus name
- ``tokenizers``: name -> ``bpe_core.Tokenizer`` (trained, loaded, references)
- ``tokenizer``: the active tokenizer name
"""

from __future__ import annotations

import gc
import hashlib
import threading
import weakref
from dataclasses import dataclass, field

import streamlit as st

import bpe_core

from .samples import DEFAULT_SAMPLE, Sample, samples

DEFAULT_SETTINGS = {"unit": "byte", "pretokenizer": "gpt2", "vocab_size": 1000, "min_frequency": 2}


@dataclass(frozen=True)
class SessionCorpus:
    """A corpus in the session: documents (text) or word counts, with a content digest."""

    name: str
    documents: tuple[str, ...] = ()
    counts: dict | None = field(default=None, compare=False, hash=False)
    source: str = "sample"  # "sample", "upload", "paste" or "counts" (typed word counts)
    sample: Sample | None = None
    digest: str = ""

    @property
    def is_counts(self) -> bool:
        return self.counts is not None

    @property
    def training_input(self):
        """What ``bpe_core.train`` takes: the word-count mapping or the list of documents."""
        return self.counts if self.is_counts else list(self.documents)

    @property
    def text(self) -> str:
        """The whole text (for counts: the words repeated by count would be silly; words joined)."""
        if self.is_counts:
            return " ".join(self.counts)
        return "\n\n".join(self.documents)


def digest_of(documents=(), counts=None) -> str:
    h = hashlib.blake2b(digest_size=16)
    if counts is not None:
        for w, n in counts.items():
            h.update(f"{w}\x00{n}\x01".encode("utf-8", "surrogatepass"))
    for d in documents:
        h.update(d.encode("utf-8", "surrogatepass"))
        h.update(b"\x00")
    return h.hexdigest()


#: The corpora sessions hold, by content digest (weakly: a corpus no session holds is gone).
_HOLDERS: dict[str, weakref.WeakSet] = {}
_HOLDERS_LOCK = threading.Lock()


def make_corpus(name: str, *, documents=(), counts=None, source: str = "upload",
                sample: Sample | None = None) -> SessionCorpus:
    """A corpus for the session. Its documents are kept once per server: a session that
    uploads a text another session already holds gets that session's copy (the same content,
    by digest), and the text is freed when the last corpus made of it goes."""
    documents = tuple(documents)
    digest = digest_of(documents, counts)
    with _HOLDERS_LOCK:
        for gone in [d for d, held in _HOLDERS.items() if not held]:
            del _HOLDERS[gone]
        holders = _HOLDERS.setdefault(digest, weakref.WeakSet())
        other = next(iter(holders), None)
        if other is not None and other.documents == documents:
            documents = other.documents
        corpus = SessionCorpus(name, documents, counts, source, sample, digest)
        holders.add(corpus)
    return corpus


def held_texts() -> set[str]:
    """The digests of the corpus texts some session holds (each kept once in memory)."""
    with _HOLDERS_LOCK:
        return {d for d, held in _HOLDERS.items() if held}


@st.cache_resource(show_spinner=False)
def sample_corpus(sample_id: str) -> SessionCorpus:
    s = samples()[sample_id]
    if s.kind == "counts":
        return make_corpus(s.title, counts=s.counts(), source="sample", sample=s)
    return make_corpus(s.title, documents=s.documents(), source="sample", sample=s)


@st.cache_resource(show_spinner="Training the default tokenizer…", max_entries=32)
def train_cached(digest: str, settings: tuple, _corpus_input) -> bpe_core.Tokenizer:
    """Train once per (corpus content, settings); ``_corpus_input`` is not hashed."""
    return bpe_core.train(_corpus_input, **dict(settings))


def init() -> None:
    """Set up the session on first run: the default corpus and a default tokenizer."""
    ss = st.session_state
    if "corpora" in ss:
        return
    corpus = sample_corpus(DEFAULT_SAMPLE)
    ss.corpora = {corpus.name: corpus}
    ss.corpus = corpus.name
    settings = dict(DEFAULT_SETTINGS, name="English byte-level 1k")
    tok = train_cached(corpus.digest, tuple(sorted(settings.items())), corpus.training_input)
    ss.tokenizers = {tok.name: tok}
    ss.tokenizer = tok.name
    freeze_startup_objects()


_startup_frozen = False


def freeze_startup_objects() -> None:
    """Once per server process: leave what start-up made out of the garbage collector's passes.

    Streamlit, pandas, plotly and the default corpus and tokenizer are some 120,000 objects, and
    every full collection walks them all: about 60 ms, landing on whichever interaction sets it
    off (a replay step, a keystroke). They live as long as the server, so they are frozen once;
    anything frozen is still freed by reference counting when dropped.
    """
    global _startup_frozen
    if not _startup_frozen:
        _startup_frozen = True
        gc.collect()
        gc.freeze()


def corpora() -> dict[str, SessionCorpus]:
    """This session's corpora by name: the samples picked so far, uploads and pasted texts."""
    return st.session_state.corpora


def active_corpus() -> SessionCorpus:
    return st.session_state.corpora[st.session_state.corpus]


def set_active_corpus(name: str) -> None:
    """Make the session's corpus called ``name`` the active one (unknown names are ignored)."""
    if name in st.session_state.corpora:
        st.session_state.corpus = name


def set_corpus(corpus: SessionCorpus) -> None:
    """Add ``corpus`` to the session (replacing one of the same name) and make it active."""
    st.session_state.corpora[corpus.name] = corpus
    st.session_state.corpus = corpus.name


def tokenizers() -> dict[str, bpe_core.Tokenizer]:
    return st.session_state.tokenizers


def active_tokenizer() -> bpe_core.Tokenizer:
    return st.session_state.tokenizers[st.session_state.tokenizer]


def unique_name(name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``… if the session already has a tokenizer so named."""
    taken = st.session_state.tokenizers
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


def add_tokenizer(tok: bpe_core.Tokenizer, *, activate: bool = True) -> str:
    """Keep ``tok`` in the session under its name (made unique); return the name used."""
    name = unique_name(tok.name)
    st.session_state.tokenizers[name] = tok.renamed(name)
    if activate:
        st.session_state.tokenizer = name
    return name


def set_active_tokenizer(name: str) -> None:
    if name in st.session_state.tokenizers:
        st.session_state.tokenizer = name


def snapshot() -> tuple:
    """What the sidebar shows: the session's corpora and tokenizers, and which are active.

    ``app.py`` compares it before and after a page runs, to redraw the sidebar on a change.
    """
    ss = st.session_state
    return (tuple(ss.corpora), ss.corpus, active_corpus().digest, tuple(ss.tokenizers),
            ss.tokenizer, id(active_tokenizer()))
