"""The fast encoding paths against plain ones: replayed merges, spans by hand, batches."""

import dataclasses
import functools
import gc
import itertools
import pickle
import sys
import threading
import weakref

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import normalizers, workers
from bpe_core.encoders import merge_pair
from bpe_core.presets import MODEL_PATTERNS, compile_pattern, piece_finder
from bpe_core.training import counting as words

CORPUS = ("lower lowest newer newest wider widest 你好你好 naïve naïve café 👩‍👩‍👧 aaaa aaa\n"
          "the cat's hat, the cat's mat; 12345 67890 — «quotes» ١٢٣\n") * 6
TEXT = st.text(alphabet="lowernstidaé你好👩\u200d ’'.,\n1234xyz", max_size=60)

TOKENIZERS = {
    "byte gpt2": dict(unit="byte", pretokenizer="gpt2"),
    "byte none": dict(unit="byte", pretokenizer="none"),
    "byte end-of-word": dict(unit="byte", pretokenizer="end-of-word"),
    "char end-of-word": dict(unit="char", pretokenizer="end-of-word"),
    "char byte-fallback": dict(unit="char", pretokenizer="space-prefix", byte_fallback=True),
}


@pytest.fixture(scope="module", params=sorted(TOKENIZERS))
def tok(request):
    return bpe_core.train(CORPUS, max_merges=120, min_frequency=2, processes=1,
                          **TOKENIZERS[request.param])


def replaying(tok, text):
    """The textbook encoder, one merge at a time: each piece with no merges, then with merge 0
    applied everywhere, then merge 1, ...: the ids after 0, 1, ... len(tok.merges) merges."""
    pieces = [list(tok.encode_piece(piece, upto=0)) for piece in tok.pre_tokenize(text)]
    yield [i for ids in pieces for i in ids]
    for m in tok.merges:
        pieces = [merge_pair(ids, (m.left_id, m.right_id), m.token_id) for ids in pieces]
        yield [i for ids in pieces for i in ids]


def replayed(tok, text, k):
    """The textbook encoder's ids after the first k merges."""
    return next(itertools.islice(replaying(tok, text), k, None))


@settings(max_examples=40)
@given(text=TEXT, data=st.data())
def test_upto_k_equals_replaying_the_first_k_merges(tok, text, data):
    k = data.draw(st.integers(0, len(tok.merges)))
    assert tok.encode(text, upto=k) == replayed(tok, text, k)
    assert tok.encode(text) == replayed(tok, text, len(tok.merges))


def test_every_k_on_the_training_text(tok):
    text = CORPUS[:200]
    fresh = dataclasses.replace(tok)
    # (Replayed once for all k: replaying each k from the start cost k merges every time.)
    for k, want in enumerate(replaying(tok, text)):
        assert fresh.encode(text, upto=k) == want, k


def spans_by_hand(tok, text, k):
    """Character extents of each token, from the bytes each token covers (byte units)."""
    data = text.encode()
    char_of = [i for i, ch in enumerate(text) for _ in ch.encode()] + [len(text)]
    starts = {0, len(data)} | {len(text[:i].encode()) for i in range(len(text))}
    out, pos = [], 0
    for i in tok.encode(text, upto=k):
        n = len(tok.token_bytes(i))
        lo, hi = pos, pos + n
        end = char_of[hi - 1] + 1 if hi > lo else char_of[lo]
        out.append((i, data[lo:hi], char_of[lo], end, not (lo in starts and hi in starts)))
        pos = hi
    return out


@functools.cache
def byte_level_gpt2():
    return bpe_core.train(CORPUS, max_merges=120, min_frequency=2, processes=1)


@settings(max_examples=40)
@given(text=TEXT, k=st.integers(0, 120))
def test_byte_level_spans_match_a_count_by_hand(text, k):
    # Trained once; each example a copy with empty caches, as a tokenizer trained anew.
    tok = dataclasses.replace(byte_level_gpt2())
    got = [(s.id, s.bytes, s.start, s.end, s.partial) for s in tok.spans(text, upto=k)]
    assert got == spans_by_hand(tok, text, k)


@settings(max_examples=40)  # (per tokenizer: 5 of them, 200 texts in all)
@given(text=TEXT)
def test_spans_cover_the_text_in_every_unit(tok, text):
    spans = tok.spans(text)
    assert [s.id for s in spans] == tok.encode(text)
    for s in spans:
        assert 0 <= s.start <= s.end <= len(text)
        if not s.partial and tok.unit == "byte" and s.bytes:
            assert text[s.start:s.end].encode() == s.bytes


