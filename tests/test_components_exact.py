"""Every component and option bpe_core reads from a ``tokenizer.json``, one at a time, against
the ``tokenizers`` library: the same ids (with and without the post-processor's tokens), the same
decoded text for any ids, and spans that give those ids and cover what ``tokenizers``' offsets say.

Each tokenizer is built with ``tokenizers`` itself (a small BpeTrainer run on the corpus below),
written with ``to_str()`` and read back with ``bpe_core.loads``. The texts come from every Unicode
plane, mixed with the pieces the components treat specially (spaces of every kind, digits of
several scripts, combining marks, compatibility characters, "▁" and "Ġ", the added tokens).

The cases where bpe_core once differed stay at the end, each as a test of its own.
"""

from __future__ import annotations

import json
import unicodedata
from types import SimpleNamespace
from typing import NamedTuple

import pytest
import regex
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
from bpe_core import encoding, unicode16
from bpe_core.presets import MODEL_PATTERNS

ADDED = ["<tool>", "[x]", "Hello", "<b>", "end", "<|x|>", "ﬁ", "The", "<a><b>", "<a>"]
TRICKY = [
    # whitespace of every kind (White_Space and not: U+001C is Python-space only, U+180E neither)
    " ", "  ", "   ", "\t", "\n", "\r\n", "\r", " \n ", "\x0b", "\x0c", "\x1c", "\x85", "\u00a0",
    "\u1680", "\u2000", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000",
    "\u180e",
    # digits and numbers of several scripts
    "0", "12", "345", "٣٤", "۵", "४५", "๓", "１２", "²³", "½", "Ⅻ", "①", "𝟙",
    # combining marks, Hangul jamo, compatibility and case-changing characters
    "e\u0301", "a\u0308\u0301", "\u0301", "\u1100\u1161", "각", "ﬁ", "ﬂ", "㎏", "ｶﾞ", "™", "\u212b",
    "\u212a", "ǅ", "ß", "İ", "ẞ", "Σ", "ΣΑΣ ",
    # characters Hugging Face's Unicode tables are older than (normalization: 9.0, punctuation:
    # 8.0): a mark, one that composes, compatibility characters, punctuation that moved
    "a\u0898\u0300", "a\u0301\u07fd\u0300", "\U00011935\U00011930", "㋿", "\U0001fbf1", "\u2e43",
    "\u166d", "\U000111c9",
    # zero-width, direction marks, BOM, soft hyphen
    "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u202e", "\u2066", "\ufeff", "\u00ad",
    # emoji sequences and other astral characters
    "👩\u200d👩\u200d👧", "🇫🇷", "👍🏽", "❤️", "𝔘𝔫𝔦", "𠀀", "𓀀",
    # what the components write or look for themselves
    "▁", "▁▁", "Ġ", "Ċ", "</w>", "##", "<0x41>", "\ufffd", "_",
    # punctuation and symbols
    ".", ",", "!?", "'s", "'ll", "(", "]", "—", "…", "«»", "“”", "¿¡", "。", "、", "！", "「」",
    "$+<=>^`|~",
    # words
    "Hello", "hello", "HELLO", "the", " the", "The", "café", "naïve", "Привет", "中文", "日本語",
    "한국어", "العربية", "हिन्दी", "ไทย", *ADDED,
]
#: Any character, and often one that Unicode 16 (Oniguruma's, the regex crate's) and ``regex``'s
#: later Unicode class differently (see bpe_core/unicode16.py).
CHARS = (st.characters(exclude_categories=("Cs",))
         | st.sampled_from(sorted(unicode16.changed_chars())))
TEXT = st.lists(st.one_of(st.text(CHARS, max_size=3), st.sampled_from(TRICKY)),
                max_size=14).map("".join)
FIXED = ["", " ", "  leading", "\tHello\n\n\tend\n<b>\n<unk>", "a\n\tb\n\nc d\n\x00\n e\u0301\n",
         "trailing  ", "\n\n", " \t x", "▁▁ ▁a", "x" * 200,
         "Hello, café! CAFÉ cafe\u0301 ﬁne Ⅻ ① ²³", "a<|x|>b <tool> c", " <tool>  [x]  end end.",
         "Hello Hello, xHello HELLO", "<a><b><a> <b>", "The the THE", "١٢٣ 123 ١٢3",
         "Hello\u088f \u088fHello ʕHello x\U000323b0y"]  # (letters only since Unicode 16)
CORPUS = [
    "Hello there, the end of the tool. The theme: then, there, these (12 of 345) ends!",
    "  indented\tcode(x) == 42;\r\n    return 'done'  # they'll see\n\n",
    "Ünïcödé café, naïve ﬁx, Ⅻ ① ²³ — «quoted» “twice” 中文分词 日本語 한국어 Привет мир",
    " ".join(TRICKY), "".join(TRICKY), "▁the ▁▁cat ĠĠdog __ ## </w> eee",
] * 3
BYTES = P.ByteLevel.alphabet()
# Tokens a byte-fallback decoder must read as Rust does: "<0x+A>" is a byte, the rest are not.
ODD_BYTE_TOKENS = ["<0x+A>", "<0x A>", "<0xe4>", "<0x٣٤>", "<0x-1>", "<0x4G>"]


# -- building tokenizers with `tokenizers` -------------------------------------------------------

