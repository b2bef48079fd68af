"""A tokenizer file changed by hand, or cut short, is read or refused: never a crash later.

A file whose fields have the wrong shape (a stage that is ``true``, a Sequence holding
``null``, a merge that is a string) must be refused as it is read, with a message that names
the field in the file's own words; before, such files gave Python's words ("'bool' object has
no attribute 'get'"), or loaded and then failed in the middle of an encode.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core.formats.errors import TokenizerFileError
from bpe_core.presets import PRESETS
from tests.model_files import llama2_file, llama3_file

#: What Python says when code meets a value of a shape it did not expect: never for a user.
PYTHON_WORDS = ("object has no attribute", "not subscriptable", "unhashable type",
                "object is not iterable", "indices must be", "argument of type",
                "expected string or buffer", "argument must be", "cannot unpack",
                "NoneType", "takes no arguments", "positional argument")

TEXTS = ["Hello world, hugs!", "  a\u200db \u202eשלום 🙂👍🏽 Ａ <s>", ""]


def _trained() -> bytes:
    tok = bpe_core.train("hug pug pun bun hugs שלום " * 5, vocab_size=290, min_frequency=1,
                         unit="char", pretokenizer="gpt2", byte_fallback=True,
                         special_tokens=["<|end|>"])
    return bpe_core.dumps(tok)


def _load(d: dict) -> bpe_core.Tokenizer:
    return bpe_core.loads(json.dumps(d).encode("utf-8"), source="tokenizer.json")


def _set(d: dict, path: str, value) -> dict:
    *keys, last = path.split(".")
    node = d
    for k in keys:
        node = node[int(k) if k.isdigit() else k]
    node[int(last) if last.isdigit() else last] = value
    return d


@pytest.mark.parametrize("path, value, said", [
    ("normalizer", True, 'the normalizer must be an object with a "type", not true'),
    ("normalizer.normalizers.1", None,
     'normalizer 2 of the Sequence must be an object with a "type", not null'),
    ("normalizer.normalizers", 7, "the Sequence normalizer's normalizers must be a list, not 7"),
    ("decoder.decoders.0", "Fuse",
     'decoder 1 of the Sequence must be an object with a "type", not "Fuse"'),
    ("decoder", [], 'the decoder must be an object with a "type", not []'),
    ("normalizer.normalizers.0.type", {"a": 1},
     'normalizer 1 of the Sequence must be an object with a "type", not {"type": {"a": 1}, '
     '"prepend": "▁"}'),
    ("normalizer.normalizers.1.pattern", {"String": 5},
     'the pattern of the Replace normalizer must be {"String": ...} or {"Regex": ...} holding '
     'a string, not {"String": 5}'),
    ("added_tokens", {"<s>": 1}, 'the added_tokens must be a list, not {"<s>": 1}'),
    ("added_tokens.0", None, "each added token must be an object, not null"),
    ("model.merges", True, "the BPE model's merges must be a list, not true"),
    ("post_processor.single.0", 1.5,
     'a template piece must be {"Sequence": ...} or {"SpecialToken": ...}, not 1.5'),
    ("post_processor.single", "$A", 'the template\'s single must be a list, not "$A"'),
    ("post_processor.special_tokens", ["<s>"],
     'the template\'s special_tokens must be an object, not ["<s>"]'),
    ("post_processor", {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": "<s>"},
     "the RobertaProcessing's cls must be [token, id], the id an integer from 0, not \"<s>\""),
    ("truncation", 512, "the truncation must be an object or null, not 512"),
    ("truncation", {"max_length": "512"},
     'the truncation\'s max_length must be a whole number, not "512"'),
    ("padding", [], "the padding must be an object or null, not []"),
])
def test_a_hugging_face_field_of_the_wrong_shape_is_named(path, value, said):
    d = _set(json.loads(llama2_file()), path, value)
    with pytest.raises(TokenizerFileError) as error:
        _load(d)
    assert str(error.value) == ("tokenizer.json cannot be read as a Hugging Face BPE tokenizer: "
                                + said)


def test_a_regex_nested_past_what_can_be_read_is_refused_not_a_crash():
    # The regex module compiles a group by recursing, and ran out of Python's stack.
    d = json.loads(llama3_file())
    d["pre_tokenizer"]["pretokenizers"][0]["pattern"] = {"Regex": "(" * 3000 + "a" + ")" * 3000}
    with pytest.raises(TokenizerFileError) as error:
        _load(d)
    assert str(error.value) == (
        'tokenizer.json cannot be read as a Hugging Face BPE tokenizer: the regex "'
        + "(" * 38 + '… of the Split pre-tokenizer does not compile: its groups nest too deeply '
        'to be read')


def test_a_rank_file_given_an_empty_pre_tokenizer_is_told_to_name_one(tmp_path):
    # pretokenizer="" (an empty box) fell through to the OpenAI file it is not: AttributeError.
    tok = bpe_core.train("set new renew " * 3, unit="byte", max_merges=5, min_frequency=1)
    bpe_core.save(tok, tmp_path / "made.tiktoken", format="tiktoken")
    with pytest.raises(TokenizerFileError, match="does not say how to pre-tokenize; pass "
                                                 "pretokenizer= 'cl100k'"):
        bpe_core.load(tmp_path / "made.tiktoken", pretokenizer="")


def test_a_null_in_a_post_processor_sequence_is_refused_not_met_in_an_encode():
    d = _set(json.loads(llama3_file()), "post_processor.processors.1", None)
    with pytest.raises(TokenizerFileError, match="post-processor 2 of the Sequence must be an "
                                                 "object"):
        _load(d)


@pytest.mark.parametrize("path, value, said", [
    ("model", "bpe", 'the model must be an object, not "bpe"'),
    ("model.tokens.40", ["a"], 'token 40 is ["a"]; tokens are strings (null for an unused id)'),
    ("model.tokens", {}, "the model's tokens must be a list, not {}"),
    ("model.merges.3", [1, 2, 3], "merge 4 is [1, 2, 3]; a merge is [left id, right id, "
                                  "result id, count], ids of the vocabulary and a count from 0"),
    ("model.merges.0.3", 10**30, "merge 1 is [" ),
    ("model.merges.0.0", "104", "merge 1 is [\"104\","),
    ("model.unk_token", ["<unk>"], "the model's unk_token is [\"<unk>\"]; it must be a string"),
    ("model.continuing_subword_prefix", 1, "the model's continuing_subword_prefix is 1; it must "
                                           "be a string"),
    ("model.byte_fallback", "yes", "the model's byte_fallback is \"yes\"; it must be true or "
                                   "false"),
    ("config", "gpt2", "the config must be an object, not \"gpt2\""),
])
def test_a_playground_file_field_of_the_wrong_shape_is_named(path, value, said):
    d = _set(json.loads(_trained()), path, value)
    with pytest.raises(TokenizerFileError) as error:
        _load(d)
    assert str(error.value).startswith("tokenizer.json is a malformed BPE Playground tokenizer: "
                                       + said)


def _places(node, path=()):
    """Every place in a file's JSON, lists cut to their first three items."""
    yield path
    items = node.items() if isinstance(node, dict) else (
        enumerate(node[:3]) if isinstance(node, list) else ())
    for k, v in items:
        yield from _places(v, (*path, k))


