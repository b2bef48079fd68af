"""Reading uploads: encodings, binary and broken files, tables and their text fields, gzip."""

from __future__ import annotations

import gzip
import io
import json
import unicodedata

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core.analysis import upload_text as corpus
from bpe_core.analysis.uploads import CorpusError, decode_text, iter_upload, upload_fields

PNG_HEADER = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000100000001008060000001ff3ff61")

# --- decode_text ------------------------------------------------------------------------------


def test_utf8_bom_is_stripped():
    assert decode_text(b"\xef\xbb\xbfna\xc3\xafve\n") == "naïve\n"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_byte_order_mark(codec):
    text = "Größe — 大きさ 👍\n"
    assert decode_text(("\ufeff" + text).encode(codec)) == text


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_bom_is_recognised_by_its_nul_bytes(codec):
    text = "plain English text, saved by Notepad\r\n"
    assert decode_text(text.encode(codec)) == text


def test_png_is_rejected_as_binary():
    with pytest.raises(CorpusError, match=r"cat\.png looks like a binary file \(a PNG image\)"):
        decode_text(PNG_HEADER + bytes(range(256)) * 4, name="cat.png")


@pytest.mark.parametrize(
    "data, kind",
    [
        (b"PK\x03\x04\x14\x00\x00\x00\x08\x00\x8b\x9c" + bytes(64), "zip archive"),
        (gzip.compress(b"hello " * 100, mtime=0), "gzip-compressed; name it with a .gz suffix"),
        (b"\x7fELF\x02\x01\x01" + bytes(200), "a program"),
        (bytes(1000), ""),
    ],
)
def test_other_binary_files_are_rejected(data, kind):
    with pytest.raises(CorpusError, match="looks like a binary file") as error:
        decode_text(data, name="x.txt")
    assert kind in str(error.value)


def test_invalid_utf8_names_the_byte_offset():
    with pytest.raises(CorpusError) as error:
        decode_text("Ol\u00e1, caf\u00e9!".encode("latin-1"), name="notes.txt")
    message = str(error.value)
    assert "notes.txt is not valid UTF-8" in message
    assert "byte 0xe1 at byte offset 2" in message
    assert "re-save it as UTF-8" in message


def test_a_file_cut_in_the_middle_of_a_character_says_so():
    # It was told it was probably in another encoding, such as Latin-1.
    with pytest.raises(CorpusError) as error:
        decode_text("hello 世界".encode()[:-1], name="cut.txt")
    assert str(error.value) == (
        "cut.txt ends in the middle of a character: its last 2 byte(s), after 'hello 世', begin "
        "a UTF-8 character that never ends. The file was probably cut short: upload the whole "
        "file, or remove those bytes.")
    with pytest.raises(CorpusError, match="probably in another encoding"):  # é in Latin-1
        decode_text("Café".encode("latin-1"), name="latin.txt")


def test_invalid_utf8_offset_is_exact_far_into_the_file(monkeypatch):
    monkeypatch.setattr(corpus, "CHUNK_SIZE", 100)  # the bad byte sits in a later chunk
    data = b"\xef\xbb\xbf" + "línea\n".encode() * 1000 + b"fin \xff\n"
    with pytest.raises(CorpusError, match=f"byte offset {3 + 7 * 1000 + 4} "):
        decode_text(data)


def test_empty_upload():
    with pytest.raises(CorpusError, match=r"empty\.txt is empty"):
        decode_text(b"", name="empty.txt")


def _mostly_text(s: str) -> bool:
    controls = sum(unicodedata.category(c) == "Cc" for c in s)
    return controls * 5 < len(s) and not s.startswith("\ufeff")


@given(st.text(min_size=1, max_size=2000).filter(_mostly_text))
def test_utf8_text_decodes_back_unchanged(text):
    # A leading U+FEFF would be taken for a byte-order mark, so the strategy leaves it out.
    assert decode_text(text.encode("utf-8")) == text


# --- plain text ---------------------------------------------------------------------------------


def test_text_comes_in_chunks_cut_after_newlines(monkeypatch):
    monkeypatch.setattr(corpus, "CHUNK_SIZE", 16)
    text = "".join(f"line {i} — ünïcödé\n" for i in range(50)) + "no newline at the end"
    chunks = list(iter_upload("book.md", text.encode()))
    assert "".join(chunks) == text
    assert len(chunks) > 10
    assert all(chunk.endswith("\n") for chunk in chunks[:-1])
    assert all(len(chunk.encode()) >= 16 for chunk in chunks[:-1])


def test_gzipped_text():
    assert list(iter_upload("Book.TXT.gz", gzip.compress("tschüß\n".encode()))) == ["tschüß\n"]


def test_plain_text_has_no_fields():
    assert upload_fields("a.txt", b"hello") == []
    with pytest.raises(CorpusError, match="plain text and has no columns to choose from"):
        iter_upload("a.txt", b"hello", field="text")


def test_unsupported_extension_lists_supported_ones():
    with pytest.raises(CorpusError) as error:
        iter_upload("report.docx", b"PK\x03\x04")
    message = str(error.value)
    assert "unsupported file type .docx" in message
    for extension in corpus.SUPPORTED_EXTENSIONS:
        assert extension in message


