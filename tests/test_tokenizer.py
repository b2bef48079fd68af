"""Encoding, decoding, spans, special tokens, merge trees and the native file format."""

import dataclasses
import gc
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tokenizers import Tokenizer as HFTokenizer

import bpe_core
from bpe_core import TokenizerFileError
from bpe_core.analysis.vocabulary import token_frequencies

CORPUS = ("The quick brown fox jumps over the lazy dog. 你好，世界！ Ça va? "
          "👩‍👩‍👧 naïve café ١٢٣ שלום\n") * 20


@pytest.fixture(scope="module")
def tok():
    return bpe_core.train(CORPUS, 400, special_tokens=["<|endoftext|>"], processes=1)


HOSTILE = ["<script>alert(1)</script>", "a\u200bb\u200d", "\u202eevil\u202c", "👩🏽‍💻🏳️‍🌈",
           "e\u0301\u0308", "\x00\x1b[31m", "\r\n\t", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \U0010fffd"]


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"]), max_size=80))
def test_byte_level_round_trip_on_any_text(tok, text):
    # Any text may spell "<|endoftext|>"; as ordinary text it must round-trip too.
    assert tok.decode(tok.encode(text, split_special_tokens=True)) == text


@pytest.mark.parametrize("text", HOSTILE)
def test_round_trip_on_hostile_text(tok, text):
    assert tok.decode(tok.encode(text)) == text


@pytest.mark.parametrize("pre", sorted(bpe_core.LOSSLESS_PRESETS))
def test_every_lossless_preset_round_trips(pre):
    t = bpe_core.train(CORPUS, 300, pretokenizer=pre, processes=1)
    for text in HOSTILE + [CORPUS[:200]]:
        assert t.decode(t.encode(text)) == text


def test_end_of_word_decodes_words_with_single_spaces():
    t = bpe_core.train("low lower newest widest", unit="char", pretokenizer="end-of-word",
                       min_frequency=1, max_merges=10)
    assert t.decode(t.encode("lowest  newer")) == "lowest newer"


def test_upto_replays_training_steps(tok):
    text = "the lazy dog"
    assert tok.encode(text, upto=0) == list(text.encode())
    assert tok.encode(text, upto=len(tok.merges)) == tok.encode(text)
    lengths = [len(tok.encode(text, upto=k)) for k in range(len(tok.merges) + 1)]
    assert lengths == sorted(lengths, reverse=True)  # merging never adds tokens


def test_spans_cover_the_text_and_flag_partial_characters(tok):
    text = "fox 你好 👩‍👩‍👧!"
    spans = tok.spans(text)
    assert [s.id for s in spans] == tok.encode(text)
    assert b"".join(s.bytes for s in spans) == text.encode()
    for s in spans:
        assert 0 <= s.start <= s.end <= len(text)
        if not s.partial:
            assert text[s.start:s.end].encode() == s.bytes
    one_byte = bpe_core.train("xyz", max_merges=0)
    parts = one_byte.spans("你")
    assert [(p.token, p.start, p.end, p.partial) for p in parts] == [
        ("<E4>", 0, 1, True), ("<BD>", 0, 1, True), ("<A0>", 0, 1, True)]


def test_special_tokens_in_the_text_are_special_unless_split(tok):
    # Hugging Face's rule: special tokens are found in the text; decode skips them by default.
    text = "hi<|endoftext|>there"
    ids = tok.encode(text)
    assert tok.special_tokens["<|endoftext|>"] in ids
    assert tok.decode(ids) == "hithere"
    assert tok.decode(ids, skip_special_tokens=False) == text
    as_text = tok.encode(text, split_special_tokens=True)
    assert tok.special_tokens["<|endoftext|>"] not in as_text
    assert tok.decode(as_text) == text


def test_training_never_merges_across_a_special_token():
    t = bpe_core.train("ab<|x|>ab<|x|>ab", pretokenizer="none", special_tokens=["<|x|>"],
                       min_frequency=1)
    assert [m.token for m in t.merges] == ["ab"]


def test_merge_tree_goes_down_to_bytes():
    t = bpe_core.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, unit="char",
                       pretokenizer="whitespace", max_merges=3, min_frequency=1)
    hug = t.merges[2].token_id
    tree = t.merge_tree(hug)
    assert (tree.token, tree.rank, tree.count) == ("hug", 2, 15)
    assert (tree.left.token, tree.right.token, tree.right.rank) == ("h", "ug", 0)
    assert tree.leaves() == ["h", "u", "g"]