SOURCES = {"llama2": llama2_file, "llama3": llama3_file, "trained": _trained}
VALUES = st.sampled_from([None, True, 0, -1, 1.5, 10**30, "", "x", "a b", [], {}, [1, 2],
                          ["a", "b"], {"type": "Sequence"}, {"type": 1}, {"Regex": "("}])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(source=st.sampled_from(sorted(SOURCES)), data=st.data())
def test_any_changed_field_is_read_or_refused_in_the_files_words(source, data):
    d = json.loads(SOURCES[source]())
    for _ in range(data.draw(st.integers(1, 2))):
        places = list(_places(d))[1:]
        path = data.draw(st.sampled_from(places))
        node = d
        for k in path[:-1]:
            node = node[k]
        node[path[-1]] = copy.deepcopy(data.draw(VALUES))  # (a later change may go inside)
    try:
        tok = _load(d)
    except TokenizerFileError as error:
        assert not any(words in str(error) for words in PYTHON_WORDS), str(error)
        return
    for text in TEXTS:  # what loads, works
        ids = tok.encode(text)
        tok.decode(ids)
        tok.encode(text, add_special_tokens=True)


VERSION_1 = {"format": "bpe-playground", "version": 1, "unit": "char", "end_of_word": False,
             "alphabet": [" ", "a", "b"], "byte_fallback": False, "pretokenizer": "whitespace",
             "pattern": PRESETS["whitespace"], "merges": [[2, 3, 5]]}


