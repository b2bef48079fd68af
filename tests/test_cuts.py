"""Safe cuts (bpe_core/cuts.py): a long piece encoded in parts gives exactly the ids of the whole,
for models of characters (SentencePiece-like, no pre-tokenizer) and of bytes, with and without
ignore_merges, and exactly the ids of Hugging Face ``tokenizers``."""

from __future__ import annotations

import functools
import json
import random
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import AddedToken
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders, models, normalizers, pre_tokenizers
from tokenizers.trainers import BpeTrainer

import bpe_core
from bpe_core import encoding
from bpe_core.alphabet import BYTE_CHARS
from bpe_core.cuts import Cutter
from bpe_core.encoding import LONG_PIECE_CHARS

WORDS = ["the", "quick", "brown", "fox", "naïve", "café", "中文", "分词", "很", "有趣", "日本語",
         "の", "テキスト", "한국어", "👩‍👩‍👧", "🇫🇷", "x", "  ", "\n", "1234", "-", "=="]
CORPUS = [" ".join(random.Random(k).choices(WORDS, k=60)) + "".join(
    random.Random(k).choices(WORDS, k=30)) for k in range(60)]
#: (with "Ω" and "ü", which no vocabulary here holds)
LONG_TEXT = st.lists(st.sampled_from(WORDS + list("abc 中文の!Ωü")), min_size=1,
                     max_size=220).map("".join)


def _train(tok: HFTokenizer, **options) -> HFTokenizer:
    trainer = BpeTrainer(vocab_size=600, min_frequency=1, show_progress=False, **options)
    tok.train_from_iterator(CORPUS, trainer)
    return tok


def sentencepiece_like(fallback: str = "all") -> HFTokenizer:
    """Llama 2's shape: spaces become "▁", no pre-tokenizer, byte fallback. ``fallback``: "all"
    (every byte's <0xNN> token, as Llama 2 has them: a character the vocabulary lacks, such as
    "Ω", stands alone in them), "one missing" (no <0xCE>: "Ω" is <unk>, which fuses with the
    unknowns around it) or "merged" (<0xCE> + <0xA9> is a merge: "Ω" is one token)."""
    tok = HFTokenizer(models.BPE(unk_token="<unk>", fuse_unk=True))
    tok.normalizer = normalizers.Sequence([normalizers.Prepend("▁"),
                                           normalizers.Replace(" ", "▁")])
    tok.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(),
                                     decoders.Fuse()])
    tok = _train(tok, special_tokens=["<unk>"])
    d = json.loads(tok.to_str())
    model = d["model"]
    for b in range(256):
        if not (fallback == "one missing" and b == 0xCE):
            model["vocab"].setdefault(f"<0x{b:02X}>", len(model["vocab"]))
    if fallback == "merged":
        model["vocab"]["<0xCE><0xA9>"] = len(model["vocab"])
        model["merges"].append(["<0xCE>", "<0xA9>"])
    model["byte_fallback"] = True
    return HFTokenizer.from_str(json.dumps(d))


#: The three ways a SentencePiece-like model may have its byte-fallback tokens.
SENTENCEPIECE = {"sentencepiece": "all", "sentencepiece, a byte missing": "one missing",
                 "sentencepiece, bytes merged": "merged"}


