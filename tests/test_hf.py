"""Hugging Face tokenizer.json and GPT-2 vocab.json + merges.txt, checked against `tokenizers`."""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import tempfile
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, decoders, models, pre_tokenizers
from tokenizers import Tokenizer as HFTokenizer

import bpe_core
from bpe_core import AddedToken, TokenizerFileError
from bpe_core.alphabet import BYTE_CHARS, CHAR_BYTES, byte_base
from bpe_core.formats import gpt2, hf
from bpe_core.presets import PRESETS
from bpe_core.recipes import build
from bpe_core.tokenizer import Tokenizer
from tests.test_tiktoken_format import ENGLISH, GPT2_ORDER, ANY_TEXT, gpt2_ordered_ranks
from tests.test_tiktoken_format import special_token_first

CUSTOM = r"[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]+|\s+$|\s+"
SETTINGS = [dict(unit="byte", pretokenizer=p) for p in
            ["gpt2", "cl100k", "o200k", "space-prefix", "whitespace", "none", CUSTOM]]
SETTINGS += [dict(unit="char", pretokenizer=p, byte_fallback=b)
             for p in ["whitespace", "gpt2", "cl100k", "space-prefix"] for b in (False, True)]
SETTINGS += [dict(unit="char", pretokenizer="end-of-word")]
# (With letters that Unicode 16 and 17 class differently: see bpe_core/unicode16.py.)
CORPUS = st.text(st.sampled_from("aaab c\n1.é中\ufdd0ʕB\u088f\U000323b0"), min_size=1,
                 max_size=300)


def hf_ids(h: HFTokenizer, text: str) -> list[int]:
    return h.encode(text, add_special_tokens=False).ids


@settings(max_examples=80)
@given(corpus=CORPUS, setting=st.sampled_from(SETTINGS), merges=st.integers(0, 60),
       texts=st.lists(ANY_TEXT | st.text(st.sampled_from("ab c\ufdd0\ufdd1<|x|>"), max_size=30),
                      max_size=5))
def test_hugging_face_gives_our_ids(corpus, setting, merges, texts):
    try:
        tok = bpe_core.train(corpus, max_merges=merges, min_frequency=1, special_tokens=["<|x|>"],
                             **setting)
    except ValueError:  # nothing but whitespace: no words for the whitespace presets
        return
    data = hf.dumps(tok)
    theirs, back = HFTokenizer.from_str(data.decode()), bpe_core.loads(data, source="t.json")
    assert [(m.left_id, m.right_id, m.token) for m in back.merges] == \
           [(m.left_id, m.right_id, m.token) for m in tok.merges]
    for text in [corpus, *texts]:
        ours = tok.encode(text)
        assert hf_ids(theirs, text) == ours == back.encode(text)


@pytest.fixture(scope="module")
def english():
    return bpe_core.train(ENGLISH, 800, unit="byte", pretokenizer="gpt2",
                          special_tokens=["<|endoftext|>"])


def test_byte_level_files_decode_too(english, tmp_path):
    path = tmp_path / "tokenizer.json"
    bpe_core.save(english, path, format="hf")
    theirs = HFTokenizer.from_file(str(path))
    text = ENGLISH[:2000] + " ünïcödé 中文 😀<|endoftext|>"
    ids = english.encode(text)
    assert hf_ids(theirs, text) == ids
    assert theirs.decode(ids, skip_special_tokens=False) == text


def test_our_byte_table_is_gpt2s():
    assert sorted(BYTE_CHARS) == sorted(pre_tokenizers.ByteLevel.alphabet())
    assert [CHAR_BYTES[c] for c in sorted(BYTE_CHARS)] == GPT2_ORDER
    text = "".join(map(chr, range(1, 0x800)))
    byte_level = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    (spelled, _), = byte_level.pre_tokenize_str(text)
    assert spelled == "".join(BYTE_CHARS[b] for b in text.encode())


