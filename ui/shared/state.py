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
import math
import threading
import weakref
from dataclasses import dataclass, field
from typing import Collection, Mapping

import streamlit as st

import bpe_core
from bpe_core.post_processors import around

from .samples import DEFAULT_SAMPLE, Sample, samples
from .tokens import md_escape

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
    def characters(self) -> int:
        """How many characters it holds: its documents', or for word counts its words'."""
        return sum(map(len, self.counts if self.is_counts else self.documents))

    @property
    def text(self) -> str:
        """The whole text (for counts: the words repeated by count would be silly; words joined)."""
        if self.is_counts:
            return " ".join(self.counts)
        return "\n\n".join(self.documents)


def digest_of(documents=(), counts=None) -> str:
    """The content's fingerprint: each text hashed after its length, so that no separator a
    document may hold itself (NUL, say) lets two corpora hash alike; sessions holding the
    same digest share one copy of the text.

    >>> digest_of(["hello\\x00", "b"]) == digest_of(["hello", "\\x00b"])
    False
    """
    h = hashlib.blake2b(digest_size=16)

    def add(text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)

    if counts is not None:
        h.update(b"counts")
        for w, n in counts.items():
            add(w)
            add(str(n))
    h.update(b"documents")
    for d in documents:
        add(d)
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


#: What one session keeps of its own corpora (uploaded, pasted, typed; bundled samples are shared
#: by every session and do not count): this many, of at most this many characters together.
#: Past either, the oldest that is not active is let go, and the user is told.
MAX_OWN_CORPORA, MAX_OWN_CHARACTERS = 8, 250_000_000
#: How many tokenizers one session keeps (trained, loaded, fetched); past it, the oldest that is
#: not active is let go.
MAX_TOKENIZERS = 16


def overflow(sizes: Mapping[str, int], *, keep: Collection[str], most: int,
             most_size: float = math.inf) -> list[str]:
    """The names to let go, oldest first, so that what is left of ``sizes`` (name -> size, oldest
    first) has at most ``most`` entries of at most ``most_size`` together; a name in ``keep`` is
    never let go (it may stay over both bounds alone).

    >>> overflow({"a": 5, "b": 1, "c": 1, "d": 1}, keep={"d"}, most=3)
    ['a']
    >>> overflow({"a": 5, "b": 1, "c": 1, "d": 1}, keep={"a"}, most=9, most_size=6)
    ['b', 'c']
    """
    left, total, dropped = len(sizes), sum(sizes.values()), []
    for name, size in sizes.items():
        if left <= most and total <= most_size:
            break
        if name not in keep:
            dropped.append(name)
            left, total = left - 1, total - size
    return dropped


def set_corpus(corpus: SessionCorpus) -> None:
    """Add ``corpus`` to the session (replacing one of the same name, as the newest) and make it
    active; past :data:`MAX_OWN_CORPORA` or :data:`MAX_OWN_CHARACTERS`, the oldest of the
    session's own corpora is let go, with a notice."""
    corpora = st.session_state.corpora
    corpora.pop(corpus.name, None)
    corpora[corpus.name] = corpus
    st.session_state.corpus = corpus.name
    own = {name: c.characters for name, c in corpora.items() if c.source != "sample"}
    _let_go(corpora, overflow(own, keep={corpus.name}, most=MAX_OWN_CORPORA,
                              most_size=MAX_OWN_CHARACTERS),
            what="corpora", bound=f"{MAX_OWN_CORPORA} corpora of its own, of "
                                  f"{MAX_OWN_CHARACTERS:,} characters together", again="Load")


def _let_go(held: dict, names: list[str], *, what: str, bound: str, again: str) -> None:
    """Drop ``names`` from ``held`` (a session's corpora or tokenizers), each with a notice."""
    for name in names:
        del held[name]
        st.toast(f"“{md_escape(name)}” was let go, the oldest of this tab's {what}: a tab keeps "
                 f"at most {bound}. {again} it again to use it.", icon=":material/delete_sweep:")


def tokenizers() -> dict[str, bpe_core.Tokenizer]:
    return st.session_state.tokenizers


def active_tokenizer() -> bpe_core.Tokenizer:
    return st.session_state.tokenizers[st.session_state.tokenizer]


def newly_active(seen_key: str) -> str | None:
    """The active tokenizer's name if it is not the one the page last saw under ``seen_key``
    (made active since, in the sidebar or on Train), else None; it is then the one seen."""
    name = st.session_state.tokenizer
    if st.session_state.get(seen_key) == name:
        return None
    st.session_state[seen_key] = name
    return name


def unique_name(name: str) -> str:
    """``name``, or ``name (2)``, ``name (3)``… if the session already has a tokenizer so named."""
    taken = st.session_state.tokenizers
    if name not in taken:
        return name
    n = 2
    while f"{name} ({n})" in taken:
        n += 1
    return f"{name} ({n})"


def refuse_missing_tokens(tok: bpe_core.Tokenizer) -> None:
    """Refuse a tokenizer whose ``unk_token`` its vocabulary lacks, or an id its post-processor
    adds (BOS/EOS). bpe_core loads it, as Hugging Face's tokenizers does, and fails where a
    character needs the first, or where a page shows the second: here that would be in the
    middle of every page's sample text, or of Tokenize's comparison with special tokens (which
    crashed on "token id 99999 is not in this vocabulary"), so the page says it as the file
    loads (or the model is fetched).

    >>> from bpe_core.models import BPE
    >>> refuse_missing_tokens(bpe_core.Tokenizer(BPE.from_vocab({"a": 0}, [], unk_token="<unk>")))
    Traceback (most recent call last):
    bpe_core.formats.errors.TokenizerFileError: its unk_token '<unk>' is not in its vocab: \
Hugging Face's tokenizers fails on the first character it has no token for, as every page \
here would; add '<unk>' to the vocab, or set unk_token to null (such characters are then dropped)
    """
    unk = tok.model.unk_token
    if unk is not None and unk not in tok.model.vocab:
        raise bpe_core.TokenizerFileError(
            f"its unk_token {unk!r} is not in its vocab: Hugging Face's tokenizers fails on the "
            f"first character it has no token for, as every page here would; add {unk!r} to "
            f"the vocab, or set unk_token to null (such characters are then dropped)")
    added = around(tok.post_processor, [])
    lost = next((i for i in added if tok.view.raw(i) is None), None)
    if lost is not None:
        raise bpe_core.TokenizerFileError(
            f"its post-processor puts the token id {lost:,} around a text, and its vocabulary "
            f"has no such id (its ids go up to {tok.vocab_size - 1:,}): no page here could show "
            f"that token; give the post-processor's special token its id in the vocab")


def add_tokenizer(tok: bpe_core.Tokenizer, *, activate: bool = True) -> str:
    """Keep ``tok`` in the session under its name (made unique); return the name used. Past
    :data:`MAX_TOKENIZERS`, the oldest tokenizer that is not active is let go, with a notice."""
    name = unique_name(tok.name)
    held = st.session_state.tokenizers
    held[name] = tok.renamed(name)
    if activate:
        st.session_state.tokenizer = name
    _let_go(held, overflow(dict.fromkeys(held, 1), keep={name, st.session_state.tokenizer},
                           most=MAX_TOKENIZERS),
            what="tokenizers", bound=f"{MAX_TOKENIZERS}", again="Train or load")
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