def bytes_whole_text(ignore_merges: bool = False) -> HFTokenizer:
    """Byte-level with no regex: the whole text is one piece of bytes."""
    tok = HFTokenizer(models.BPE(ignore_merges=ignore_merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    return _train(tok, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())


@pytest.fixture(autouse=True)
def cut_from_the_first_piece(monkeypatch):
    """Tokenizers build their cutter at once, not after 20,000 characters (encoding.py), so
    that every text here is encoded through the cuts."""
    monkeypatch.setattr(encoding, "CUTTER_AFTER_CHARS", 0)


BUILDERS = {**{name: functools.partial(sentencepiece_like, f) for name, f in SENTENCEPIECE.items()},
            "bytes": bytes_whole_text,
            "bytes+ignore_merges": lambda: bytes_whole_text(ignore_merges=True)}


@pytest.fixture(scope="module", params=list(BUILDERS))
def pair(request):
    theirs = BUILDERS[request.param]()
    return theirs, bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")


@settings(max_examples=40, deadline=None)
@given(text=LONG_TEXT)
def test_cut_pieces_give_the_ids_of_the_whole(pair, text):
    theirs, ours = pair
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    # A second time, from the cache of parts.
    assert ours.encode(text + text) == theirs.encode(text + text, add_special_tokens=False).ids


def test_texts_longer_than_a_key_are_cut_before_lookup(pair):
    theirs, ours = pair
    text = "".join(random.Random(5).choices(WORDS, k=400))
    assert len(text) > LONG_PIECE_CHARS
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    spans = ours.spans(text)
    assert [s.id for s in spans] == ours.encode(text)
    assert spans[0].start == 0 and spans[-1].end == len(text)


@pytest.mark.parametrize("limit", [0, 1, 5, 50, 200])
def test_a_long_piece_encoded_with_the_first_merges_only(limit):
    """``upto``: a piece of ``LONG_PIECE_CHARS`` or more is cut, and its new parts merged all
    at once (``_PartCache.fill``), with the first merges only."""
    ours = bpe_core.loads(sentencepiece_like().to_str().encode(), source="tokenizer.json")
    text = "".join(random.Random(7).choices(WORDS + ["Ω", "ü", "Ωü"], k=300))
    assert len(text) >= LONG_PIECE_CHARS
    whole = ours.model.tokenize("▁" + text.replace(" ", "▁"), limit)  # (no cut, no cache)
    assert ours.encode(text, upto=limit) == whole and ours.encode(text, upto=limit) == whole


_MODELS = {name: bpe_core.loads(BUILDERS[name]().to_str().encode(), source="tokenizer.json").model
           for name in (*SENTENCEPIECE, "bytes")}


def _model_ids(model: bpe_core.BPE, piece: str, byte_level: bool) -> list[int]:
    """The ids the model alone gives a whole piece, with no cut and no cache."""
    if not byte_level:
        return model.tokenize(piece)
    return model.merge([model.vocab[BYTE_CHARS[b]] for b in piece.encode()])


@pytest.mark.parametrize("name", [*SENTENCEPIECE, "bytes"])
def test_every_position_found_is_safe(name):
    """Cut anywhere the cutter says and the two sides merge to the ids of the whole."""
    model = _MODELS[name]
    byte_level = name == "bytes"
    cutter = Cutter.for_bytes(model) if byte_level else Cutter.for_characters(model)
    rng = random.Random(11)
    checked = 0
    for _ in range(40):
        text = "".join(rng.choices(WORDS + ["Ω", "ü", "Ωü"], k=12))
        piece = text if byte_level else text.replace(" ", "▁")
        whole = _model_ids(model, piece, byte_level)
        for i in cutter.positions(piece):
            assert (_model_ids(model, piece[:i], byte_level)
                    + _model_ids(model, piece[i:], byte_level)) == whole, (piece, i)
            checked += 1
    assert checked > 100


def test_a_merge_across_a_character_boundary_mid_bytes_is_never_cut():
    """Byte-level merges that end or start inside a character: the characters they touch are
    never cut beside, and the ids stay exact."""
    def chars(data: bytes) -> str:
        return "".join(BYTE_CHARS[b] for b in data)

    zhong, wen = "中".encode(), "文".encode()
    vocab = {BYTE_CHARS[b]: b for b in range(256)}
    merges = [(chars(zhong[2:]), chars(wen[:1])),  # the tail of 中 with the head of 文
              (chars(zhong[:1]), chars(zhong[1:2]))]
    for a, b in merges:
        vocab[a + b] = len(vocab)
    d = {"model": {"type": "BPE", "vocab": vocab, "merges": [list(m) for m in merges]},
         "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "use_regex": False,
                           "trim_offsets": False},
         "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
                     "use_regex": False}}
    ours = bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")
    theirs = HFTokenizer.from_str(json.dumps({"version": "1.0", "added_tokens": [], **d}))
    cutter = Cutter.for_bytes(ours.model)
    assert "文" in cutter.no_before
    text = "中文中文abc中文"
    assert 1 not in cutter.positions(text)
    assert ours.encode(text) == theirs.encode(text).ids