def _train(tok: HFTokenizer, *, alphabet=(), specials=(), **options) -> HFTokenizer:
    trainer = BpeTrainer(vocab_size=500, min_frequency=1, show_progress=False,
                         initial_alphabet=list(alphabet), special_tokens=list(specials),
                         **options)
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def _edit(tok: HFTokenizer, change) -> HFTokenizer:
    """The tokenizer with its JSON changed by ``change(d)`` (what the Python API cannot set)."""
    d = json.loads(tok.to_str())
    change(d)
    return HFTokenizer.from_str(json.dumps(d))


def _byte_tokens(first: int, last: int):
    """A change that adds ``<0xNN>`` tokens for the bytes first..last (as SentencePiece models
    have them) and some odd look-alikes, and turns byte fallback on."""
    def change(d):
        vocab = d["model"]["vocab"]
        for t in [f"<0x{b:02X}>" for b in range(first, last + 1)] + ODD_BYTE_TOKENS:
            vocab.setdefault(t, len(vocab) + len(d["added_tokens"]))
        d["model"]["byte_fallback"] = True
    return change


def byte_level(*, normalizer=None, pre=None, **model) -> HFTokenizer:
    """GPT-2's shape: every text encodes, through byte characters."""
    tok = HFTokenizer(models.BPE(**model))
    if normalizer is not None:
        tok.normalizer = normalizer
    tok.pre_tokenizer = pre or P.ByteLevel(add_prefix_space=False)
    tok.decoder = D.ByteLevel()
    return _train(tok, alphabet=BYTES, specials=["<|endoftext|>"])


def char_level(*, normalizer=None, pre=None, decoder=None, bytes_=(0, 255), **model
               ) -> HFTokenizer:
    """SentencePiece's shape: characters, and ``<0xNN>`` tokens for the others."""
    model = {"unk_token": "<unk>", **model}
    tok = HFTokenizer(models.BPE(**model))
    if normalizer is not None:
        tok.normalizer = normalizer
    if pre is not None:
        tok.pre_tokenizer = pre
    tok.decoder = decoder or D.Sequence([D.ByteFallback(), D.Fuse()])
    affixes = {k: model[k] for k in ("continuing_subword_prefix", "end_of_word_suffix")
               if k in model}
    tok = _train(tok, specials=["<unk>", "<s>", "</s>"], **affixes)
    return _edit(tok, _byte_tokens(*bytes_)) if bytes_ else tok


CASES: dict = {}
BEHAVIORS = ("isolated", "removed", "merged_with_previous", "merged_with_next", "contiguous")

# normalizers, each before GPT-2's byte level so that whatever they make encodes
for name, normalizer in {
        "NFC": N.NFC(), "NFD": N.NFD(), "NFKC": N.NFKC(), "NFKD": N.NFKD(),
        "Lowercase": N.Lowercase(), "Replace-string": N.Replace(" ", "▁"),
        "Replace-string-long": N.Replace("ab", "<AB>"),
        "Replace-regex": N.Replace(Regex(r"\s+"), " "),
        "Replace-regex-delete": N.Replace(Regex(r"[\p{Mn}\p{Cf}]"), ""),
        "Prepend": N.Prepend("▁"), "Prepend-long": N.Prepend(">> "),
        "Strip": N.Strip(), "Strip-left": N.Strip(left=True, right=False),
        "Strip-right": N.Strip(left=False, right=True),
        "Sequence-NFKC-Lowercase-Strip": N.Sequence([N.NFKC(), N.Lowercase(), N.Strip()]),
        "Sequence-NFD-strip-accents": N.Sequence([N.NFD(), N.Replace(Regex(r"\p{Mn}"), "")]),
        "StripAccents": N.StripAccents(),
        "Sequence-NFD-StripAccents": N.Sequence([N.NFD(), N.StripAccents()]),
        "BertNormalizer": N.BertNormalizer(),
        "BertNormalizer-cased": N.BertNormalizer(lowercase=False),
        "BertNormalizer-cased-strip_accents": N.BertNormalizer(strip_accents=True,
                                                               lowercase=False),
        "BertNormalizer-lowercase-keep-accents": N.BertNormalizer(strip_accents=False),
        "BertNormalizer-no-cleaning": N.BertNormalizer(clean_text=False,
                                                       handle_chinese_chars=False),
        }.items():
    CASES[f"normalizer-{name}"] = lambda n=normalizer: byte_level(normalizer=n)
CASES["normalizer-Llama2-no-pre-tokenizer"] = lambda: char_level(
    normalizer=N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]), fuse_unk=True,
    decoder=D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)]))

# pre-tokenizers, each before a character-level model with byte fallback
for behavior in BEHAVIORS:
    for invert in (False, True):
        for kind, pattern in (("string", " "), ("regex", Regex(r"\s+|\p{N}+")),
                              ("regex-empty-matches", Regex(r"a*|(?=\p{N})")),
                              ("regex-one-class-run", Regex(r"[\p{N}\s]+"))):
            CASES[f"Split-{behavior}-{kind}{'-invert' if invert else ''}"] = (
                lambda p=pattern, b=behavior, i=invert: char_level(pre=P.Split(p, b, invert=i)))
# the well-known models' patterns (run without a time limit, with ASCII twins), byte-level
for name, pattern in MODEL_PATTERNS.items():
    CASES[f"Split-model-{name}"] = lambda p=pattern: byte_level(pre=P.Sequence([
        P.Split(Regex(p), "isolated"), P.ByteLevel(add_prefix_space=False, use_regex=False)]))
