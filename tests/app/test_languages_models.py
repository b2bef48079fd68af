"""The Languages page with the shapes of real models' files: what it says about them."""

from __future__ import annotations

from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models
from tokenizers import pre_tokenizers as P

from tests.app.test_languages_page import chart, merge_counts, open_page, upload
from tests.app.test_loaded_models_page import load


def made_twice_file() -> bytes:
    """Four merges making three tokens (``abc`` twice: ``ab`` + ``c`` and ``a`` + ``bc``), as
    files converted from SentencePiece list every split of a token (Llama 2's, Gemma's)."""
    vocab = {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}
    merges = [("a", "b"), ("b", "c"), ("ab", "c"), ("a", "bc")]
    tok = HFTokenizer(models.BPE(vocab, merges))
    tok.pre_tokenizer = P.WhitespaceSplit()
    return tok.to_str().encode("utf-8")


def test_the_vocabulary_size_axis_counts_the_tokens_merges_make_not_the_merges():
    # It drew the last point at 3 base symbols + 4 merges = 7 tokens, for a vocabulary of 6
    # (Llama 3's at 280,403 tokens, Llama 2's at 62,534: their vocabularies hold 128,256, 32,000).
    at = upload(open_page(), ("abc.csv", b"en,fr\nabc ab,ab c bc\n", "text/csv"))
    load(at, made_twice_file(), key="lang_load")
    assert merge_counts(at).value == [0, 4]
    curve = chart(at, "lang_curve")
    assert [trace["x"] for trace in curve["data"]] == [[3, 6], [3, 6]]