def test_gpt2_files_round_trip_and_agree_with_hugging_face(english, tmp_path):
    vocab = tmp_path / "vocab.json"
    bpe_core.save(english, vocab, format="gpt2")
    merges = tmp_path / "merges.txt"
    assert merges.read_text(encoding="utf-8").startswith("#version: 0.2\nĠ t\n")
    theirs = HFTokenizer(models.BPE.from_file(str(vocab), str(merges)))
    theirs.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)  # GPT-2's own regex
    back = bpe_core.load(vocab)  # finds merges.txt beside it
    assert back.config["pretokenizer"] == "gpt2"
    assert back.special_tokens == english.special_tokens
    text = ENGLISH[:3000] + "  spaces\t\ttabs\n\n 123 ünï"
    assert hf_ids(theirs, text) == english.encode(text) == back.encode(text)


def gpt2_layout(tok: Tokenizer) -> tuple[dict[str, int], list[tuple[str, str]]]:
    """``tok`` as OpenAI laid GPT-2 out: ids 0-255 the bytes, printable ones first; merges after."""
    ranks = gpt2_ordered_ranks(tok)
    text = {t: "".join(BYTE_CHARS[b] for b in t) for t in ranks}
    merges = [(text[tok.token_bytes(m.left_id)], text[tok.token_bytes(m.right_id)])
              for m in tok.merges]
    return {text[t]: i for t, i in ranks.items()}, merges


@pytest.fixture(scope="module")
def gpt2_byte_order(english) -> tuple[Tokenizer, tiktoken.Encoding]:
    """``english`` written in OpenAI's GPT-2 layout (encoder.json, vocab.bpe) and read back by
    bpe_core, and the same ranks as a tiktoken encoding: made once, not once per example."""
    vocab, merges = gpt2_layout(english)
    vocab["<|endoftext|>"] = len(vocab)
    tok = bpe_core.loads_files({
        "encoder.json": json.dumps(vocab).encode(),
        "vocab.bpe": ("#version: 0.2\n" + "".join(f"{a} {b}\n" for a, b in merges)).encode()})
    enc = tiktoken.Encoding("gpt2ish", pat_str=PRESETS["gpt2"],
                            mergeable_ranks=gpt2_ordered_ranks(english),
                            special_tokens={"<|endoftext|>": len(vocab) - 1})
    return tok, enc


#: Stretches of the text ``english`` was trained on: they use its merges, as the few letters of
#: ANY_TEXT seldom do, so merges read wrong or out of order show.
ENGLISH_SLICES = st.builds(lambda start, size: ENGLISH[start:start + size],
                           st.integers(0, len(ENGLISH)), st.integers(0, 400))


@given(text=ANY_TEXT | ENGLISH_SLICES)
def test_gpt2_byte_order_files_give_tiktokens_ids(gpt2_byte_order, text):
    tok, enc = gpt2_byte_order
    assert tok.encode(text + "<|endoftext|>") == \
           enc.encode(text + "<|endoftext|>", allowed_special="all")


@pytest.mark.parametrize("vocab_name, merges_name", [("gpt2-vocab.json", "gpt2-merges.txt"),
                                                     ("encoder.json", "vocab.bpe")])
def test_merges_are_found_beside_the_vocab(english, tmp_path, vocab_name, merges_name):
    vocab, merges = gpt2.gpt2_files(english)
    (tmp_path / vocab_name).write_bytes(vocab)
    (tmp_path / merges_name).write_bytes(merges)
    back = bpe_core.load(tmp_path / vocab_name)
    assert back.encode(ENGLISH[:500]) == english.encode(ENGLISH[:500])