CASES["Sequence-DeepSeek-V3"] = lambda: byte_level(pre=P.Sequence([
    *(P.Split(Regex(MODEL_PATTERNS[k]), "isolated")
      for k in ("deepseek-v3-digits", "deepseek-v3-cjk", "deepseek-v3")),
    P.ByteLevel(add_prefix_space=False, use_regex=False)]))
for prefix in (False, True):
    for use_regex in (False, True):
        CASES[f"ByteLevel-prefix={prefix}-regex={use_regex}"] = lambda a=prefix, u=use_regex: (
            byte_level(pre=P.ByteLevel(add_prefix_space=a, use_regex=u)))
for scheme in ("always", "first", "never"):
    for split in (True, False):
        CASES[f"Metaspace-{scheme}-split={split}"] = lambda s=scheme, x=split: char_level(
            pre=P.Metaspace(prepend_scheme=s, split=x),
            decoder=D.Sequence([D.Metaspace(prepend_scheme=s, split=x), D.ByteFallback(),
                                D.Fuse()]))
CASES["Metaspace-replacement-underscore"] = lambda: char_level(
    pre=P.Metaspace(replacement="_"), decoder=D.Metaspace(replacement="_"))
for individual in (False, True):
    CASES[f"Digits-individual={individual}"] = lambda i=individual: char_level(
        pre=P.Digits(individual_digits=i))
for behavior in BEHAVIORS:
    CASES[f"Punctuation-{behavior}"] = lambda b=behavior: char_level(pre=P.Punctuation(b))
CASES["Whitespace"] = lambda: char_level(pre=P.Whitespace())
CASES["WhitespaceSplit"] = lambda: char_level(pre=P.WhitespaceSplit())
CASES["BertPreTokenizer"] = lambda: char_level(pre=P.BertPreTokenizer())
# tokenizers' CharBPETokenizer, Sennrich et al.'s BPE as the first GPT has it
CASES["CharBPETokenizer"] = lambda: char_level(
    normalizer=N.BertNormalizer(), pre=P.BertPreTokenizer(), end_of_word_suffix="</w>",
    decoder=D.BPEDecoder(suffix="</w>"), bytes_=())
CASES["Sequence-pre-tokenizers"] = lambda: char_level(pre=P.Sequence([
    P.WhitespaceSplit(), P.Digits(individual_digits=True), P.Punctuation("contiguous")]))
CASES["Sequence-Split-then-Metaspace-first"] = lambda: char_level(
    pre=P.Sequence([P.Split(Regex(r"\p{N}+"), "isolated"), P.Metaspace(prepend_scheme="first")]),
    decoder=D.Metaspace(prepend_scheme="first"))

# the BPE model's options (test_models.py checks the model alone; here within a pipeline)
CASES["model-byte_fallback-no-unk"] = lambda: char_level(unk_token=None)
CASES["model-byte_fallback-fuse_unk-some-bytes-missing"] = lambda: char_level(
    pre=P.Whitespace(), fuse_unk=True, bytes_=(0, 0x7F))
CASES["model-unk-not-fused"] = lambda: char_level(pre=P.Metaspace(), bytes_=())
CASES["model-no-unk-drops-characters"] = lambda: char_level(
    pre=P.Metaspace(), decoder=D.Metaspace(), unk_token=None, bytes_=())
CASES["model-continuing_subword_prefix"] = lambda: char_level(
    pre=P.Whitespace(), continuing_subword_prefix="##")
CASES["model-end_of_word_suffix"] = lambda: char_level(
    pre=P.Whitespace(), end_of_word_suffix="</w>", decoder=D.BPEDecoder(suffix="</w>"))
CASES["model-prefix-and-suffix-without-byte-fallback"] = lambda: char_level(
    pre=P.Whitespace(), continuing_subword_prefix="##", end_of_word_suffix="_", bytes_=(),
    decoder=D.BPEDecoder(suffix="_"))
CASES["model-ignore_merges"] = lambda: char_level(pre=P.Metaspace(), ignore_merges=True)


def _merges_as_strings(d):
    d["model"]["merges"] = [" ".join(m) for m in d["model"]["merges"]]


CASES["model-merges-as-strings"] = lambda: _edit(char_level(pre=P.WhitespaceSplit()),
                                                 _merges_as_strings)

# decoders, on a SentencePiece-like model whose tokens hold "▁" and <0xNN>
for name, decoder in {
        "ByteFallback": D.ByteFallback(), "Fuse": D.Fuse(),
        "Strip-space": D.Sequence([D.Replace("▁", " "), D.Strip(" ", 1, 0)]),
        "Strip-mark": D.Strip("▁", 2, 1), "Strip-letter": D.Strip("e", 0, 3),
        "Replace-string": D.Replace("▁", " "), "Replace-regex": D.Replace(Regex("▁+|e"), "_"),
        "Replace-regex-empty-matches": D.Replace(Regex("e*"), "_"),
        "BPEDecoder": D.BPEDecoder(suffix="▁"),
        "Sequence-Llama2": D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(),
                                       D.Strip(" ", 1, 0)]),
        "Sequence-Metaspace-Fuse": D.Sequence([D.ByteFallback(), D.Metaspace(), D.Fuse()]),
        }.items():
    CASES[f"decoder-{name}"] = lambda d=decoder: char_level(pre=P.Metaspace(), decoder=d)
CASES["no-decoder"] = lambda: _edit(char_level(pre=P.Metaspace()),
                                    lambda d: d.update(decoder=None))


