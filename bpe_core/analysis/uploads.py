"""Reading a user's corpus from an upload (file name + bytes), one document at a time.

A document is what the user gave: a plain text file is one document (read in chunks of whole
lines, so that a big file reports progress), a table (.csv, .tsv, .jsonl, .parquet) gives one
document per row, the cell of one chosen text column. A ``.gz`` suffix on any of them means
gzip, unpacked first. The bytes become text in ``upload_text`` (gzip, encodings, binary files
refused) and a table's columns are read in ``upload_tables``; this module puts them together.

>>> list(iter_upload("notes.txt", b"one line\\nanother\\n"))
['one line\\nanother\\n']
>>> upload_fields("reviews.csv", b"id,review,stars\\n1,Great little book,5\\n")  # no numbers
['review']
>>> list(iter_upload("reviews.csv", b"id,review,stars\\n1,Great little book,5\\n"))
['Great little book']

Everything a user can get wrong raises :class:`CorpusError` with a message saying what to do.
"""

from __future__ import annotations

from typing import Iterator

from .upload_tables import FORMATS, table_fields
from .upload_text import PLAIN_EXTENSIONS, CorpusError, decoded_chunks, extension_of, unpack

def decode_text(data: bytes, *, name: str = "upload") -> str:
    """Decode an uploaded text file: UTF-8 (BOM or not), or UTF-16/32 (with a BOM or obvious NULs).

    >>> decode_text(b"\\xef\\xbb\\xbfcaf\\xc3\\xa9")
    'café'
    >>> decode_text("hi\\n".encode("utf-16"))
    'hi\\n'
    """
    return "".join(decoded_chunks(data, name))


def is_plain_text(name: str) -> bool:
    """Whether ``name`` is a plain text file, one document read in chunks, not a table.

    >>> is_plain_text("notes.txt.gz"), is_plain_text("reviews.csv")
    (True, False)
    """
    return extension_of(name) in PLAIN_EXTENSIONS


def upload_fields(name: str, data: bytes) -> list[str]:
    """The text columns a user can pick in a table upload, best guess first; ``[]`` for plain
    text. A column holds text if some of its first values have letters in them (not only
    numbers); for JSON Lines a column is a name such as "text" in ``{"text": "..."}``.

    The best guess is a column named text/content/sentence/body, else the longest on average.

    >>> upload_fields("qa.jsonl", b'{"id": 1, "question": "Why?", "answer": "Because it is."}\\n')
    ['answer', 'question']
    """
    extension, data = unpack(name, data)
    return [] if extension in PLAIN_EXTENSIONS else table_fields(extension, data, name)


def iter_upload(name: str, data: bytes, *, field: str | None = None) -> Iterator[str]:
    """Yield the text of an upload: a text file's one document in chunks of whole lines (see
    :func:`is_plain_text`), or a table's documents, one column's value per row.

    ``field`` picks the column of a table (default: the best guess of :func:`upload_fields`);
    empty, blank (only whitespace) and missing values are skipped. Problems with the file as a whole (type, encoding,
    column) are raised at once; a bad row is raised when the iteration reaches it.

    >>> list(iter_upload("t.tsv", b"label\\ttext\\npos\\tI liked it\\nneg\\t\\n"))
    ['I liked it']
    """
    extension, data = unpack(name, data)
    if extension in PLAIN_EXTENSIONS:
        if field is not None:
            raise CorpusError(f"{name} is plain text and has no columns to choose from: "
                              f"all of its text is read.")
        return decoded_chunks(data, name)
    fields = table_fields(extension, data, name)
    if field is None:
        field = fields[0]
    elif field not in fields:
        raise CorpusError(
            f"{name} has no column of text called {field!r}. "
            f"Choose one of: {', '.join(map(repr, fields))}."
        )
    return FORMATS[extension][1](data, name, field)