def test_a_vocab_without_merges_is_explained(english, tmp_path):
    (tmp_path / "vocab.json").write_bytes(gpt2.gpt2_files(english)[0])
    with pytest.raises(TokenizerFileError, match="is a GPT-2 vocab.json; its merges file is needed "
                                                 "too. Put it beside it as merges.txt"):
        bpe_core.load(tmp_path / "vocab.json")
    with pytest.raises(TokenizerFileError, match="merges.txt is needed too: give both files"):
        bpe_core.loads(gpt2.gpt2_files(english)[0], source="vocab.json")
    with pytest.raises(TokenizerFileError, match=r"merges\.txt is a GPT-2 merges\.txt; load its "
                                                 r"vocab\.json"):
        bpe_core.loads(gpt2.gpt2_files(english)[1], source="merges.txt")
    with pytest.raises(TokenizerFileError, match="give one tokenizer file, or GPT-2's vocab.json "
                                                 "and merges.txt together"):
        bpe_core.loads_files({"a.json": b"{}", "b.json": b"{}"})


def test_gpt2_files_that_are_not_utf8_or_json_are_named(english, tmp_path):
    vocab, merges = gpt2.gpt2_files(english)
    (tmp_path / "vocab.json").write_bytes(vocab)
    (tmp_path / "merges.txt").write_bytes(merges + "caf\u00e9 x\n".encode("latin-1"))
    # (Python's own words were "'utf-8' codec can't decode byte 0xe9 in position ...".)
    with pytest.raises(TokenizerFileError, match=r"the merges\.txt is not UTF-8 text \(byte 0xe9 "
                                                 r"at byte offset \d+\); GPT-2's files are UTF-8"):
        bpe_core.load(tmp_path / "vocab.json")
    with pytest.raises(TokenizerFileError, match=r"the vocab\.json is not valid JSON \("):
        gpt2.from_gpt2(vocab[:-2], merges)  # (files read as files are looked at first)


@pytest.mark.parametrize("special, spelled", [("a", 97), ("\u00e9", 0xE9), ("\u0120", 32),
                                              ("\u0120a", 256)])
def test_gpt2_files_refuse_a_special_token_spelled_as_a_vocabulary_token(special, spelled):
    # The vocab.json had one key for both: the special token was dropped, and its text read
    # back as the other token ("é" as the byte 0xe9, "Ġ" as the space, "Ġa" as the merge).
    tok = bpe_core.train("a a a b", unit="byte", max_merges=1, min_frequency=1,
                         special_tokens=["<s>", special])
    assert tok.model.vocab[special] == spelled and tok.special_tokens[special] == 258
    with pytest.raises(ValueError, match=(
            rf"GPT-2 files cannot hold the added token '{special}' \(id 258\): vocab.json "
            rf"spells token {spelled} the same way, so it would read back as that token; save "
            rf"this tokenizer in the native format")):
        gpt2.gpt2_files(tok)
    tok = bpe_core.train("a a a b", unit="byte", max_merges=1, min_frequency=1,
                         special_tokens=["<s>", "<|x|>"])
    back = bpe_core.loads_files(dict(zip(["vocab.json", "merges.txt"], gpt2.gpt2_files(tok))))
    assert back.special_tokens == tok.special_tokens == {"<s>": 257, "<|x|>": 258}


@pytest.mark.parametrize("options, what", [(dict(special=False), "is not special"),
                                           (dict(lstrip=True, rstrip=True),
                                            "has lstrip and rstrip set"),
                                           (dict(single_word=True), "has single_word set")])
def test_gpt2_files_refuse_added_tokens_they_would_read_back_as_plain_special_ones(options,
                                                                                   what):
    # Saved, "<x>" came back a plain special token: decode skipped it, and " <x> " kept the
    # spaces lstrip and rstrip had taken.
    tok = bpe_core.train("a a a b", unit="byte", max_merges=1, min_frequency=1)
    tok = dataclasses.replace(tok, added_tokens=[
        AddedToken(**{"content": "<x>", "id": 257, "special": True, **options})])
    with pytest.raises(ValueError, match=(
            f"^GPT-2 files hold plain special tokens only; the added token '<x>' {what}, which "
            f"they cannot keep: save this tokenizer in the native or Hugging Face format$")):
        bpe_core.save(tok, Path(tempfile.mkdtemp()) / "vocab.json", format="gpt2")


