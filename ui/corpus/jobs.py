"""The Corpus page's long work: reading uploads and counting a corpus's statistics.

Both run in the session's thread for a small corpus and in a worker process
(:mod:`ui.shared.jobs`) from :data:`BACKGROUND_SIZE` on. This module imports only the engine, so
that a worker starts it in milliseconds (pandas, which the page's other modules load, would cost
each job half a second). Reading is plain Python, so it is tested without a browser:

>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(64)
>>> result = read_uploads([("notes.txt", b"set new new\\n"), ("cat.txt", png)])
>>> result.documents, result.loaded
(('set new new\\n',), ('notes.txt',))
>>> [name for name, _ in result.errors]
['cat.txt']
>>> count(["set new new"], "whitespace", report=Reporter(None)).top_words
[('new', 2), ('set', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Sequence

from bpe_core.analysis.stats import CorpusStats, corpus_stats
from bpe_core.analysis.uploads import CorpusError, is_plain_text, iter_upload

from ..shared.jobs import Reporter

#: Uploads of this many bytes or more are read, and corpora of this many characters or more are
#: counted, in a worker process. Below it the work takes a tenth of a second at most (counting
#: English runs at 13 to 18 million characters a second, made-up words at 8), which is quicker
#: inline than starting a job and following it.
BACKGROUND_SIZE = 1_000_000
TOP_WORDS = 500
PREVIEW_CHARS = 2000
#: A top word longer than this is kept cut, ending in "…": the table's cell shows some 30
#: characters, and the statistics are kept for every session (``background.kept``, 64 of them)
#: after the corpus is gone. Uncut, with the "none" pre-tokenizer the top words are whole
#: documents, and each statistics kept held a copy of a whole corpus.
TOP_WORD_CHARS = 200
_PROGRESS_STEP = 0.01  # report reading progress at most once per percent

#: ``progress(fraction, message)``: how far a long job has got, from 0.0 to 1.0.
Progress = Callable[[float, str], object]


def read(files: Sequence[tuple[str, bytes]], fields: Sequence[str | None], *,
         report: Reporter) -> UploadResult:
    """The reading job: :func:`read_uploads` with its progress sent to the page."""
    return read_uploads(files, fields=fields, progress=report.progress)


def count(documents: Sequence[str], pretokenizer: str, *, report: Reporter) -> CorpusStats:
    """The counting job: :func:`corpus_stats` of ``documents`` with the page's top words and
    preview, its progress sent to the page. (``report`` may be anything with the ``progress``
    method of a :class:`Reporter`: inline, the page's own progress bar.)"""
    total = sum(len(d) for d in documents) or 1

    def tick(n_bytes: int, n_characters: int) -> None:
        report.progress(min(1.0, n_characters / total), f"{n_bytes / 2**20:,.1f} MB read")

    stats = corpus_stats(documents, pretokenizer=pretokenizer, top=TOP_WORDS,
                         preview_chars=PREVIEW_CHARS, progress=tick)
    return replace(stats, top_words=[(cut_word(w), n) for w, n in stats.top_words])


def cut_word(word: str) -> str:
    """``word``, or its first :data:`TOP_WORD_CHARS` characters and "…" when it is longer.

    >>> cut_word("hug"), len(cut_word("x" * 10_000))
    ('hug', 201)
    """
    return word if len(word) <= TOP_WORD_CHARS else word[:TOP_WORD_CHARS] + "…"


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
