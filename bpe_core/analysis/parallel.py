"""Parallel corpora: the same sentences in several languages, aligned one sentence per row.

A parallel corpus is read from one CSV/TSV with a column per language, or from several text
files aligned by line, the language taken from each file name. Languages are recognised by
code (``pt_BR``, ``zh-Hant``) or by name in any language (``German``, ``Deutsch``) with
``langcodes``, which also names them in English and in themselves; ``languages.json`` (beside
this module) says the script and word spacing of common languages, and the text says them for
the rest.

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

import langcodes

from .scripts import dominant_script
from .upload_text import csv_rows
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
    code: str  # a BCP 47 tag ("zh-CN"), or the label as given for a language not recognised
    name: str  # in English: "Chinese (China)"
    script: str  # the Unicode script most of its letters are in ("Japanese" for kana + kanji)
    spaces: bool  # whether words are separated by spaces (so tokens per word make sense)
    native: str = ""  # in the language itself: "中文（中国）"

    @property
    def label(self) -> str:
        """Both names, or one when they are the same: "Chinese (China) — 中文（中国）".

        >>> identify("pt_BR").label, identify("en").label
        ('Portuguese (Brazil) — português (Brasil)', 'English')
        """
        return self.name if self.native in ("", self.name) else f"{self.name} — {self.native}"


@dataclass(frozen=True)
class ParallelCorpus:
    """Sentences per language, aligned: ``sentences(code)[i]`` are translations of each other."""

    name: str
    languages: tuple[Language, ...]
    columns: tuple[tuple[str, ...], ...]  # one per language, in the same order
    dropped: int = 0  # sentences beyond MAX_SENTENCES that were left out
    skipped: tuple[str, ...] = ()  # a table's columns left out for holding no letters (ids)
    first: int = 1  # the number of its first sentence in the corpus it was taken from
    digest: str = field(default="", compare=False)

    def __post_init__(self):
        # Each text hashed after its length, as no separator is safe: a sentence may hold one
        # (an 'a\x01b' once hashed as the two sentences 'a' and 'b', and the pages, which keep
        # what they measured by digest for every session, showed the other corpus's counts).
        h = hashlib.blake2b(digest_size=16)

        def add(text: str) -> None:
            data = text.encode("utf-8", "surrogatepass")
            h.update(len(data).to_bytes(8, "little") + data)

        for lang, column in zip(self.languages, self.columns):
            add(f"{lang.code} {lang.spaces} {len(column)}")
            for sentence in column:
                add(sentence)
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

    @property
    def numbers(self) -> range:
        """The sentences' numbers, counted from 1 in the corpus they were taken from."""
        return range(self.first, self.first + self.n_sentences)

    def rows(self, start: int, stop: int) -> ParallelCorpus:
        """Sentences ``start`` to ``stop - 1`` (counted from 0 in this corpus), every language."""
        return ParallelCorpus(self.name, self.languages,
                              tuple(column[start:stop] for column in self.columns),
                              first=self.first + start)


@dataclass(frozen=True)
class Split:
    """A corpus cut in two: sentences to train on, and held-out ones to score on."""

    train: ParallelCorpus
    held_out: ParallelCorpus

    @property
    def disjoint(self) -> bool:
        """False when the corpus was too small to hold any sentence out (both are all of it)."""
        return self.train.first != self.held_out.first


def split(corpus: ParallelCorpus, *, held_out: float = 0.25) -> Split:
    """The first sentences to train on and the last ``held_out`` share (at least one) to score
    on, so a tokenizer is not scored on the sentences it learned from. Always the same cut for
    the same corpus; a single sentence cannot be split, and is both.

    >>> text = "en,fr\\n" + "".join(f"one {i},un {i}\\n" for i in range(10))
    >>> corpus = read_table("t.csv", text.encode())
    >>> parts = split(corpus)
    >>> list(parts.train.numbers), list(parts.held_out.numbers), parts.held_out.sentences("fr")
    ([1, 2, 3, 4, 5, 6, 7, 8], [9, 10], ('un 8', 'un 9'))
    """
    n = corpus.n_sentences
    if n < 2:
        return Split(corpus, corpus)
    cut = n - min(n - 1, max(1, round(n * held_out)))
    return Split(corpus.rows(0, cut), corpus.rows(cut, n))


@lru_cache(maxsize=1)
def _traits() -> dict[str, tuple[str, bool]]:
    """Language subtag -> (script, spaces) of the common languages (``languages.json``)."""
    text = resources.files(__package__).joinpath("languages.json").read_text(encoding="utf-8")
    return {e["code"]: (e["script"], e["spaces"]) for e in json.loads(text)}


@lru_cache(maxsize=1024)
def _recognise(label: str) -> langcodes.Language | None:
    """The language ``label`` names, as a code (``pt_BR``) or a name (``Portuguese``)."""
    try:
        lang = langcodes.Language.get(label)
        if lang.language and lang.is_valid() and not _unnamed(lang):
            return lang
    except langcodes.LanguageTagError:
        pass
    try:
        return langcodes.find(label)
    except LookupError:
        return None