# added tokens, special or not, normalized or not, with every option, under a normalizer
def _added(build, *, special: bool, normalized: bool) -> HFTokenizer:
    tok = build()
    # Each of ADDED with its options: l(strip), r(strip), w (single_word).
    options = ["l", "r", "w", "lr", "wlr", "", "", "w", "", "r"]
    tokens = [HFAddedToken(content, normalized=normalized, special=special, lstrip="l" in o,
                           rstrip="r" in o, single_word="w" in o)
              for content, o in zip(ADDED, options)]
    (tok.add_special_tokens if special else tok.add_tokens)(tokens)
    return tok


LLAMA2_DECODER = D.Sequence([D.Replace("▁", " "), D.ByteFallback(), D.Fuse(), D.Strip(" ", 1, 0)])
for label, build in {
        "none": lambda: byte_level(),
        "Lowercase": lambda: byte_level(normalizer=N.Lowercase()),
        "NFKC": lambda: byte_level(normalizer=N.NFKC()),
        "Llama2": lambda: char_level(normalizer=N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]),
                                     decoder=LLAMA2_DECODER),
        "ByteLevel-prefix": lambda: byte_level(pre=P.ByteLevel(add_prefix_space=True)),
        "Metaspace": lambda: char_level(pre=P.Metaspace(), decoder=D.Metaspace()),
        }.items():
    for special in (False, True):
        for normalized in (False, True):
            CASES[f"added-{label}-special={special}-normalized={normalized}"] = (
                lambda b=build, s=special, z=normalized: _added(b, special=s, normalized=z))


# added tokens with no option, matched in the original text (Gemma's tab, newline and space
# runs): the text between them normalized all at once, and left whole all at once where the
# head cuts none of it (encoding.Plan.keys)
PLAIN_ADDED = ["\n", "\t", "\n\n", "<b>", "<a><b>", "Hello", "ﬁ", "end", "▁▁", "  "]
GEMMA_PRE = P.Split(" ", "merged_with_previous")
for label, build in {
        "none": lambda: byte_level(),
        "NFKC": lambda: byte_level(normalizer=N.NFKC()),
        "Lowercase-NFD": lambda: byte_level(normalizer=N.Sequence([N.Lowercase(), N.NFD()])),
        "Gemma": lambda: char_level(normalizer=N.Replace(" ", "▁"), pre=GEMMA_PRE),
        "Gemma-NFC": lambda: char_level(normalizer=N.Sequence([N.NFC(), N.Replace(" ", "▁")]),
                                        pre=GEMMA_PRE),
        "Llama2": lambda: char_level(normalizer=N.Sequence([N.Prepend("▁"), N.Replace(" ", "▁")]),
                                     decoder=LLAMA2_DECODER),
        "Metaspace-first": lambda: char_level(pre=P.Metaspace(prepend_scheme="first"),
                                              decoder=D.Metaspace(prepend_scheme="first")),
        }.items():
    for special in (False, True):
        CASES[f"plain-added-{label}-special={special}"] = lambda b=build, s=special: (
            _plain_added(b(), special=s))


def _plain_added(tok: HFTokenizer, *, special: bool) -> HFTokenizer:
    (tok.add_special_tokens if special else tok.add_tokens)(
        [HFAddedToken(t, normalized=False, special=special) for t in PLAIN_ADDED])
    return tok


# post-processors (applied only with add_special_tokens=True)
def _post(processor) -> HFTokenizer:
    tok = char_level(pre=P.Metaspace(), decoder=D.Sequence([D.Metaspace(), D.ByteFallback(),
                                                            D.Fuse()]))
    tok.post_processor = processor(tok)
    return tok


def _ids(tok, *names):
    return [(n, tok.token_to_id(n)) for n in names]


for name, processor in {
        "Template-BOS": lambda t: processors.TemplateProcessing(
            single="<s> $A", special_tokens=_ids(t, "<s>")),
        "Template-EOS": lambda t: processors.TemplateProcessing(
            single="$A </s>", special_tokens=_ids(t, "</s>")),
        "Template-BOS-EOS": lambda t: processors.TemplateProcessing(
            single="<s> $A </s>", pair="<s> $A </s> $B </s>",
            special_tokens=_ids(t, "<s>", "</s>")),
        "Template-several-ids": lambda t: processors.TemplateProcessing(
            single="<s> $A", special_tokens=[{"id": "<s>", "tokens": ["<s>", "</s>"],
                                              "ids": [t.token_to_id("<s>"),
                                                      t.token_to_id("</s>")]}]),
        "ByteLevel": lambda t: processors.ByteLevel(trim_offsets=True),
        "Sequence-ByteLevel-Template": lambda t: processors.Sequence([
            processors.ByteLevel(trim_offsets=False),
            processors.TemplateProcessing(single="<s> $A", special_tokens=_ids(t, "<s>"))]),
        "Roberta": lambda t: processors.RobertaProcessing(*_ids(t, "</s>", "<s>")),
        "Bert": lambda t: processors.BertProcessing(*_ids(t, "</s>", "<s>")),
        }.items():
    CASES[f"post-{name}"] = lambda p=processor: _post(p)


# -- the checks ----------------------------------------------------------------------------------

@pytest.fixture(autouse=True)
def cut_from_the_first_piece(monkeypatch):
    """Tokenizers build their cutter at once, not after 20,000 characters (encoding.py), so
    that every text here is encoded through the cuts."""
    monkeypatch.setattr(encoding, "CUTTER_AFTER_CHARS", 0)


