"""The active corpus in the page's address, so that a reload (or the link, opened elsewhere)
brings it back: a bundled sample by its id, typed word counts or a pasted text while short.

Streamlit's session state is gone after a reload; the address is not. An uploaded corpus cannot
go in an address, and the pages say so plainly (:func:`note`).

>>> params(make_corpus("Word counts", counts={"hug": 10, "pug": 5}, source="counts"))
{'words': 'hug 10, pug 5', 'corpus': 'Word counts'}
"""

from __future__ import annotations

import streamlit as st

from bpe_core.analysis.word_counts import (WordCountError, format_word_counts,
                                           parse_word_counts)

from .samples import DEFAULT_SAMPLE, samples
from .state import SessionCorpus, make_corpus, sample_corpus, set_corpus
from .tokens import md_escape

#: Typed texts (word counts, a pasted text, the user's sentence) go in an address up to this
#: many characters; longer ones would make links that browsers and chat apps cut.
LINK_CHARS = 2_000
#: The address parameters that name a corpus (a page's other parameters are left alone).
KEYS = ("sample", "words", "corpus_text", "corpus")
READ = "corpus_url_read"


class UploadGone(ValueError):
    """The address names an uploaded corpus, which it cannot hold; the message says so and
    that the default corpus is used meanwhile."""


def params(corpus: SessionCorpus) -> dict[str, str] | None:
    """The corpus as address parameters (none for the default sample, which a new session
    starts with), or None when it cannot go in an address."""
    if corpus.sample is not None:
        return {} if corpus.sample.id == DEFAULT_SAMPLE else {"sample": corpus.sample.id}
    if corpus.is_counts:
        key, text = "words", format_word_counts(corpus.counts)
    elif len(corpus.documents) == 1:
        key, text = "corpus_text", corpus.documents[0]
    else:
        return None
    return {key: text, "corpus": corpus.name} if len(text) <= LINK_CHARS else None


def address(corpus: SessionCorpus) -> dict[str, str]:
    """What the address holds for ``corpus``: its :func:`params`, or, for a corpus no address
    can hold, its name alone, so that a reload can say which corpus it lost.

    >>> address(make_corpus("essays.txt", documents=["a", "b"], source="upload"))
    {'corpus': 'essays.txt'}
    """
    wanted = params(corpus)
    return wanted if wanted is not None else {"corpus": corpus.name[:80]}


def corpus_from(query: dict[str, str]) -> SessionCorpus | None:
    """The corpus the address names (None: none); raises ValueError when it cannot be read,
    saying why in Markdown that shows what the link holds as it is (a link is anyone's text)."""
    name = query.get("corpus", "")[:80]
    if "sample" in query:
        if query["sample"] not in samples():
            raise ValueError(f"the link names a sample this version does not have "
                             f"({md_escape(repr(query['sample']))})")
        return sample_corpus(query["sample"])
    if "words" in query:
        try:
            counts = parse_word_counts(query["words"])
        except WordCountError as exc:
            # (its own full stop goes: the page ends the sentence)
            raise ValueError(f"the link's word counts cannot be read: "
                             f"{md_escape(str(exc).removesuffix('.'))}") from None
        return make_corpus(name or "Word counts", counts=counts, source="counts")
    if query.get("corpus_text", "").strip():
        return make_corpus(name or "Pasted text", documents=[query["corpus_text"]],
                           source="paste")
    if name:  # (see address)
        raise UploadGone(f"this link's corpus, {md_escape(name)}, was an upload, which no "
                         f"address can hold: upload it again on the Corpus page (the default "
                         f"corpus is used meanwhile)")
    return None


def restore() -> str | None:
    """Once per session, make the corpus the address names the active one; a sentence saying
    why it could not be read, or None."""
    if st.session_state.get(READ):
        return None
    st.session_state[READ] = True
    try:
        corpus = corpus_from(st.query_params.to_dict())
    except ValueError as exc:
        return f"{str(exc)[:1].upper()}{str(exc)[1:]}."
    if corpus is not None:
        set_corpus(corpus)
    return None


def write(corpus: SessionCorpus) -> None:
    """Put ``corpus`` in the address (or take a corpus that cannot go there out of it)."""
    wanted, query = address(corpus), st.query_params
    for key in KEYS:
        if key not in wanted and key in query:
            del query[key]
        elif key in wanted and query.get(key) != wanted[key]:
            query[key] = wanted[key]


def note(corpus: SessionCorpus, *, kept: str = "the corpus") -> None:
    """Say what a reload keeps: ``kept`` (what the address holds) or, for a corpus no address
    can hold, that a reload loses it."""
    if params(corpus) is not None:
        st.caption(f":material/link: The address bar holds {kept}: reloading the page or "
                   "opening the link elsewhere brings it back.")
    else:
        st.caption(f":material/warning: Reloading this page loses **{md_escape(corpus.name)}**"
                   " and any work on it: an uploaded corpus (or a text too long for a link) "
                   "lives only in this browser tab's session, not in the page's address. Keep "
                   "or download a trained tokenizer to save your work.")
