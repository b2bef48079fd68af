"""The fast encoding paths against plain ones: replayed merges, spans by hand, batches."""

import threading

import pytest
from hypothesis import given, settings, strategies as st

import bpe_core
from bpe_core import tokenizer as tokenizer_module, words
from bpe_core.reference import merge_pair

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


def replayed(tok, text, k):
    """The textbook encoder: apply merge 0 everywhere, then merge 1, ... up to merge k-1."""
    out = []
    for piece in bpe_core.split(text, tok.pattern):
        ids = tok.base.symbols(piece)
        for m in tok.merges[:k]:
            ids = merge_pair(ids, (m.left_id, m.right_id), m.token_id)
        out += ids
    return out


@settings(max_examples=40)
@given(text=TEXT, data=st.data())
def test_upto_k_equals_replaying_the_first_k_merges(tok, text, data):
    k = data.draw(st.integers(0, len(tok.merges)))
    assert tok.encode(text, upto=k) == replayed(tok, text, k)
    assert tok.encode(text) == replayed(tok, text, len(tok.merges))


def test_every_k_on_the_training_text(tok):
    text = CORPUS[:200]
    fresh = bpe_core.Tokenizer(tok.base, tok.merges, pattern=tok.pattern,
                               pretokenizer=tok.pretokenizer)
    for k in range(len(tok.merges) + 1):
        assert fresh.encode(text, upto=k) == replayed(tok, text, k), k


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


@settings(max_examples=40)
@given(text=TEXT, k=st.integers(0, 120))
def test_byte_level_spans_match_a_count_by_hand(text, k):
    tok = bpe_core.train(CORPUS, max_merges=120, min_frequency=2, processes=1)
    got = [(s.id, s.bytes, s.start, s.end, s.partial) for s in tok.spans(text, upto=k)]
    assert got == spans_by_hand(tok, text, k)


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
    monkeypatch.setattr(tokenizer_module, "_BATCH_PARALLEL_MIN_CHARS", 0)
    assert tok.encode_batch(texts, upto=50, processes=2) == expected


def test_worker_processes_start_safely_from_a_thread(monkeypatch):
    # In the app, training and encoding run in Streamlit's threads: no fork there.
    monkeypatch.setattr(words, "PARALLEL_MIN_CHARS", 0)
    monkeypatch.setattr(words, "CHUNK_CHARS", 200)
    monkeypatch.setattr(tokenizer_module, "_BATCH_PARALLEL_MIN_CHARS", 0)
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