@pytest.mark.parametrize("name", SENTENCEPIECE)
@given(text=LONG_TEXT)
@settings(max_examples=60, deadline=None)
def test_characters_are_cut_wherever_two_tokens_no_merge_joins_meet(name, text):
    # A character the vocabulary lacks ("Ω", "ü") is its bytes' <0xNN> tokens: cut beside like
    # any other, unless a byte has no token (<unk> then, which fuses across its neighbours) or
    # a merge joins two of them; then never cut beside, in runs or alone. Everywhere else, cut
    # unless a merge joins the two characters.
    cutter = Cutter.for_characters(_MODELS[name])
    known, joined = cutter.known, cutter.joined
    if SENTENCEPIECE[name] == "all":
        assert known is None
        known = set(text)
    else:
        assert not {"Ω", "ü"} & known
    assert cutter.positions(text) == [i for i, (x, y) in enumerate(zip(text, text[1:]), 1)
                                      if x in known and y in known and (x, y) not in joined]


def test_unknown_characters_stand_alone_only_where_their_bytes_always_do():
    base = {"▁": 0, "a": 1, "b": 2, "▁a": 3, "<unk>": 4, "æ": 5}

    def model(missing: tuple[int, ...] = (), merged: tuple[str, str] | None = None,
              byte_fallback: bool = True) -> bpe_core.BPE:
        vocab, merges = dict(base), [("▁", "a")]
        for b in set(range(256)) - set(missing):
            vocab[f"<0x{b:02X}>"] = len(vocab)
        if merged:
            vocab["".join(merged)] = len(vocab)
            merges.append(merged)
        return bpe_core.BPE.from_vocab(vocab, merges, unk_token="<unk>", fuse_unk=True,
                                       byte_fallback=byte_fallback)

    def stand_alone(m: bpe_core.BPE) -> bool:
        return Cutter.for_characters(m).known is None

    assert Cutter.for_characters(model()).split("▁aΩ▁aΩΩb") == ["▁a", "Ω", "▁a", "Ω", "Ω", "b"]
    # "a" is a token: no text needs <0x61> (Gemma lacks <0x09>, and has "\t").
    assert stand_alone(model()) and stand_alone(model(missing=(0x61,)))
    assert not stand_alone(model(missing=(0x63,)))  # "c" is not: it would be <unk>
    assert not stand_alone(model(missing=(0xCE,)))
    assert not stand_alone(model(missing=(0xE6,)))  # "æ" is a token, but 新 needs <0xE6>
    assert not stand_alone(model(merged=("<0xCE>", "<0xA9>")))
    assert not stand_alone(model(merged=("a", "<0xCE>")))
    assert not stand_alone(model(merged=("<0xA9>", "a")))
    assert not stand_alone(model(byte_fallback=False))  # <unk>, with <0xNN> tokens unused
    stuck = Cutter.for_characters(model(merged=("<0xCE>", "<0xA9>")))
    assert stuck.split("▁aΩ▁aΩΩb") == ["▁aΩ▁aΩΩb"]  # never cut beside "Ω"


def test_a_vocabulary_without_single_characters_loads_and_encodes_as_tokenizers_does():
    # No character is a token, so every one is unknown and fuses with the next: there is no
    # place to cut (the cutter's class of known characters was empty, and "[^]+" no regex).
    d = {"model": {"type": "BPE", "vocab": {"a,": 0, "ab": 1, "[UNK]": 2}, "merges": [],
                   "unk_token": "[UNK]", "fuse_unk": True}}
    tok = bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")
    hf = HFTokenizer.from_str(json.dumps(d))
    for text in ["a,b", "hello world " * 40, ""]:
        assert tok.encode(text) == hf.encode(text).ids