@pytest.mark.parametrize("key, value, said", [
    ("pattern", ["\\S+"], 'the pattern is ["\\\\S+"]; it must be a string'),
    ("pretokenizer", 1, "the pretokenizer is 1; it must be a string"),
    ("merges", [[2, 3]], "each merge must be [left id, right id, count], three integers"),
    ("merges", 5, "the merges must be a list, not 5"),
    ("alphabet", 1.5, "the alphabet must be a list, not 1.5"),
    ("alphabet", ["ab"], "the alphabet must list single characters"),
    ("special_tokens", {"<x>": "99"}, "special_tokens must map token text to id"),
    ("config", 3, "the config must be an object, not 3"),
])
def test_a_first_version_playground_file_of_the_wrong_shape_is_named(key, value, said):
    d = {**VERSION_1, key: value}
    with pytest.raises(TokenizerFileError) as error:
        _load(d)
    assert str(error.value) == ("tokenizer.json is a malformed BPE Playground tokenizer: " + said)


def test_the_first_version_file_as_written_loads():
    assert [m.token for m in _load(VERSION_1).merges] == ["ab"]


@pytest.mark.parametrize("codec, said", [
    ("utf-16", "UTF-16"), ("utf-16-le", "UTF-16"), ("utf-16-be", "UTF-16"),
    ("utf-32", "UTF-32"), ("utf-32-le", "UTF-32"), ("utf-32-be", "UTF-32")])
def test_a_file_in_utf_16_or_32_is_named_so(tmp_path, codec, said):
    # UTF-32 with a byte-order mark was called UTF-16 text, and either without one "binary
    # data (not JSON, not text)". tokenizers refuses them all too: "stream did not contain
    # valid UTF-8".
    tok = bpe_core.train("hug pug pun bun hugs", max_merges=3, min_frequency=1)
    text = bpe_core.dumps(tok, format="hf").decode("utf-8")
    (tmp_path / "tokenizer.json").write_bytes(text.encode(codec))
    with pytest.raises(TokenizerFileError, match=f"^{tmp_path / 'tokenizer.json'} is {said} "
                                                 f"text: save it as UTF-8 and load it again$"):
        bpe_core.load(tmp_path / "tokenizer.json")
    rank_file = bpe_core.dumps(tok, format="tiktoken").decode("ascii").encode(codec)
    with pytest.raises(TokenizerFileError, match=f"^t.tiktoken is {said} text: save it as"):
        bpe_core.loads(rank_file, source="t.tiktoken", pretokenizer="gpt2")
    # (Two files: their encoding is met before the vocab.json is told from the merges.txt.)
    with pytest.raises(TokenizerFileError, match=f"^vocab.json is {said} text: save it as"):
        bpe_core.loads_files({"vocab.json": text.encode(codec), "merges.txt": b"#version\n"})
    from bpe_core.formats.gpt2 import from_gpt2, gpt2_files
    vocab, merges = gpt2_files(tok)
    with pytest.raises(TokenizerFileError, match=f"^v \\+ m: the merges.txt is {said} text, not "
                                                 f"UTF-8 \\(GPT-2's files are\\): save it as"):
        from_gpt2(vocab, merges.decode("utf-8").encode(codec), source="v + m")
    assert bpe_core.loads(text.encode("utf-8-sig")).encode("hugs") == tok.encode("hugs")


@pytest.mark.parametrize("data", [b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", b"{\0\0\0\0\xd8\0\0"])
def test_binary_data_with_nul_bytes_is_still_called_binary(data):
    with pytest.raises(TokenizerFileError, match=r"^t\.json is binary data \(not JSON, not "
                                                 r"text\)"):
        bpe_core.loads(data, source="t.json")
