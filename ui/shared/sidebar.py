"""The shared sidebar: the active corpus and tokenizer, with pickers among this session's ones,
and the model catalogue (OpenAI's encodings, Hugging Face models), on every page."""

from __future__ import annotations

import streamlit as st

from . import loaders, state, wording
from .clicks import in_fragment_run


def describe(tok) -> str:
    """Markdown lines about a tokenizer: unit, pipeline, vocabulary size, whether whole
    pieces are looked up before merging (``ignore_merges``, as tiktoken does), and the
    ``truncation`` or ``padding`` its file sets, which this app does not apply.

    >>> import bpe_core
    >>> tok = bpe_core.train("hug pug", unit="char", pretokenizer="whitespace", max_merges=1,
    ...                      min_frequency=1)
    >>> print(describe(tok).replace("  \\n", "\\n"))
    Unit: char-level
    Pipeline: pre-tokenizer Split(whitespace) → BPE → decoder Fuse
    Vocabulary size: 6 (1 merge)
    """
    merges = len(tok.merges)
    return (f"Unit: {tok.unit}-level  \n"
            f"Pipeline: {tok.describe()}  \n"
            f"Vocabulary size: {tok.vocab_size:,} ({merges:,} merge{'s' * (merges != 1)})"
            + ("  \nA piece that is a whole token is looked up, not merged (ignore_merges)"
               if tok.ignore_merges else "")
            + "".join(f"  \nThe file sets {k}: Hugging Face's encode() applies it, this app "
                      "does not" for k in ("truncation", "padding") if k in tok.config))


def corpus_size(corpus: state.SessionCorpus) -> str:
    """How big a corpus is, in one line."""
    if corpus.is_counts:
        return (f"{wording.count(len(corpus.counts), None, distinct=True)}, "
                f"{sum(corpus.counts.values()):,} in all")
    return (f"{wording.plural(corpus.characters, 'character')} in "
            f"{wording.documents(len(corpus.documents))}")


def render() -> None:
    with st.sidebar:
        picker("Active corpus", "sidebar_corpus", state.corpora(), state.active_corpus().name,
               state.set_active_corpus)
        st.caption(corpus_size(state.active_corpus()))
        picker("Active tokenizer", "sidebar_tokenizer", state.tokenizers(),
               state.active_tokenizer().name, state.set_active_tokenizer)
        st.caption(describe(state.active_tokenizer()))
        # Drawn only while open: the catalogue checks which encodings tiktoken can fetch. Upload
        # a file too: what the catalogue says to do offline.
        with st.expander("Load a model", icon=":material/cloud_download:",
                         key="sidebar_models", on_change="rerun") as box:
            if box.open:
                loaders.load_panel(key="sidebar_load", sources=("hub", "fetch", "upload"))


#: Session key: picker key -> what the browser may still show in it (see ``picked``).
MAYBE_SHOWN = "sidebar_maybe_shown"


def picker(label: str, key: str, items: dict, current: str, activate) -> None:
    """A selectbox among ``items`` that always shows ``current`` and calls ``activate(name)``."""
    shown, stale = st.session_state.get(key), st.session_state.setdefault(MAYBE_SHOWN, {})
    if shown == current:
        stale.pop(key, None)  # the browser has shown it
    else:  # made active on a page since: until this run's picker is drawn, the old one shows
        stale[key] = shown
    # Set before the widget exists: the active item may have changed on a page since last run.
    st.session_state[key] = current
    st.selectbox(label, list(items), key=key, on_change=picked, args=(key, activate))


def picked(key: str, activate) -> None:
    """A picker's ``on_change``: ``activate`` what it shows, unless a job's timed update
    carried the old choice the browser still showed.

    The pickers are drawn before the page, so after a run whose page made another corpus
    active (an upload read by a worker) the browser still shows the old one, and a job's timed
    update can report that as a change, which would make the old corpus active again (the
    likely cause of one failed full run of the suite). A choice the user makes while the
    update leaves is carried by it too, and is taken there: the page's rerun that follows
    sees no change."""
    choice = st.session_state[key]
    if in_fragment_run() and choice == st.session_state.get(MAYBE_SHOWN, {}).get(key):
        return
    activate(choice)
