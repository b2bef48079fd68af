"""Counting words: the corpus reduced to ``piece -> count`` before training.

BPE training never needs the corpus itself, only how often each pre-tokenized piece occurs, so a
big file is read streaming and memory holds the counts. Counts keep the order in which pieces
first appear, which is what the "first" tie rule is defined on.

>>> count_words("the cat and the hat", r"\\S+")
{'the': 2, 'cat': 1, 'and': 1, 'hat': 1}
"""

from __future__ import annotations

import os
from collections import Counter
from multiprocessing import get_context
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Union

import regex

from .pretokenize import compile_pattern, special_splitter

Corpus = Union[str, os.PathLike, Iterable[str], Mapping[str, int]]

CHUNK_CHARS = 1 << 20
# Below this much text, starting worker processes costs more than it saves.
PARALLEL_MIN_CHARS = 4 << 20
# A chunk may end only before a line that starts with a letter: no preset pattern (nor the
# whitespace ones) can put a newline and a following letter into one piece, so counting the
# chunks separately gives exactly the counts of the whole text.
_SAFE_CUT = regex.compile(r"\n(?=\p{L})")


class CorpusReadError(ValueError):
    """A corpus that cannot be read as text."""


def _cut(text: str, size: int = CHUNK_CHARS) -> Iterator[str]:
    """Cut a long text into pieces of about ``size`` characters at safe places."""
    start = 0
    while len(text) - start > size:
        m = _SAFE_CUT.search(text, start + size)
        if m is None:
            break
        yield text[start:m.end()]
        start = m.end()
    if start < len(text):
        yield text[start:]


def _file_chunks(path: Path) -> Iterator[str]:
    """Read a UTF-8 text file in ~1 MB chunks, cut at safe line starts."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            carry = ""
            while True:
                block = f.read(CHUNK_CHARS)
                if not block:
                    break
                text = carry + block
                m = None
                for m in _SAFE_CUT.finditer(text, max(0, len(text) - CHUNK_CHARS // 2)):
                    pass
                if m is None:  # no safe cut yet: keep reading
                    carry = text
                    continue
                yield text[:m.end()]
                carry = text[m.end():]
            if carry:
                yield carry
    except UnicodeDecodeError as exc:
        raise CorpusReadError(
            f"{path} is not valid UTF-8 (byte {exc.start} of a block: {exc.reason}); "
            f"re-save it as UTF-8 text"
        ) from None
    except OSError as exc:
        raise CorpusReadError(f"cannot read corpus file {path}: {exc.strerror}") from None


def read_files(paths: Iterable[str | os.PathLike]) -> Iterator[str]:
    """Stream several UTF-8 text files as ~1 MB documents, one file after another."""
    for path in paths:
        yield from _file_chunks(Path(path))


def _documents(corpus, pattern: str) -> Iterator[str]:
    whole_stream = pattern == r"[\s\S]+"  # the "none" preset: never cut the stream
    if isinstance(corpus, os.PathLike):
        if whole_stream:
            yield "".join(_file_chunks(Path(corpus)))
        else:
            yield from _file_chunks(Path(corpus))
    elif isinstance(corpus, str):
        yield from ([corpus] if whole_stream else _cut(corpus))
    else:
        for doc in corpus:
            if not isinstance(doc, str):
                raise TypeError(f"corpus items must be str, got {type(doc).__name__}")
            yield from ([doc] if whole_stream else _cut(doc))


def _count_chunk(args: tuple[str, str, tuple[str, ...]]) -> Counter:
    text, pattern, specials = args
    findall = compile_pattern(pattern).findall
    splitter = special_splitter(specials)
    # Special tokens are cut out first, so no piece ever spans one.
    parts = splitter.split(text) if splitter else (text,)
    counts: Counter = Counter()
    for part in parts:
        counts.update(findall(part))
    counts.pop("", None)
    return counts


def count_words(corpus: Corpus, pattern: str, *, special_tokens: Iterable[str] = (),
                processes: int | None = 1) -> dict[str, int]:
    """Count the pieces of ``corpus`` under the pre-tokenizer regex ``pattern``.

    ``corpus`` is a str, an iterable of documents, a ``pathlib.Path`` to a UTF-8 text file (read
    streaming), or a mapping ``word -> count`` (taken as already counted). ``processes=None`` uses
    every core for large corpora; the result is identical for any number of processes.
    """
    if isinstance(corpus, Mapping):
        out = {}
        for word, n in corpus.items():
            if not isinstance(word, str) or not isinstance(n, int) or n < 0:
                raise TypeError("a word-count mapping must map str to a non-negative int")
            if word and n:
                out[word] = out.get(word, 0) + n
        return out
    specials = tuple(special_tokens)
    if processes is None:
        processes = os.cpu_count() or 1
    jobs = ((doc, pattern, specials) for doc in _documents(corpus, pattern))
    total: Counter = Counter()
    if processes > 1 and _large(corpus):
        with get_context("spawn" if os.name == "nt" else "fork").Pool(processes) as pool:
            for counts in pool.imap(_count_chunk, jobs, chunksize=1):
                total.update(counts)  # merged in corpus order: first appearances are kept
    else:
        for job in jobs:
            total.update(_count_chunk(job))
    return dict(total)


def _large(corpus) -> bool:
    if isinstance(corpus, os.PathLike):
        try:
            return os.path.getsize(corpus) >= PARALLEL_MIN_CHARS
        except OSError:
            return False
    if isinstance(corpus, str):
        return len(corpus) >= PARALLEL_MIN_CHARS
    return True  # an iterable of documents: size unknown up front