def test_gzip_bomb_is_refused(monkeypatch):
    monkeypatch.setattr(corpus, "MAX_DECOMPRESSED_BYTES", 1000)
    with pytest.raises(CorpusError, match="unpacks to more than"):
        upload_fields("big.csv.gz", gzip.compress(b"text\n" + b"a\n" * 5000))


def test_broken_gzip():
    with pytest.raises(CorpusError, match="not a valid gzip file"):
        iter_upload("a.txt.gz", b"not gzip at all")
    with pytest.raises(CorpusError, match="not a valid gzip file"):
        iter_upload("a.txt.gz", gzip.compress(b"hello world" * 100)[:-20])


# --- tables -----------------------------------------------------------------------------------

ROWS = [
    {"id": 1, "label": "pos", "text": 'A "quoted", multi-line\nreview'},
    {"id": 2, "label": "neg", "text": "Second one, with a comma"},
    {"id": 3, "label": "pos", "text": ""},
    {"id": 4, "label": "neg", "text": "Ünïcödé and 中文 and emoji 👍"},
]
TEXTS = [row["text"] for row in ROWS if row["text"]]


def _csv(rows):
    return pd.DataFrame(rows).to_csv(index=False).encode()


def _tsv(rows):
    lines = ["\t".join(rows[0])] + ["\t".join(str(v) for v in row.values()) for row in rows]
    return ("\n".join(lines) + "\n").encode()


def _jsonl(rows):
    return "".join(json.dumps(row, ensure_ascii=False) + "\n\n" for row in rows).encode()


def _parquet(rows, tmp_path):
    path = tmp_path / "t.parquet"
    pd.DataFrame(rows).to_parquet(path)
    return path.read_bytes()


def _upload(extension, rows, tmp_path):
    if extension == ".parquet":
        return _parquet(rows, tmp_path)
    if extension == ".tsv":  # TSV cells cannot hold newlines
        rows = [{k: str(v).replace("\n", " ") for k, v in row.items()} for row in rows]
    return {".csv": _csv, ".tsv": _tsv, ".jsonl": _jsonl}[extension](rows)


