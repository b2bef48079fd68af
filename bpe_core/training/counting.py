"""Counting words: the corpus reduced to ``piece -> count`` before training.

BPE training never needs the corpus itself, only how often each pre-tokenized piece occurs, so a
big file is read streaming and memory holds the counts. Counts keep the order in which pieces
first appear, which is what the "first" tie rule is defined on.

>>> count_words("the cat and the hat", r"\\S+")
{'the': 2, 'cat': 1, 'and': 1, 'hat': 1}
"""

from __future__ import annotations

import codecs
import operator
import os
from collections import Counter, deque
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Union

import regex

from ..presets import PRESETS, iter_pieces, piece_finder, resolve, special_splitter
from ..workers import worker_pool

Corpus = Union[str, os.PathLike, Iterable[str], Mapping[str, int]]

CHUNK_CHARS = 1 << 18  # small enough to share a corpus evenly among workers
# An uncut text longer than this is matched piece by piece rather than all at once.
LONG_TEXT_CHARS = 4 << 20
# Below this much text, starting worker processes costs more than it saves.
PARALLEL_MIN_CHARS = 4 << 20
# The most text one worker counts in one go (its documents are held meanwhile, and this process
# holds at most one more batch per worker).
BATCH_CHARS = 4 << 20

# Where a long text may be cut so that counting the parts separately gives exactly the counts of
# the whole: before a space that follows a non-space, or after a newline that follows a
# non-space and comes before a letter. No preset puts "non-space, space" or "newline, letter"
# inside one piece, and a piece that ends just before the cut ends there whether or not the text
# goes on: the only parts of the presets that look past a piece's end ($ and (?!\S)) belong to
# whitespace pieces, and those never end at a non-space. (A newline before the cut becomes the
# same one-character piece either way.) Custom regexes promise nothing of the kind, and "none"
# is one piece by definition: their texts are never cut.
_CUT = regex.compile(r"(?<=\S)(?= )|(?<=\S\n)(?=\p{L})")
_CUTTABLE = frozenset(p for name, p in PRESETS.items() if name != "none")
_second = operator.itemgetter(1)


class CorpusReadError(ValueError):
    """A corpus that cannot be read as text."""


def _split_off(text: str, size: int) -> tuple[list[str], str]:
    """Cut parts of at least ``size`` characters off ``text`` at safe places; return the rest."""
    parts, start = [], 0
    while len(text) - start > size:
        m = _CUT.search(text, start + size)
        if m is None:
            break
        parts.append(text[start:m.start()])
        start = m.start()
    return parts, text[start:]


def _file_text(path: Path, cuttable: bool) -> Iterator[str]:
    """Read a UTF-8 text file in ~1 MB parts cut at safe places (whole when not ``cuttable``)."""
    size = CHUNK_CHARS
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            if not cuttable:
                yield f.read()
                return
            rest = ""
            while True:
                block = f.read(size)
                if not block:
                    break
                parts, rest = _split_off(rest + block, size)
                yield from parts
            if rest:
                yield rest
    except UnicodeDecodeError:
        # (The error counts from the start of the block it was decoding: "byte 13 of a block"
        # said nothing of where. The file is read again to say where, in bytes.)
        raise _not_utf8(path) from None
    except OSError as exc:
        raise CorpusReadError(f"cannot read corpus file {path}: {exc.strerror}") from None


def not_utf8(name: object, exc: UnicodeDecodeError, offset: int) -> CorpusReadError:
    """The error for text ``name`` that stops being UTF-8 at byte ``offset`` (``exc``, raised
    by decoding it: its byte and its reason).

    >>> data = "café".encode("latin-1")
    >>> try:
    ...     data.decode("utf-8")
    ... except UnicodeDecodeError as exc:
    ...     print(not_utf8("menu.txt", exc, exc.start))  # doctest: +ELLIPSIS
    menu.txt is not valid UTF-8: byte 0xe9 at byte offset 3 (unexpected end of data); re-save...
    """
    return CorpusReadError(f"{name} is not valid UTF-8: byte 0x{exc.object[exc.start]:02x} at "
                           f"byte offset {offset} ({exc.reason}); re-save it as UTF-8 text")


