"""gc_paused: the collector is off in the block, and what the block made is not left young."""

import gc

import pytest

from bpe_core.gc_pause import gc_paused


def _generation(obj) -> int:
    return next(g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g)))


@pytest.fixture
def nothing_frozen():
    gc.unfreeze()  # (into the oldest generation, where a full collection would put them too)
    yield
    assert gc.get_freeze_count() == 0


def test_the_collector_is_off_inside_and_back_on_after(nothing_frozen):
    assert gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()


def test_what_the_block_made_goes_to_the_oldest_generation_without_a_collection(nothing_frozen):
    collections = []
    gc.callbacks.append(lambda phase, info: collections.append(info["generation"]))
    try:
        with gc_paused():
            made = [[i] for i in range(5_000)]
        assert collections == []  # no walk, even though 5,000 containers are new
        assert gc.get_count()[0] < 5 and _generation(made) == 2 and _generation(made[-1]) == 2
    finally:
        gc.callbacks.pop()


def test_objects_someone_froze_stay_frozen(nothing_frozen):
    gc.freeze()  # as the app does with what it made at start-up
    frozen = gc.get_freeze_count()
    try:
        gc.collect()  # (counts back to 0: the hundred lists below set off no collection)
        with gc_paused():
            young = [[i] for i in range(100)]
        assert gc.get_freeze_count() == frozen and _generation(young) == 0
        with gc_paused(kept=True):  # a tokenizer being read: one young collection moves it
            kept = [[i] for i in range(100)]
        assert gc.get_freeze_count() == frozen and _generation(kept) == 2
    finally:
        gc.unfreeze()
