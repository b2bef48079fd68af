"""An upload's bytes as text: its type told from its name, a gzip layer unpacked (with a cap),
the encoding told (UTF-8, or UTF-16/32 by a byte-order mark or NUL bytes) and binary files
refused, naming what they look like; text is decoded in chunks of whole lines as it is read.

>>> unpack("notes.TXT.gz", __import__("gzip").compress(b"hi\\n"))
('.txt', b'hi\\n')
>>> list(decoded_chunks("hi\\n".encode("utf-16"), "notes.txt"))
['hi\\n']

Everything a user can get wrong raises :class:`CorpusError` with a message saying what to do.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import zlib
from pathlib import PurePosixPath
from typing import AnyStr, Iterable, Iterator

PLAIN_EXTENSIONS = (".txt", ".md")
TABLE_EXTENSIONS = (".csv", ".tsv", ".jsonl", ".parquet")
#: What :func:`~bpe_core.analysis.uploads.iter_upload` reads; each may also come
#: gzip-compressed, as ``corpus.txt.gz``.
SUPPORTED_EXTENSIONS = PLAIN_EXTENSIONS + TABLE_EXTENSIONS

#: Zip-bomb guard: a ``.gz`` upload may unpack to at most this many bytes.
MAX_DECOMPRESSED_BYTES = 512 * 1024 * 1024
#: Plain text is yielded in chunks of about this size, cut just after a newline.
CHUNK_SIZE = 1024 * 1024

_SNIFF_BYTES = 8192  # bytes looked at to tell the encoding, or text from binary

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


# What the csv module's complaints about quotes mean, in words (any other is shown as it is).
_QUOTE_ERRORS = {
    "unexpected end of data": "a double quote opens a text that is never closed, so every line "
                              "after it would be read as part of that text",
    "expected after": "a text in double quotes goes on after its closing quote",
}


def csv_rows(lines: Iterable[str], name: str, **options) -> Iterator[tuple[int, list[str]]]:
    """The rows of a CSV read strictly, each with the line it starts on; a quoting error raises
    :class:`CorpusError` naming the lines and how a spreadsheet quotes a text.

    >>> list(csv_rows(['a,"b\\n', 'c"\\n', "d,e\\n"], "t.csv"))
    [(1, ['a', 'b\\nc']), (3, ['d', 'e'])]
    >>> try:
    ...     list(csv_rows(['a,"b\\n', "c,d\\n"], "t.csv"))
    ... except CorpusError as exc:
    ...     print(str(exc)[:55])
    t.csv: lines 1 to 2: a double quote opens a text that i
    """
    # strict: a quote that opens a text and is never closed would otherwise take in every row
    # after it as that one text, and text after a closing quote would lose its quotes.
    reader = csv.reader(lines, strict=True, **options)
    start = 1  # the line the row being read starts on
    try:
        for row in reader:
            yield start, row
            start = reader.line_num + 1
    except csv.Error as exc:
        # A quoted text may run over several lines: from the row's first to where it failed.
        end = reader.line_num
        where = f"line {start}" if end <= start else f"lines {start} to {end}"
        what = next((said for key, said in _QUOTE_ERRORS.items() if key in str(exc)), str(exc))
        raise CorpusError(
            f"{name}: {where}: {what}. A text that holds double quotes goes in double "
            f'quotes as a whole, each of its own quotes doubled ("She said ""hi"""), as '
            f"spreadsheets save it."
        ) from None


def unpack(name: str, data: bytes) -> tuple[str, bytes]:
    """Return ``(extension, bytes)`` with any gzip layer removed; reject unsupported names."""
    extension = extension_of(name)
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


def extension_of(name: str) -> str:
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


def decoded_chunks(data: bytes, name: str) -> Iterator[str]:
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
    # Stopped mid-character, after whole UTF-8 ones (a Latin-1 "Café" ends in a byte that
    # could start a UTF-8 character too, after none).
    if not data[:offset].isascii() and _cut_character(data[offset:]):
        return CorpusError(
            f"{name} ends in the middle of a character: its last {len(data) - offset} byte(s), "
            f"after {before!r}, begin a UTF-8 character that never ends. The file was probably "
            f"cut short: upload the whole file, or remove those bytes.")
    return CorpusError(
        f"{name} is not valid UTF-8: byte 0x{data[offset]:02x} at byte offset {offset} "
        f"(after {before!r}) does not fit. The file is probably in another encoding such as "
        f"Windows-1252 or Latin-1: re-save it as UTF-8 and upload it again."
    )


def _cut_character(tail: bytes) -> bool:
    """Are these last bytes of a file the start of a UTF-8 character and nothing else?

    >>> _cut_character("世".encode()[:2]), _cut_character(b"\\xe9"), _cut_character(b"\\xe9 ok")
    (True, True, False)
    """
    try:
        return codecs.getincrementaldecoder("utf-8")().decode(tail, final=False) == ""
    except UnicodeDecodeError:
        return False


def _signature(data: bytes) -> str | None:
    return next((kind for magic, kind in _SIGNATURES if data.startswith(magic)), None)


def _binary_error(data: bytes, name: str) -> CorpusError:
    kind = _signature(data)
    return CorpusError(
        f"{name} looks like a binary file{f' ({kind})' if kind else ''}, not text. "
        f"Upload a text corpus: {', '.join(SUPPORTED_EXTENSIONS)}."
    )
