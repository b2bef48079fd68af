"""gc_paused: the collector is off in the block, and what the block made is not left young."""

import gc

import pytest

from bpe_core.gc_pause import MANY_OBJECTS, gc_paused


def _generation(obj) -> int:
    return next(g for g in range(3) if any(o is obj for o in gc.get_objects(generation=g)))


@pytest.fixture
def collector_off():
    """Nothing frozen, and no collection set off by another thread while a test looks."""
    gc.unfreeze()  # (into the oldest generation, where a full collection would put them too)
    gc.collect()
    gc.disable()
    yield
    gc.unfreeze()
    gc.enable()


def test_the_collector_is_off_inside_and_back_as_it_was_after():
    was_on = gc.isenabled()
    with gc_paused():
        assert not gc.isenabled()
    assert gc.isenabled() == was_on
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        if was_on:
            gc.enable()


def test_many_new_objects_go_to_the_oldest_generation_without_a_collection(collector_off):
    collections = []
    gc.callbacks.append(lambda phase, info: collections.append(info["generation"]))
    try:
        with gc_paused():
            made = [[i] for i in range(MANY_OBJECTS + 1)]
        assert collections == []  # none of them walked
        assert gc.get_count()[0] < 5 and _generation(made) == 2 and _generation(made[-1]) == 2
        assert gc.get_freeze_count() == 0
        with gc_paused():
            few = [[i] for i in range(100)]
        assert _generation(few) == 0  # a collection of a few young objects costs next to nothing
    finally:
        gc.callbacks.pop()


def test_objects_someone_froze_stay_frozen(collector_off):
    gc.freeze()  # as the app does with what it made at start-up
    frozen = gc.get_freeze_count()
    with gc_paused():
        young = [[i] for i in range(MANY_OBJECTS + 1)]
    assert gc.get_freeze_count() == frozen and _generation(young) == 0
    with gc_paused(kept=True):  # a tokenizer being read: one young collection moves it
        kept = [[i] for i in range(100)]
    assert gc.get_freeze_count() == frozen and _generation(kept) == 2