def test_gpt2_files_refuse_a_continuing_subword_prefix():
    # A byte-level tokenizer.json trained by tokenizers with "##" read back without it, and
    # encoded some texts otherwise (found by fuzzing: Arabic letters with combining marks).
    tok = bpe_core.train("a a a b", unit="byte", max_merges=1, min_frequency=1)
    tok = dataclasses.replace(tok, model=dataclasses.replace(tok.model,
                                                             continuing_subword_prefix="##"))
    with pytest.raises(ValueError, match=r"^GPT-2 vocab.json/merges.txt files keep no "
                                         r"continuing_subword_prefix \('##' here\); save this "):
        gpt2.gpt2_files(tok)


def test_gpt2_files_refuse_a_special_token_before_the_merges():
    # tokenizers' trainer puts special tokens first; GPT-2 files read only the ids after the
    # merges as special, so "</s>" came back as text: "a</s>b" as 6 tokens, not [a, </s>, b].
    with pytest.raises(ValueError, match=(
            r"^GPT-2 files read only the ids after the merges' \(259 on\) as special tokens, "
            r"and the added token '</s>' has id 0: save this tokenizer in the native or Hugging "
            r"Face format$")):
        gpt2.gpt2_files(special_token_first())


def foreign_file(pre_tokenizer) -> HFTokenizer:
    """A byte-level BPE made with the tokenizers library itself, GPT-2 byte order."""
    theirs = HFTokenizer(models.BPE(*gpt2_layout(bpe_core.train(ENGLISH, 500, unit="byte"))))
    theirs.pre_tokenizer = pre_tokenizer
    theirs.decoder = decoders.ByteLevel()
    return theirs


@pytest.mark.parametrize("pre_tokenizer", [
    pre_tokenizers.ByteLevel(add_prefix_space=False),  # GPT-2's tokenizer.json
    pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(r"\p{N}+"), behavior="isolated"),
                             pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
    pre_tokenizers.Sequence([pre_tokenizers.Split(Regex(r"\s+"), behavior="removed"),
                             pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
    pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                             pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]),
    pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
])
def test_files_made_by_the_tokenizers_library(tmp_path, pre_tokenizer):
    theirs = foreign_file(pre_tokenizer)
    path = tmp_path / "tokenizer.json"
    theirs.save(str(path))
    ours = bpe_core.load(path)
    assert [CHAR_BYTES[ours.model.tokens[i]] for i in range(256)] == GPT2_ORDER

    # (40 texts for each of the 5 pre-tokenizers, which multiply them: 200 in all.)
    @settings(max_examples=40)
    @given(text=ANY_TEXT | st.text(st.sampled_from("ab 12\n"), max_size=30))
    def same_ids(text):
        assert ours.encode(text) == hf_ids(theirs, text)

    same_ids()


@pytest.mark.parametrize("kwargs, message", [
    (dict(unit="byte", pretokenizer=r"\w+|\s+"), r"uses \\w, which means something else"),
    (dict(unit="byte", pretokenizer=r"(?m)^\S+|\s+"), r"uses \(\?m\)"),
    (dict(unit="byte", pretokenizer="end-of-word"), "byte-level BPE has no end-of-word symbol"),
    (dict(unit="char", pretokenizer="end-of-word", byte_fallback=True), "cannot combine byte "
                                                                        "fallback with </w>"),
])
def test_what_hugging_face_cannot_express_is_refused(kwargs, message):
    tok = bpe_core.train("low lower lowest", max_merges=2, min_frequency=1, **kwargs)
    with pytest.raises(ValueError, match=message):
        hf.dumps(tok)


def test_special_tokens_must_not_clash_with_tokens():
    tok = build(byte_base(), [(97, 98, 0), (97, 98, 0)], pattern=r"\S+", preset="whitespace")
    with pytest.raises(ValueError, match="tokens 256 and 257 are both 'ab'"):
        hf.dumps(tok)


