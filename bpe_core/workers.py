"""Worker processes for counting and batch encoding, started the fastest way that is safe here.

>>> with worker_pool(2) as pool:
...     pool.map(abs, [-1, -2])
[1, 2]
>>> from bpe_core import train
>>> tok = train("hug pug", max_merges=1, min_frequency=1)
>>> encode_batch(tok, ["hug", "pug"], processes=2, options={}) == [tok.encode(t) for t in ("hug", "pug")]
True
"""

from __future__ import annotations

import os
import threading
from multiprocessing import get_context
from typing import Any, Iterable

#: Below this many characters, ``encode_batch`` does not start worker processes.
BATCH_PARALLEL_MIN_CHARS = 1 << 20


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


def encode_batch(tokenizer: Any, texts: Iterable[str], *, processes: int | None,
                 options: dict) -> list[list[int]]:
    """``[tokenizer.encode(t, **options) for t in texts]``, spread over ``processes`` (None: every
    core) when there is enough text to pay for starting them (about 1 MB)."""
    texts = list(texts)
    processes = (os.cpu_count() or 1) if processes is None else processes
    total = sum(map(len, texts))
    if processes < 2 or len(texts) < 2 or total < BATCH_PARALLEL_MIN_CHARS:
        return [tokenizer.encode(t, **options) for t in texts]
    # Batches of about equal text, several per process so that none waits for a slow one;
    # imap keeps their order.
    batches, batch, size, goal = [], [], 0, total / (4 * processes)
    for t in texts:
        batch.append(t)
        size += len(t)
        if size >= goal:
            batches.append(batch)
            batch, size = [], 0
    if batch:
        batches.append(batch)
    with worker_pool(processes, _batch_start, (tokenizer, options)) as pool:
        return [ids for done in pool.imap(_batch_encode, batches) for ids in done]


# encode_batch's workers: the tokenizer arrives once per process (inherited, with fork), not
# once per batch.
_batch_tokenizer: tuple[Any, dict] | None = None


def _batch_start(tokenizer: Any, options: dict) -> None:
    global _batch_tokenizer
    _batch_tokenizer = tokenizer, options


def _batch_encode(texts: list[str]) -> list[list[int]]:
    tokenizer, options = _batch_tokenizer
    return [tokenizer.encode(t, **options) for t in texts]
