"""The Corpus page's data side, without drawing: checking uploads, statistics of word counts,
the table of the most frequent words. Reading uploads and counting a corpus's statistics
are in :mod:`ui.corpus.jobs`, which worker processes import.
"""

from __future__ import annotations

from collections import Counter
from typing import Mapping

import pandas as pd

from bpe_core.analysis.scripts import script_counts
from bpe_core.analysis.stats import CorpusStats
from bpe_core.analysis.uploads import CorpusError, iter_upload, upload_fields

from ..shared.tokens import readable
from ..shared.wording import WHITESPACE_WORDS, Units
from .jobs import TOP_WORDS


def inspect_upload(name: str, data: bytes) -> tuple[list[str], str | None]:
    """``(text fields to pick from, error message or None)`` for one upload, checked up front.

    Checks what can be told without reading the whole file: the type, the encoding and binary
    content at the start, a table's columns. ``[]`` fields means plain text.

    >>> inspect_upload("r.csv", b"id,review,title\\n1,Nice,A1\\n")
    (['review', 'title'], None)
    >>> inspect_upload("cat.png", b"\\x89PNG")[1].startswith("cat.png: unsupported file type .png")
    True
    """
    try:
        fields = upload_fields(name, data)
        if not fields:
            iter_upload(name, data)  # detects the encoding now; decoding happens on reading
    except CorpusError as exc:
        return [], str(exc)
    return fields, None


def counts_stats(counts: Mapping[str, int], *, top: int = TOP_WORDS) -> CorpusStats:
    """Statistics of a word-count corpus, each word taken as often as its count says.

    Such a corpus is a table, not running text: ``lines`` is 0 and the preview is empty.

    >>> s = counts_stats({"hug": 10, "pug": 5})
    >>> s.bytes, s.words, s.unique_words, s.top_words, s.scripts
    (45, 15, 2, [('hug', 10), ('pug', 5)], {'Latin': 45})
    """
    scripts: Counter[str] = Counter()
    for word, n in counts.items():
        for script, k in script_counts(word).items():
            scripts[script] += k * n
    return CorpusStats(
        bytes=sum(len(w.encode("utf-8", "surrogatepass")) * n for w, n in counts.items()),
        characters=sum(len(w) * n for w, n in counts.items()),
        lines=0,
        words=sum(counts.values()),
        unique_words=len(counts),
        top_words=Counter(counts).most_common(top),
        scripts=dict(scripts.most_common()),
        preview="",
    )


def top_words_table(stats: CorpusStats, *, pieces: Units = WHITESPACE_WORDS) -> pd.DataFrame:
    """The most frequent words (or pieces) with their counts and share of all of them.

    >>> top_words_table(counts_stats({"\\n": 3, "a b": 1}))["word"].tolist()
    ['↵', 'a·b']
    """
    words = max(stats.words, 1)
    return pd.DataFrame(
        {
            pieces.one: [readable(w) for w, _ in stats.top_words],
            "count": [n for _, n in stats.top_words],
            "share": [f"{n / words:.1%}" for _, n in stats.top_words],
        },
        index=pd.RangeIndex(1, len(stats.top_words) + 1, name="rank"),
    )