def listed_twice(**options) -> bpe_core.Tokenizer:
    """A model whose merges list 'abc' twice, as a file converted from SentencePiece lists every
    split of a token: first as 'a' + 'bc' (rank 0, 'bc' being made only at rank 3), then as
    'ab' + 'c' (rank 2), the one merging takes."""
    return bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        [("a", "bc"), ("a", "b"), ("ab", "c"), ("b", "c")], **options))


def test_merge_tree_is_the_merges_that_merging_makes_when_several_make_a_token():
    t = listed_twice()
    assert t.encode("abc", upto=2) == [3, 2] and t.encode("abc", upto=3) == [5]
    tree = t.merge_tree(5)
    assert (tree.rank, tree.left.token, tree.left.rank, tree.right.token) == (2, "ab", 1, "c")
    assert t.merge_for(5).rank == 2 and t.view.remerged(5) == [5]
    assert t.merge_for(4).rank == 3  # made by one merge: that one


def test_a_token_merging_never_makes_keeps_the_first_merge_listed_for_it():
    t = bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        [("a", "b"), ("b", "c"), ("a", "bc")], ignore_merges=True))
    assert t.encode("abc") == [5] and t.encode("abc", upto=2) == [3, 2]
    assert t.view.remerged(5) == [3, 2]
    tree = t.merge_tree(5)
    assert (tree.rank, tree.left.token, tree.right.token, tree.right.rank) == (2, "a", "bc", 1)

def test_token_frequencies_and_effective_vocab():
    t = bpe_core.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, unit="char",
                       pretokenizer="whitespace", max_merges=3, min_frequency=1)
    freq = token_frequencies(t, {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5})
    shown = {t.display(i): n for i, n in freq.items()}
    assert shown == {"hug": 15, "p": 17, "ug": 5, "un": 16, "b": 4, "s": 5}
    assert len(token_frequencies(t, "hug hug")) == 1


def test_display_shows_invalid_utf8_as_hex():
    assert bpe_core.show_bytes("你".encode()[:2]) == "<E4 BD>"
    assert bpe_core.show_bytes(b" re") == " re"


@pytest.mark.parametrize("kwargs", [
    dict(unit="byte", pretokenizer="gpt2"),
    dict(unit="char", pretokenizer="end-of-word", min_frequency=1),
    dict(unit="char", pretokenizer="whitespace", byte_fallback=True),
    dict(unit="byte", pretokenizer=r"\w+|\s+|[^\w\s]+"),
])
def test_native_file_round_trip(tmp_path, kwargs):
    t = bpe_core.train(CORPUS, special_tokens=["<|endoftext|>"], max_merges=50, processes=1,
                       **kwargs)
    path = tmp_path / "tok.json"
    bpe_core.save(t, path)
    back = bpe_core.load(path)
    assert back.merges == t.merges and back.fingerprint() == t.fingerprint()
    assert back.special_tokens == t.special_tokens and back.stop_reason == t.stop_reason
    sample = CORPUS[:300] + " unseen ẞ words"
    assert back.encode(sample) == t.encode(sample)


