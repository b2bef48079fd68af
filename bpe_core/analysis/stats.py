"""Corpus statistics for the Corpus page, gathered in one streaming pass over the documents.

>>> stats = corpus_stats(["the cat and the hat\\n"])
>>> stats.words, stats.unique_words, stats.top_words[:2]
(5, 4, [('the', 2), ('cat', 1)])
>>> stats.scripts
{'Latin': 15, 'Common': 5}
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from ..presets import piece_finder, resolve
from ..training.counting import text_parts
from .scripts import script_counts

#: ``progress`` is called each time about this many more bytes have been read, and at the end.
PROGRESS_EVERY = 1024 * 1024


@dataclass(frozen=True)
class CorpusStats:
    """What a corpus holds. Words are the pieces of the chosen pre-tokenizer."""

    bytes: int  # UTF-8
    characters: int
    lines: int
    words: int
    unique_words: int
    top_words: list[tuple[str, int]]  # most frequent first, ties in order of first appearance
    scripts: dict[str, int]  # script -> characters, largest first
    preview: str  # the start of the corpus, documents separated by newlines


def corpus_stats(
    documents: Iterable[str],
    *,
    pretokenizer: str = "whitespace",
    top: int = 20,
    preview_chars: int = 2000,
    progress: Callable[[int, int], object] | None = None,
) -> CorpusStats:
    """Count bytes, characters, lines, words and scripts of ``documents``, one at a time.

    A line is a run of text ended by "\\n", "\\r\\n", a lone "\\r" (old Mac files) or the end of a
    document, so documents cut after newlines (as :func:`bpe_core.analysis.uploads.iter_upload`
    cuts text files) count like one text.
    ``progress(bytes, characters)`` receives how much has been read so far, in UTF-8 bytes and
    in characters.

    >>> corpus_stats(["a b", "b\\nc\\n"], top=1).lines, corpus_stats(["a\\r\\nb\\rc\\r"]).lines
    (3, 3)
    """
    _, pattern = resolve(pretokenizer)  # a bad custom regex fails here, before any reading
    findall = piece_finder(pattern)
    words: Counter[str] = Counter()  # insertion order = first appearance, which breaks ties
    scripts: Counter[str] = Counter()
    n_bytes = n_characters = n_lines = reported = 0
    preview: list[str] = []
    preview_left = preview_chars
    for document in documents:
        if not document:
            continue
        if preview_left > 0 and preview and not preview[-1].endswith(("\n", "\r")):
            preview.append("\n")
            preview_left -= 1
        # A long document (a whole uploaded file) is read in parts, so that it never has all its
        # pieces in memory at once and progress is reported within it.
        for part in text_parts(document, pattern):
            # surrogatepass: a lone surrogate (possible from JSON "\ud800") must not stop the count
            n_bytes += len(part.encode("utf-8", "surrogatepass"))
            n_characters += len(part)
            # Parts are never cut between "\r" and "\n", so a CRLF counts once.
            n_lines += part.count("\n") + part.count("\r") - part.count("\r\n")
            words.update(findall(part))  # Counter's C loop over findall's list
            scripts.update(script_counts(part))
            if preview_left > 0:
                preview.append(part[:preview_left])
                preview_left -= len(preview[-1])
            if progress is not None and n_bytes - reported >= PROGRESS_EVERY:
                progress(n_bytes, n_characters)
                reported = n_bytes
        n_lines += not document.endswith(("\n", "\r"))
    if progress is not None:
        progress(n_bytes, n_characters)
    words.pop("", None)  # a pattern such as \w* also matches the empty string between words
    return CorpusStats(
        bytes=n_bytes,
        characters=n_characters,
        lines=n_lines,
        words=words.total(),
        unique_words=len(words),
        top_words=words.most_common(top),
        scripts=dict(sorted(scripts.items(), key=lambda item: -item[1])),
        preview="".join(preview),
    )
