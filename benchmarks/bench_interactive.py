"""The app's interactive path: replaying training steps on a passage.

    python -m benchmarks.bench_interactive

When the Train page's slider moves to step k, the page re-encodes its passage with ``upto=k``
and draws every token from ``spans(upto=k)``. Here a byte-level GPT-2-style tokenizer with a
32,000 vocabulary (trained on the 10.5 MB corpus) replays 10,000 characters, English and then
Chinese (the zh_CN translation), at 30 steps k spread over 0 .. 31,744 (the ends, powers of ten
and random ones), each k new to the tokenizer: ``encode(text, upto=k)`` + ``spans(text,
upto=k)`` per k, wall time. The first view (a fresh tokenizer, all merges) is timed too.

As in the app (``ui/state.py``), the objects made at start-up are frozen out of the garbage
collector's passes first; the tokenizer is trained after that, as a user's would be, so a full
collection landing on a step walks it and is counted (a millisecond or so: its merges are arrays,
not 32,000 objects; see ``bpe_core/merges.py``).
"""

from __future__ import annotations

import dataclasses
import gc
import random
import statistics

import bpe_core

from .common import Row, clock, report
from .corpus import corpus_path, read_text, translation

VOCAB = 32_000
CHARS = 10_000
TARGET_MS = 50


def steps(n_merges: int, count: int = 30) -> list[int]:
    fixed = [0, 1, 10, 100, 1_000, 10_000, n_merges // 2, n_merges - 1, n_merges]
    rng = random.Random(4)
    return fixed + [rng.randrange(n_merges) for _ in range(count - len(fixed))]


class FullCollections:
    """Counts CPython's full (generation 2) garbage collections while it is installed."""

    def __init__(self):
        self.n = 0

    def __call__(self, phase: str, info: dict) -> None:
        if phase == "start" and info["generation"] == 2:
            self.n += 1


def replay(tok: bpe_core.Tokenizer, text: str) -> tuple[float, list[tuple[float, bool]]]:
    """(first view ms, [(ms, a full collection ran meanwhile) per new k])."""
    full = FullCollections()

    def view(k):
        before = full.n
        ms = clock(lambda: (tok.encode(text, upto=k), tok.spans(text, upto=k)))[0] * 1000
        return ms, full.n > before

    gc.callbacks.append(full)
    try:
        first = view(None)[0]
        return first, [view(k) for k in steps(len(tok.merges))]
    finally:
        gc.callbacks.remove(full)


def measure() -> list[Row]:
    gc.collect()
    gc.freeze()  # what the app does once it has started: see ui/state.freeze_startup_objects
    seconds, tok = clock(bpe_core.train, corpus_path("en-10mb"), VOCAB, processes=None)
    print(f"(trained the {VOCAB:,} tokenizer in {seconds:.1f} s)")
    english = read_text("en-10mb")[5_000_000:5_000_000 + CHARS]
    chinese = translation("zh_CN", CHARS)
    gc.collect()
    rows = []
    for name, text in (("English", english), ("Chinese", chinese)):
        fresh = dataclasses.replace(tok)  # the same stages, its caches empty
        first, per_k = replay(fresh, text)
        n_tokens = len(fresh.encode(text))
        times = [ms for ms, _ in per_k]
        worst = max(times)
        gc_steps = [ms for ms, full in per_k if full]
        note = (f"; {len(gc_steps)} with a full GC pass, {max(gc_steps):.0f} ms" if gc_steps
                else "")
        clean = max((ms for ms, full in per_k if not full), default=worst)
        rows.append(Row(f"replay 10,000 chars {name} ({n_tokens:,} tokens), new upto=k, "
                        f"{len(per_k)} steps", "", f"worst {worst:.0f} ms, median "
                        f"{statistics.median(times):.0f}, worst without a full GC "
                        f"{clean:.0f}{note}", None, f"< {TARGET_MS} ms", worst < TARGET_MS))
        rows.append(Row(f"first view 10,000 chars {name}, fresh tokenizer", "",
                        f"{first:.0f} ms", None, f"< {TARGET_MS} ms", first < TARGET_MS))
    return rows


def main() -> None:
    report(measure)


if __name__ == "__main__":
    main()
