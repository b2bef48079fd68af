"""The Train page's live run on long pieces: step tables, merges per second, SuperBPE's stage 2.

    python -m benchmarks.bench_train_page

With the "none" pre-tokenizer a piece is a whole document. The step tables of a step come from
the trainer's own segmentation (``Trainer.segmentation``), so a step costs the corpus's length
in tokens; they used to encode every piece again with the first k merges. Measured here, wall
time:

* the step tables of one 30 KB and one 60 KB piece (the English sample essays, cut), byte-level,
  after k = 0, 1, 10, 100, 250, 499 and 500 of 500 merges (median of 5 per k, the worst k);
* the default corpus (24 essays, 230 KB) with "none" to a vocabulary of 1,000: merges per second
  of the run alone, and one "Step" as the page does it (a merge, its tables, the tables' frames;
  median of 20);
* one 1 MB piece (``en-1mb`` under "none"): starting the run (counting, the pair bookkeeping) and
  its first 200 merges, which were quadratic in the piece's length (a scan of the piece per
  distinct pair; a move of its tail per merge site);
* one 10 KB and one 200 KB piece (the start of ``en-1mb``) under "none": ``train`` to 500 merges,
  and a watched run to 500 merges with its worst step tables (k as above); a piece 20 times
  longer must cost at most ~25 times as much (no quadratic path);
* SuperBPE's stage 2 from the run's stage 1 on ``en-10mb`` (vocabulary 32,000, transition
  28,800) when the corpus is built (``benchmarks/corpus.py``): its time and the longest wait
  between two progress reports, which is also how late a closed session stops it.
"""

from __future__ import annotations

import statistics
import time

import bpe_core
from bpe_core.training.steps import step_tables
from ui.shared.samples import samples
from ui.shared.state import make_corpus
from ui.shared.wording import units
from ui.train import runs, tables

from .common import Row, clock, report
from .corpus import DOC, corpus_path

STEPS = (0, 1, 10, 100, 250, 499, 500)
TARGET_MS = 250  # "well under a second"


def english() -> list[str]:
    return samples()["english"].documents()


def piece_tables(chars: int) -> Row:
    piece = "\n\n".join(english())[:chars]
    trainer = bpe_core.Trainer(max_merges=500, unit="byte", pretokenizer="none")
    list(trainer.run([piece]))
    tok = trainer.tokenizer
    worst = max(statistics.median(clock(step_tables, trainer, k, tokenizer=tok)[0]
                                  for _ in range(5)) for k in STEPS) * 1000
    return Row(f"step tables of one {chars // 1000} KB piece (\"none\"), worst of k in "
               f"{', '.join(map(str, STEPS))}", "", f"{worst:.0f} ms", None,
               f"< {TARGET_MS} ms", worst < TARGET_MS)


def settings(**over) -> dict:
    return {"transition": None, "unit": "byte", "pretokenizer": "none", "min_frequency": 2,
            "tie_break": "first", "special_tokens": (), "byte_fallback": False,
            "vocab_size": 1000, "max_merges": None, "name": "bench", **over}


def default_corpus() -> list[Row]:
    corpus = make_corpus("English essays", documents=english())
    run = runs.start(corpus, settings())
    seconds, _ = clock(run.finish)
    rate = run.at / seconds
    run = runs.start(corpus, settings())
    run.goal = 100
    run.drive()

    def step():
        run.goal = run.at + 1  # what the Step button asks for
        run.drive()
        t = run.tables(run.at)
        limit = None if run.is_small() else tables.TOP_ROWS
        tables.words_frame(t, limit, pieces=units("none")), tables.pairs_frame(t, limit)
        tables.frequencies_frame(t, limit)

    ms = statistics.median(clock(step)[0] for _ in range(20)) * 1000
    return [Row("default corpus with \"none\" (230 KB in 24 pieces): merges per second, run alone",
                "", f"{rate:,.0f} merges/s", None, "", None),
            Row("default corpus with \"none\": one Step (merge + step tables + their frames)", "",
                f"{ms:.0f} ms", None, f"< {TARGET_MS} ms", ms < TARGET_MS)]


def one_long_piece() -> list[Row]:
    if not DOC.is_dir():
        return []
    text = corpus_path("en-1mb").read_text(encoding="utf-8")
    trainer = bpe_core.Trainer(max_merges=200, unit="byte", pretokenizer="none")
    start, merges = clock(trainer.run, [text])
    seconds, _ = clock(list, merges)
    return [Row("one 1 MB piece (\"none\"): start a run (count, pair bookkeeping)", "",
                f"{start:.2f} s", None, "< 1 s", start < 1),
            Row("one 1 MB piece (\"none\"): its first 200 merges", "",
                f"{200 / seconds:.0f} merges/s", None, "", None)]


def piece_scaling() -> list[Row]:
    if not DOC.is_dir():
        return []
    text = corpus_path("en-1mb").read_text(encoding="utf-8")
    small, large = 10_000, 200_000

    def fit(chars: int) -> float:
        return min(clock(bpe_core.train, [text[:chars]], max_merges=500, pretokenizer="none")[0]
                   for _ in range(3))

    def watched(chars: int) -> float:
        trainer = bpe_core.Trainer(max_merges=500, unit="byte", pretokenizer="none")
        seconds, _ = clock(list, trainer.run([text[:chars]]))
        tok = trainer.tokenizer
        return seconds + max(clock(step_tables, trainer, k, tokenizer=tok)[0] for k in STEPS)

    rows = []
    for what, cost in (("train() to 500 merges", fit),
                       ("a watched run to 500 merges + its worst step tables", watched)):
        a, b = cost(small), cost(large)
        rows.append(Row(f"one piece (\"none\"), {what}: 10 KB, then 200 KB", f"{a:.3f} s",
                        f"{b:.3f} s", b / a, "≤ 25× (20× the text)", b / a <= 25))
    return rows


def superbpe_stage2() -> list[Row]:
    if not DOC.is_dir():
        return []
    text = corpus_path("en-10mb").read_text(encoding="utf-8")
    corpus = make_corpus("en-10mb", documents=[text])
    run = runs.start(corpus, settings(pretokenizer="gpt2", vocab_size=32_000, transition=28_800))
    run.finish()
    gaps, last = [], [time.perf_counter()]

    def progress(*_):
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    seconds, _ = clock(run.run_stage2, progress)
    gaps.append(time.perf_counter() - last[0])
    return [Row(f"SuperBPE stage 2 on en-10mb ({len(gaps) - 1} progress reports)", "",
                f"{seconds:.1f} s, longest gap {max(gaps):.2f} s", None, "gap < 3 s",
                max(gaps) < 3)]


def measure() -> list[Row]:
    return [piece_tables(30_000), piece_tables(60_000), *default_corpus(), *one_long_piece(),
            *piece_scaling(), *superbpe_stage2()]


def main() -> None:
    report(measure)


if __name__ == "__main__":
    main()