class Pair(NamedTuple):
    """Their tokenizer, ours read from its file, and what the checks need to know about it."""

    name: str
    theirs: HFTokenizer
    ours: bpe_core.Tokenizer
    exact_offsets: bool  # tokenizers' offsets are the characters each token came from
    comparable_offsets: bool  # tokenizers' offsets name each token's characters at all
    local_normalizer: bool  # a part of the text normalizes as it does inside the whole
    added: frozenset  # the ids of added tokens

    def __repr__(self) -> str:
        return self.name


def _pair(name: str) -> Pair:
    theirs = CASES[name]()
    data = theirs.to_str()
    ours = bpe_core.loads(data.encode(), source="tokenizer.json")
    d = json.loads(data)
    model = d["model"]
    # A normal form or a regex Replace that joins characters puts tokenizers' offsets on one of
    # them (bpe_core's span covers them all); a post-processor that trims offsets takes the
    # spaces off them; a model that drops unknown characters shifts them.
    joins = regex.search(r'"(NFK?[CD]|Regex)"', json.dumps(d["normalizer"]))
    trims = '"trim_offsets": true' in json.dumps(d["post_processor"])
    drops = model["unk_token"] is None and not model["byte_fallback"]
    added = theirs.get_added_tokens_decoder()
    # Byte fallback that spells a prefix or suffix too: tokenizers numbers the affix's bytes as
    # if they were text, past the characters (bpe_core's spans stay on the character).
    affixed = model["byte_fallback"] and (model["continuing_subword_prefix"]
                                          or model["end_of_word_suffix"])
    return Pair(name, theirs, ours, not (joins or trims or drops), not (drops or affixed),
                "Strip" not in json.dumps(d["normalizer"]), frozenset(added))


@pytest.fixture(scope="module", params=list(CASES))
def pair(request) -> Pair:
    return _pair(request.param)


def _their_decode(theirs: HFTokenizer, ids: list[int], skip: bool) -> str | None:
    """tokenizers' decode, or None where it panics (its Strip decoder on a token shorter than
    what it strips)."""
    try:
        return theirs.decode(ids, skip_special_tokens=skip)
    except BaseException as exc:  # a Rust panic is not an Exception
        if type(exc).__name__ != "PanicException":
            raise
        return None


def _check_decode(pair: Pair, ids: list[int]) -> None:
    for skip in (True, False):
        want = _their_decode(pair.theirs, ids, skip)
        got = pair.ours.decode(ids, skip_special_tokens=skip)
        assert got == want or want is None, (ids, skip)


def _same_ids(pair: Pair, text: str):
    """tokenizers' encoding of ``text`` (no special tokens added), once bpe_core's ids are
    checked against it."""
    found = pair.theirs.encode(text, add_special_tokens=False)
    assert pair.ours.encode(text) == found.ids, text
    return found


def _check(pair: Pair, text: str) -> None:
    found = _same_ids(pair, text)
    if pair.name.startswith("plain-added"):  # special tokens read as text too
        pair.theirs.encode_special_tokens = True
        try:
            want = pair.theirs.encode(text, add_special_tokens=False).ids
        finally:
            pair.theirs.encode_special_tokens = False
        assert pair.ours.encode(text, split_special_tokens=True) == want, text
    assert pair.ours.encode(text, add_special_tokens=True) == pair.theirs.encode(text).ids, text
    _check_decode(pair, found.ids)
    _check_spans(pair, text, found)


def _check_spans(pair: Pair, text: str, found) -> None:
    """Spans give the ids; where tokenizers' offsets are exact, they are those; elsewhere they
    hold at least the characters tokenizers names, and the text they cover holds, once
    normalized, what the token stands for."""
    spans = pair.ours.spans(text)
    assert [s.id for s in spans] == found.ids, text
    assert all(0 <= s.start <= s.end <= len(text) for s in spans), (text, spans)
    # With byte fallback and some <0xNN> missing, a character spelled as bytes can come before
    # an unknown one still pending (Hugging Face's order, which bpe_core keeps); tokenizers then
    # gives offsets by token length alone, which name the wrong characters.
    if any(a.start > b.start for a, b in zip(spans, spans[1:])):
        return
    # A model that drops unknown characters, or spells affixes as bytes: tokenizers' offsets
    # are shifted by them (see test_spans_after_a_dropped_character and
    # test_spans_of_a_prefixed_character_spelled_as_bytes).
    if not pair.comparable_offsets:
        return
    normalize = pair.theirs.normalizer.normalize_str if pair.theirs.normalizer else str
    for s, (start, end) in zip(spans, found.offsets):
        if pair.exact_offsets:
            assert (s.start, s.end) == (start, end), (text, s, start, end)
            continue
        assert s.start <= start and end <= s.end, (text, s, start, end)
        if s.id not in pair.added and pair.local_normalizer:
            # (Without the space a byte-level or Metaspace token may start with; a text that
            # spells a token "<0x41>" is that token, which stands for "A".)
            covered = normalize(text[s.start:s.end]).encode()
            assert (s.bytes.strip(b" ") in covered
                    or pair.theirs.id_to_token(s.id).encode() in covered), (text, s)


# Each hypothesis test over ``pair`` runs once per case (163 of them), so its examples multiply:
# 12 per case are 1,956 texts in all, 10 per case 1,630 id lists (and test_fixed_texts checks
# 147 texts per case, 23,961). Drawing a text costs hypothesis more than the checks do.
@settings(max_examples=12)
@given(text=TEXT)
def test_any_text(pair, text):
    _check(pair, text)


def test_fixed_texts(pair):
    for text in FIXED + TRICKY:
        _check(pair, text)


