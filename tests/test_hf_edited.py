"""tokenizer.json files edited by hand, or written by other tools, that real models' files never
are: each is read, encoded and decoded as `tokenizers` does, or fails where it fails."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, pre_tokenizers

import bpe_core


def _lost_unk(**options) -> str:
    """A tokenizer.json whose unk_token "<unk>" its vocab lacks, as tokenizers writes it."""
    h = HFTokenizer(models.BPE({"a": 0, "b": 1, "ab": 2, "▁": 3}, [("a", "b")],
                               unk_token="<unk>", **options))
    h.pre_tokenizer = pre_tokenizers.Metaspace()
    return h.to_str()


@pytest.mark.parametrize("options", [{}, {"fuse_unk": True}, {"byte_fallback": True},
                                     {"ignore_merges": True}])
def test_an_unk_token_the_vocab_lacks_fails_where_tokenizers_fails_not_at_load(options):
    # The file was refused at load ("the unk_token '<unk>' is not in the vocabulary"), which
    # tokenizers loads and encodes until a character needs "<unk>".
    text = _lost_unk(**options)
    theirs, tok = HFTokenizer.from_str(text), bpe_core.loads(text, source="tokenizer.json")
    for known in ("ab ab", "a" * 300, ""):
        assert tok.encode(known) == theirs.encode(known).ids
    assert tok.encode("ab ab") == [3, 2, 3, 2]
    assert [s.id for s in tok.spans("ab ab")] == [3, 2, 3, 2]
    with pytest.raises(Exception, match="^Unk token `<unk>` not found in the vocabulary$"):
        theirs.encode("ab abc")
    said = (r"^'c' \(U\+0063\) has no token, and the unk_token '<unk>' that stands for such a "
            r"character is not in the vocabulary either: add '<unk>' to the vocab, or set "
            r"unk_token to null \(such characters are then dropped\)$")
    for encode in (tok.encode, tok.spans, lambda t: tok.encode_batch([t])):
        with pytest.raises(ValueError, match=said):
            encode("ab abc")
    assert tok.decode([3, 2]) == theirs.decode([3, 2]) == "▁ ab"  # no decoder: joined by spaces


def _with_added(added: list[dict]) -> str:
    vocab = {"a": 0, "b": 1, "ab": 2, "▁": 3, "<unk>": 4, " ": 5}
    h = HFTokenizer(models.BPE(vocab, [("a", "b")], unk_token="<unk>"))
    h.pre_tokenizer, h.decoder = pre_tokenizers.Metaspace(), decoders.Metaspace()
    d = json.loads(h.to_str())
    d["added_tokens"] = [{"single_word": False, "lstrip": False, "rstrip": False,
                          "normalized": False, "special": True, **t} for t in added]
    return json.dumps(d)


DEGENERATE = [  # what a hand-edited added_tokens may hold, each read as tokenizers reads it
    [{"content": "", "id": 6}, {"content": "<s>", "id": 7}],
    [{"content": "", "id": 6, "special": False, "normalized": True}],
    [{"content": " ", "id": 6, "lstrip": True, "rstrip": True}],
    [{"content": "  ", "id": 6, "special": False, "single_word": True, "normalized": True}],
    [{"content": "ab", "id": 9, "special": False}],  # a vocab token under another id
    [{"content": "<x>", "id": 6}, {"content": "<x>", "id": 7, "special": False}],
    [{"content": "<x>", "id": 6}, {"content": "<y>", "id": 6}],  # one id, two tokens
    [{"content": "<x>", "id": 1000, "rstrip": True}],  # beyond the vocab
]


@pytest.mark.parametrize("added", DEGENERATE)
def test_degenerate_added_tokens_read_encode_and_decode_as_in_tokenizers(added):
    # An added token with the content "" was refused ("an added token needs a non-empty
    # content"); tokenizers leaves it out as it reads the file, its id taken by no token.
    text = _with_added(added)
    theirs, tok = HFTokenizer.from_str(text), bpe_core.loads(text, source="tokenizer.json")
    for sample in ["", " ", "ab <x> <y>", "<s>ab  ab <x><x>", "a  b\tab ", "<s> <x>  "]:
        for split in (False, True):
            theirs.encode_special_tokens = split
            ids = theirs.encode(sample).ids
            assert tok.encode(sample, split_special_tokens=split) == ids, (sample, split)
            for skip in (True, False):
                assert tok.decode(ids, skip_special_tokens=skip) == theirs.decode(
                    ids, skip_special_tokens=skip)
    for ids in ([6], [7], [2, 6, 2], [9]):
        assert tok.decode(ids, skip_special_tokens=False) == theirs.decode(
            ids, skip_special_tokens=False)
