"""Reading a user's corpus from an upload (file name + bytes), one document at a time.

A document is what the user gave: a plain text file is one document (read in chunks of whole
lines, so that a big file reports progress), a table (.csv, .tsv, .jsonl, .parquet) gives one
document per row, the cell of one chosen text column. A ``.gz`` suffix on any of them means
gzip, unpacked first.

>>> list(iter_upload("notes.txt", b"one line\\nanother\\n"))
['one line\\nanother\\n']
>>> upload_fields("reviews.csv", b"id,review,stars\\n1,Great little book,5\\n")  # no numbers
['review']
>>> list(iter_upload("reviews.csv", b"id,review,stars\\n1,Great little book,5\\n"))
['Great little book']

Everything a user can get wrong raises :class:`CorpusError` with a message saying what to do.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import itertools
import json
import zlib
from functools import partial
from pathlib import PurePosixPath
from typing import AnyStr, Callable, Iterable, Iterator, Mapping

import pyarrow as pa
import pyarrow.parquet as pq

PLAIN_EXTENSIONS = (".txt", ".md")
TABLE_EXTENSIONS = (".csv", ".tsv", ".jsonl", ".parquet")
#: What :func:`iter_upload` reads; each may also come gzip-compressed, as ``corpus.txt.gz``.
SUPPORTED_EXTENSIONS = PLAIN_EXTENSIONS + TABLE_EXTENSIONS

#: Zip-bomb guard: a ``.gz`` upload may unpack to at most this many bytes.
MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024
#: Plain text is yielded in chunks of about this size, cut just after a newline.
CHUNK_SIZE = 1024 * 1024
#: Field names that hold the text in most published data sets, most likely first.
TEXT_FIELD_NAMES = ("text", "content", "sentence", "body")

_SAMPLE_ROWS = 1000  # rows read to rank the fields of a table
_BATCH_ROWS = 4096  # Parquet rows read at a time
_SNIFF_BYTES = 8192  # bytes looked at to tell the encoding, or text from binary
_MAX_CSV_FIELD = 2**31 - 1  # the csv module's default cap (128 KiB) is too small for documents

_BOMS = (  # the UTF-32 LE mark begins with the UTF-16 LE one, so it is tried first
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
# C0 controls and DEL, except the ones text files really contain: tab, newlines, form feed, ESC.
_CONTROL = bytes(sorted(set(range(32)) - set(b"\t\n\v\f\r\x1b") | {0x7F}))
_NOT_CONTROL = bytes(b for b in range(256) if b not in _CONTROL)
# File signatures, used only to name the kind of a file that is not text anyway.
_SIGNATURES = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF-", "a PDF document; copy its text into a .txt file"),
    (b"PK\x03\x04", "a zip archive or office document; extract the text first"),
    (b"\x1f\x8b", "gzip-compressed; name it with a .gz suffix, e.g. corpus.txt.gz"),
    (b"PAR1", "a Parquet table; name it with a .parquet suffix"),
    (b"\x7fELF", "a program"),
)


class CorpusError(ValueError):
    """An upload that cannot be read as a corpus; the message says what is wrong and what to do."""


def decode_text(data: bytes, *, name: str = "upload") -> str:
    """Decode an uploaded text file: UTF-8 (BOM or not), or UTF-16/32 (with a BOM or obvious NULs).

    >>> decode_text(b"\\xef\\xbb\\xbfcaf\\xc3\\xa9")
    'café'
    >>> decode_text("hi\\n".encode("utf-16"))
    'hi\\n'
    """
    return "".join(_decoded_chunks(data, name))


def is_plain_text(name: str) -> bool:
    """Whether ``name`` is a plain text file, one document read in chunks, not a table.

    >>> is_plain_text("notes.txt.gz"), is_plain_text("reviews.csv")
    (True, False)
    """
    return _extension(name) in PLAIN_EXTENSIONS


def upload_fields(name: str, data: bytes) -> list[str]:
    """The text columns a user can pick in a table upload, best guess first; ``[]`` for plain
    text. A column holds text if some of its first values have letters in them (not only
    numbers); for JSON Lines a column is a name such as "text" in ``{"text": "..."}``.

    The best guess is a column named text/content/sentence/body, else the longest on average.

    >>> upload_fields("qa.jsonl", b'{"id": 1, "question": "Why?", "answer": "Because it is."}\\n')
    ['answer', 'question']
    """
    extension, data = _unpack(name, data)
    return [] if extension in PLAIN_EXTENSIONS else _table_fields(extension, data, name)


def iter_upload(name: str, data: bytes, *, field: str | None = None) -> Iterator[str]:
    """Yield the text of an upload: a text file's one document in chunks of whole lines (see
    :func:`is_plain_text`), or a table's documents, one column's value per row.

    ``field`` picks the column of a table (default: the best guess of :func:`upload_fields`);
    empty and missing values are skipped. Problems with the file as a whole (type, encoding,
    column) are raised at once; a bad row is raised when the iteration reaches it.

    >>> list(iter_upload("t.tsv", b"label\\ttext\\npos\\tI liked it\\nneg\\t\\n"))
    ['I liked it']
    """
    extension, data = _unpack(name, data)
    if extension in PLAIN_EXTENSIONS:
        if field is not None:
            raise CorpusError(f"{name} is plain text and has no columns to choose from: "
                              f"all of its text is read.")
        return _decoded_chunks(data, name)
    fields = _table_fields(extension, data, name)
    if field is None:
        field = fields[0]
    elif field not in fields:
        raise CorpusError(
            f"{name} has no column of text called {field!r}. "
            f"Choose one of: {', '.join(map(repr, fields))}."
        )
    return _FORMATS[extension][1](data, name, field)


# --- bytes to text --------------------------------------------------------------------------


def _unpack(name: str, data: bytes) -> tuple[str, bytes]:
    """Return ``(extension, bytes)`` with any gzip layer removed; reject unsupported names."""
    extension = _extension(name)
    if extension not in SUPPORTED_EXTENSIONS:
        raise CorpusError(
            f"{name}: unsupported file type {extension or '(no extension)'}. "
            f"Upload one of {', '.join(SUPPORTED_EXTENSIONS)}, optionally gzip-compressed "
            f"(e.g. corpus.txt.gz)."
        )
    _require_content(data, name)
    if name.lower().endswith(".gz"):
        data = _gunzip(data, name)
        _require_content(data, name)
    return extension, data


def _extension(name: str) -> str:
    """``.csv`` for ``Reviews.CSV.gz``: the lowercased type under any gzip suffix."""
    return PurePosixPath(name.lower().removesuffix(".gz")).suffix


def _require_content(data: bytes, name: str) -> None:
    if not data:
        raise CorpusError(f"{name} is empty. Upload a file that contains some text.")


def _gunzip(data: bytes, name: str) -> bytes:
    # Read at most one byte past the cap: enough to know it is too big, without unpacking a bomb.
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            unpacked = stream.read(MAX_DECOMPRESSED_BYTES + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise CorpusError(
            f"{name} is not a valid gzip file ({exc}). Compress it again with gzip, "
            f"or upload it uncompressed without the .gz suffix."
        ) from None
    if len(unpacked) > MAX_DECOMPRESSED_BYTES:
        raise CorpusError(
            f"{name} unpacks to more than {MAX_DECOMPRESSED_BYTES // 2**20} MB. "
            f"Upload a smaller sample of the corpus."
        )
    return unpacked


def _decoded_chunks(data: bytes, name: str) -> Iterator[str]:
    """Detect the encoding now (so errors come early); decode chunk by chunk as iterated."""
    _require_content(data, name)
    codec, start = _detect(data, name)
    if codec == "utf-8":
        return _utf8_chunks(data, name, start)
    return _wide_chunks(data, name, codec, start)


def _detect(data: bytes, name: str) -> tuple[str, int]:
    """Return ``(codec, offset where the text starts)``, or raise if the data is binary."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec, len(bom)
    sample = data[:_SNIFF_BYTES]
    # Mostly-ASCII UTF-16 has a NUL in every other byte; real UTF-8 text hardly ever does.
    pairs = len(sample) // 2
    zeros_even, zeros_odd = sample[0::2].count(0), sample[1::2].count(0)
    if zeros_odd > 0.6 * pairs and zeros_even < 0.05 * pairs:
        return "utf-16-le", 0
    if zeros_even > 0.6 * pairs and zeros_odd < 0.05 * pairs:
        return "utf-16-be", 0
    if _control_share(sample) > 0.3:
        raise _binary_error(data, name)
    return "utf-8", 0