def _not_utf8(path: Path) -> CorpusReadError:
    """The error for a file that is not UTF-8, found again block by block in its bytes."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    done = 0  # bytes handed to the decoder, some of them held as the start of a character
    with open(path, "rb") as f:
        while True:
            block = f.read(1 << 20)
            held = len(decoder.getstate()[0])
            try:
                decoder.decode(block, final=not block)
            except UnicodeDecodeError as exc:  # (counted from the first byte held)
                return not_utf8(path, exc, done - held + exc.start)
            if not block:  # (changed since it was read: the first error stands, unplaced)
                return CorpusReadError(f"{path} is not valid UTF-8; re-save it as UTF-8 text")
            done += len(block)


def read_files(paths: Iterable[str | os.PathLike]) -> Iterator[str]:
    """Stream several UTF-8 text files as ~1 MB documents, one file after another.

    The parts of a file are cut where every preset pre-tokenizer gives the same pieces as for
    the whole file.
    """
    for path in paths:
        yield from _file_text(Path(path), True)


def text_parts(text: str, pattern: str) -> Iterator[str]:
    """``text`` in parts of about :data:`CHUNK_CHARS` characters, cut where a preset
    ``pattern`` gives the same pieces as for the whole text (a custom regex: the text whole).

    >>> [len(p) for p in text_parts("word " * 100_000, PRESETS["gpt2"])]
    [262144, 237856]
    """
    return _documents((text,), pattern in _CUTTABLE)


def documents(corpus: Corpus) -> Iterator[str]:
    """The texts of a corpus (a str, a path, or an iterable of documents), one by one."""
    return _documents(corpus, False)


def _documents(corpus, cuttable: bool) -> Iterator[str]:
    """The corpus as texts to count one by one (long ones cut when ``cuttable``)."""
    if isinstance(corpus, os.PathLike):
        yield from _file_text(Path(corpus), cuttable)
        return
    docs = [corpus] if isinstance(corpus, str) else corpus
    for doc in docs:
        if not isinstance(doc, str):
            raise TypeError(f"corpus items must be str, got {type(doc).__name__}")
        if cuttable:
            parts, rest = _split_off(doc, CHUNK_CHARS)
            yield from parts
            if rest:
                yield rest
        else:
            yield doc


def _count_into(counts: Counter, text: str, pattern: str, specials: tuple[str, ...]) -> None:
    splitter = special_splitter(specials)
    # Special tokens are cut out first, so no piece ever spans one.
    for part in splitter.split(text) if splitter else (text,):
        if len(part) > LONG_TEXT_CHARS:  # an uncut long text: never hold all its pieces at once
            # (a user's regex within its time limit, as everywhere)
            counts.update(map(_second, iter_pieces(part, pattern)))
        else:
            counts.update(piece_finder(pattern)(part))  # Counter's C loop over the list


def _count_batch(args: tuple[list[str], str, tuple[str, ...]]) -> Counter:
    docs, pattern, specials = args
    counts: Counter = Counter()
    for doc in docs:
        _count_into(counts, doc, pattern, specials)
    return counts


def batches(docs: Iterable[str], size: int) -> Iterator[list[str]]:
    """Consecutive documents grouped into lists of about ``size`` characters (a longer one
    alone).

    >>> [len(b) for b in batches(["ab", "c", "defg", "h"], 3)]
    [2, 1, 1]
    """
    batch, n = [], 0
    for doc in docs:
        batch.append(doc)
        n += len(doc)
        if n >= size:
            yield batch
            batch, n = [], 0
    if batch:
        yield batch


def count_words(corpus: Corpus, pattern: str, *, special_tokens: Iterable[str] = (),
                processes: int | None = 1) -> dict[str, int]:
    """Count the pieces of ``corpus`` under the pre-tokenizer ``pattern``: a regex, or a preset's
    name as ``train`` takes it (``"whitespace"``, ``"gpt2"``, ...).

    ``corpus`` is a str, an iterable of documents, a ``pathlib.Path`` to a UTF-8 text file (read
    streaming), or a mapping ``word -> count`` (taken as already counted). ``processes=None`` counts
    in this process: on 2 cores a second one never paid (10 MB: 0.65 s in one process, 0.78 s
    in two; 100 MB: 6.0 s and 7.6 s, with 109 MB + 2 x 50 MB of workers against 67 MB), as
    cutting, sending and merging the batches costs about what the second core saves. An
    explicit ``processes=n`` still spreads a corpus of 4 MB or more over n workers. The result
    is identical for any number of processes, and a file counts exactly as its text would.
    """
    if isinstance(corpus, Mapping):
        out = {}
        for word, n in corpus.items():
            if not isinstance(word, str) or not isinstance(n, int) or n < 0:
                raise TypeError("a word-count mapping must map str to a non-negative int")
            if word and n:
                out[word] = out.get(word, 0) + n
        return out
    _, pattern = resolve(pattern)  # else "whitespace" ran as a regex and counted nothing
    specials = tuple(special_tokens)
    # A cut inside a special token's text would hide it; only ones holding a space or a
    # newline can straddle a cut.
    cuttable = pattern in _CUTTABLE and not any(" " in s or "\n" in s for s in specials)
    processes = processes or 1
    docs = _documents(corpus, cuttable)
    total: Counter = Counter()
    size = _size(corpus)
    if processes > 1 and size >= PARALLEL_MIN_CHARS:
        # One batch of documents per process when the size is known (a stream: batches of
        # BATCH_CHARS): merging a worker's counts into the total is a Python loop over its
        # words, so fewer, bigger batches leave less of it to this process.
        chars = min(-(-size // processes), BATCH_CHARS) if size < _UNKNOWN else BATCH_CHARS
        with worker_pool(processes) as pool:
            # A batch is read only when a worker is about to need it: at most one waits per
            # worker, so this process never holds more than a few batches of text. Counts are
            # merged in corpus order, so that first appearances are kept.
            pending: deque = deque()
            for batch in batches(docs, chars):
                pending.append(pool.apply_async(_count_batch, ((batch, pattern, specials),)))
                if len(pending) > processes:
                    total.update(pending.popleft().get())
            while pending:
                total.update(pending.popleft().get())
    else:
        for doc in docs:
            _count_into(total, doc, pattern, specials)
    total.pop("", None)
    return dict(total)


_UNKNOWN = 1 << 62


def _size(corpus) -> int:
    """About how many characters ``corpus`` holds (bytes for a file; _UNKNOWN for a stream)."""
    if isinstance(corpus, os.PathLike):
        try:
            return os.path.getsize(corpus)
        except OSError:
            return 0  # reading it will say what is wrong
    if isinstance(corpus, str):
        return len(corpus)
    if isinstance(corpus, (list, tuple)):
        return sum(len(d) for d in corpus if isinstance(d, str))
    return _UNKNOWN  # a stream of documents: its size is not known up front
