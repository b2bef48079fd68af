"""Parallel corpora: the same sentences in several languages, aligned one sentence per row.

A parallel corpus is read from one CSV/TSV with a column per language, or from several text
files aligned by line, the language taken from each file name. Languages are recognised by
code or name from ``languages.json`` (beside this module), which also says their script and
whether they put spaces between words.

>>> corpus = read_table("hello.csv", "en,French\\nGood morning.,Bonjour.\\n".encode())
>>> corpus.codes, corpus.sentences("fr")
(('en', 'fr'), ('Bonjour.',))
>>> read_line_files([("en.txt", b"One\\nTwo\\n"), ("de.txt", b"Eins\\n")])
Traceback (most recent call last):
...
bpe_core.analysis.parallel.ParallelCorpusError: The files are not aligned by line: de.txt ends after line 1 but en.txt has 2 lines. Each file needs one sentence per line, the same sentences in the same order.

Everything a user can get wrong raises :class:`ParallelCorpusError`, saying which file, column
and line to fix.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import PurePosixPath
from typing import Sequence

from .scripts import dominant_script
from .uploads import CorpusError, decode_text

#: Sentences per language the measurements take; longer uploads keep their first ones.
MAX_SENTENCES = 500
#: Longer average words than this mean a language does not separate its words with spaces.
_MAX_WORD_CHARS = 12
#: Scripts whose languages do not separate words with spaces, however short the sentences.
_UNSPACED_SCRIPTS = {"Han", "Hiragana", "Katakana", "Thai", "Lao", "Khmer", "Myanmar", "Tibetan"}
_TABLE_EXTENSIONS = (".csv", ".tsv")


class ParallelCorpusError(ValueError):
    """Input that cannot be read as a parallel corpus; the message says where and what to do."""


@dataclass(frozen=True)
class Language:
    code: str
    name: str
    script: str  # the Unicode script most of its letters are in ("Japanese" for kana + kanji)
    spaces: bool  # whether words are separated by spaces (so tokens per word make sense)


@dataclass(frozen=True)
class ParallelCorpus:
    """Sentences per language, aligned: ``sentences(code)[i]`` are translations of each other."""

    name: str
    languages: tuple[Language, ...]
    columns: tuple[tuple[str, ...], ...]  # one per language, in the same order
    dropped: int = 0  # sentences beyond MAX_SENTENCES that were left out
    digest: str = field(default="", compare=False)

    def __post_init__(self):
        h = hashlib.blake2b(digest_size=16)
        for lang, column in zip(self.languages, self.columns):
            h.update(f"{lang.code}\x00{lang.spaces}\x00".encode())
            for sentence in column:
                h.update(sentence.encode("utf-8", "surrogatepass") + b"\x01")
        object.__setattr__(self, "digest", h.hexdigest())

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(lang.code for lang in self.languages)

    @property
    def n_sentences(self) -> int:
        return len(self.columns[0]) if self.columns else 0

    def language(self, code: str) -> Language:
        return self.languages[self.codes.index(code)]

    def sentences(self, code: str) -> tuple[str, ...]:
        return self.columns[self.codes.index(code)]


@lru_cache(maxsize=1)
def known_languages() -> tuple[Language, ...]:
    """The languages recognised in upload headers and file names (``languages.json``)."""
    text = resources.files(__package__).joinpath("languages.json").read_text(encoding="utf-8")
    return tuple(Language(**entry) for entry in json.loads(text))


def identify(label: str, texts: Sequence[str] = ()) -> Language:
    """The language a column header or file name stands for: a known code or name, else ``label``
    itself, with the script and word spacing read from ``texts``.

    >>> identify("Hindi").code, identify("EN").name, identify("klingon", ["Qapla'"]).script
    ('hi', 'English', 'Latin')
    """
    key = label.strip().casefold()
    for lang in known_languages():
        if key in (lang.code.casefold(), lang.name.casefold()):
            return lang
    text = " ".join(texts)
    script, words = dominant_script(text), len(text.split())
    spaces = script not in _UNSPACED_SCRIPTS and words > 0 and len(text) / words <= _MAX_WORD_CHARS
    return Language(label.strip(), label.strip(), script, spaces)


def read_upload(files: Sequence[tuple[str, bytes]]) -> ParallelCorpus:
    """One CSV/TSV table, or several text files aligned by line: ``[(file name, bytes), ...]``."""
    if not files:
        raise ParallelCorpusError("Choose a CSV/TSV table, or at least two text files.")
    tables = [n for n, _ in files if PurePosixPath(n.lower()).suffix in _TABLE_EXTENSIONS]
    if len(files) == 1 and tables:
        return read_table(*files[0])
    if tables:
        raise ParallelCorpusError(
            f"{tables[0]} is a table: upload a table on its own (one column per language), "
            f"or only text files (one per language, aligned by line)."
        )
    return read_line_files(files)


def read_table(file_name: str, data: bytes, *, name: str | None = None) -> ParallelCorpus:
    """A CSV/TSV table: a header of language codes or names, then one sentence per row."""
    text = _decode(file_name, data)
    first = text.split("\n", 1)[0]
    delimiter = "\t" if file_name.lower().endswith(".tsv") else max(",;\t", key=first.count)
    # TSV has no quoting: a quote inside a sentence is just a character.
    options = {"quoting": csv.QUOTE_NONE} if delimiter == "\t" else {}
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, **options)
    rows: list[tuple[int, list[str]]] = []
    try:
        header = [cell.strip() for cell in next(reader, [])]
        for row in reader:
            if any(cell.strip() for cell in row):  # blank lines separate nothing: skip them
                rows.append((reader.line_num, [cell.strip() for cell in row]))
    except csv.Error as exc:
        raise ParallelCorpusError(f"{file_name}, line {reader.line_num}: {exc}. Check the quotes "
                                  f"on that line, or export the table again.") from None
    _check_header(file_name, header)
    if not rows:
        raise ParallelCorpusError(f"{file_name} has a header but no sentences below it.")
    for line, row in rows:
        if len(row) != len(header):
            raise ParallelCorpusError(
                f"{file_name}, line {line}: {len(row)} cells, but the header names {len(header)} "
                f"languages ({', '.join(header)}). Each line needs one sentence per language"
                f"{' separated by tabs' if delimiter == chr(9) else ''}.")
        for label, cell in zip(header, row):
            if not cell:
                raise ParallelCorpusError(
                    f"{file_name}, line {line}: the {label!r} cell is empty. Every language "
                    f"needs the sentence on every line, or the counts would not compare.")
    columns = [[row[j] for _, row in rows] for j in range(len(header))]
    return _assemble(name or file_name, header, columns)


def read_line_files(files: Sequence[tuple[str, bytes]], *,
                    name: str | None = None) -> ParallelCorpus:
    """Several text files, one per language, sentence ``i`` on line ``i`` of each."""
    if len(files) < 2:
        raise ParallelCorpusError("Upload at least two text files, one per language "
                                  "(e.g. en.txt and fr.txt), aligned by line.")
    labels, columns = [], []
    for file_name, data in files:
        lines = [line.strip() for line in _decode(file_name, data).splitlines()]
        while lines and not lines[-1]:
            lines.pop()  # a final newline (or several) is not a sentence
        for i, line in enumerate(lines, start=1):
            if not line:
                raise ParallelCorpusError(
                    f"{file_name}, line {i} is empty. Each line must hold one sentence, "
                    f"in the same order as the other files.")
        if not lines:
            raise ParallelCorpusError(f"{file_name} holds no sentences.")
        labels.append(_label_of(file_name))
        columns.append(lines)
    longest = max(range(len(files)), key=lambda j: len(columns[j]))
    for (file_name, _), lines in zip(files, columns):
        if len(lines) != len(columns[longest]):
            raise ParallelCorpusError(
                f"The files are not aligned by line: {file_name} ends after line {len(lines)} "
                f"but {files[longest][0]} has {len(columns[longest])} lines. Each file needs one "
                f"sentence per line, the same sentences in the same order.")
    names = ", ".join(n for n, _ in files)
    _check_header(names, labels, what="file names give")
    return _assemble(name or f"{len(files)} files", labels, columns)


def _decode(file_name: str, data: bytes) -> str:
    try:
        return decode_text(data, name=file_name)
    except CorpusError as exc:
        raise ParallelCorpusError(str(exc)) from None


def _label_of(file_name: str) -> str:
    """The language in a file name: ``en.txt``, ``flores.fr.txt``, ``hindi-sentences.txt``…"""
    stem = PurePosixPath(file_name).name
    stem = stem.rsplit(".", 1)[0] if "." in stem else stem
    for part in [stem] + re.split(r"[._\-\s]+", stem)[::-1]:
        if part and identify(part) in known_languages():
            return part
    return stem


def _check_header(where: str, labels: Sequence[str], *, what: str = "header names") -> None:
    if len(labels) < 2:
        raise ParallelCorpusError(f"{where}: the {what} {len(labels)} language(s); a comparison "
                                  f"needs at least two (one column or file per language).")
    for i, label in enumerate(labels, start=1):
        if not label:
            raise ParallelCorpusError(f"{where}: column {i} of the header has no name; name it "
                                      f"with a language code (en) or name (English).")
    codes = [identify(label).code for label in labels]
    for i, code in enumerate(codes):
        if code in codes[:i]:
            first = labels[codes.index(code)]
            raise ParallelCorpusError(f"{where}: {first!r} and {labels[i]!r} are the same "
                                      f"language ({code}); keep one of them.")


def _assemble(name: str, labels: Sequence[str], columns: Sequence[list[str]]) -> ParallelCorpus:
    n = len(columns[0])
    kept = [tuple(col[:MAX_SENTENCES]) for col in columns]
    languages = tuple(identify(label, col) for label, col in zip(labels, kept))
    return ParallelCorpus(name, languages, tuple(kept), dropped=max(0, n - MAX_SENTENCES))
