"""Run the performance benchmarks and print one table (Markdown, as the README shows it).

    python -m benchmarks [--repeat 3]

The corpora are built from Debian's linux-doc on first use (``benchmarks/corpus.py``).
A few minutes on 2 cores.
"""

from __future__ import annotations

import argparse
import time

from . import (bench_encode, bench_interactive, bench_load, bench_memory, bench_train,
               bench_train_page)
from .common import machine, table


def main() -> None:
    p = argparse.ArgumentParser(description="bpe_core beside Hugging Face tokenizers and tiktoken")
    p.add_argument("--repeat", type=int, default=3, help="runs per timed figure (best is kept)")
    a = p.parse_args()
    started = time.perf_counter()
    print(machine(), flush=True)
    rows = []
    for name, measure in (("training", lambda: bench_train.measure(a.repeat)),
                          ("encoding", lambda: bench_encode.measure(a.repeat)),
                          ("loading", lambda: bench_load.measure(a.repeat)),
                          ("interactive", bench_interactive.measure),
                          ("train page", bench_train_page.measure),
                          ("memory", bench_memory.measure)):
        print(f"… {name}", flush=True)
        rows += measure()
    print(table(rows))
    print(f"({time.perf_counter() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
