"""The Languages page's long work: encoding a large parallel corpus with each tokenizer, and
training the balanced tokenizer on one.

The page's measurements encode every sentence once per tokenizer (the tables), and once per
merge count for the tokenizer in detail (premium against vocabulary size). When that is
:data:`BACKGROUND_CHARACTERS` characters or more, it runs in a worker process
(:mod:`ui.shared.jobs`); the bundled sample, 49,000 characters, stays inline. This module
imports only the engine, so that a worker starts it in milliseconds.

>>> from bpe_core import train
>>> from bpe_core.analysis.parallel import read_table
>>> corpus = read_table("p.tsv", "en\\tru\\nthe cat\\tкот\\n".encode())
>>> tok = train(["the cat the cat"], unit="byte", max_merges=5, min_frequency=1)
>>> [c.tokens for c in count_all([("mine", tok)], corpus, ["English", "Russian"],
...                               report=Reporter(None))]
[{'en': (2,), 'ru': (6,)}]
>>> characters(corpus)
10
"""

from __future__ import annotations

from typing import Sequence

import bpe_core
from bpe_core import Tokenizer
from bpe_core.analysis import premium
from bpe_core.analysis.parallel import ParallelCorpus

from ..shared.jobs import Reporter

#: Characters to encode (the corpus's characters times the tokenizers, or times the merge
#: counts) from which the page measures in a worker. A byte-level tokenizer meeting text for the
#: first time encodes about 0.9 million characters a second, so below it the page waits about
#: half a second at most; the bundled sample stays inline with up to ten tokenizers.
BACKGROUND_CHARACTERS = 500_000


def characters(corpus: ParallelCorpus) -> int:
    """How many characters the corpus holds, every language together."""
    return sum(len(s) for column in corpus.columns for s in column)


def count_all(tokenizers: Sequence[tuple[str, Tokenizer]], corpus: ParallelCorpus,
              labels: Sequence[str], *, report: Reporter) -> list[premium.Counts]:
    """The counting job: :func:`premium.count_tokens` of each tokenizer, in order. Progress
    names the tokenizer and the language (``labels``, one per language, as the page shows
    them; the tokenizers' names likewise)."""
    steps = len(tokenizers) * len(corpus.codes) or 1
    done = []
    for i, (name, tok) in enumerate(tokenizers):
        def tick(k: int, i: int = i, name: str = name) -> None:
            report.progress((i * len(corpus.codes) + k) / steps, f"{name}: {labels[k]}")

        done.append(premium.count_tokens(tok, corpus, progress=tick))
    return done


def curve(tok: Tokenizer, corpus: ParallelCorpus, baseline: str, merge_counts: Sequence[int],
          *, report: Reporter) -> dict[str, list[float]]:
    """The curve job: :func:`premium.premium_curve`, its progress at each merge count."""
    def tick(i: int) -> None:
        report.progress(i / len(merge_counts), f"{merge_counts[i]:,} merges")

    return premium.premium_curve(tok, corpus, baseline=baseline, merge_counts=merge_counts,
                                 progress=tick)


#: Characters of training sentences from which the balanced tokenizer trains in a worker: about
#: half a second of training inline (the bundled sample's 38,000 take 0.1 s).
TRAIN_CHARACTERS = 1_000_000


def train_balanced(sentences: Sequence[str], vocab_size: int, *, report: Reporter) -> Tokenizer:
    """Byte-level BPE with the GPT-2 pre-tokenizer on every language's training sentences."""
    report.progress(0.0, f"{vocab_size:,} tokens from {sum(map(len, sentences)):,} characters")
    return bpe_core.train(sentences, vocab_size, unit="byte", pretokenizer="gpt2",
                          min_frequency=2, processes=1)
