"""Peak proportional memory (PSS) of a process and its children, watched from the outside.

    watcher = PssWatch.start()   # in the process to watch, before the work
    ...                          # the work, which may start worker processes
    peak_mb = watcher.stop()

RSS counts a page once per process that maps it, so a forked worker, which shares most of its
parent's memory until it writes to it, looks like a second copy. PSS divides each shared page
between the processes sharing it, so their sum is what the machine holds. Linux reports it in
``/proc/<pid>/smaps_rollup``. The watcher is a separate process (``python -m benchmarks.pss
<pid>``): a thread in the watched process would change how it starts workers (see
``bpe_core/workers.py``: forked only from a single-threaded process).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += map(int, (task / "children").read_text().split())
        except OSError:
            pass
    return kids


def _pss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def watch(pid: int, every: float = 0.05) -> None:
    """Sample until SIGTERM, then print the peak PSS sum in MB as JSON."""
    peak, stopped = 0.0, False

    def stop(*_):
        nonlocal stopped
        stopped = True

    signal.signal(signal.SIGTERM, stop)
    while not stopped:
        peak = max(peak, sum(map(_pss_mb, [pid, *_children(pid)])))
        time.sleep(every)
    print(json.dumps({"peak_pss_mb": peak}), flush=True)


class PssWatch:
    def __init__(self, proc: subprocess.Popen):
        self.proc = proc

    @classmethod
    def start(cls) -> "PssWatch":
        import os

        proc = subprocess.Popen([sys.executable, "-m", "benchmarks.pss", str(os.getpid())],
                                stdout=subprocess.PIPE, text=True)
        time.sleep(0.2)  # its first sample, before the work starts
        return cls(proc)

    def stop(self) -> float:
        self.proc.terminate()
        out, _ = self.proc.communicate(timeout=30)
        return json.loads(out)["peak_pss_mb"]


if __name__ == "__main__":
    watch(int(sys.argv[1]))
