"""The BPE model against Hugging Face's: first symbols (unk, fuse_unk, byte fallback, prefixes,
suffixes), merge results with arbitrary ids, ignore_merges, long pieces, merge limits."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models as hf_models
from tokenizers.trainers import BpeTrainer

from bpe_core import models
from bpe_core.merging import LONG_PIECE
from bpe_core.models import BPE

CORPUS = ["".join(random.Random(k).choice("abcab é") for _ in range(300)) for k in range(40)]


def _hf(**options) -> HFTokenizer:
    tok = HFTokenizer(hf_models.BPE(**options))
    extra = {k: options[k] for k in ("continuing_subword_prefix", "end_of_word_suffix")
             if k in options}
    trainer = BpeTrainer(vocab_size=120, min_frequency=1, show_progress=False,
                         special_tokens=[options["unk_token"]] if options.get("unk_token") else [],
                         **extra)
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def _shuffled(d: dict) -> dict:
    """The same model with its ids shuffled: merge results no longer follow merge order."""
    vocab = d["vocab"]
    ids = list(vocab.values())
    random.Random(7).shuffle(ids)
    return {**d, "vocab": dict(zip(vocab, ids))}


OPTIONS = [dict(), dict(unk_token="[UNK]"), dict(unk_token="[UNK]", fuse_unk=True),
           dict(continuing_subword_prefix="##", unk_token="[UNK]"),
           dict(end_of_word_suffix="</w>", unk_token="[UNK]"), dict(ignore_merges=True)]


@pytest.fixture(scope="module", params=range(len(OPTIONS)))
def pair(request):
    theirs = _hf(**OPTIONS[request.param])
    d = _shuffled(json.loads(theirs.to_str())["model"])
    again = json.loads(theirs.to_str())
    again["model"] = d
    theirs = HFTokenizer.from_str(json.dumps(again))
    return theirs, models.from_dict(d)


@settings(max_examples=50)
@given(text=st.text(st.sampled_from("abcxé中"), max_size=2 * LONG_PIECE + 20))
def test_same_ids_as_hugging_face(pair, text):
    theirs, ours = pair
    want = theirs.encode(text, add_special_tokens=False).ids if text else []
    assert ours.tokenize(text) == want
    assert [i for i, _, _ in ours.tokenize_with_offsets(text)] == want


def test_offsets_are_utf8_bytes_of_the_piece(pair):
    theirs, ours = pair
    text = "abé cab"[:3]
    found = ours.tokenize_with_offsets(text)
    assert found[0][1] == 0 and found[-1][2] == len(text.encode())
    assert all(a[2] == b[1] for a, b in zip(found, found[1:]))


def test_a_limit_uses_the_first_merges_only():
    model = BPE.from_vocab({"a": 0, "b": 1, "ab": 5, "abb": 3}, [("a", "b"), ("ab", "b")])
    assert model.tokenize("abb") == [3]
    assert model.tokenize("abb", limit=1) == [5, 1]
    assert model.tokenize("abb", limit=0) == [0, 1, 1]
    assert model.merge([0, 1, 1] * 100, 1) == [5, 1] * 100  # the long-piece path agrees


def test_long_pieces_take_the_bucket_path_with_the_same_result():
    theirs = _hf()
    model = models.from_dict(json.loads(theirs.to_str())["model"])
    text = "".join(random.Random(3).choice("abc") for _ in range(5000))
    assert len(text) > LONG_PIECE  # one piece (no pre-tokenizer), merged by merge_long
    assert model.tokenize(text) == theirs.encode(text, add_special_tokens=False).ids
    short = [model.tokenize(text[k:k + 100]) for k in range(0, 5000, 100)]
    assert short == [theirs.encode(text[k:k + 100]).ids for k in range(0, 5000, 100)]


@settings(max_examples=60)
@given(text=st.text(st.sampled_from("abcd"), min_size=LONG_PIECE - 5,
                    max_size=3 * LONG_PIECE), order=st.permutations(range(7)))
def test_merges_in_any_order_as_hugging_face_on_long_pieces(text, order):
    # A merge may use a token before the merge that makes it ("ab" + "a" ranked before
    # "a" + "b"): the pair it makes then has a lower rank than the merge just made, which
    # Hugging Face makes first ("abab": "aba" + "b", not "ab" + "ab"), also on long pieces,
    # where merge_long keeps a bucket per merge.
    merges = [["a", "b"], ["ab", "c"], ["c", "d"], ["b", "cd"], ["abc", "d"], ["a", "a"],
              ["ab", "a"]]
    merges = [merges[k] for k in order]
    vocab = {t: i for i, t in enumerate(["a", "b", "c", "d", "ab", "abc", "cd", "bcd", "abcd",
                                         "aa", "aba"])}
    d = {"type": "BPE", "vocab": vocab, "merges": merges}
    theirs = HFTokenizer.from_str(json.dumps({"version": "1.0", "model": d}))
    ours = models.from_dict(d)
    want = theirs.encode(text, add_special_tokens=False).ids
    assert ours.tokenize(text) == want
    assert [i for i, _, _ in ours.tokenize_with_offsets(text)] == want


def test_byte_fallback_spells_unknown_characters_as_bytes():
    vocab = {"a": 0, "<unk>": 1, **{f"<0x{b:02X}>": 2 + b for b in range(256)}}
    model = BPE.from_vocab(vocab, [], unk_token="<unk>", byte_fallback=True)
    assert model.tokenize("aé") == [0, 2 + 0xC3, 2 + 0xA9]
    # Each byte token stands for the whole character it spells (UTF-8 bytes 1 to 3 of "aé").
    assert [(s, e) for _, s, e in model.tokenize_with_offsets("aé")] == [(0, 1), (1, 3), (1, 3)]


@pytest.mark.parametrize("fuse_unk", [False, True])
@settings(max_examples=60)
@given(text=st.text(st.sampled_from("abé中z"), max_size=30))
def test_byte_fallback_mixes_bytes_and_unk_as_hugging_face(fuse_unk, text):
    """Byte fallback where it can: é becomes its bytes; 中 and z lack a byte token, so unk."""
    vocab = {"a": 0, "b": 1, "ab": 2, "<unk>": 3, "<0xC3>": 4, "<0xA9>": 5, "<0xE4>": 6,
             "<0xB8>": 7, "<0xC3><0xA9>": 8}
    d = {"type": "BPE", "vocab": vocab, "merges": [["a", "b"], ["<0xC3>", "<0xA9>"]],
         "unk_token": "<unk>", "fuse_unk": fuse_unk, "byte_fallback": True}
    theirs = HFTokenizer.from_str(json.dumps({"version": "1.0", "model": d}))
    ours = models.from_dict(d)
    want = theirs.encode(text, add_special_tokens=False).ids if text else []
    assert ours.tokenize(text) == want
    assert ours.tokenize(text) == want  # a second time, from the characters found once


def test_an_unknown_character_without_unk_token_is_dropped_as_in_hugging_face():
    assert BPE.from_vocab({"a": 0}, []).tokenize("aza") == [0, 0]


def test_a_merge_naming_missing_tokens_says_which():
    with pytest.raises(ValueError, match=r"merge 1 \(rank 0: 'a' \+ 'q'\) names 'q' and 'aq', "
                                         r"which are not in the vocabulary"):
        BPE.from_vocab({"a": 0}, [("a", "q")])


@pytest.mark.parametrize("model, message", [
    ({"type": "WordPiece", "vocab": {}}, "the model is WordPiece, not BPE"),
    ({"type": "BPE", "vocab": {}, "merges": [], "dropout": 0.1}, "dropout"),
    ({"type": "BPE", "vocab": {"a": 0}, "merges": ["a b c"]},
     r"merge 1 \(rank 0: 'a b c'\) is not two tokens"),
])  # (An unk_token the vocab lacks loads, as in tokenizers: see test_hf.py.)
def test_unreadable_models_say_why(model, message):
    with pytest.raises(ValueError, match=message):
        models.from_dict(model)


def test_to_dict_round_trips():
    theirs = _hf(unk_token="[UNK]", fuse_unk=True)
    d = json.loads(theirs.to_str())["model"]
    back = models.from_dict(models.from_dict(d).to_dict())
    assert back.tokens == models.from_dict(d).tokens
    assert back.merges.triples() == models.from_dict(d).merges.triples()


def test_a_model_pickles_without_its_derived_tables_and_rebuilds_them():
    # Workers get tokenizers pickled: the tables __post_init__ derives are rebuilt there, not
    # sent (for Gemma 3 they took most of 0.32 s to pickle, in the server's process).
    model = BPE.from_vocab({"h": 0, "u": 1, "g": 2, "ug": 3, "hug": 4, "<unk>": 5},
                           [("u", "g"), ("h", "ug")], unk_token="<unk>")
    model.tokenize("hugx")  # fills the lazy per-character table too
    data = pickle.dumps(model)
    assert b"_keys" not in data and b"_char_symbols" not in data and b"vocab" not in data
    again = pickle.loads(data)
    assert again.vocab == model.vocab and again.merges == model.merges
    assert [again.tokenize(w) for w in ("hug", "gu", "hugx")] == [[4], [2, 1], [4, 5]]
    assert again.unk_token == "<unk>"