@settings(max_examples=10)
@given(data=st.data())
def test_decode_any_ids(pair, data):
    size = pair.theirs.get_vocab_size(with_added_tokens=True)
    _check_decode(pair, data.draw(st.lists(st.integers(0, size + 1), max_size=12)))


@pytest.fixture(scope="module", params=["ByteLevel-prefix=False-regex=False",
                                        "decoder-ByteFallback"])
def byte_tokens(request) -> tuple[Pair, list[int]]:
    """A tokenizer that decodes bytes, and the ids of its 256 byte tokens."""
    pair = _pair(request.param)
    vocab = pair.theirs.get_vocab()
    spelled = BYTES if request.param.startswith("ByteLevel") else [f"<0x{b:02X}>"
                                                                   for b in range(256)]
    return pair, [vocab[t] for t in spelled]


@settings(max_examples=40)
@given(data=st.data())
def test_decode_any_bytes(byte_tokens, data):
    """Byte tokens in any order: invalid UTF-8 becomes U+FFFD just as in Rust's decoders."""
    pair, ids = byte_tokens
    _check_decode(pair, data.draw(st.lists(st.sampled_from(ids), max_size=12)))


#: Pre-tokenizers whose pieces ids alone may not show (a model trained on their pieces merges
#: nothing across their cuts): the pieces themselves, against tokenizers'.
PIECE_CASES = {"BertPreTokenizer": P.BertPreTokenizer(), "WhitespaceSplit": P.WhitespaceSplit(),
               "Whitespace": P.Whitespace(), "Digits": P.Digits(),
               "Digits-individual": P.Digits(individual_digits=True),
               **{f"Punctuation-{b}": P.Punctuation(b) for b in BEHAVIORS},
               "Sequence-Whitespace-Punctuation": P.Sequence([P.WhitespaceSplit(),
                                                               P.Punctuation()]),
               "Sequence-Whitespace-Digits": P.Sequence([P.Whitespace(), P.Digits(True)]),
               "Metaspace": P.Metaspace(), "Metaspace-underscore": P.Metaspace(replacement="_"),
               "Metaspace-no-split": P.Metaspace(split=False)}


# (15 per case, as the cases multiply them: 15 cases, 225 drawn lists of up to 4 texts, each
# with the 48 texts below.)
@pytest.mark.parametrize("name", PIECE_CASES)
@settings(max_examples=15)
@given(texts=st.lists(TEXT, max_size=4))
def test_pre_tokenizer_pieces_are_those_of_tokenizers(name, texts):
    theirs = PIECE_CASES[name]
    ours = bpe_core.pre_tokenizers.from_dict(json.loads(theirs.__getstate__()))
    texts += FIXED[-8:] + TRICKY[:40]
    want = [[piece for piece, _ in theirs.pre_tokenize_str(t)] for t in texts]
    # Each text on its own, and all of them in one call (the way an encode cuts many pieces)
    assert [ours.split([t]) for t in texts] == want
    assert ours.split(texts) == [piece for pieces in want for piece in pieces]


def test_unicode_tables_as_tokenizers_has_them():
    """Punctuation on every code point, and the normal forms on every character Python's
    database decomposes or gives a combining class: Hugging Face's tables are older
    (punctuation: Unicode 8.0, normalization: 9.0), and bpe_core reads them as it does."""
    every = "a".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    theirs = [piece for piece, _ in P.Punctuation().pre_tokenize_str(every)]
    assert bpe_core.pre_tokenizers.Punctuation().split([every]) == theirs
    ranges = [(i, i + 1) for i in range(len(every))]
    aligned = bpe_core.pre_tokenizers.Punctuation().split_aligned([(every, ranges)])
    assert [piece for piece, _ in aligned] == theirs
    # Digits, as Rust's char::is_numeric has it (Unicode 17, where regex may be at 18). An "a"
    # stands between any two code points, so no two digits touch and tokenizers cuts alike
    # with individual_digits or without: its pieces are made once (a second).
    theirs = [piece for piece, _ in P.Digits(False).pre_tokenize_str(every)]
    for individual in (False, True):
        ours = bpe_core.pre_tokenizers.Digits(individual)
        assert ours.split([every]) == theirs
        assert [piece for piece, _ in ours.split_aligned([(every, ranges)])] == theirs
    marked = "".join("a" + chr(c) + "\u0316" for c in range(0x110000)
                     if unicodedata.decomposition(chr(c)) or unicodedata.combining(chr(c)))
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        want = getattr(N, form)().normalize_str(marked)
        assert getattr(bpe_core.normalizers, form)().normalize_str(marked) == want, form
    # Lowercase, as Rust's Unicode has it (Unicode 16 and 17's capitals too, which Python 3.11
    # leaves: each as the table has it).
    capitals = "".join(map(chr, bpe_core.normalizers.NEWER_LOWERCASE))
    assert N.Lowercase().normalize_str(capitals) == capitals.translate(
        bpe_core.normalizers.NEWER_LOWERCASE)
    want = N.Lowercase().normalize_str(every)
    assert bpe_core.normalizers.Lowercase().normalize_str(every) == want
    assert bpe_core.normalizers.Lowercase().normalize_aligned(every, ranges)[0] == want


@given(st.text(st.sampled_from("aab ▁é"), max_size=12), st.sampled_from([" ", "ab", "aa"]),
       st.sampled_from(["", "▁", "<AB>"]))
