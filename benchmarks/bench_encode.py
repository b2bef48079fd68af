"""Encoding speed: bpe_core beside tiktoken, from the same ``.tiktoken`` rank file.

    python -m benchmarks.bench_encode [--repeat 3]

A byte-level tokenizer with the cl100k pre-tokenizer and a 50,000 vocabulary is trained on the
10.5 MB English corpus (once; kept in benchmarks/output/), saved as a ``.tiktoken`` file and
loaded back by both: ``tiktoken.Encoding(mergeable_ranks=load_tiktoken_bpe(file),
pat_str=cl100k)`` and ``bpe_core.load(file, pretokenizer="cl100k")``. Then, on the whole corpus:

* one thread: tiktoken's ``encode_ordinary`` against our ``encode``, the ids checked identical.
  Ours is timed twice: "cold" on a freshly loaded tokenizer (every distinct piece is encoded for
  the first time: looked up when it is a whole token, as tiktoken does, else merged) and "warm"
  on the same tokenizer again (pieces come from its cache);
* all cores: the corpus as its ~100,000 paragraphs, tiktoken's ``encode_ordinary_batch`` (a
  thread pool) against our ``encode_batch`` (worker processes), ids checked identical.

Figures are the best of ``--repeat`` runs, as throughput in MB of UTF-8 per second.
"""

from __future__ import annotations

import argparse

import bpe_core

from .common import CORES, Row, clock, report
from .corpus import OUTPUT, corpus_path, read_text

VOCAB = 50_000


def rank_file() -> str:
    """The 50k cl100k tokenizer as a .tiktoken file, trained on first use."""
    path = OUTPUT / "en-10mb-cl100k-50k.tiktoken"
    if not path.exists():
        print(f"training the {VOCAB:,} tokenizer (once)…", flush=True)
        tok = bpe_core.train(corpus_path("en-10mb"), VOCAB, pretokenizer="cl100k", unit="byte",
                             min_frequency=2)
        bpe_core.save(tok, path, format="tiktoken")
    return str(path)


def tiktoken_encoding(path: str):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    return tiktoken.Encoding("bench-50k", pat_str=bpe_core.PRESETS["cl100k"],
                             mergeable_ranks=load_tiktoken_bpe(path), special_tokens={})


def best(repeat: int, fn, *args):
    """Fastest of ``repeat`` calls: (seconds, result)."""
    return min((clock(fn, *args) for _ in range(repeat)), key=lambda r: r[0])


def fresh_runs(path: str, repeat: int, call, expected) -> list[float]:
    """Seconds of ``call(tok)`` on a freshly loaded tokenizer, ``repeat`` times; ids checked."""
    times = []
    for _ in range(repeat):
        tok = bpe_core.load(path, pretokenizer="cl100k")
        seconds, got = clock(call, tok)
        if got != expected:
            raise AssertionError("bpe_core and tiktoken disagree: the ids differ")
        times.append(seconds)
    return times


def measure(repeat: int) -> list[Row]:
    path = rank_file()
    text = read_text("en-10mb")
    mb = len(text.encode("utf-8")) / 1e6
    enc = tiktoken_encoding(path)
    tt_seconds, expected = best(repeat, enc.encode_ordinary, text)

    cold = fresh_runs(path, repeat, lambda tok: tok.encode(text), expected)
    tok = bpe_core.load(path, pretokenizer="cl100k")
    tok.encode(text)
    warm = best(repeat, tok.encode, text)[0]
    print(f"{len(tok.merges) + tok.n_base:,} tokens in the rank file; "
          f"{len(expected):,} tokens in the corpus")

    docs = [d for d in text.split("\n\n") if d]
    tt_batch, expected_batch = best(repeat, lambda: enc.encode_ordinary_batch(docs,
                                                                             num_threads=CORES))
    batch = fresh_runs(path, repeat, lambda tok: tok.encode_batch(docs), expected_batch)

    def row(what, peer_s, ours_s, target=None):
        ratio = peer_s / ours_s  # throughput ratio: ours / tiktoken's
        return Row(what, f"{mb / peer_s:.1f} MB/s", f"{mb / ours_s:.1f} MB/s", ratio,
                   f"≥ {target}× tiktoken" if target else "", ratio >= target if target else None)

    return [
        row("encode 10.5 MB, 1 thread, cold cache", tt_seconds, min(cold), 0.6),
        row("encode 10.5 MB, 1 thread, warm cache", tt_seconds, warm, 0.6),
        row(f"encode_batch {len(docs):,} texts, {CORES} cores, cold", tt_batch, min(batch)),
    ]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    report(lambda: measure(p.parse_args().repeat))


if __name__ == "__main__":
    main()
