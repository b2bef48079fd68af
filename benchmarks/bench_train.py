"""Training speed: bpe_core beside Hugging Face ``tokenizers`` and beside the textbook loop.

    python -m benchmarks.bench_train [--repeat 3]

Byte-level BPE, GPT-2 pre-tokenization, min_frequency 2, on the 10.5 MB English corpus
(``benchmarks/corpus.py``), vocab 2,000 and 32,000:

* Hugging Face: ``BpeTrainer`` with the ``ByteLevel`` pre-tokenizer, ``Tokenizer.train([file])``,
  at one thread (``RAYON_NUM_THREADS=1``) and at all cores;
* bpe_core: ``bpe_core.train(Path(file), ...)`` with ``processes=1`` and ``processes=None``.

Each figure is the best wall time of ``--repeat`` fresh processes, from the file on disk to the
finished tokenizer. Then the textbook baseline: ``reference_train`` (after every merge, recount
every pair over every occurrence of every word, as the textbooks and minbpe do) beside ``train``
on 1 MB up to vocab 400, both from the same word counts, with the merges checked to be identical.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from .common import CORES, Row, best_of, child, clock, emit, report
from .corpus import corpus_path

VOCABS = (2_000, 32_000)
TEXTBOOK_VOCAB = 400


def run_hf(path: Path, vocab: int) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(vocab_size=vocab, min_frequency=2, show_progress=False,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    seconds, _ = clock(tok.train, [str(path)], trainer)
    emit(seconds=seconds, vocab_size=tok.get_vocab_size())


def run_ours(path: Path, vocab: int, processes: int | None) -> None:
    import bpe_core

    seconds, tok = clock(bpe_core.train, path, vocab, min_frequency=2, unit="byte",
                         pretokenizer="gpt2", processes=processes)
    emit(seconds=seconds, vocab_size=tok.vocab_size)


def run_textbook(path: Path) -> None:
    import bpe_core
    from bpe_core.presets import GPT2_PATTERN

    # Both loops start from the same word counts: counting is the same work for both.
    count, words = clock(bpe_core.count_words, path, GPT2_PATTERN, processes=1)
    ours, tok = min((clock(bpe_core.train, words, TEXTBOOK_VOCAB, min_frequency=2, processes=1)
                     for _ in range(5)), key=lambda r: r[0])  # a tenth of a second: best of 5
    seconds, merges = clock(bpe_core.reference_train, words, min_frequency=2,
                            max_merges=TEXTBOOK_VOCAB - tok.n_base)
    same = merges == [(m.left_id, m.right_id, m.count) for m in tok.merges]
    emit(seconds=seconds, ours=ours, count=count, same=same, merges=len(merges))

def measure(repeat: int) -> list[Row]:
    big, small = str(corpus_path("en-10mb")), str(corpus_path("en-1mb"))
    me = "benchmarks.bench_train"
    rows = []
    for vocab in VOCABS:
        for cores, limit in ((1, 1.0), (CORES, 1.2)):
            hf = best_of(repeat, lambda: child(me, "hf", big, str(vocab), threads=cores))
            procs = "1" if cores == 1 else "all"
            ours = best_of(repeat, lambda: child(me, "ours", big, str(vocab), procs))
            ratio = ours["seconds"] / hf["seconds"]
            label = "1 core" if cores == 1 else f"{cores} cores"
            rows.append(Row(f"train 10.5 MB, vocab {vocab:,}, {label}", f"{hf['seconds']:.2f} s",
                            f"{ours['seconds']:.2f} s", ratio, f"≤ {limit}× HF",
                            ratio <= limit))
    tb = child(me, "textbook", small)
    if not tb["same"]:
        raise AssertionError("the textbook loop and train() disagree: run the property tests")
    speedup = tb["seconds"] / tb["ours"]
    rows.append(Row(f"train 1 MB, vocab {TEXTBOOK_VOCAB}: textbook loop, then ours (same word "
                    f"counts; counting them: {tb['count']:.2f} s)", f"{tb['seconds']:.1f} s",
                    f"{tb['ours']:.2f} s", speedup, "≥ 100× faster", speedup >= 100))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", nargs="?", default="all", choices=["all", "hf", "ours", "textbook"])
    p.add_argument("args", nargs="*")
    p.add_argument("--repeat", type=int, default=3, help="fresh runs per figure (best is kept)")
    a = p.parse_args()
    if a.mode == "hf":
        run_hf(Path(a.args[0]), int(a.args[1]))
    elif a.mode == "ours":
        run_ours(Path(a.args[0]), int(a.args[1]), None if a.args[2] == "all" else int(a.args[2]))
    elif a.mode == "textbook":
        run_textbook(Path(a.args[0]))
    else:
        report(lambda: measure(a.repeat))


if __name__ == "__main__":
    main()
