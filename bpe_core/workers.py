"""Worker processes for counting and batch encoding, started the fastest way that is safe here.

>>> with worker_pool(2) as pool:
...     pool.map(abs, [-1, -2])
[1, 2]
"""

from __future__ import annotations

import os
import threading
from multiprocessing import get_context


def worker_pool(processes: int, initializer=None, initargs=()):
    """A pool of worker processes.

    Forked when this process runs a single thread: nothing to start or import again. Otherwise
    from a fork server, because the app runs inside Streamlit's threaded server, and a process
    forked from a threaded one can deadlock on a lock that another thread held.
    """
    if os.name == "nt":
        method = "spawn"
    else:
        method = "fork" if threading.active_count() == 1 else "forkserver"
    return get_context(method).Pool(processes, initializer, initargs)