def _valid() -> dict:
    tok = bpe_core.train("hug pug pun bun hugs " * 3, unit="byte", pretokenizer="gpt2",
                         max_merges=5)
    return hf.to_dict(tok)


def _edit(path: str, value):
    def apply(d):
        *keys, last = path.split(".")
        for k in keys:
            d = d[int(k) if k.isdigit() else k]
        d[int(last) if last.isdigit() else last] = value
    return apply


@pytest.mark.parametrize("edit, message", [
    (_edit("model.type", "WordPiece"), "the model is WordPiece, not BPE"),
    (_edit("normalizer", {"type": "Nmt"}), "the Nmt normalizer is not supported; bpe_core "
                                           "reads NFC"),
    (_edit("pre_tokenizer", {"type": "UnicodeScripts"}), "the UnicodeScripts pre-tokenizer is not "
                                                         "supported"),
    (_edit("decoder", {"type": "CTC"}), "the CTC decoder is not supported"),
    (_edit("post_processor", {"type": "Nope"}), "the Nope post-processor is not supported"),
    (_edit("pre_tokenizer.pretokenizers.0.behavior", "Sideways"), "Split behavior 'Sideways'"),
    (_edit("pre_tokenizer.pretokenizers.0.pattern", {"Regex": r"\w+"}), r"uses \\w"),
    (_edit("model.merges.2", "a b c"), r"merge 3 \(rank 2: 'a b c'\) is not two tokens"),
    (_edit("model.merges.0", ["h", "zz"]), r"merge 1 \(rank 0: 'h' \+ 'zz'\) names 'zz' and 'hzz', "
                                           r"which are not in the vocabulary"),
    (_edit("model.vocab", None), "cannot be read as a Hugging Face BPE tokenizer"),
    (_edit("model.vocab", ["h", "u"]), "the BPE model's vocab must be an object of token: id, "
                                       "not a list"),
    # Two tokens with one id: the tables kept the second, and 'h' became nothing at all.
    (_edit("model.vocab.h", 0), "both have the id 0; each token needs an id of its own"),
    (_edit("added_tokens", [{"id": 261}]), "missing field 'content'"),
    # Ids are integers from 0, with few left unused below the largest: every id up to it has
    # a place in the tables, so 2**31 would take gigabytes (and 2**64 no list can hold).
    (_edit("model.vocab.h", 2**31), r"'h' has the id 2,147,483,648, but there are only 261 "
                                    r"tokens; ids may leave at most 1,000,000 unused"),
    (_edit("model.vocab.h", -1), "'h' has the id -1; ids are integers from 0"),
    (_edit("model.vocab.h", 1.0), "'h' has the id 1.0; ids are integers from 0"),
    (_edit("added_tokens", [{"id": 2**64, "content": "<x>"}]),
     "'<x>' has the id 18,446,744,073,709,551,616"),
    (_edit("added_tokens", [{"id": -5, "content": "<x>"}]),
     "the added token '<x>' has the id -5; ids are integers from 0"),
    (_edit("added_tokens", [{"id": True, "content": "<x>"}]), "has the id True"),
    # A field of the wrong type is named when the file is read, not met in an encode.
    (_edit("pre_tokenizer.pretokenizers.1.add_prefix_space", "no"),
     "the ByteLevel stage's add_prefix_space is 'no'; it must be true or false"),
    (_edit("decoder", {"type": "Replace", "pattern": {"String": "a"}, "content": 3}),
     "the Replace stage's content is 3; it must be a string"),
    (_edit("model.end_of_word_suffix", {}),
     "the BPE model's end_of_word_suffix is {}; it must be a string or null"),
    (_edit("model.fuse_unk", "yes"), "the BPE stage's fuse_unk is 'yes'; it must be true or false"),
    (_edit("normalizer", {"type": "Prepend", "prepend": None}),
     "the Prepend stage's prepend is None; it must be a string"),
    (_edit("post_processor", {"type": "TemplateProcessing", "single": [
        {"SpecialToken": {"id": "<s>", "type_id": 0}}, {"Sequence": {"id": "A", "type_id": 0}}],
        "pair": [], "special_tokens": {"<s>": {"id": "<s>", "ids": [1.5], "tokens": ["<s>"]}}}),
     r"the template's special token '<s>' has the ids \[1.5\]; they must be a list of "
     r"integers from 0"),
])
def test_unsupported_or_malformed_hugging_face_files_are_explained(edit, message):
    d = copy.deepcopy(_valid())
    edit(d)
    with pytest.raises(TokenizerFileError, match=message):
        bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")


