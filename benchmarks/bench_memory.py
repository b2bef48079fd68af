"""Memory: training on a 100 MB corpus, streamed from disk.

    python -m benchmarks.bench_memory

``bpe_core.train(Path("mixed-100mb.txt"), 32_000)`` in a fresh process (English, the
translations, other kernel text files and HTML pages: ``benchmarks/corpus.py``). The file is
read in parts and counted in that one process (a second one does not pay on 2 cores: see
"Training" in benchmarks/README.md), so memory holds the word counts, not the text. Printed:
wall time and the process's peak resident memory.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .common import Row, child, clock, emit, report
from .corpus import corpus_path

VOCAB = 32_000
LIMIT_MB = 2048


def run(path: Path) -> None:
    import bpe_core

    seconds, tok = clock(bpe_core.train, path, VOCAB)
    emit(seconds=seconds, vocab_size=tok.vocab_size)


def measure() -> list[Row]:
    r = child("benchmarks.bench_memory", "run", str(corpus_path("mixed-100mb")))
    return [Row(f"train 100 MB from disk, vocab {VOCAB:,}, one process ({r['seconds']:.0f} s)",
                "", f"peak RSS {r['peak_rss_mb']:.0f} MB", None, f"≤ {LIMIT_MB:,} MB",
                r["peak_rss_mb"] <= LIMIT_MB)]


def main() -> None:
    if sys.argv[1:2] == ["run"]:
        run(Path(sys.argv[2]))
        return
    report(measure)


if __name__ == "__main__":
    main()