@pytest.mark.parametrize("compressed", [False, True])
@pytest.mark.parametrize("extension", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_tables_give_the_chosen_field(extension, compressed, tmp_path):
    name, data = "reviews" + extension, _upload(extension, ROWS, tmp_path)
    if compressed:
        name, data = name + ".gz", gzip.compress(data)
    texts = [t.replace("\n", " ") for t in TEXTS] if extension == ".tsv" else TEXTS
    fields = upload_fields(name, data)
    assert fields[0] == "text"
    assert "label" in fields
    assert list(iter_upload(name, data)) == texts
    assert list(iter_upload(name, data, field="text")) == texts
    assert list(iter_upload(name, data, field="label")) == ["pos", "neg", "pos", "neg"]


@pytest.mark.parametrize("extension", [".csv", ".tsv", ".jsonl", ".parquet"])
def test_without_a_text_column_the_longest_field_comes_first(extension, tmp_path):
    rows = [
        {"id": "1", "label": "pos", "review": "Long enough to be the text"},
        {"id": "2", "label": "neg", "review": "Also much longer than a label"},
    ]
    data = _upload(extension, rows, tmp_path)
    # "id" holds only digits: not text, so it is not offered
    assert upload_fields("r" + extension, data) == ["review", "label"]


def test_a_conventionally_named_column_wins_whatever_its_length():
    data = b"Body,summary\nshort,a much longer summary of the document\n"
    assert upload_fields("d.csv", data) == ["Body", "summary"]


def test_parquet_text_that_is_not_utf8_is_refused_with_where():
    # pyarrow hands such a value to Python's decoder, whose error escaped the reader.
    values = pa.array([b"caf\xe9 au lait", b"ok"], type=pa.binary()).view(pa.string())
    buffer = io.BytesIO()
    pq.write_table(pa.table({"review": values}), buffer)
    said = ("r.parquet: a text value of the Parquet file is not UTF-8 (byte 0xe9 at offset 3 of a "
            "value); Parquet text must be UTF-8: save it again as UTF-8.")
    with pytest.raises(CorpusError) as fields:
        upload_fields("r.parquet", buffer.getvalue())
    with pytest.raises(CorpusError) as values_read:
        list(iter_upload("r.parquet", buffer.getvalue(), field="review"))
    assert str(fields.value) == str(values_read.value) == said


def test_parquet_offers_only_string_columns(tmp_path):
    data = _parquet([{"n": 1, "x": 2.5, "title": "a", "ok": True}], tmp_path)
    assert upload_fields("t.parquet", data) == ["title"]


def test_missing_field_lists_the_available_ones():
    with pytest.raises(CorpusError) as error:
        iter_upload("r.jsonl", _jsonl(ROWS), field="body")
    assert "has no column of text called 'body'" in str(error.value)
    assert "'text', 'label'" in str(error.value)


def test_malformed_jsonl_line_is_reported_with_its_number():
    data = b'{"text": "ok"}\n\n{"text": "also ok"}\n{"text": "broken\n{"text": "fine"}\n'
    with pytest.raises(CorpusError, match=r"d\.jsonl: line 4 is not valid JSON"):
        iter_upload("d.jsonl", data)


def test_malformed_jsonl_line_past_the_sampled_rows_fails_when_reached():
    data = b'{"text": "ok"}\n' * 1500 + b"{oops}\n"
    documents = iter_upload("d.jsonl", data)  # the first rows, used to rank fields, are fine
    assert next(documents) == "ok"
    with pytest.raises(CorpusError, match=r"line 1501 is not valid JSON"):
        list(documents)


def test_jsonl_line_nested_too_deeply_is_reported_with_its_number():
    data = b'{"text": "ok"}\n{"text": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    with pytest.raises(CorpusError, match=r"line 2 is not valid JSON \(lists or objects nested"):
        upload_fields("d.jsonl", data)


def test_jsonl_lines_must_be_objects():
    with pytest.raises(CorpusError, match="line 2 is not a JSON object"):
        upload_fields("d.jsonl", b'{"text": "ok"}\n["a list"]\n')


def test_jsonl_field_holding_a_non_string():
    data = b'{"text": "ok"}\n{"text": null}\n{"other": 1}\n{"text": 42}\n'
    with pytest.raises(CorpusError, match="line 4: 'text' holds a number 42, not text. Fix "
                                          "that line or choose another column."):
        list(iter_upload("d.jsonl", data))


def test_jsonl_keeps_unicode_line_separators_inside_strings():
    data = '{"text": "one\u2028two"}\n{"text": "three"}\n'.encode()
    assert list(iter_upload("d.jsonl", data)) == ["one\u2028two", "three"]


def test_jsonl_without_text_names_what_its_lines_hold():
    with pytest.raises(CorpusError) as error:
        upload_fields("n.jsonl", b'{"n": 1, "score": "4.5"}\n{"n": 2, "date": "2024-01-02"}\n')
    assert str(error.value) == (
        "n.jsonl has no text to read: the names on its lines are 'n', 'score' and 'date', and "
        "none of them has words as its value. Put the text of each line under a name, as in "
        '{"text": "Great little book"}, or upload the text itself as a .txt file.')
    with pytest.raises(CorpusError, match=r"n.jsonl has no text to read: its lines are empty, \{"):
        upload_fields("n.jsonl", b"{}\n{}\n")


@pytest.mark.parametrize("extension", [".csv", ".tsv", ".parquet"])
def test_table_of_numbers_is_refused_naming_its_columns(extension, tmp_path):
    rows = [{"id": "1", "stars": "5", "when": "2024-01-02"}, {"id": "2", "stars": "", "when": ""}]
    with pytest.raises(CorpusError) as error:
        upload_fields("r" + extension, _upload(extension, rows, tmp_path))
    assert str(error.value) == (
        f"r{extension} has no column of text: its columns are 'id', 'stars' and 'when', and none "
        "of them holds words (only numbers or empty cells). Add a column with your text, for "
        "example one named 'text', or upload the text itself as a .txt file.")


def test_many_columns_are_named_by_the_first_eight():
    data = (",".join(f"c{i}" for i in range(12)) + "\n" + ",".join("1" * 12) + "\n").encode()
    with pytest.raises(CorpusError, match="its columns are 'c0', 'c1', 'c2', 'c3', 'c4', 'c5', "
                                          "'c6', 'c7' and 4 more, and none"):
        upload_fields("wide.csv", data)


def test_csv_without_header():
    with pytest.raises(CorpusError, match="has no header row"):
        upload_fields("n.csv", b"\n\n")


def test_csv_cells_longer_than_the_csv_module_default_limit():
    long_text = "word " * 40_000  # 200 000 characters; the csv module's default cap is 131 072
    data = f"text\n{long_text}\n".encode()
    assert list(iter_upload("long.csv", data)) == [long_text]


def test_utf16_csv_from_a_spreadsheet():
    data = "text,n\nhola,1\n".encode("utf-16")
    assert list(iter_upload("sheet.csv", data)) == ["hola"]


def test_broken_parquet():
    with pytest.raises(CorpusError, match="not a readable Parquet file"):
        upload_fields("t.parquet", b"PAR1 this is not really parquet")


def test_a_table_cell_of_only_whitespace_is_no_document(tmp_path):
    # 'hello', '  ', 'bye' made 3 documents, while a file of only whitespace is refused.
    assert list(iter_upload("t.csv", b"text\nhello\n  \nbye\n")) == ["hello", "bye"]
    jsonl = b'{"text": "hello"}\n{"text": " \\n\\t"}\n{"text": "bye"}\n'
    assert list(iter_upload("t.jsonl", jsonl, field="text")) == ["hello", "bye"]
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"text": ["hello", "   ", "bye"]}), path)
    assert list(iter_upload("t.parquet", path.read_bytes(), field="text")) == ["hello", "bye"]
