"""Holding off Python's cyclic garbage collector during a burst of allocations.

The collector runs after every few hundred new container objects and, every so often, walks all
of them. Training builds hundreds of thousands of small lists, sets and tuples, and ``spans``
builds one object per token; none of them ever form a reference cycle, so those walks find
nothing and only cost time (a tenth of training a 10 MB corpus, half of the spans of a long
text). Objects are still freed by reference counting meanwhile.

>>> with gc_paused():
...     spans = [[i] for i in range(100_000)]
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def gc_paused(*, kept: bool = False) -> Iterator[None]:
    """Pause the cyclic collector for the ``with`` block (it stays off if it was off).

    ``kept``: the block makes objects that stay, such as the tables of a tokenizer being read.
    At its end, one collection of the young generations moves them to the oldest, which only
    full collections walk. Left young, they were walked twice by the first collections after,
    in the middle of the first long encode: Gemma 3 took 0.09 s more on its first 200 kB, and
    the collection here costs 0.03 s.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
    if kept:
        gc.collect(1)
