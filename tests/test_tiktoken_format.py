""".tiktoken rank files: written so that tiktoken encodes as we do, read with merges recovered."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import tempfile
from pathlib import Path

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders as hf_decoders, models as hf_models
from tokenizers import normalizers as hf_normalizers, pre_tokenizers as hf_pre
from tokenizers import trainers as hf_trainers

import bpe_core
from bpe_core.formats.gpt2 import gpt2_files
from bpe_core import TokenizerFileError
from bpe_core.alphabet import CHAR_BYTES, byte_base
from bpe_core.formats import openai as references
from bpe_core.formats import tiktoken_file
from bpe_core import unicode16
from bpe_core.presets import PRESETS
from bpe_core.recipes import build
from bpe_core.tokenizer import Tokenizer

SAMPLES = Path(__file__).parent.parent / "assets" / "samples"
ENGLISH = "".join(p.read_text(encoding="utf-8")
                  for p in sorted((SAMPLES / "english").glob("*.txt")))


#: Text for comparisons with tiktoken and Hugging Face: tricky characters often, the characters
#: Unicode 16 (their regex engines') and ``regex``'s later Unicode class differently often too
#: (see bpe_core/unicode16.py), any other character of any plane.
ANY_TEXT = st.text(st.sampled_from(list("aAb 1'sdtll\n\r\t.,!?é中😀\u00a0\u3000\u200b"))
                   | st.sampled_from(sorted(unicode16.changed_chars()))
                   | st.characters(codec="utf-8"), max_size=40)
PATTERNS = ["gpt2", "cl100k", "o200k", "space-prefix", "none", "whitespace"]
#: GPT-2's and OpenAI's byte order: id i is the byte order[i], printable Latin-1 first.
GPT2_ORDER = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
GPT2_ORDER += [b for b in range(256) if b not in GPT2_ORDER]


def tiktoken_for(tok: Tokenizer, ranks: dict[bytes, int]) -> tiktoken.Encoding:
    return tiktoken.Encoding("test", pat_str=tok.config["pattern"], mergeable_ranks=ranks,
                             special_tokens=tok.special_tokens)


def write_rank_file(path: Path, ranks: dict[bytes, int]) -> None:
    """A .tiktoken file written by hand: base64 token, space, rank."""
    path.write_bytes(b"".join(base64.b64encode(t) + b" " + str(r).encode() + b"\n"
                              for t, r in sorted(ranks.items(), key=lambda item: item[1])))


def gpt2_ordered_ranks(tok: Tokenizer) -> dict[bytes, int]:
    """``tok``'s vocabulary with its 256 bytes renumbered in GPT-2's order."""
    ranks = {bytes([b]): i for i, b in enumerate(GPT2_ORDER)}
    for m in tok.merges:
        ranks[tok.token_bytes(m.token_id)] = m.token_id
    return ranks


@pytest.fixture(scope="module")
def english():
    return bpe_core.train(ENGLISH, 1000, unit="byte", pretokenizer="cl100k",
                          special_tokens=["<|endoftext|>"])


@settings(max_examples=60)
@given(corpus=st.text(st.sampled_from("aaab \n1.é"), min_size=1, max_size=300),
       pattern=st.sampled_from(PATTERNS), merges=st.integers(1, 80),
       tie_break=st.sampled_from(["first", "lowest-id"]), texts=st.lists(ANY_TEXT, max_size=5))
def test_trained_tokenizers_saved_as_rank_files_encode_like_tiktoken(corpus, pattern, merges,
                                                                     tie_break, texts):
    try:
        tok = bpe_core.train(corpus, max_merges=merges, min_frequency=1, pretokenizer=pattern,
                             tie_break=tie_break, special_tokens=["<|x|>"])
    except ValueError:  # nothing but whitespace: no words for the whitespace preset
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.tiktoken"
        bpe_core.save(tok, path, format="tiktoken")
        enc = tiktoken_for(tok, load_tiktoken_bpe(str(path)))
    for text in [corpus, *texts, "<|x|>" + corpus[:20]]:
        assert enc.encode(text, allowed_special="all") == tok.encode(text)


@pytest.fixture(scope="module")
def english_in_tiktoken(english):
    """tiktoken's encoding of ``english``'s rank file, written and read once (per example it
    cost more than the encoding it checks)."""
    return tiktoken_for(english, load_tiktoken_bpe_bytes(bpe_core.dumps(english,
                                                                          format="tiktoken")))


@given(text=ANY_TEXT)
def test_a_real_sized_vocabulary_encodes_like_tiktoken(english, english_in_tiktoken, text):
    enc = english_in_tiktoken
    for t in (text, ENGLISH[:2000]):
        assert enc.encode(t, allowed_special="all") == english.encode(t)


def load_tiktoken_bpe_bytes(data: bytes) -> dict[bytes, int]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.tiktoken"
        path.write_bytes(data)
        return load_tiktoken_bpe(str(path))


@pytest.fixture(scope="module")
def gpt2_ordered(english, tmp_path_factory):
    """A rank file laid out like OpenAI's: bytes in GPT-2's order, then the merges."""
    ranks = gpt2_ordered_ranks(english)
    path = tmp_path_factory.mktemp("ranks") / "mine.tiktoken"
    write_rank_file(path, ranks)
    return path, bpe_core.load(path, pretokenizer="cl100k"), tiktoken_for(english, ranks)


@given(text=ANY_TEXT)
def test_a_loaded_rank_file_gives_tiktokens_ids(gpt2_ordered, text):
    _, loaded, enc = gpt2_ordered
    assert loaded.encode(text) == enc.encode_ordinary(text)
    assert loaded.decode(enc.encode_ordinary(text)) == text


def test_loaded_rank_files_have_their_merges_back(english, gpt2_ordered):
    path, loaded, enc = gpt2_ordered
    assert loaded.name == "mine" and loaded.config["pretokenizer"] == "cl100k"
    assert [CHAR_BYTES[loaded.model.tokens[i]] for i in range(256)] == GPT2_ORDER
    assert [m.token for m in loaded.merges] == [m.token for m in english.merges]
    assert [loaded.token_bytes(i) for i in range(256, loaded.vocab_size)] == \
           [english.token_bytes(i) for i in range(256, 256 + len(english.merges))]
    assert all(m.count == 0 for m in loaded.merges)  # a rank file has no counts
    i = max(loaded.encode(" kitchens"))
    tree = loaded.merge_tree(i)
    assert "".join(tree.leaves()) == loaded.display(i) and tree.rank == i - 256
    assert len(loaded.display(i)) > 2 and (tree.left.rank or -1) < tree.rank
    # upto=k replays training's first k merges, as with the trained tokenizer itself.
    to_original = GPT2_ORDER + list(range(256, loaded.vocab_size))
    for k in (0, 5, 50, 500):
        assert [to_original[i] for i in loaded.encode(ENGLISH[:500], upto=k)] == \
               english.encode(ENGLISH[:500], upto=k)


def test_save_load_round_trip_keeps_ids_and_merges(english, tmp_path):
    path = tmp_path / "english.tiktoken"
    bpe_core.save(english, path, format="tiktoken")
    back = bpe_core.load(path, pretokenizer="cl100k")
    assert [(m.left_id, m.right_id) for m in back.merges] == \
           [(m.left_id, m.right_id) for m in english.merges]
    assert back.encode(ENGLISH[:3000]) == english.encode(ENGLISH[:3000])


def test_merges_a_rank_file_cannot_express_are_refused():
    # "bc" is learned before "ab", yet "abc" is said to be "ab" + "c". Ranks alone cannot say
    # that, and tiktoken really does encode differently: it merges a + bc into abc.
    tok = build(byte_base(), [(98, 99, 0), (97, 98, 0), (257, 99, 0)], pattern=PRESETS["gpt2"],
                preset="gpt2")
    ranks = {tok.token_bytes(i): i for i in range(259)}
    assert tiktoken_for(tok, ranks).encode("abc") == [258]
    assert tok.encode("abc") == [97, 256]
    with pytest.raises(ValueError, match=r"merge 3 \(rank 2\) builds 'abc' from 'ab' \+ 'c', "
                                         r"but from ranks alone it is 'a' \+ 'bc'"):
        bpe_core.dumps(tok, format="tiktoken")


@pytest.mark.parametrize("kwargs, message", [
    (dict(unit="char", pretokenizer="whitespace"), "byte-level BPE only; 'bpe' is not byte-level"),
    (dict(unit="byte", pretokenizer="end-of-word"), "byte-level with </w>"),
])
def test_tokenizers_tiktoken_cannot_hold_are_refused(kwargs, message):
    tok = bpe_core.train("low lower lowest", max_merges=3, min_frequency=1, **kwargs)
    with pytest.raises(ValueError, match=message):
        bpe_core.dumps(tok, format="tiktoken")


@pytest.mark.parametrize("fmt, files", [("tiktoken", "tiktoken files"),
                                        ("gpt2", "GPT-2 vocab.json/merges.txt files")])
def test_a_normalizer_neither_rank_nor_gpt2_files_keep_is_refused(tmp_path, fmt, files):
    # Saved, the Lowercase was lost: "HELLO" read back as 5 byte tokens, not the 1 of "hello".
    theirs = HFTokenizer(hf_models.BPE({**{c: i for i, c in enumerate(sorted(CHAR_BYTES))},
                                        "he": 256, "hel": 257}, [("h", "e"), ("he", "l")]))
    theirs.normalizer = hf_normalizers.Sequence([hf_normalizers.NFC(),
                                                 hf_normalizers.Lowercase()])
    theirs.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    theirs.decoder = hf_decoders.ByteLevel()
    tok = bpe_core.loads(theirs.to_str().encode(), source="lower.json")
    assert tok.encode("HEL") == theirs.encode("HEL").ids == [257]
    with pytest.raises(ValueError, match=(
            rf"^{files} keep no normalizer, and 'lower' has one \(NFC \+ Lowercase\): read "
            rf"back without it, texts it changes would encode differently. Save it in the "
            rf"native or Hugging Face format instead.$")):
        bpe_core.save(tok, tmp_path / "lower", format=fmt)


def special_token_first() -> Tokenizer:
    """A byte-level BPE trained by tokenizers, whose trainer gives "</s>" the first id, 0."""
    theirs = HFTokenizer(hf_models.BPE())
    theirs.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    theirs.decoder = hf_decoders.ByteLevel()
    theirs.train_from_iterator(["hug pug hugs"], hf_trainers.BpeTrainer(
        vocab_size=260, special_tokens=["</s>"], show_progress=False,
        initial_alphabet=hf_pre.ByteLevel.alphabet()))
    tok = bpe_core.loads(theirs.to_str().encode(), source="hug.json")
    assert tok.special_tokens == {"</s>": 0} and len(tok.merges) == 3
    return tok


def test_ids_a_rank_file_would_leave_as_gaps_are_refused():
    # Left out of the rank file, the special token left a gap there ("rank 0 is missing") that
    # tiktoken takes but no reader here does.
    tok = special_token_first()
    with pytest.raises(ValueError, match=(
            r"^a rank file's ranks run 0, 1, 2, ... with the 256 single bytes first, but id 0 "
            r"is the added token '</s>' \(a rank file holds no added tokens\), so the file could "
            r"not be read back. Save 'hug' in the native or Hugging Face format instead.$")):
        bpe_core.dumps(tok, format="tiktoken")


def test_a_token_no_merge_makes_is_refused():
    # tokenizers' trainer, with continuing_subword_prefix="##", adds "##" + each byte to the
    # vocabulary, made by no merge: the rank file written did not read back.
    theirs = HFTokenizer(hf_models.BPE(continuing_subword_prefix="##"))
    theirs.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    theirs.train_from_iterator(["hu"], hf_trainers.BpeTrainer(
        vocab_size=256, continuing_subword_prefix="##", show_progress=False,
        initial_alphabet=hf_pre.ByteLevel.alphabet()))
    theirs.decoder = hf_decoders.ByteLevel()
    tok = bpe_core.loads(theirs.to_str().encode(), source="hug.json")
    assert not tok.merges and tok.vocab_size == 257 and tok.display(256) == "##u"
    with pytest.raises(ValueError, match=r"but token 256 \('##u'\) is no merge's result, as "
                                         r"each token after the bytes must be, so the file"):
        bpe_core.dumps(tok, format="tiktoken")


def test_gpt2_files_refuse_an_ignore_merges_that_changes_ids():
    # "abc" is a token, but its merges alone make a + bc (bc is learned first): read back from
    # GPT-2 files, which keep no ignore_merges, "abc" was [a, bc], not [abc].
    vocab = {**CHAR_BYTES, "bc": 256, "ab": 257, "abc": 258}
    theirs = HFTokenizer(hf_models.BPE(vocab, [("b", "c"), ("a", "b"), ("ab", "c")],
                                       ignore_merges=True))
    theirs.pre_tokenizer = hf_pre.ByteLevel(add_prefix_space=False)
    theirs.decoder = hf_decoders.ByteLevel()
    tok = bpe_core.loads(theirs.to_str().encode(), source="abc.json")
    assert tok.encode("abc") == theirs.encode("abc").ids == [258]
    with pytest.raises(ValueError, match=r"^GPT-2 vocab.json/merges.txt files keep no "
                                         r"ignore_merges, and without it token 258 \('abc'\) "
                                         r"would be 'a' \+ 'bc' \(its merges alone\); save"):
        gpt2_files(tok)
    harmless = bpe_core.train("a a a b", unit="byte", max_merges=1, min_frequency=1)
    gpt2_files(dataclasses.replace(harmless, model=dataclasses.replace(harmless.model,
                                                                       ignore_merges=True)))


def test_two_tokens_with_the_same_bytes_are_refused():
    tok = build(byte_base(), [(97, 98, 0), (97, 98, 0)], pattern=r"\S+", preset="whitespace")
    with pytest.raises(ValueError, match="tokens 256 and 257 both stand for 'ab'"):
        bpe_core.dumps(tok, format="tiktoken")


BYTES = b"".join(base64.b64encode(bytes([b])) + b" %d\n" % b for b in range(256))


@pytest.mark.parametrize("content, message", [
    (b"YWI= 0\nnot base64! 1\n", r"line 2 \('not base64! 1'\) is not a tiktoken rank line"),
    (b"YWI= 0 extra\n", "expected two fields"),
    # A rank that is not a number: the file is still read as a rank file and the line named.
    (b"YWI= zero\n", r"line 1 \('YWI= zero'\) .* the rank 'zero' is not a whole number from 0"),
    (b"YWI= 0\nYWJj -1\n", "line 2 .* the rank '-1' is not a whole number from 0"),
    (b"YWI= 0\nYWI= 1\n", "line 2: token or rank 1 appears twice"),
    (BYTES + b"YWI= 257\n", "rank 256 is missing"),
    (BYTES[:BYTES.index(b"/w== 255")] + b"YWI= 255\n", "rank 255 is b'ab'"),
    (BYTES + b"YWJj 256\n", r"token 256 \(b'abc'\) is not a merge of two lower-ranked tokens "
                            r"\(lower ranks split it into 3 parts\)"),
])
def test_malformed_rank_files_get_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(content)
    with pytest.raises(TokenizerFileError, match=message):
        bpe_core.load(path, pretokenizer="gpt2")


@pytest.mark.parametrize("variant", [
    lambda d: d, lambda d: d.rstrip(b"\n"), lambda d: d.replace(b"\n", b"\r\n"),
    lambda d: d + b"\n\n", lambda d: d.replace(b" ", b"\t"), lambda d: b"\n" + d])
def test_rank_files_as_tiktoken_writes_them_and_others_read_alike(english, variant):
    # The usual form is read in C loops, any other line by line: tiktoken's ranks either way.
    data = variant(bpe_core.dumps(english, format="tiktoken"))
    assert tiktoken_file.parse(data) == load_tiktoken_bpe_bytes(data)


def test_a_rank_file_needs_its_pretokenizer(english):
    data = bpe_core.dumps(english, format="tiktoken")
    with pytest.raises(TokenizerFileError, match=r"mine\.tiktoken is a tiktoken rank file, which "
                                                 r"does not say how to pre-tokenize; pass "
                                                 r"pretokenizer= 'cl100k'"):
        bpe_core.loads(data, source="mine.tiktoken")


def test_openais_files_are_recognised_by_content(english, monkeypatch):
    # Stand-in for the real cl100k_base.tiktoken: a file whose hash we declare to be OpenAI's.
    data = bpe_core.dumps(english, format="tiktoken")
    ref = references.REFERENCE_ENCODINGS["cl100k_base"]
    monkeypatch.setitem(references.REFERENCE_ENCODINGS, "cl100k_base", dataclasses.replace(
        ref, rank_file_sha256=hashlib.sha256(data).hexdigest()))
    tok = bpe_core.loads(data, source="downloaded (1).tiktoken")
    assert (tok.name, tok.config["pretokenizer"], tok.special_tokens) == \
           ("cl100k_base", "cl100k", ref.special_tokens)
    enc = tiktoken.Encoding("cl", pat_str=PRESETS["cl100k"], special_tokens=ref.special_tokens,
                            mergeable_ranks=load_tiktoken_bpe_bytes(data))
    text = "Hello <|endoftext|> world 1234567"
    assert tok.encode(text) == enc.encode(text, allowed_special="all")


@pytest.mark.parametrize("write", [lambda tok: bpe_core.dumps(tok, format="tiktoken"),
                                   lambda tok: gpt2_files(tok)], ids=["tiktoken", "gpt2"])
def test_a_format_that_cannot_hold_a_tokenizer_says_so_in_whole_sentences(write):
    # The Train page shows the reason under the download it leaves out, as it is.
    tok = bpe_core.train("low lower lowest", max_merges=3, min_frequency=1, unit="char",
                         pretokenizer="whitespace")
    with pytest.raises(ValueError) as refused:
        write(tok)
    assert str(refused.value).endswith("format instead.") or str(refused.value).endswith(
        "Hugging Face format.")