def test_encode_batch_equals_encode_one_by_one(monkeypatch, tok):
    texts = [CORPUS[i:i + 37] for i in range(0, len(CORPUS), 37)] + ["", "<|x|> no special"]
    expected = [tok.encode(t, upto=50) for t in texts]
    assert tok.encode_batch(texts, upto=50, processes=1) == expected
    monkeypatch.setattr(workers, "BATCH_PARALLEL_MIN_CHARS", 0)
    assert tok.encode_batch(texts, upto=50, processes=2) == expected


def test_worker_processes_start_safely_from_a_thread(monkeypatch):
    # In the app, training and encoding run in Streamlit's threads: no fork there.
    monkeypatch.setattr(words, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(words, "CHUNK_CHARS", 200)
    monkeypatch.setattr(workers, "BATCH_PARALLEL_MIN_CHARS", 0)
    tok = bpe_core.train(CORPUS, max_merges=50, processes=1)
    texts = CORPUS.splitlines()
    results = {}

    def work():
        results["counts"] = words.count_words(CORPUS * 4, bpe_core.PRESETS["gpt2"], processes=2)
        results["ids"] = tok.encode_batch(texts, processes=2)

    thread = threading.Thread(target=work)
    thread.start()
    thread.join(timeout=120)
    assert results["counts"] == words.count_words(CORPUS * 4, bpe_core.PRESETS["gpt2"])
    assert results["ids"] == [tok.encode(t) for t in texts]


def test_sessions_encoding_with_many_merge_limits_at_once_share_the_caches_safely():
    # The app's sessions are threads sharing one tokenizer. Each merge limit (upto) gets a
    # cache of its own, a few kept: two threads that missed at once both forgot the same oldest
    # one (KeyError), or one while the other looked for it ('dictionary changed size during
    # iteration'). Threads switched as often as they can make it happen every time.
    tok = bpe_core.train(CORPUS, unit="char", pretokenizer="whitespace", max_merges=30,
                         min_frequency=1)
    want = {upto: tok.encode("lowest wider", upto=upto) for upto in range(25)}
    errors, wrong = [], []

    def work(seed: int) -> None:
        try:
            for i in range(2000):
                upto = (seed * 7 + i) % 25
                if tok.encode("lowest wider", upto=upto) != want[upto]:
                    wrong.append(upto)
        except Exception as exc:  # noqa: BLE001 (any of them fails the test below)
            errors.append(repr(exc))

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(6)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    finally:
        sys.setswitchinterval(interval)
    assert (errors, wrong) == ([], [])


# -- pre-tokenization: ASCII stretches through Python's `re`, the rest through `regex` --------

# Everything the presets and the models' patterns tell apart: each ASCII class, apostrophes,
# newlines, the Unicode spaces (NEL, NBSP, ideographic), letters and marks of other scripts,
# digits of others, punctuation, kana, emoji.
MIXED = st.text(alphabet=st.one_of(
    st.characters(max_codepoint=127),
    st.sampled_from("'’sStTdDmM llL\r\n\t  \x0b\x0c\x1c\x85\xa0\u2028\u3000éÉßſKİ"
                    "你好ăẮ\u0301\u0915\u093f١٢٣²½Ⅻ👩\u200d🦰\U0001F600\u200b\u202e"
                    "—«»。カなǅ")),
    max_size=120)


# Whole fragments, so that runs of ASCII and Unicode spaces meet often.
FRAGMENTS = st.lists(st.sampled_from(
    [" ", "  ", "\n", "\r\n", "\t", "\xa0", "\u3000", "\x85", "\u2028", "é", "Naïve", "word",
     "'s", "'LL", "12345", "你好", "カナ", "١٢", "--", "/", "!?", "—", "👩\u200d🦰"]),
    max_size=30).map("".join)


# Our presets and the well-known models' patterns: each has an ASCII twin.
TRUSTED = {**bpe_core.PRESETS, **MODEL_PATTERNS}


@settings(max_examples=500)
@given(text=st.one_of(MIXED, FRAGMENTS), preset=st.sampled_from(sorted(TRUSTED)))
def test_piece_finder_gives_exactly_the_regex_pieces(text, preset):
    pattern = TRUSTED[preset]
    expected = compile_pattern(pattern).findall(text)
    assert piece_finder(pattern)(text) == expected
    # The same text inside a long ASCII one: cut into stretches, not taken whole.
    padded = "plain words here " * 5 + text + " and more plain words" * 5
    assert piece_finder(pattern)(padded) == compile_pattern(pattern).findall(padded)


@pytest.mark.parametrize("text", ["é\xa0 \nb", "x é\u3000  \n\nb c", "é\x85 \n", "a \xa0 b",
                                  "cd  \xa0 ef", "\xa0  é", "é\n\xa0\n  x"])
def test_stretches_are_cut_only_where_pieces_end(text):
    # Unicode spaces beside ASCII ones: a cut after a space would split a run of spaces.
    text = "plain words " * 3 + text + " more plain words"
    for preset, pattern in TRUSTED.items():
        assert piece_finder(pattern)(text) == compile_pattern(pattern).findall(text), preset


def test_every_ascii_character_pair_splits_as_in_regex():
    chars = [chr(c) for c in range(128)]
    text = " ".join(a + b + a for a in chars for b in chars)
    for preset, pattern in TRUSTED.items():
        assert piece_finder(pattern)(text) == compile_pattern(pattern).findall(text), preset


def test_a_custom_regex_is_left_to_regex_with_a_time_limit():
    for pattern in (r"\w+", r"(?:\w\w?)+"):
        find = piece_finder(pattern)
        assert find.args == (compile_pattern(pattern),)  # bounded, without an ASCII twin
        assert find("naïve a_b") == ["naïve", "a_b"]


# -- tokenizers loaded from rank files look whole tokens up, as tiktoken does -------------------

@pytest.fixture(scope="module")
def from_rank_file():
    trained = bpe_core.train(CORPUS * 3, max_merges=200, min_frequency=2, pretokenizer="cl100k")
    loaded = bpe_core.loads(bpe_core.dumps(trained, format="tiktoken"),
                            pretokenizer="cl100k")
    merging = dataclasses.replace(loaded, model=dataclasses.replace(loaded.model,
                                                                   ignore_merges=False))
    return loaded, merging


def test_every_token_of_a_rank_file_merges_to_itself(from_rank_file):
    loaded, merging = from_rank_file
    assert loaded.ignore_merges and not merging.ignore_merges
    for i in loaded.ids():
        data = loaded.token_bytes(i)
        try:
            text = data.decode()
        except UnicodeDecodeError:
            continue  # part of a character: never a whole piece
        if loaded.pre_tokenize(text) == [text]:
            assert merging.encode_piece(text) == (i,) == loaded.encode_piece(text)


@given(text=TEXT, k=st.integers(0, 200))
def test_whole_token_lookup_changes_no_id(from_rank_file, text, k):
    loaded, merging = from_rank_file
    assert loaded.encode(text) == merging.encode(text)
    assert loaded.encode(text, upto=k) == merging.encode(text, upto=k)


# -- the encoding cache -------------------------------------------------------------------------

def test_a_tokenizer_pickles_without_its_caches_and_encodes_the_same(tok):
    tok.encode(CORPUS, upto=30)
    tok.encode(CORPUS)
    again = pickle.loads(pickle.dumps(tok))
    assert again._plan._caches == {} and tok._plan._caches
    assert again.encode(CORPUS, upto=30) == tok.encode(CORPUS, upto=30)
    assert again.spans(CORPUS) == tok.spans(CORPUS)


def test_a_dropped_tokenizer_is_freed_at_once():
    tok = bpe_core.train(CORPUS, max_merges=20)
    tok.encode(CORPUS, upto=5)
    tok.encode(CORPUS)
    ref = weakref.ref(tok)
    gc.disable()  # freed by reference counting alone: the caches make no cycle
    try:
        del tok
        assert ref() is None
    finally:
        gc.enable()


NORMALIZERS = [normalizers.NFC(), normalizers.NFD(), normalizers.NFKC(), normalizers.NFKD(),
               normalizers.Lowercase(), normalizers.Replace(" ", "▁"),
               normalizers.Replace("e\u0301", "x"), normalizers.Replace(r"\s+", " ", True),
               normalizers.Replace(r"e$", "E", True),
               normalizers.Prepend("▁"), normalizers.Strip(),
               normalizers.Sequence([normalizers.NFKD(), normalizers.Replace("̈", "")]),
               normalizers.Sequence([normalizers.NFC(), normalizers.Strip()])]
# Characters that compose, decompose, reorder or change case beside one another.
MARKS = st.text(alphabet="aeAΣß \u0301\u0308\u0323\u1100\u1161\u11a8ﬁ\x00İ", max_size=8)


# 40 lists per normalizer: the 13 normalizers multiply them (520 lists of up to 6 texts in all).
@pytest.mark.parametrize("normalizer", NORMALIZERS, ids=repr)
@settings(max_examples=40)
@given(texts=st.lists(MARKS, max_size=6))
def test_texts_normalized_at_once_are_each_normalized_on_its_own(normalizer, texts):
    assert (normalizers.normalize_all(normalizer, texts)
            == [normalizer.normalize_str(t) for t in texts])
