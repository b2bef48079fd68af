"""The Corpus page's data side, without drawing: reading uploads, statistics of word counts.

Reading is plain Python, so it is tested without a browser:

>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(64)
>>> result = read_uploads([("notes.txt", b"set new new\\n"), ("cat.txt", png)])
>>> result.documents, result.loaded
(('set new new\\n',), ('notes.txt',))
>>> [name for name, _ in result.errors]
['cat.txt']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

import pandas as pd

from bpe_core.analysis.scripts import script_counts
from bpe_core.analysis.stats import CorpusStats
from bpe_core.analysis.uploads import CorpusError, is_plain_text, iter_upload, upload_fields

from ..shared.tokens import readable
from ..shared.wording import WHITESPACE_WORDS, Units

#: ``progress(fraction, message)``: how far a long job has got, from 0.0 to 1.0.
Progress = Callable[[float, str], object]

TOP_WORDS = 500
PREVIEW_CHARS = 2000
_PROGRESS_STEP = 0.01  # report reading progress at most once per percent


@dataclass(frozen=True)
class UploadResult:
    """What :func:`read_uploads` got: the documents of the good files, and why the others failed."""

    documents: tuple[str, ...] = ()
    loaded: tuple[str, ...] = ()  # names of the files read
    errors: tuple[tuple[str, str], ...] = ()  # (file name, message saying what to do)


def read_uploads(
    files: Sequence[tuple[str, bytes]],
    *,
    fields: Sequence[str | None] | None = None,
    progress: Progress | None = None,
) -> UploadResult:
    """Read ``(name, bytes)`` uploads into documents; a bad file is reported and the rest kept.

    A document is what the user gave: a text file, or a row of a table. ``fields[i]`` is the
    text column of table ``i`` (None: the best guess). A file fails as a whole: none of its
    text is kept if any part of it cannot be read.

    >>> read_uploads([("r.csv", b"id,review\\n1,Nice\\n2,Dull\\n")], fields=["review"]).documents
    ('Nice', 'Dull')
    >>> read_uploads([("blank.txt", b" \\n\\n")]).errors[0][1]
    'blank.txt holds only whitespace. Upload a file that contains some text.'
    """
    fields = list(fields) if fields is not None else [None] * len(files)
    total = sum(len(data) for _, data in files) or 1
    documents: list[str] = []
    loaded: list[str] = []
    errors: list[tuple[str, str]] = []
    done = reported = 0.0
    for (name, data), field in zip(files, fields, strict=True):
        expected = _unpacked_size(name, data)
        read = 0
        mine: list[str] = []
        try:
            for document in iter_upload(name, data, field=field):
                mine.append(document)
                read += len(document.encode("utf-8", "surrogatepass"))
                fraction = (done + len(data) * min(1.0, read / expected)) / total
                if progress is not None and fraction - reported >= _PROGRESS_STEP:
                    progress(fraction, f"Reading {name}: {read / 2**20:,.1f} MB of text")
                    reported = fraction
        except CorpusError as exc:
            errors.append((name, str(exc)))
        else:
            if all(document.isspace() for document in mine):
                what = "no text" if not mine else "only whitespace"
                errors.append((name, f"{name} holds {what}. "
                                     f"Upload a file that contains some text."))
            else:
                # A text file comes in chunks of lines, to report progress: it is one document.
                documents.extend(["".join(mine)] if is_plain_text(name) else mine)
                loaded.append(name)
        done += len(data)
    if progress is not None:
        progress(1.0, "Read all files")
    return UploadResult(tuple(documents), tuple(loaded), tuple(errors))


def _unpacked_size(name: str, data: bytes) -> int:
    """About how many bytes of text ``data`` holds, to measure reading progress against.

    A gzip file ends with the unpacked size modulo 2**32 (RFC 1952, ISIZE): exact below 4 GB.
    """
    if name.lower().endswith(".gz") and len(data) >= 18:
        return int.from_bytes(data[-4:], "little") or 1
    return max(len(data), 1)


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