@pytest.mark.parametrize("edit, said", [
    (_edit("pre_tokenizer.pretokenizers.0.pattern", {"Regex": "(?<name"}),
     "the regex '(?<name' of the Split pre-tokenizer does not compile: missing > at position 7"),
    (_edit("normalizer", {"type": "Replace", "pattern": {"Regex": "[a-"}, "content": "x"}),
     "the regex '[a-' of the Replace normalizer does not compile: unterminated character set "
     "at position 3"),
    (_edit("decoder", {"type": "Replace", "pattern": {"PythonRegex": "a{2,1}"}, "content": "x"}),
     "the regex 'a{2,1}' of the Replace decoder does not compile: min repeat greater than max "
     "repeat at position 2"),
])
def test_a_regex_that_does_not_compile_is_named_with_why(edit, said):
    d = copy.deepcopy(_valid())
    edit(d)
    with pytest.raises(TokenizerFileError) as error:
        bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")
    assert str(error.value) == ("tokenizer.json cannot be read as a Hugging Face BPE tokenizer: "
                                + said)


def _abc(ignore_merges: bool) -> Tokenizer:
    """Merges under which "abc", a token, does not merge into itself: b+c comes first."""
    return build(byte_base(), [(98, 99, 0), (97, 98, 0), (257, 99, 0)],
                 pattern=PRESETS["gpt2"], preset="gpt2", ignore_merges=ignore_merges)


@given(text=st.text(st.sampled_from("abc "), max_size=40))
def test_ignore_merges_looks_whole_pieces_up_as_hugging_face_does(text):
    for flag in (False, True):
        tok = _abc(flag)
        data = hf.dumps(tok)
        theirs, back = HFTokenizer.from_str(data.decode()), bpe_core.loads(data)
        assert back.ignore_merges is flag
        assert hf_ids(theirs, text) == tok.encode(text) == back.encode(text)
    assert [_abc(f).encode("abc") for f in (False, True)] == [[97, 256], [258]]


def test_ignore_merges_is_kept_by_every_format_that_has_it(tmp_path):
    tok = _abc(True)
    for fmt in ("native", "hf"):
        path = tmp_path / f"t.{fmt}.json"
        bpe_core.save(tok, path, format=fmt)
        assert bpe_core.load(path).ignore_merges, fmt
    assert not bpe_core.loads(hf.dumps(_abc(False))).ignore_merges


def _added(i: int, content: str, special: bool = True, **options) -> dict:
    return {"id": i, "content": content, "single_word": False, "lstrip": False, "rstrip": False,
            "normalized": False, "special": special, **options}