def test_a_string_replace_gives_the_ranges_of_the_same_regex(text, pattern, content):
    # A plain string is found by str.split, a regex by the regex module: the same places, the
    # same ranges (a replacement the last character it replaces, as in tokenizers; none for a
    # deletion).
    ranges = [(k, k + 2 * k) for k in range(len(text))]  # (any ranges, told apart)
    plain = bpe_core.normalizers.Replace(pattern, content)
    as_regex = bpe_core.normalizers.Replace(regex.escape(pattern), content, regex=True)
    assert plain.normalize_aligned(text, ranges) == as_regex.normalize_aligned(text, ranges)
    assert plain.normalize_aligned(text, ranges)[0] == text.replace(pattern, content)


def test_normal_forms_on_a_python_with_a_later_unicode(monkeypatch):
    """Python 3.12 to 3.14 know Unicode 15 to 16 (and a later one 17): the characters they
    added with a decomposition or a combining class stay as Hugging Face's tables leave them.
    Such a Python is played by unicodedata2 (requirements-test.txt)."""
    later = pytest.importorskip("unicodedata2")
    monkeypatch.setattr(bpe_core.normalizers, "unicodedata", SimpleNamespace(
        normalize=later.normalize, combining=later.combining,
        is_normalized=lambda form, text: later.normalize(form, text) == text))
    marked = "".join("a" + chr(c) + "\u0316" for c in range(0x110000)
                     if later.decomposition(chr(c)) or later.combining(chr(c)))
    ranges = [(i, i + 1) for i in range(len(marked))]
    for form in ("NFC", "NFD", "NFKC", "NFKD"):
        want = getattr(N, form)().normalize_str(marked)
        ours = getattr(bpe_core.normalizers, form)()
        assert ours.normalize_str(marked) == want, form
        assert ours.normalize_aligned(marked, ranges)[0] == want, form


@pytest.mark.parametrize("part, component, name", [
    ("normalizer", N.Nmt(), "Nmt"),
    ("normalizer", N.Sequence([N.NFC(), N.ByteLevel()]), "ByteLevel"),
    ("pre_tokenizer", P.CharDelimiterSplit(" "), "CharDelimiterSplit"),
    ("pre_tokenizer", P.Sequence([P.Whitespace(), P.UnicodeScripts()]), "UnicodeScripts"),
    ("decoder", D.WordPiece(), "WordPiece"),
    ("decoder", D.Sequence([D.Fuse(), D.CTC()]), "CTC"),
])
def test_an_unsupported_component_is_named_with_what_is_supported(part, component, name):
    tok = HFTokenizer(models.BPE())
    setattr(tok, part, component)
    with pytest.raises(bpe_core.TokenizerFileError) as raised:
        bpe_core.loads(tok.to_str().encode(), source="tokenizer.json")
    supported = {"normalizer": bpe_core.normalizers.SUPPORTED,
                 "pre_tokenizer": bpe_core.pre_tokenizers.SUPPORTED,
                 "decoder": bpe_core.decoders.SUPPORTED}[part]
    message = str(raised.value)
    assert f"the {name} " in message and supported in message, message


@pytest.mark.parametrize("model, name", [
    (models.WordPiece({"[UNK]": 0, "a": 1}, unk_token="[UNK]"), "WordPiece"),
    (models.Unigram([("<unk>", 0.0), ("a", -1.0)], 0), "Unigram"),
])
def test_a_model_other_than_bpe_is_named(model, name):
    with pytest.raises(bpe_core.TokenizerFileError,
                       match=f"the model is {name}, not BPE; bpe_core reads BPE models only"):
        bpe_core.loads(HFTokenizer(model).to_str().encode(), source="tokenizer.json")


# -- where bpe_core once differed ------------------------------------------------------------------

@pytest.mark.parametrize("name", ["model-continuing_subword_prefix", "model-end_of_word_suffix"])
def test_spans_of_a_prefixed_character_spelled_as_bytes(name):
    """When byte fallback spells a character looked up with its continuing_subword_prefix or
    end_of_word_suffix (as Hugging Face does), the ``<0xNN>`` tokens of the affix's bytes stand
    for none of the text: the spans stay inside it (they once ran past its end)."""
    pair = _pair(name)
    text = "aᚠ"  # "##ᚠ" / "ᚠ</w>" is no token: its bytes, affix included, are
    ids = _same_ids(pair, text).ids
    spans = pair.ours.spans(text)
    assert [s.id for s in spans] == ids
    assert [text[s.start:s.end] for s in spans] == ["a"] + ["ᚠ"] * (len(spans) - 1)


def test_spans_after_a_dropped_character():
    """A character the model drops (no unk_token, no byte fallback, as Hugging Face does) is in
    no span, and the tokens after it cover their own characters (they were once placed too
    early, on the dropped one)."""
    ours = _pair("model-no-unk-drops-characters").ours
    text = "x\u0378ab"  # U+0378 is no token: dropped
    assert [(ours.view.raw(s.id), text[s.start:s.end]) for s in ours.spans(text)] == [
        ("▁", "x"), ("x", "x"), ("a", "a"), ("b", "b")]


@pytest.mark.parametrize("name, text", [
    ("added-Lowercase-special=False-normalized=True", "The"),
    ("added-NFKC-special=False-normalized=True", "ﬁ"),
    ("added-Lowercase-special=True-normalized=True", "Hello there"),  # not skipped by HF
])
def test_normalized_added_tokens_decode_as_tokenizers_does(name, text):
    """tokenizers 0.23 decodes an added token with normalized=true as its normalized text
    (``AddedVocabulary.simple_id_to_token`` reads ``normalized_cache``) and checks
    skip_special_tokens against that text; so does bpe_core."""
    pair = _pair(name)
    ids = _same_ids(pair, text).ids
    assert [pair.ours.decode(ids, skip_special_tokens=s) for s in (True, False)] == [
        pair.theirs.decode(ids, skip_special_tokens=s) for s in (True, False)]