@pytest.mark.parametrize("name", ["sentencepiece", "bytes"])
@given(text=LONG_TEXT)
@settings(max_examples=60, deadline=None)
def test_split_gives_the_slices_between_the_positions(name, text):
    """``split`` builds its parts two ways (a byte-level model's mostly cut Chinese: characters
    glued back where they stick; else slices): both are the slices between ``positions``; and
    ``split_all`` gives the parts ``split`` gives each piece."""
    model = _MODELS[name]
    cutter = Cutter.for_bytes(model) if name == "bytes" else Cutter.for_characters(model)
    assert name == "sentencepiece" or cutter.no_before  # the glued way is taken
    cuts = cutter.positions(text)
    assert cutter.split(text) == [text[a:b] for a, b in zip([0, *cuts], [*cuts, len(text)])]
    # Many pieces at once: each one's parts as split gives them, in order.
    pieces = [text, text[::-1], text[len(text) // 2:]]
    each = [cutter.split(p) for p in pieces]
    assert cutter.split_all(pieces) == ([p for parts in each for p in parts], list(map(len, each)))


def bytes_with_regex(ignore_merges: bool) -> HFTokenizer:
    """Byte-level with GPT-2's regex: a text of Chinese, Japanese, Korean falls into many
    pieces, which ``Plan.cut_new`` encodes all at once."""
    tok = HFTokenizer(models.BPE(ignore_merges=ignore_merges))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tok.decoder = decoders.ByteLevel()
    return _train(tok, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())


_WITH_REGEX = {flag: bytes_with_regex(flag) for flag in (False, True)}
CJK_TEXT = st.lists(st.sampled_from(["中文", "分词", "很", "有趣", "日本語", "の", "テキスト",
                                     "한국어", "🇫🇷", " ", "、", "x", "!"]),
                    min_size=1, max_size=150).map("".join)


@pytest.mark.parametrize("ignore_merges", [False, True])
@settings(max_examples=40, deadline=None)
@given(text=CJK_TEXT)
def test_new_pieces_cut_all_at_once_give_the_ids_of_tokenizers(ignore_merges, text):
    theirs = _WITH_REGEX[ignore_merges]
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    assert ours.encode(text + text) == theirs.encode(text + text, add_special_tokens=False).ids


def sentencepiece_lines() -> HFTokenizer:
    """Gemma's shape: a SentencePiece model whose added newline token cuts a text into lines,
    long pieces that ``Plan.cut_new`` encodes all at once."""
    tok = sentencepiece_like()
    tok.add_tokens([AddedToken("\n", normalized=False)])
    return tok


_LINES = sentencepiece_lines()
LINES_TEXT = st.lists(st.sampled_from(WORDS + ["\n", "\n", "\n", "the quick brown fox"]),
                      min_size=1, max_size=150).map("".join)


def assert_ids_of(theirs: HFTokenizer, text: str) -> None:
    """Ours read from ``theirs``' file give its ids, on the text and on it twice (met before)."""
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    for t in (text, text + text):
        assert ours.encode(t) == theirs.encode(t, add_special_tokens=False).ids


@settings(max_examples=40, deadline=None)
@given(text=LINES_TEXT)
def test_new_lines_cut_all_at_once_give_the_ids_of_tokenizers(text):
    assert_ids_of(_LINES, text)


@pytest.fixture
def split_all_calls(monkeypatch) -> list[list[str]]:
    """The pieces of each call of ``Cutter.split_all``, as the test goes."""
    calls: list[list[str]] = []
    split_all = Cutter.split_all
    monkeypatch.setattr(Cutter, "split_all", lambda self, pieces: calls.append(pieces) or
                        split_all(self, pieces))
    return calls


def test_new_pieces_are_cut_all_at_once_when_mostly_beyond_ascii_or_long(monkeypatch,
                                                                          split_all_calls):
    calls = split_all_calls
    theirs = _WITH_REGEX[False]
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    text = " ".join(random.Random(3).choices(["中文分词很有趣", "日本語のテキスト", "한국어"], k=200))
    assert ours.encode(text) == theirs.encode(text, add_special_tokens=False).ids
    # Once, on its distinct pieces of at least 4 characters (" 한국어", not "한국어" alone).
    assert calls == [[p for p in dict.fromkeys(ours.pre_tokenize(text)) if len(p) >= 4]]
    assert len(calls[0]) == 4
    ours.encode(text)  # known now: nothing left to cut
    # Met before but for two new pieces that the sample (one piece in 64) does not look up: no
    # pass over every piece for them, they are encoded one by one, to the same ids.
    n = len(ours.pre_tokenize(text))
    assert n % encoding.SAMPLE_EVERY and (n + 1) % encoding.SAMPLE_EVERY
    again = text + " 新しい文章 새로운문장"
    assert ours.encode(again) == theirs.encode(again, add_special_tokens=False).ids
    assert len(calls) == 1
    english = "plain English text, " * 50
    assert ours.encode(english) == theirs.encode(english, add_special_tokens=False).ids
    assert len(calls) == 1  # short pieces of ASCII: never cut, not looked for
    lines = bpe_core.loads(_LINES.to_str().encode(), source="tokenizer.json")
    text = "\n".join(" ".join(random.Random(k).choices(WORDS[:6], k=8)) for k in range(30))
    assert lines.encode(text) == _LINES.encode(text, add_special_tokens=False).ids
    assert len(calls) == 2 and len(calls[1]) == 30  # its lines, long pieces
    # A few pieces at a time (the list of characters stays bounded): the same ids.
    monkeypatch.setattr(encoding, "CUT_AT_ONCE", 7)
    lines = bpe_core.loads(_LINES.to_str().encode(), source="tokenizer.json")
    assert lines.encode(text) == _LINES.encode(text, add_special_tokens=False).ids
    assert list(map(len, calls[2:])) == [7, 7, 7, 7, 2]


def test_a_file_builds_its_cutter_at_load_and_a_trained_tokenizer_once_it_needs_it(monkeypatch):
    monkeypatch.setattr(encoding, "CUTTER_AFTER_CHARS", 100)
    loaded = bpe_core.loads(bytes_whole_text().to_str().encode(), source="tokenizer.json")
    assert isinstance(loaded._plan.cutter(0), Cutter)  # before any encode
    # ... and a renamed copy (the app names every tokenizer it loads) shares it, and its caches
    loaded.encode("中文字")
    twin = loaded.renamed("mine")
    assert twin._plan is loaded._plan and twin.view is loaded.view
    assert twin.name == "mine" and loaded.name != "mine"
    trained = bpe_core.train(CORPUS, unit="byte", max_merges=50)
    assert trained._plan.cutter(0) is None
    trained.encode("中文" * 10)  # 20 characters that could be cut: not worth a cutter yet
    assert trained._plan.cutter(0) is None
    trained.encode("中文" * 60)
    assert isinstance(trained._plan.cutter(0), Cutter)


def test_parts_are_cached_apart_from_pieces_and_the_cache_stays_bounded(monkeypatch):
    theirs = bytes_whole_text()
    ours = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    first, second = ("".join(random.Random(k).choices(WORDS, k=120)) for k in (1, 2))
    assert ours.encode(first) == theirs.encode(first, add_special_tokens=False).ids
    cache = ours._plan.cache(None)
    assert len(cache.parts) > 10 and all(p in first for p in cache.parts)
    assert len(first) >= LONG_PIECE_CHARS and not cache  # neither the text nor a part kept
    only_first = [p for p in cache.parts if p not in second]
    monkeypatch.setattr(encoding, "CACHE_PIECES", 10)
    assert ours.encode(second) == theirs.encode(second, add_special_tokens=False).ids
    # Over the bound, pieces and parts were forgotten before the second text: only its own.
    assert only_first and cache.parts and not set(only_first) & set(cache.parts)


def test_a_vocabulary_without_the_bytes_utf8_never_uses_still_reads_bytes_by_table():
    # GPT-NeoX's vocabulary (OLMo 1) has no token for bytes C0, C1 and F5-FF, which no UTF-8
    # text holds: its pieces still go through the byte table and the cutter, with the same ids.
    d = json.loads(bytes_whole_text().to_str())
    for b in encoding.NOT_UTF8:
        del d["model"]["vocab"][BYTE_CHARS[b]]
    theirs = HFTokenizer.from_str(json.dumps(d))
    ours = bpe_core.loads(json.dumps(d).encode(), source="tokenizer.json")
    assert ours._plan.byte_table is not None and isinstance(ours._plan.cutter(0), Cutter)
    for text in CORPUS[:10] + ["ÿ À õ 中文 🇫🇷", "\U0010ffff\x7f\x00"]:
        assert ours.encode(text) == theirs.encode(text).ids
    for b in (0x41, 0xC3, 0xF4):  # a byte UTF-8 uses must still have its token
        d2 = json.loads(json.dumps(d))
        del d2["model"]["vocab"][BYTE_CHARS[b]]
        d2["model"]["merges"] = []
        assert bpe_core.loads(json.dumps(d2).encode(), source="t.json")._plan.byte_table is None


def gemma_like() -> HFTokenizer:
    """Gemma's shape: merges learned within words (Metaspace), then read with no pre-tokenizer,
    spaces made "▁" and lines cut apart by an added newline: its pieces are lines, which
    ``Cutter.split_words`` cuts before each word."""
    tok = HFTokenizer(models.BPE(unk_token="<unk>", fuse_unk=True))
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    d = json.loads(_train(tok, special_tokens=["<unk>"]).to_str())
    d["pre_tokenizer"] = None
    d["normalizer"] = {"type": "Replace", "pattern": {"String": " "}, "content": "▁"}
    d["decoder"] = {"type": "Replace", "pattern": {"String": "▁"}, "content": " "}
    theirs = HFTokenizer.from_str(json.dumps(d))
    theirs.add_tokens([AddedToken("\n", normalized=False)])
    return theirs


_GEMMA = gemma_like()


#: Lines of words between spaces, which the normalizer makes "▁": enough of them to be cut
#: into words first; "ü" and "Ω" are in no vocabulary here.
SPACED_LINES = st.lists(st.sampled_from(WORDS + ["\n", "\n", "the quick brown fox", "zü", "Ω"]),
                        min_size=1, max_size=150).map(" ".join)


@pytest.mark.parametrize("name", ["sentencepiece", "sentencepiece, a byte missing"])
@given(text=SPACED_LINES)
@settings(max_examples=60, deadline=None)
def test_words_are_cut_only_where_a_piece_may_be_cut(name, text):
    # Before "▁" only, and never after a character a merge joins to "▁" (this model joins
    # many) nor, with a byte's token missing, after one that is not a token ("ü", "Ω").
    cutter = Cutter.for_characters(_MODELS[name])
    assert any(y == "▁" for _, y in cutter.joined)
    assert cutter.known is None or not {"ü", "Ω"} & cutter.known
    text = "▁" + text.replace(" ", "▁")  # (as Llama 2's normalizer has it)
    words, counts = cutter.split_words([text])
    assert "".join(words) == text and counts == [len(words)]
    ends = list(accumulate(map(len, words)))[:-1]
    assert set(ends) <= set(cutter.positions(text)) and all(text[e] == "▁" for e in ends)


@settings(max_examples=60, deadline=None)
@given(text=SPACED_LINES)
def test_lines_cut_into_words_first_give_the_ids_of_tokenizers(text):
    assert_ids_of(_GEMMA, text)


def test_lines_holding_every_separator_are_cut_at_every_place():
    # split_words marks its cuts with characters the text does not hold; with none left it
    # leaves the lines to split_all, which gives the same ids.
    lines = [f"▁the▁quick{chr(k)}▁brown▁fox▁▁▁jumps" for k in range(8)]
    assert Cutter.for_characters(_MODELS["sentencepiece"]).split_words(lines) is None
    assert Cutter.for_characters(_MODELS["sentencepiece"]).split_words(lines[2:]) is not None
    assert_ids_of(_GEMMA, "\n".join(lines * 40).replace("▁", " "))


def test_only_words_not_met_before_are_cut_at_every_place(split_all_calls):
    calls = split_all_calls
    ours = bpe_core.loads(_GEMMA.to_str().encode(), source="tokenizer.json")
    lines = [" ".join(random.Random(k).choices(WORDS[:6], k=8)) for k in range(30)]
    text = "\n".join(lines)
    assert ours.encode(text) == _GEMMA.encode(text, add_special_tokens=False).ids
    # The 30 lines are cut before each of their words, and only the distinct words go on.
    # (A line's first word has no "▁" before it.)
    words = {"▁" + w for w in WORDS[:6]} | set(WORDS[:6])
    assert len(calls) == 1 and len(calls[0]) == len(set(calls[0])) and set(calls[0]) <= words
    # New lines of the same words: nothing left to cut at every place.
    again = "\n".join(" ".join(random.Random(k).choices(WORDS[:6], k=9)) for k in range(30))
    assert ours.encode(again) == _GEMMA.encode(again, add_special_tokens=False).ids
    assert len(calls) == 1


def test_pieces_whose_words_are_mostly_new_go_on_without_cutting_into_words(monkeypatch):
    calls = []
    for name in ("split_all", "split_words"):
        method = getattr(Cutter, name)
        monkeypatch.setattr(Cutter, name, lambda self, pieces, name=name, method=method:
                            calls.append((name, len(pieces))) or method(self, pieces))
    monkeypatch.setattr(encoding, "CUT_AT_ONCE", 10)
    ours = bpe_core.loads(_GEMMA.to_str().encode(), source="tokenizer.json")
    rng = random.Random(5)
    text = "\n".join(" ".join("".join(rng.choices("bcefhiknoqrtuw", k=8)) for _ in range(6))
                     for _ in range(40))
    assert ours.encode(text) == _GEMMA.encode(text, add_special_tokens=False).ids
    # The first 10 lines are cut into 60 words, all new: the next 30 lines go on directly.
    assert calls == [("split_words", 10), ("split_all", 60), ("split_all", 10),
                     ("split_all", 10), ("split_all", 10)]
