"""What the benchmark scripts share: fresh-process measurements, best-of-N timing, the table.

Every timed run happens in a fresh Python process, for three reasons: Hugging Face's thread pool
reads ``RAYON_NUM_THREADS`` once per process, peak memory is per process, and no run inherits a
warm cache from the one before it.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORES = os.cpu_count() or 1


def child(module: str, *args: str, threads: int | None = None, timeout: float = 1800) -> dict:
    """Run ``python -m module args`` in a fresh process; it prints one JSON object last.

    ``threads`` pins Hugging Face's Rayon pool (``RAYON_NUM_THREADS``); None leaves it at all
    cores.
    """
    env = dict(os.environ, PYTHONPATH=str(ROOT), TOKENIZERS_PARALLELISM="true")
    env.pop("RAYON_NUM_THREADS", None)
    if threads is not None:
        env["RAYON_NUM_THREADS"] = str(threads)
    r = subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{module} {' '.join(args)} failed:\n{r.stderr}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def emit(**figures) -> None:
    """The child's side of :func:`child`: its figures, with its own peak RSS."""
    figures["peak_rss_mb"] = peak_rss_mb()
    print(json.dumps(figures))


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB.

    On Linux it is VmHWM, the peak of this program's own memory. ``getrusage``'s ``ru_maxrss``
    is not: a process forked from another starts with that one's peak, and keeps it across
    exec, so a child of a large ``python -m benchmarks`` reported the parent's 2.7 GB.
    """
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024  # kB
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux


def best_of(n: int, run) -> dict:
    """Call ``run()`` (which returns a dict with "seconds") n times; keep the fastest."""
    return min((run() for _ in range(n)), key=lambda r: r["seconds"])


def clock(fn, *args, **kwargs):
    """``(seconds, result)`` of one call, wall time."""
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - start, result


@dataclass
class Row:
    """One line of the results table: what was measured, the peer's figure and ours."""

    what: str
    peer: str  # the peer's figure, formatted ("4.61 s", "12.3 MB/s"), or "" when none
    ours: str
    ratio: float | None  # ours / peer in the direction the target is stated
    target: str
    met: bool | None = None

    def cells(self) -> list[str]:
        ratio = "" if self.ratio is None else f"{self.ratio:.2f}×"
        met = {True: "yes", False: "**no**", None: ""}[self.met]
        return [self.what, self.peer, self.ours, ratio, self.target, met]


HEADER = ["measurement", "peer", "bpe_core", "ratio", "target", "met"]


def table(rows: list[Row]) -> str:
    """A Markdown table (it reads fine in a terminal too)."""
    lines = [HEADER] + [r.cells() for r in rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(HEADER))]
    out = []
    for k, line in enumerate(lines):
        out.append("| " + " | ".join(c.ljust(w) for c, w in zip(line, widths)) + " |")
        if k == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(out)


def machine() -> str:
    """One line about where the figures come from."""
    load = os.getloadavg()[0]
    import platform

    return (f"{CORES} cores, Python {platform.python_version()}, "
            f"load average {load:.1f} at the start")


def report(measure) -> None:
    """What a benchmark script prints: the machine, the table of ``measure()``, the time taken."""
    print(machine(), flush=True)
    started = time.perf_counter()
    print(table(measure()))
    print(f"({time.perf_counter() - started:.0f} s)")