@pytest.mark.parametrize("added, text", [
    ([_added(1000, "<x>")], "ab<x>"),  # an id past a gap: tokenizers gives the next one
    ([_added(5, "<x>"), _added(3, "<y>")], "ab<x><y>"),  # ids out of order: file order wins
    ([_added(7, "a")], "ab a"),  # a token of the vocabulary: its id there
    ([_added(3, "<x>"), _added(3, "<y>")], "<x><y>"),  # one id twice
    ([_added(1, "<x>")], "<x>b"),  # the id of another token
    ([_added(3, "<x>"), _added(4, "<x>", special=False, lstrip=True)], "a <x>b <x>"),
    # The first space takes the second (rstrip); the second's match is then empty, and dropped.
    ([_added(3, " ", lstrip=True, rstrip=True)], "a  b   a"),
])
def test_added_tokens_get_the_ids_tokenizers_gives_them_not_those_written(added, text):
    d = {"version": "1.0", "added_tokens": added, "normalizer": None, "pre_tokenizer": None,
         "post_processor": None, "decoder": None,
         "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": [["a", "b"]]}}
    data = json.dumps(d)
    ours, theirs = bpe_core.loads(data.encode(), source="t.json"), HFTokenizer.from_str(data)
    ids = ours.encode(text)
    assert ids == theirs.encode(text, add_special_tokens=False).ids
    assert ours.decode(ids) == theirs.decode(ids)
    assert ours.decode(ids, skip_special_tokens=False) == theirs.decode(ids,
                                                                      skip_special_tokens=False)


def test_a_special_token_tokenizers_would_read_as_another_is_not_saved_for_it():
    # In GPT-2's byte characters "Ġ" is the space's token, which tokenizers gives the added "Ġ".
    tok = bpe_core.train("hug pug a b " * 10, max_merges=5, min_frequency=1, unit="byte",
                         pretokenizer="gpt2", special_tokens=["<|end|>", "Ġ"])
    with pytest.raises(ValueError, match=re.escape(
            "Hugging Face would read the added token 'Ġ' (id 262) as id 32, the id of the "
            "vocabulary's token 'Ġ'; save this tokenizer in the native format")):
        bpe_core.dumps(tok, format="hf")
    again = bpe_core.loads(bpe_core.dumps(tok), source="t.json")  # the native format keeps it
    assert again.encode("a Ġ b") == tok.encode("a Ġ b")


def test_unk_given_as_a_special_token_is_the_unknown_token_as_in_hugging_face_trainers():
    # It was a second "[UNK]" after the merges (id 13), which tokenizers read back as id 0.
    tok = bpe_core.train("hug pug a b " * 10, max_merges=5, min_frequency=1, unit="char",
                         pretokenizer="gpt2", special_tokens=["[UNK]", "<|end|>"])
    assert [(t.content, t.id) for t in tok.added_tokens] == [("[UNK]", 0), ("<|end|>", 13)]
    assert tok.vocab_size == 14  # [UNK], 7 characters, 5 merges and <|end|>
    text = "hug [UNK] zz<|end|>"
    ids = tok.encode(text)
    assert ids == [9, 1, 0, 1, 0, 0, 13]  # a written [UNK] and unknown characters alike
    theirs = HFTokenizer.from_str(bpe_core.dumps(tok, format="hf").decode())
    assert theirs.encode(text, add_special_tokens=False).ids == ids
    assert tok.decode(ids) == theirs.decode(ids)


SPECIALS = st.lists(st.sampled_from(["<|end|>", "<s>", "[UNK]", " ", "a", "ab", "Ġ", "\n", "🙂",
                                     "<|a|><"]), max_size=3, unique=True)


@settings(max_examples=40, deadline=None)
@given(unit=st.sampled_from(["byte", "char"]), specials=SPECIALS, merges=st.integers(0, 12),
       text=st.text(alphabet="ab Ġ\n🙂<|>[UNK]end", max_size=40))
def test_a_trained_tokenizer_saved_for_hugging_face_reads_there_as_here(unit, specials, merges,
                                                                       text):
    tok = bpe_core.train("hug pug pun bun a ab b 🙂\n" * 5, max_merges=merges, min_frequency=1,
                         unit=unit, pretokenizer="gpt2", special_tokens=specials)
    try:
        data = bpe_core.dumps(tok, format="hf")
    except ValueError as refused:
        assert "Hugging Face would read the added token" in str(refused)
        return
    ids = tok.encode(text)
    assert HFTokenizer.from_str(data.decode()).encode(text, add_special_tokens=False).ids == ids
    assert bpe_core.loads(data, source="t.json").encode(text) == ids