def _control_share(window: bytes) -> float:
    """The fraction of control bytes (NUL and friends) in ``window``."""
    return len(window.translate(None, _NOT_CONTROL)) / max(len(window), 1)


def _utf8_chunks(data: bytes, name: str, start: int) -> Iterator[str]:
    # A newline byte never occurs inside a multi-byte UTF-8 character, so cutting the bytes
    # after one keeps every character whole and the offsets of errors exact.
    for offset, piece in _line_chunks(data, b"\n", start):
        try:
            yield piece.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _undecodable(data, name, offset + exc.start) from None


def _wide_chunks(data: bytes, name: str, codec: str, start: int) -> Iterator[str]:
    try:
        text = data[start:].decode(codec)
    except UnicodeDecodeError as exc:
        if start == 0:  # a guess from NUL bytes that turned out wrong: not text at all
            raise _binary_error(data, name) from None
        encoding = codec.removesuffix("-le").removesuffix("-be").upper()
        raise CorpusError(
            f"{name} starts with a {encoding} byte-order mark but is not valid "
            f"{encoding} at byte offset {start + exc.start}. "
            f"Re-save the file as UTF-8 and upload it again."
        ) from None
    for _, piece in _line_chunks(text, "\n", 0):
        yield piece


def _line_chunks(seq: AnyStr, newline: AnyStr, start: int) -> Iterator[tuple[int, AnyStr]]:
    """Yield ``(offset, piece)``: pieces of at least :data:`CHUNK_SIZE` ending after a newline."""
    while start < len(seq):
        end = seq.find(newline, start + CHUNK_SIZE - 1)
        end = len(seq) if end < 0 else end + len(newline)
        yield start, seq[start:end]
        start = end


