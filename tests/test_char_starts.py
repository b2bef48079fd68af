"""Byte-level merging started from whole characters (bpe_core/char_starts.py): the ids of Hugging
Face ``tokenizers`` where it applies, and where it must not."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer as HFTokenizer

import bpe_core
from bpe_core.alphabet import BYTE_CHARS


def model_of(merges: list[tuple[bytes, bytes]]) -> HFTokenizer:
    """A byte-level model with no regex (a text is one piece) and these merges, in this order,
    each given as the bytes of its two parts."""
    def spell(data: bytes) -> str:
        return "".join(BYTE_CHARS[b] for b in data)

    vocab = {c: b for b, c in enumerate(BYTE_CHARS)}
    pairs = [[spell(a), spell(b)] for a, b in merges]
    for a, b in pairs:
        vocab.setdefault(a + b, len(vocab))
    level = {"add_prefix_space": False, "trim_offsets": False, "use_regex": False}
    return HFTokenizer.from_str(json.dumps({
        "version": "1.0", "added_tokens": [],
        "model": {"type": "BPE", "vocab": vocab, "merges": pairs},
        "pre_tokenizer": {"type": "ByteLevel", **level},
        "decoder": {"type": "ByteLevel", **level}}))


def ours(theirs: HFTokenizer) -> bpe_core.Tokenizer:
    """Read from the file's text, so its cutter (and what goes with it) is built at load."""
    return bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")


def made(ch: str) -> tuple[bytes, bytes]:
    """The merge that makes a two-byte character of its bytes."""
    data = ch.encode()
    return data[:1], data[1:]


E, U, O = "é".encode(), "ü".encode(), "ö".encode()


@pytest.mark.parametrize("text", ["éüö", "öüé", "éé üö", "éüöéüö", "aéb", "ééé"])
def test_characters_merged_first_give_the_ids_of_tokenizers(text):
    theirs = model_of([made("é"), made("ü"), made("ö"), (E, U), (U, O)])
    tok = ours(theirs)
    assert tok.model.merges_in_order()
    assert tok.encode(text) == theirs.encode(text).ids


def test_a_merge_list_out_of_order_is_merged_from_the_bytes():
    # Merge 0 joins ü and ö before either is made, and é + ü comes before ö is made. From the
    # bytes, é and ü are made first and é + ü wins; with ü and ö made first, ü + ö would win.
    theirs = model_of([(U, O), made("é"), made("ü"), (E, U), made("ö")])
    tok = ours(theirs)
    assert not tok.model.merges_in_order()
    for late in ("é", "ü"):  # é + ü before the merge that makes its left part, or its right
        early = "üé".replace(late, "")
        assert not ours(model_of([made(early), (E, U), made(late)])).model.merges_in_order()
    assert [theirs.id_to_token(i) for i in theirs.encode("éüö").ids] == ["Ã©Ã¼", "Ã¶"]
    assert tok.encode("éüö") == theirs.encode("éüö").ids


@pytest.mark.parametrize("text", ["中文", "中文中文", "文文", "x中", "文中文"])
def test_a_character_joined_to_the_head_of_another_is_merged_from_the_bytes(text):
    # 中 is made, then joined to the first byte of 文 (so 中 + 文 is 中<E6>, <96>, <87>): a
    # text that holds 中 starts from its bytes; 文 alone still merges first.
    zhong, wen = "中".encode(), "文".encode()
    theirs = model_of([(zhong[:1], zhong[1:2]), (zhong[:2], zhong[2:]), (zhong, wen[:1]),
                       (wen[:1], wen[1:2]), (wen[:2], wen[2:])])
    assert ours(theirs).encode(text) == theirs.encode(text).ids