def _unnamed(lang: langcodes.Language) -> bool:
    # Well-formed codes with no language behind them (qaa: private use) have no name.
    return lang.display_name().startswith("Unknown language")


def recognised(label: str) -> bool:
    """Whether ``label`` names a language (for finding the language in a file name).

    >>> recognised("pt_BR"), recognised("Deutsch"), recognised("sentences")
    (True, True, False)
    """
    return _recognise(label.strip()) is not None


def identify(label: str, texts: Sequence[str] = ()) -> Language:
    """The language a column header or file name stands for: a code or name ``langcodes`` knows,
    else ``label`` itself; the script and word spacing from ``languages.json``, else read from
    ``texts``.

    >>> identify("Hindi").code, identify("EN").name, identify("klingon", ["Qapla'"]).script
    ('hi', 'English', 'Latin')
    >>> zh = identify("zh_CN")
    >>> zh.code, zh.label, zh.script
    ('zh-CN', 'Chinese (China) — 中文（中国）', 'Han')
    >>> identify("qaa", ["Some text"]).label  # a well-formed code naming no language
    'qaa'
    >>> romanized = identify("hi-Latn", ["Main ghar ja raha hoon."])
    >>> romanized.label, romanized.script, identify("hi").script
    ('Hindi (Latin)', 'Latin', 'Devanagari')
    """
    label = label.strip()
    lang = _recognise(label)
    # A script the tag names (hi-Latn: Hindi in Latin letters) is not the language's usual one.
    traits = _traits().get(lang.language) if lang and not lang.script else None
    if traits is None:
        text = " ".join(texts)
        script, words = dominant_script(text), len(text.split())
        traits = (script, script not in _UNSPACED_SCRIPTS and words > 0
                  and len(text) / words <= _MAX_WORD_CHARS)
    if lang is None:
        return Language(label, label, *traits)
    return Language(lang.to_tag(), lang.display_name(), *traits, native=lang.autonym())


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
    lines = io.StringIO(text, newline="")
    try:
        read = [(line, [cell.strip() for cell in row])
                for line, row in csv_rows(lines, file_name, delimiter=delimiter, **options)]
    except CorpusError as exc:
        raise ParallelCorpusError(str(exc)) from None
    header = read[0][1] if read else []
    # Blank lines separate nothing: skip them.
    rows = [(line, row) for line, row in read[1:] if any(row)]
    if not rows:
        _check_header(file_name, header)
        raise ParallelCorpusError(f"{file_name} has a header but no sentences below it.")
    for line, row in rows:
        if len(row) != len(header):
            raise ParallelCorpusError(
                f"{file_name}, line {line}: {len(row)} cells, but the header names {len(header)} "
                f"languages ({', '.join(header)}). Each line needs one sentence per language"
                f"{' separated by tabs' if delimiter == chr(9) else ''}.")
    header, rows, skipped = _without_wordless(file_name, header, rows)
    _check_header(file_name, header)
    for line, row in rows:
        for label, cell in zip(header, row):
            if not cell:
                raise ParallelCorpusError(
                    f"{file_name}, line {line}: the {label!r} cell is empty. Every language "
                    f"needs the sentence on every line, or the counts would not compare.")
    columns = [[row[j] for _, row in rows] for j in range(len(header))]
    return _assemble(name or file_name, header, columns, skipped=skipped)


def _without_wordless(file_name: str, header: list[str], rows: list[tuple[int, list[str]]]
                      ) -> tuple[list[str], list[tuple[int, list[str]]], tuple[str, ...]]:
    """``(header, rows, skipped)`` without the columns that hold no letter in any row: an id,
    a row number or a score is no language, and "id" would be read as Indonesian.

    >>> _without_wordless("t.csv", ["id", "en", "fr"], [(2, ["1", "Hi", "Salut"])])
    (['en', 'fr'], [(2, ['Hi', 'Salut'])], ('id',))
    """
    wordless = [j for j in range(len(header))
                if not any(ch.isalpha() for _, row in rows for ch in row[j])]
    skipped = tuple(header[j] or f"column {j + 1}" for j in wordless)
    if len(header) - len(wordless) < 2 <= len(header) and wordless:
        raise ParallelCorpusError(
            f"{file_name}: {', '.join(map(repr, skipped))} hold{'s' * (len(skipped) == 1)} no "
            f"letters (only numbers, symbols or empty cells), so no language's sentences; a "
            f"comparison needs at least two columns of text (one per language).")
    kept = [j for j in range(len(header)) if j not in wordless]
    return ([header[j] for j in kept], [(line, [row[j] for j in kept]) for line, row in rows],
            skipped)


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
        if part and recognised(part):
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


def _assemble(name: str, labels: Sequence[str], columns: Sequence[list[str]], *,
              skipped: tuple[str, ...] = ()) -> ParallelCorpus:
    n = len(columns[0])
    kept = [tuple(col[:MAX_SENTENCES]) for col in columns]
    languages = tuple(identify(label, col) for label, col in zip(labels, kept))
    return ParallelCorpus(name, languages, tuple(kept), dropped=max(0, n - MAX_SENTENCES),
                          skipped=skipped)