def _undecodable(data: bytes, name: str, offset: int) -> CorpusError:
    """The error for a UTF-8 decoding failure at ``offset``: binary data, or a wrong encoding."""
    window = data[max(0, offset - _SNIFF_BYTES // 2) : offset + _SNIFF_BYTES // 2]
    if _signature(data) or b"\0" in window or _control_share(window) > 0.01:
        return _binary_error(data, name)
    before = data[max(0, offset - 24) : offset].decode("utf-8", "replace")
    return CorpusError(
        f"{name} is not valid UTF-8: byte 0x{data[offset]:02x} at byte offset {offset} "
        f"(after {before!r}) does not fit. The file is probably in another encoding such as "
        f"Windows-1252 or Latin-1: re-save it as UTF-8 and upload it again."
    )


def _signature(data: bytes) -> str | None:
    return next((kind for magic, kind in _SIGNATURES if data.startswith(magic)), None)


def _binary_error(data: bytes, name: str) -> CorpusError:
    kind = _signature(data)
    return CorpusError(
        f"{name} looks like a binary file{f' ({kind})' if kind else ''}, not text. "
        f"Upload a text corpus: {', '.join(SUPPORTED_EXTENSIONS)}."
    )


# --- tables ---------------------------------------------------------------------------------


def _table_fields(extension: str, data: bytes, name: str) -> list[str]:
    fields, columns = _FORMATS[extension][0](data, name)
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
    chunks = _decoded_chunks(data, name)
    lines = (line for chunk in chunks for line in io.StringIO(chunk, newline=""))
    reader = csv.reader(lines, **options)
    try:
        yield from reader
    except csv.Error as exc:
        raise CorpusError(
            f"{name}: line {reader.line_num}: {exc}. Check the quotes on that line, "
            f"or export the table again from a spreadsheet."
        ) from None


def _csv_header(rows: Iterator[list[str]], name: str) -> list[str]:
    header = next(rows, [])
    if not any(cell.strip() for cell in header):
        raise CorpusError(f"{name} has no header row. Put the column names on the first line.")
    return header


def _csv_fields(data: bytes, name: str, *, extension: str) -> tuple[list[str], list[str]]:
    rows = _csv_rows(data, name, extension=extension)
    header = _csv_header(rows, name)
    return _rank_fields((dict(zip(header, row)) for row in rows), header)


def _csv_values(data: bytes, name: str, field: str, *, extension: str) -> Iterator[str]:
    rows = _csv_rows(data, name, extension=extension)
    column = _csv_header(rows, name).index(field)
    return (row[column] for row in rows if column < len(row) and row[column])


def _json_objects(data: bytes, name: str) -> Iterator[tuple[int, dict]]:
    """Yield ``(line number, object)`` for each non-blank line of a JSON Lines file."""
    # Split on "\n" only: other line separators (U+2028, ...) may sit raw inside JSON strings.
    chunks = _decoded_chunks(data, name)
    lines = (line for chunk in chunks for line in chunk.removesuffix("\n").split("\n"))
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
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
    return _rank_fields(value for _, value in _json_objects(data, name))


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
        if text:
            yield text


def _parquet_file(data: bytes, name: str) -> pq.ParquetFile:
    try:
        return pq.ParquetFile(pa.BufferReader(data))
    except (pa.ArrowException, OSError) as exc:
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
    columns = [column.name for column in table.schema_arrow]
    names = [column.name for column in table.schema_arrow if _is_text_type(column.type)]
    if not names:
        return [], columns
    first = next(table.iter_batches(batch_size=_SAMPLE_ROWS, columns=names), None)
    return _rank_fields(first.to_pylist() if first is not None else [], names)[0], columns


def _parquet_values(data: bytes, name: str, field: str) -> Iterator[str]:
    table = _parquet_file(data, name)
    try:
        for batch in table.iter_batches(batch_size=_BATCH_ROWS, columns=[field]):
            yield from (text for text in batch.column(0).to_pylist() if text)
    except (pa.ArrowException, OSError) as exc:
        raise CorpusError(f"{name}: the Parquet data is damaged ({exc}). Save it again.") from None


# extension -> (fields(data, name) -> (text columns, all columns), values(data, name, field))
_FORMATS: dict[str, tuple[Callable[..., tuple[list[str], list[str]]],
                          Callable[..., Iterator[str]]]] = {
    ".csv": (partial(_csv_fields, extension=".csv"), partial(_csv_values, extension=".csv")),
    ".tsv": (partial(_csv_fields, extension=".tsv"), partial(_csv_values, extension=".tsv")),
    ".jsonl": (_jsonl_fields, _jsonl_values),
    ".parquet": (_parquet_fields, _parquet_values),
}