@pytest.mark.parametrize("content, message", [
    (b"", "empty"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not JSON"),
    (b'{"hello": 1}', "is a vocabulary of 1 token with ids and no merges"),
    (b'{"hello": "x"}', "is a JSON object with the keys 'hello', not a tokenizer"),
    (b'{"format": "bpe-playground", "version": 99}', "version 99"),
    (b'{"format": "bpe-playground", "version": 1, "unit": "byte"}', "missing field"),
    (json.dumps({"format": "bpe-playground", "version": 1, "unit": "byte", "end_of_word": False,
                 "byte_fallback": False, "pattern": "\\S+", "merges": [[1, 999, 3]]}).encode(),
     "does not exist"),
])
def test_malformed_files_get_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(TokenizerFileError, match=message):
        bpe_core.load(path)


def test_invalid_custom_regex_is_explained():
    with pytest.raises(bpe_core.PatternError, match="invalid pre-tokenizer regex"):
        bpe_core.train("abc", pretokenizer="([a-z")


def test_corpus_kinds_give_the_same_counts(tmp_path):
    text = "low lower\nnewest widest\nlow\n"
    path = tmp_path / "c.txt"
    path.write_text(text, encoding="utf-8")
    from pathlib import Path
    expected = bpe_core.count_words(text, r"\S+")
    assert bpe_core.count_words(Path(path), r"\S+") == expected
    assert bpe_core.count_words(text.splitlines(), r"\S+") == expected
    assert bpe_core.count_words(expected, r"\S+") == expected


def test_a_corpus_file_that_is_not_utf8_is_named_with_its_byte_offset(tmp_path):
    # It said "byte 3 of a block": the offset inside the 256k-character block being decoded,
    # not in the file (here 1,500,003).
    from pathlib import Path
    path = tmp_path / "c.txt"
    path.write_bytes(b"word " * 300_000 + "caf\u00e9 ok".encode("latin-1"))
    with pytest.raises(bpe_core.CorpusReadError) as err:
        bpe_core.train(Path(path), max_merges=1)
    assert str(err.value) == (f"{path} is not valid UTF-8: byte 0xe9 at byte offset 1500003 "
                              "(invalid continuation byte); re-save it as UTF-8 text")
    path.write_bytes(b"word " * 300_000 + "\u00e9".encode()[:1])  # cut inside a character
    with pytest.raises(bpe_core.CorpusReadError, match="0xc3 at byte offset 1500000 .unexpected"):
        bpe_core.train(Path(path), max_merges=1)


def test_counting_in_parallel_gives_identical_counts(monkeypatch):
    from bpe_core.training import counting as words
    monkeypatch.setattr(words, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(words, "CHUNK_CHARS", 50)
    text = CORPUS * 3
    one = bpe_core.count_words(text, bpe_core.PRESETS["cl100k"], processes=1)
    two = bpe_core.count_words(text, bpe_core.PRESETS["cl100k"], processes=2)
    assert one == two and list(one) == list(two)


def test_a_character_merged_from_byte_pieces_displays_as_the_character():
    t = bpe_core.train("的的的 的的", pretokenizer="none", min_frequency=2, max_merges=3,
                       processes=1)
    shown = [m.token for m in t.merges]
    assert "的" in shown and not any("<" in s for s in shown if s.endswith("的"))
    loaded = bpe_core.loads(bpe_core.dumps(t, format="hf"))
    assert [m.token for m in loaded.merges] == shown


def test_a_custom_regex_with_capturing_groups_cuts_whole_matches_as_hugging_face_does():
    # Hugging Face's Split keeps each whole match, groups or not; findall would give the
    # groups' text ("a" for "ab") and this was refused.
    import tokenizers

    text = "ab cd abab xab cd"
    pattern = r"(a)(b)|(\p{L})+|\s+"
    t = bpe_core.train(text, unit="char", pretokenizer=pattern, min_frequency=1, max_merges=4)
    assert [m.token for m in t.merges] == ["ab", "cd", "xab"]  # "xab" is one piece, by (\p{L})+
    hf = tokenizers.Tokenizer.from_str(bpe_core.dumps(t, format="hf").decode())
    for s in (text, "abcd xabab", "a b\tc"):
        assert t.encode(s) == hf.encode(s, add_special_tokens=False).ids
    assert bpe_core.presets.split(text, pattern) == [
        "ab", " ", "cd", " ", "ab", "ab", " ", "xab", " ", "cd"]


@pytest.fixture(scope="module")
def many_merges():
    words = " ".join(a + b + c for a in "abcdefgh" for b in "ijklmnop" for c in "qrstuvwx")
    return bpe_core.train(words, max_merges=400, min_frequency=1, processes=1)


def test_merges_read_as_records_in_training_order(many_merges):
    tok = many_merges
    merges = tok.merges
    assert isinstance(merges, bpe_core.MergeList) and len(merges) == 400
    last = merges[-1]
    assert last == merges[399] and last.rank == 399
    assert (last.token_id, last.token) == (256 + last.rank, tok.display(last.token_id))
    assert tok.token_bytes(last.token_id) == (tok.token_bytes(last.left_id)
                                              + tok.token_bytes(last.right_id))
    assert merges[2:5] == [merges[2], merges[3], merges[4]] and merges[5:2] == []
    with pytest.raises(IndexError, match="out of range"):
        merges[400]
    # The same merges read back from a file make the same tokenizer.
    again = bpe_core.loads(bpe_core.dumps(tok))
    assert again.merges == merges == list(merges)
    assert again.encode("abc dez hiq") == tok.encode("abc dez hiq")


def test_a_tokenizer_is_a_few_objects_for_the_garbage_collector(many_merges):
    # Its merges are arrays, not one object each: a full collection must not walk them all.
    tok = many_merges
    gc.collect()
    before = len(gc.get_objects())
    copies = [dataclasses.replace(tok) for _ in range(3)]
    gc.collect()  # (tuples of ints, such as the rank keys, are untracked at the first pass)
    made = len(gc.get_objects()) - before
    assert made < 3 * 20 < len(tok.merges), made
    assert copies[0].merges == tok.merges


def test_renaming_makes_a_copy_and_leaves_the_shared_tokenizer_alone():
    shared = bpe_core.train("low lower lowest", unit="byte", max_merges=3, name="default")
    mine = shared.renamed("my tokenizer")
    assert (shared.name, mine.name) == ("default", "my tokenizer")
    assert mine.encode("lowest") == shared.encode("lowest")
    with pytest.raises(AttributeError):
        shared.name = "changed"  # frozen: a session cannot change what others hold


def test_identity_covers_ignore_merges():
    tok = bpe_core.train("low lower lowest", unit="byte", max_merges=3)
    flipped = dataclasses.replace(tok.model, ignore_merges=not tok.model.ignore_merges)
    other = bpe_core.Tokenizer(flipped, pre_tokenizer=tok.pre_tokenizer, decoder=tok.decoder)
    assert other.fingerprint() != tok.fingerprint()
    assert "ignore_merges" in (other.describe() + tok.describe())


def test_token_fields_are_what_spans_show_and_an_unknown_id_is_refused():
    tok = bpe_core.train("hé hé hé", unit="byte", max_merges=2, min_frequency=1)
    ids = tok.encode("hé!")
    spans = tok.spans("hé!")
    assert tok.view.token_fields(ids) == [(s.token, s.bytes, s.partial) for s in spans]
    assert tok.view.token_fields(ids) == [(tok.view.display(i), tok.view.bytes(i),
                                           tok.view.bytes(i).decode("utf-8", "replace")
                                           != tok.view.bytes(i).decode("utf-8", "ignore"))
                                          for i in ids]
    with pytest.raises(ValueError, match="not in this vocabulary"):
        tok.view.token_fields([ids[0], 10**6])


def test_a_merge_with_the_empty_token_builds_nothing():
    # "a" + "" -> "a": tokenizers reads such a file (and never makes the merge); its tree
    # called itself forever, and so did the tree of any token that used it.
    d = {"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0, "": 1, "b": 2, "ab": 3},
                                     "merges": [["a", ""], ["a", "b"]]}}
    tok = bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")
    assert tok.encode("abba") == HFTokenizer.from_str(json.dumps(d)).encode("abba").ids
    assert tok.merge_tree(0) == bpe_core.MergeTree(0, "a")
    assert tok.merge_tree(3).leaves() == ["a", "b"] and tok.merge_for(3).rank == 1


def test_an_added_token_the_normalizer_erases_is_never_found():
    # Strip makes "\n\n" the empty string, and an empty pattern matched at every position:
    # encoding any text raised KeyError: ''. (tokenizers itself, given this file, gives [] for
    # "" but cuts "ab" into [0, 1], or panics under other normalizers: not followed here.)
    theirs = HFTokenizer.from_str(json.dumps({
        "version": "1.0", "normalizer": {"type": "Strip", "strip_left": True,
                                         "strip_right": True},
        "added_tokens": [{"id": 3, "content": "\n\n", "normalized": True, "special": False,
                          "single_word": False, "lstrip": False, "rstrip": False}],
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2}, "merges": ["a b"]}}))
    tok = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    assert tok.encode("") == theirs.encode("").ids == []
    assert tok.encode("ab") == tok.encode(" a\n\nb ") == [2]
    assert [(s.token, s.start, s.end) for s in tok.spans(" ab\n\n")] == [("ab", 1, 3)]
