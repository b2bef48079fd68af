"""JSON from a user's file (bpe_core.json_text): nesting too deep for Python's reader is refused
with how deep it reads and where the text goes deeper."""

from __future__ import annotations

import json
import re

import pytest

from bpe_core.analysis.uploads import CorpusError, upload_fields
from bpe_core.json_text import loads
from ui.shared import loaders

TOO_DEEP = re.compile(r"lists or objects nested more than ([\d,]+) levels deep, the most that "
                      r"can be read")


def test_json_nested_too_deeply_says_how_deep_it_reads_and_where_it_goes_deeper() -> None:
    # It said "nested too deeply to read: line 1 column 1 (char 0)": the first character, for
    # a file that went too deep a thousand brackets in.
    text = '{"note": "[[[ a string", "deep": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(json.JSONDecodeError) as info:
        loads(text)
    most = int(TOO_DEEP.fullmatch(info.value.msg)[1].replace(",", ""))
    assert most >= 900  # (995 levels on Python 3.11, 1,497 on 3.12, 9,998 on 3.13)
    start = text.index("[[[[")  # the first list, 2 levels deep (those of the string are text)
    at = info.value.pos
    assert text[at] == "[" and 2 + (at - start) == most + 1  # the first level too deep opens
    assert (info.value.lineno, info.value.colno) == (1, at + 1)


def test_a_tokenizer_file_and_a_corpus_line_say_it_in_their_messages() -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    with pytest.raises(ValueError) as info:
        loaders.read_upload("hf", [("tokenizer.json", b'{"model": ' + deep + b"}")])
    said = re.fullmatch(r"tokenizer\.json is not valid JSON \((.*): line 1 column (\d+) \(char "
                        r"(\d+)\)\); expected .*", str(info.value))
    assert TOO_DEEP.fullmatch(said[1]) and int(said[2]) > 900 and said[3] != "0"
    with pytest.raises(CorpusError, match=r"d\.jsonl: line 2 is not valid JSON \(lists or "
                                          r"objects nested more than [\d,]+ levels deep, the most "
                                          r"that can be read, column \d{3,}\)"):
        upload_fields("d.jsonl", b'{"text": "ok"}\n{"text": ' + deep + b"}\n")
