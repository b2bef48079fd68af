"""The Vocabulary page's long work: how often each token occurs in the active corpus.

A corpus of :data:`BACKGROUND_CHARS` characters or more is counted in a worker process
(:mod:`ui.shared.jobs`); below, in the session's thread. This module imports only the engine,
so that a worker starts it in milliseconds. Counting a batch of documents at a time gives the
same counts as the whole corpus at once, and lets the page show how far it got:

>>> from bpe_core import train
>>> tok = train({"hug": 10, "pug": 5}, unit="char", pretokenizer="whitespace", max_merges=2,
...             min_frequency=1)
>>> docs = ["hug pug", "hug hug", "pug"]
>>> frequencies(tok, docs, report=Reporter(None)) == token_frequencies(tok, docs)
True
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping, Sequence

from bpe_core import Tokenizer
from bpe_core.analysis.vocabulary import token_frequencies
from bpe_core.training.counting import batches

from ..shared.jobs import Reporter

#: Corpora of this many characters or more are counted in a worker. Inline, 1,000,000
#: characters of English (linux-doc) take 0.10 s with a tokenizer trained here (it counts
#: words) and 0.12 s with one read from a tokenizer.json (it encodes the documents), about as
#: long as starting a job and following it; the bundled default corpus, 227,000, takes 0.04 s.
#: A 10 MB upload would hold every session's reruns for about a second, 200 MB for 20 s.
BACKGROUND_CHARS = 1_000_000
#: Progress is reported after each of about this many batches of documents.
BATCHES = 20


def frequencies(tok: Tokenizer, corpus: Sequence[str] | Mapping[str, int], *,
                report: Reporter) -> Counter:
    """The counting job: ``token_frequencies(tok, corpus)`` of documents or word counts,
    documents a batch at a time (a batch's words met before are found in the tokenizer's cache).
    One long document, such as an uploaded text file, is one batch."""
    if isinstance(corpus, Mapping):
        return token_frequencies(tok, corpus)
    total = sum(map(len, corpus))
    freq: Counter = Counter()
    done = 0
    for batch in batches(corpus, total // BATCHES + 1):
        report.progress(done / (total or 1), f"{done:,} of {total:,} characters")
        freq.update(token_frequencies(tok, batch))
        done += sum(map(len, batch))
    return freq
