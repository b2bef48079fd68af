"""Whole tokenizer.json pipelines, built with `tokenizers` in the shapes real models use, read by
bpe_core: the same ids (with and without the post-processor's tokens) and the same decoded text
as `tokenizers` on any text."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken as HFAddedToken
from tokenizers import Regex, models, processors
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders as D
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P
from tokenizers.trainers import BpeTrainer

import bpe_core
from bpe_core import encoding

CORPUS = [
    "The quick brown fox jumps over the lazy dog. It's 2024, and they'll say 12345 words!",
    "  Hello   world\n\nTabs\there, café naïve résumé — “quoted” ünïcödé ﬁx Ⅻ ①",
    "中文分词很有趣。日本語のテキストも。한국어 문장입니다. Привет, мир! Γειά σου κόσμε.",
    "def f(x):\n    return x ** 2  # comment\n\tprint('done')\r\n",
    "emoji 👩‍👩‍👧 family 🇫🇷 flag, mark ‏RTL‎ mark, zero​width, अनुच्छेद, العربية",
] * 3
CL100K_ONIG = (r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+"
               r"[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+")
TEXT = st.lists(st.sampled_from(list("aeinorst TAE.,'!?\n\t  \u00a0é中文日本語ёж0123") +
                                ["👩‍👩‍👧", "\u200b", "\u200f", "ﬁ", "Ⅻ", "<s>", "<|x|>", "▁",
                                 "<tool>", "Hello", "café"]),
                max_size=40).map("".join)


def _bytes_alphabet():
    return P.ByteLevel.alphabet()


def _train(tok: HFTokenizer, *, vocab_size=400, alphabet=(), specials=()) -> HFTokenizer:
    trainer = BpeTrainer(vocab_size=vocab_size, min_frequency=1, show_progress=False,
                         initial_alphabet=list(alphabet), special_tokens=list(specials))
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def _with_byte_tokens(tok: HFTokenizer) -> HFTokenizer:
    """Add the 256 ``<0xNN>`` tokens (as SentencePiece-converted models have them)."""
    d = json.loads(tok.to_str())
    vocab = d["model"]["vocab"]
    for b in range(256):
        vocab.setdefault(f"<0x{b:02X}>", len(vocab) + len(d["added_tokens"]))
    d["model"]["byte_fallback"] = True
    return HFTokenizer.from_str(json.dumps(d))


def gpt2_style():
    tok = HFTokenizer(models.BPE())
    tok.pre_tokenizer = P.ByteLevel(add_prefix_space=False)
    tok.decoder = D.ByteLevel()
    return _train(tok, alphabet=_bytes_alphabet(), specials=["<|endoftext|>"])


def llama3_style():
    tok = HFTokenizer(models.BPE(ignore_merges=True))
    tok.pre_tokenizer = P.Sequence([P.Split(Regex(CL100K_ONIG), "isolated"),
                                    P.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = D.ByteLevel()
    tok = _train(tok, alphabet=_bytes_alphabet(), specials=["<|begin_of_text|>", "<|x|>"])
    bos = tok.token_to_id("<|begin_of_text|>")
    tok.post_processor = processors.Sequence([
        processors.ByteLevel(trim_offsets=False),
        processors.TemplateProcessing(single="<|begin_of_text|> $A",
                                      special_tokens=[("<|begin_of_text|>", bos)])])
    return tok


def deepseek_style():
    tok = HFTokenizer(models.BPE())
    tok.pre_tokenizer = P.Sequence([
        P.Split(Regex(r"\p{N}{1,3}"), "isolated"),
        P.Split(Regex("[一-龥\u3040-ゟ゠-ヿ]+"), "isolated"),
        P.Split(Regex(CL100K_ONIG), "isolated"),
        P.ByteLevel(add_prefix_space=False, use_regex=False)])
    tok.decoder = D.ByteLevel()
    return _train(tok, alphabet=_bytes_alphabet(), specials=["<｜begin▁of▁sentence｜>"])


def llama2_style():
    tok = HFTokenizer(models.BPE(unk_token="<unk>", fuse_unk=True))
    tok.normalizer = N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")])
    tok.decoder = D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)])
    tok = _with_byte_tokens(_train(tok, specials=["<unk>", "<s>", "</s>"]))
    tok.post_processor = processors.TemplateProcessing(single="<s> $A", special_tokens=[("<s>", 1)])
    return tok


def mistral_style():
    tok = HFTokenizer(models.BPE(unk_token="<unk>", fuse_unk=True))
    tok.pre_tokenizer = P.Metaspace(replacement="▁", prepend_scheme="first", split=False)
    tok.decoder = D.Sequence([D.Metaspace(replacement="▁", prepend_scheme="first", split=False),
                              D.ByteFallback(), D.Fuse()])
    tok = _with_byte_tokens(_train(tok, specials=["<unk>", "<s>", "</s>"]))
    tok.post_processor = processors.TemplateProcessing(single="<s> $A </s>",
                                                       special_tokens=[("<s>", 1), ("</s>", 2)])
    return tok


def gemma_style():
    tok = HFTokenizer(models.BPE(unk_token="<unk>"))
    tok.normalizer = N.Replace(" ", "▁")
    tok.pre_tokenizer = P.Split(" ", "merged_with_previous")
    tok.decoder = D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse()])
    return _with_byte_tokens(_train(tok, specials=["<unk>", "<bos>"]))


def nfkc_wordpiece_style():
    tok = HFTokenizer(models.BPE(unk_token="[UNK]", continuing_subword_prefix="##",
                                 end_of_word_suffix="</w>"))
    tok.normalizer = N.Sequence([N.NFKC(), N.Lowercase(), N.Strip()])
    tok.pre_tokenizer = P.Sequence([P.Whitespace(), P.Digits(individual_digits=True),
                                    P.Punctuation()])
    tok.decoder = D.BPEDecoder(suffix="</w>")
    trainer = BpeTrainer(vocab_size=300, min_frequency=1, show_progress=False,
                         special_tokens=["[UNK]", "[CLS]"], continuing_subword_prefix="##",
                         end_of_word_suffix="</w>")
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def added_tokens_style():
    tok = gpt2_style()
    tok.normalizer = N.NFC()
    tok.add_tokens([HFAddedToken("<tool>", lstrip=True, rstrip=True),
                    HFAddedToken("Hello", single_word=True, normalized=True),
                    HFAddedToken("café", normalized=True)])
    tok.add_special_tokens([HFAddedToken("<|x|>", lstrip=True)])
    return tok


@pytest.fixture(autouse=True)
def cut_from_the_first_piece(monkeypatch):
    """Tokenizers build their cutter at once, not after 20,000 characters (encoding.py), so
    that every text here is encoded through the cuts."""
    monkeypatch.setattr(encoding, "CUTTER_AFTER_CHARS", 0)


BUILDERS = [gpt2_style, llama3_style, deepseek_style, llama2_style, mistral_style, gemma_style,
            nfkc_wordpiece_style, added_tokens_style]


@pytest.fixture(scope="module", params=BUILDERS, ids=[b.__name__ for b in BUILDERS])
def pair(request):
    theirs = request.param()
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    return theirs, ours


def _check(theirs: HFTokenizer, ours: bpe_core.Tokenizer, text: str) -> None:
    plain = theirs.encode(text, add_special_tokens=False).ids
    assert ours.encode(text) == plain, text
    assert ours.encode(text, add_special_tokens=True) == theirs.encode(text).ids, text
    assert ours.decode(plain) == theirs.decode(plain), text
    assert ours.decode(plain, skip_special_tokens=False) == theirs.decode(
        plain, skip_special_tokens=False), text


def test_fixed_texts(pair):
    theirs, ours = pair
    for text in [*CORPUS[:5], "", " ", "  leading", "trailing  ", "\n\n", "a<|x|>b <tool> c",
                 "<s>Hello world</s>", "Hello, café! CAFÉ cafe\u0301", "ﬁ ﬂ Ⅻ ① ²³", "x" * 300,
                 "中" * 200, "▁▁ ▁a", "<|endoftext|>"]:
        _check(theirs, ours, text)


@settings(max_examples=30)  # (per model shape: 8 of them, 240 texts in all)
@given(text=TEXT)
def test_any_text(pair, text):
    _check(*pair, text)


def test_spans_cover_the_original_text(pair):
    theirs, ours = pair
    text = "Hello wörld, ﬁne 中文 text  here"
    spans = ours.spans(text)
    assert [s.id for s in spans] == ours.encode(text)
    for s in spans:
        assert 0 <= s.start <= s.end <= len(text)
    assert all(a.start <= b.start for a, b in zip(spans, spans[1:]))
