"""Memory: training on a 100 MB corpus, streamed from disk.

    python -m benchmarks.bench_memory

``bpe_core.train(Path("mixed-100mb.txt"), 32_000, processes=None)`` in a fresh process (English,
the translations, other kernel text files and HTML pages: ``benchmarks/corpus.py``). The file is
read in ~1 MB parts and counted by worker processes, so memory holds the word counts, not the
text. Printed: wall time, the peak resident memory of the main process and of the largest
worker, and their worst-case total (main + every worker at its peak at once).
"""

from __future__ import annotations

import resource
import sys
from pathlib import Path

from .common import CORES, Row, child, clock, emit, report
from .corpus import corpus_path

VOCAB = 32_000
LIMIT_MB = 2048


def run(path: Path) -> None:
    import bpe_core

    seconds, tok = clock(bpe_core.train, path, VOCAB, processes=None)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    emit(seconds=seconds, vocab_size=tok.vocab_size, worker_rss_mb=workers)


def measure() -> list[Row]:
    r = child("benchmarks.bench_memory", "run", str(corpus_path("mixed-100mb")))
    total = r["peak_rss_mb"] + CORES * r["worker_rss_mb"]
    return [Row(f"train 100 MB from disk, vocab {VOCAB:,}, {CORES} processes ({r['seconds']:.0f} s)",
                "", f"{r['peak_rss_mb']:.0f} MB main + {CORES} × {r['worker_rss_mb']:.0f} MB "
                f"workers ≤ {total:.0f} MB", None, f"≤ {LIMIT_MB:,} MB", total <= LIMIT_MB)]


def main() -> None:
    if sys.argv[1:2] == ["run"]:
        run(Path(sys.argv[2]))
        return
    report(measure)


if __name__ == "__main__":
    main()
