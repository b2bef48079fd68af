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
from array import array
from multiprocessing import get_context
from typing import Any, Iterable

#: Below this many characters, ``encode_batch`` does not start worker processes: each worker
#: encodes its share cold (its own piece cache) and starts in about 0.05 s, so on 2 cores two
#: processes are 0.8x as fast as one on 1 MB of English, 1.25-1.45x on 3-10 MB and 1.54x on
#: 40 MB (cl100k, an idle machine; on a busy one they are slower at any size).
BATCH_PARALLEL_MIN_CHARS = 16 << 20


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
    core) when there is enough text to pay for starting them (about 16 MB)."""
    texts = list(texts)
    processes = (os.cpu_count() or 1) if processes is None else processes
    total = sum(map(len, texts))
    if processes < 2 or len(texts) < 2 or total < BATCH_PARALLEL_MIN_CHARS:
        return [tokenizer.encode(t, **options) for t in texts]
    # Batches of about equal text, several per process so that none waits for a slow one;
    # imap keeps their order. A batch is a range of the texts, which the workers hold already
    # (inherited when forked), and comes back as one array of ids and one of lengths: pickling
    # lists of millions of ints cost more than the encoding the second process saved.
    bounds, size, goal = [0], 0, total / (4 * processes)
    for k, t in enumerate(texts, 1):
        size += len(t)
        if size >= goal:
            bounds.append(k)
            size = 0
    if bounds[-1] != len(texts):
        bounds.append(len(texts))
    out: list[list[int]] = []
    with worker_pool(processes, _batch_start, (tokenizer, options, texts)) as pool:
        for ids, lengths in pool.imap(_batch_encode, zip(bounds, bounds[1:])):
            ids, at = ids.tolist(), 0
            for n in lengths:
                out.append(ids[at:at + n])
                at += n
    return out


# encode_batch's workers: the tokenizer and the texts arrive once per process (inherited, with
# fork), not once per batch.
_batch_job: tuple[Any, dict, list[str]] | None = None


def _batch_start(tokenizer: Any, options: dict, texts: list[str]) -> None:
    global _batch_job
    _batch_job = tokenizer, options, texts


def _batch_encode(span: tuple[int, int]) -> tuple[array, array]:
    tokenizer, options, texts = _batch_job
    ids, lengths = array("I"), array("I")
    for t in texts[span[0]:span[1]]:
        done = tokenizer.encode(t, **options)
        ids.extend(done)
        lengths.append(len(done))
    return ids, lengths
