"""An uploaded table's text: which of its columns hold text (best guess first) and the values
of one of them, a document per row, for CSV, TSV, JSON Lines and Parquet.

>>> table_fields(".csv", b"id,review,stars\\n1,Great little book,5\\n", "reviews.csv")
['review']
>>> list(FORMATS[".csv"][1](b"id,review\\n1,Great\\n2,\\n", "r.csv", "review"))
['Great']

A table with no text, or a bad row, raises :class:`~bpe_core.analysis.upload_text.CorpusError`.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter
from contextlib import contextmanager
from functools import partial
from typing import Callable, Iterable, Iterator, Mapping

import pyarrow as pa
import pyarrow.parquet as pq

from ..json_text import loads as json_loads
from .upload_text import CorpusError, csv_rows, decoded_chunks

#: Field names that hold the text in most published data sets, most likely first.
TEXT_FIELD_NAMES = ("text", "content", "sentence", "body")

_SAMPLE_ROWS = 1000  # rows read to rank the fields of a table
_BATCH_ROWS = 4096  # Parquet rows read at a time
_MAX_CSV_FIELD = 2**31 - 1  # the csv module's default cap (128 KiB) is too small for documents


def table_fields(extension: str, data: bytes, name: str) -> list[str]:
    fields, columns = FORMATS[extension][0](data, name)
    if not fields:
        raise CorpusError(_no_text_message(extension, name, columns))
    return fields


def _no_text_message(extension: str, name: str, columns: list[str]) -> str:
    """Why a table has no text to read, naming the columns it has, and how to fix it."""
    if extension == ".jsonl":
        found = (f"the names on its lines are {_names(columns)}, and none of them has words as "
                 f"its value" if columns else "its lines are empty, {}")
        return (f"{name} has no text to read: {found}. Put the text of each line under a name, "
                f'as in {{"text": "Great little book"}}, or upload the text itself as a .txt '
                f"file.")
    found = (f"its columns are {_names(columns)}, and none of them holds words (only numbers "
             f"or empty cells)" if columns else "it has no columns")
    return (f"{name} has no column of text: {found}. Add a column with your text, for example "
            f"one named 'text', or upload the text itself as a .txt file.")


def _names(columns: list[str]) -> str:
    """``'id', 'n' and 'stars'``: the column names, quoted (the first eight of many)."""
    quoted = [repr(c) for c in columns[:8]] + ([f"{len(columns) - 8:,} more"]
                                               if len(columns) > 8 else [])
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} and {quoted[-1]}"


def _has_words(value: str) -> bool:
    """Whether a cell holds text: a letter in any script (not only digits, as a number or a
    date has)."""
    return any(c.isalpha() for c in value)


def _rank_fields(rows: Iterable[Mapping[str, object]],
                 names: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """``(text columns best guess first, every column)`` from the first rows (plus ``names``)."""
    totals = {field: [0, 0, False] for field in names}  # field -> [characters, values, words]
    for row in itertools.islice(rows, _SAMPLE_ROWS):
        for field, value in row.items():
            total = totals.setdefault(field, [0, 0, False])
            if isinstance(value, str):
                total[0] += len(value)
                total[1] += 1
                total[2] = total[2] or _has_words(value)
    average = {field: chars / max(count, 1)
               for field, (chars, count, words) in totals.items() if words}

    def rank(field: str) -> tuple[int, float]:
        lowered = field.lower()
        known = TEXT_FIELD_NAMES.index(lowered) if lowered in TEXT_FIELD_NAMES else 99
        return known, -average[field]

    return sorted(average, key=rank), list(totals)  # stable: equal fields keep column order


def _csv_rows(data: bytes, name: str, *, extension: str) -> Iterator[list[str]]:
    csv.field_size_limit(max(csv.field_size_limit(), _MAX_CSV_FIELD))
    # TSV (as IANA defines it) has no quoting, and quotes in its text are just characters.
    options = {"delimiter": "\t", "quoting": csv.QUOTE_NONE} if extension == ".tsv" else {}
    chunks = decoded_chunks(data, name)
    lines = (line for chunk in chunks for line in io.StringIO(chunk, newline=""))
    return (row for _, row in csv_rows(lines, name, **options))


def _csv_header(rows: Iterator[list[str]], name: str) -> list[str]:
    """The column names on the first row, each naming one column, so that the one picked is
    the one read: a blank name is the column's place, a name given twice gets its place.

    >>> _csv_header(iter([["note", "", "note"]]), "n.csv")
    ['note (column 1)', 'column 2', 'note (column 3)']
    """
    header = next(rows, [])
    if not any(cell.strip() for cell in header):
        raise CorpusError(f"{name} has no header row. Put the column names on the first line.")
    twice = {cell for cell, n in Counter(header).items() if n > 1}
    return [f"column {place}" if not cell.strip() else
            f"{cell} (column {place})" if cell in twice else cell
            for place, cell in enumerate(header, 1)]


def _csv_fields(data: bytes, name: str, *, extension: str) -> tuple[list[str], list[str]]:
    rows = _csv_rows(data, name, extension=extension)
    header = _csv_header(rows, name)
    return _rank_fields((dict(zip(header, row)) for row in rows), header)


def _csv_values(data: bytes, name: str, field: str, *, extension: str) -> Iterator[str]:
    rows = _csv_rows(data, name, extension=extension)
    header = _csv_header(rows, name)
    column = header.index(field)
    for number, row in enumerate(rows, start=2):
        # More cells than columns: a text was cut at an unquoted comma, and part of it would be
        # lost or read as another column's (a trailing empty cell is only a stray separator).
        if any(cell.strip() for cell in row[len(header):]):
            fix = ("Put each text that holds a comma in double quotes, as spreadsheets save it."
                   if extension == ".csv" else
                   "A text in a .tsv file cannot hold a tab: replace its tabs with spaces.")
            raise CorpusError(f"{name}: row {number} has {len(row)} cells but the header names "
                              f"{len(header)} columns, so a text in it was cut apart. {fix}")
        # (A blank cell is no document, as a file of only whitespace is none.)
        if column < len(row) and not row[column].isspace() and row[column]:
            yield row[column]


def _json_objects(data: bytes, name: str) -> Iterator[tuple[int, dict]]:
    """Yield ``(line number, object)`` for each non-blank line of a JSON Lines file."""
    # Split on "\n" only: other line separators (U+2028, ...) may sit raw inside JSON strings.
    chunks = decoded_chunks(data, name)
    lines = (line for chunk in chunks for line in chunk.removesuffix("\n").split("\n"))
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json_loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(
                f"{name}: line {number} is not valid JSON ({exc.msg}, column {exc.colno}). "
                f'Each line must be one JSON object, such as {{"text": "..."}}.'
            ) from None
        if not isinstance(value, dict):
            raise CorpusError(
                f'{name}: line {number} is not a JSON object. Each line must be one object, '
                f'such as {{"text": "..."}}.'
            )
        yield number, value


def _jsonl_fields(data: bytes, name: str) -> tuple[list[str], list[str]]:
    # Text one level down, as data sets give translations ({"translation": {"en": ...}}): the
    # names hold words, only not as their values, and saying they have none would be untrue.
    held: set[str] = set()  # the names holding a list or an object, seen in the same pass

    def rows() -> Iterator[dict]:
        for _, value in _json_objects(data, name):
            held.update(k for k, v in value.items() if isinstance(v, (dict, list)))
            yield value

    fields, columns = _rank_fields(rows())
    nested = [column for column in columns if column in held]
    if not fields and nested:
        raise CorpusError(
            f"{name} has no text at the top level of its lines: {_names(nested)} "
            + ("holds a list or a group of names and values, and text inside one"
               if len(nested) == 1 else
               "hold lists or groups of names and values, and text inside them")
            + ' is not read. Put the text of each line under a name of its own, as in '
              '{"text": "Great little book"}, or upload the text itself as a .txt file.')
    return fields, columns


# What JSON values other than strings are called, in words a newcomer knows.
_KINDS = {int: "a number", float: "a number", bool: "true or false", list: "a list",
          dict: "a group of names and values"}


def _jsonl_values(data: bytes, name: str, field: str) -> Iterator[str]:
    for number, value in _json_objects(data, name):
        text = value.get(field)
        if text is not None and not isinstance(text, str):
            raise CorpusError(
                f"{name}: line {number}: {field!r} holds {_KINDS.get(type(text), 'a value')} "
                f"{text!r:.40}, not text. Fix that line or choose another column."
            )
        if text and not text.isspace():
            yield text


def _parquet_file(data: bytes, name: str) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowException, OSError, UnicodeDecodeError) as exc:
        raise CorpusError(
            f"{name} is not a readable Parquet file ({exc}). Save it again "
            f"(e.g. with pandas' DataFrame.to_parquet), or upload a .csv or .jsonl instead."
        ) from None


def _is_text_type(kind: pa.DataType) -> bool:
    if pa.types.is_dictionary(kind):  # pandas categoricals of strings
        kind = kind.value_type
    # By name: pyarrow before 16 has no string_view type to compare with.
    return str(kind) in ("string", "large_string", "string_view")


def _parquet_fields(data: bytes, name: str) -> tuple[list[str], list[str]]:
    table = _parquet_file(data, name)
    with _damaged(name):  # (a column's name may be what is not UTF-8)
        columns = [column.name for column in table.schema_arrow]
        names = [column.name for column in table.schema_arrow if _is_text_type(column.type)]
        if not names:
            return [], columns
        first = next(table.iter_batches(batch_size=_SAMPLE_ROWS, columns=names), None)
        rows = first.to_pylist() if first is not None else []
    return _rank_fields(rows, names)[0], columns


def _parquet_values(data: bytes, name: str, field: str) -> Iterator[str]:
    table = _parquet_file(data, name)
    with _damaged(name):
        for batch in table.iter_batches(batch_size=_BATCH_ROWS, columns=[field]):
            yield from (text for text in batch.column(0).to_pylist()
                        if text and not text.isspace())


@contextmanager
def _damaged(name: str) -> Iterator[None]:
    """Reading a Parquet file's rows, which may be damaged past its header: then a CorpusError
    (a text value that is not UTF-8 comes out of pyarrow as Python's UnicodeDecodeError)."""
    try:
        yield
    except UnicodeDecodeError as exc:
        raise CorpusError(f"{name}: a text value of the Parquet file is not UTF-8 (byte "
                          f"0x{exc.object[exc.start]:02x} at offset {exc.start} of a value); "
                          f"Parquet text must be UTF-8: save it again as UTF-8.") from None
    except (pa.ArrowException, OSError) as exc:
        raise CorpusError(f"{name}: the Parquet data is damaged ({exc}). Save it again.") from None


# extension -> (fields(data, name) -> (text columns, all columns), values(data, name, field))
FORMATS: dict[str, tuple[Callable[..., tuple[list[str], list[str]]],
                          Callable[..., Iterator[str]]]] = {
    ".csv": (partial(_csv_fields, extension=".csv"), partial(_csv_values, extension=".csv")),
    ".tsv": (partial(_csv_fields, extension=".tsv"), partial(_csv_values, extension=".tsv")),
    ".jsonl": (_jsonl_fields, _jsonl_values),
    ".parquet": (_parquet_fields, _parquet_values),
}