@pytest.mark.parametrize("normalizer, pre", [
    (N.Strip(), P.Metaspace(prepend_scheme="first")),
    (None, P.Sequence([P.Split(" ", "removed"), P.Metaspace(prepend_scheme="first")])),
])
def test_metaspace_first_when_the_text_start_is_dropped(normalizer, pre):
    """Metaspace's "first" scheme prepends only to a piece whose first character is at
    original offset 0, not to the text's first piece when the normalizer (Strip) or an earlier
    pre-tokenizer (a Removed split) dropped the characters before it."""
    theirs = char_level(normalizer=normalizer, pre=pre,
                        decoder=D.Metaspace(prepend_scheme="first"))
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    text = "  hello world"
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    assert [s.id for s in ours.spans(text)] == ours.encode(text)


@pytest.mark.parametrize("normalizer, text, tokens, offsets", [
    (N.Replace("``", '"'), "``hello", ["<0x22>", "hello"], [(1, 2), (2, 7)]),
    (N.Replace("``", '"'), "`` hi", ["<0x22>", "▁", "h", "i"], [(1, 2), (2, 3), (3, 4), (4, 5)]),
    (N.Replace(Regex("a+"), "X"), "aab", ["X", "b"], [(1, 2), (2, 3)]),
])
def test_metaspace_first_after_a_replace_of_several_characters(normalizer, text, tokens,
                                                               offsets):
    """A Replace's content comes from the last character it replaces (tokenizers'
    ``NormalizedString::replace``): at the text's start that is past offset 0, so Metaspace's
    "first" scheme puts no "▁" before it ('``hello' once gave '▁', '<0x22>', 'hello'), and the
    spans are tokenizers' offsets."""
    theirs = char_level(normalizer=normalizer, pre=P.Metaspace(prepend_scheme="first"),
                        decoder=D.Metaspace(prepend_scheme="first"))
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    found = theirs.encode(text, add_special_tokens=False)
    assert (found.tokens, found.offsets) == (tokens, offsets)
    assert [theirs.id_to_token(i) for i in ours.encode(text)] == tokens
    assert [(s.id, s.start, s.end) for s in ours.spans(text)] == [
        (i, a, b) for i, (a, b) in zip(found.ids, offsets)]


@pytest.mark.parametrize("pattern, text", [
    ("^", ""), ("^", "<|endoftext|>"),  # nothing to match in an empty text (or gap)
    (r"\s*$", "a \n"), ("^|a", "ab"),  # no empty match where the one before ended
    ("", "ab"),  # an empty regex: an empty match at every place
])
def test_a_regex_replace_matches_where_tokenizers_does(pattern, text):
    """A Replace normalizer's regex matches as tokenizers (Oniguruma) finds its matches: none in
    an empty text, so "^" adds nothing to an empty text nor to one that is all an added token
    (it once added "▁"), and no empty match right where a match ended (``\\s*$`` once made
    "a \\n" "a▁▁", not "a▁"; ``^|a`` made "ab" "▁▁b", not "▁ab")."""
    theirs = byte_level()  # (tokenizers' trainer panics on CORPUS with "^" or "")
    theirs.normalizer = N.Replace(Regex(pattern), "▁")
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    for piece in (text, text + text):
        assert ours.normalizer.normalize_str(piece) == theirs.normalizer.normalize_str(piece)
        assert ours.encode(piece) == theirs.encode(piece, add_special_tokens=False).ids, piece
        assert [s.id for s in ours.spans(piece)] == ours.encode(piece)


@pytest.mark.parametrize("pattern", ["^", r"^\s*", "^$"])
def test_a_line_start_in_a_regex_is_not_after_the_last_newline(pattern):
    """Oniguruma's "^" starts the text and each line after a newline, but not the empty end
    after a last newline, where Python's "(?m:^)" matches too: "a\\n" with "^" -> "▁" is
    "▁a\\n" (it was once "▁a\\n▁")."""
    theirs = byte_level()  # (tokenizers' trainer panics on CORPUS with "^")
    theirs.normalizer = N.Replace(Regex(pattern), "▁")
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    for text in ("a\n", "\n", "a\nb\n\n", "a\r\n"):
        assert ours.normalizer.normalize_str(text) == theirs.normalizer.normalize_str(text)
        assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids, text


def test_spans_of_byte_tokens_without_a_byte_level_decoder():
    """A byte-level model with no ByteLevel decoder (the file gives none, or another) still
    encodes UTF-8 bytes as byte characters: each token covers as many bytes as it has byte
    characters ("é" is "Ã" and "©": both cover "é"; the second once covered nothing at (1, 1))."""
    theirs = HFTokenizer(models.BPE(vocab={c: i for i, c in enumerate(BYTES)}, merges=[]))
    theirs.pre_tokenizer = P.ByteLevel(add_prefix_space=False)
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    for text in ("é", "裊ƴ", "a 𠀀b"):
        found = theirs.encode(text, add_special_tokens=False)
        spans = ours.spans(text)
        assert [s.id for s in spans] == found.ids
        assert [(s.start, s.end) for s in spans] == found.offsets, text
