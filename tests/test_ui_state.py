"""The app's process-wide set-up in ui/state.py."""

import gc

from ui.shared import state


def test_startup_objects_are_frozen_once(monkeypatch):
    monkeypatch.setattr(state, "_startup_frozen", False)
    before = gc.get_freeze_count()
    made_at_startup = [[i] for i in range(1000)]
    try:
        state.freeze_startup_objects()
        frozen = gc.get_freeze_count()
        assert frozen >= before + len(made_at_startup)
        made_later = [[i] for i in range(1000)]
        state.freeze_startup_objects()  # a second session: nothing more is frozen
        # (Frozen objects that other threads drop meanwhile leave: the count may only fall.)
        assert gc.get_freeze_count() <= frozen and made_later
    finally:
        gc.unfreeze()


def test_a_corpus_text_is_kept_once_per_server_and_freed_with_its_last_holder():
    import gc

    text = "the same upload in two tabs " * 40_000
    first = state.make_corpus("mine", documents=[text + "!"])
    second = state.make_corpus("yours", documents=["".join([text, "!"])])  # an equal copy
    assert second.documents is first.documents and second.name == "yours"
    del first
    gc.collect()
    third = state.make_corpus("theirs", documents=["".join([text, "!"])])
    assert third.documents is second.documents  # the text lives while a session holds it
    digest = third.digest
    del second, third
    gc.collect()
    assert digest not in state.held_texts()  # nobody holds it: forgotten, its memory freed


def test_the_oldest_of_a_sessions_own_items_is_let_go_past_either_bound():
    sizes = {"first": 10, "second": 20, "third": 30, "fourth": 40}
    assert state.overflow(sizes, keep={"fourth"}, most=4, most_size=100) == []
    assert state.overflow(sizes, keep={"fourth"}, most=2) == ["first", "second"]
    assert state.overflow(sizes, keep={"fourth"}, most=9, most_size=75) == ["first", "second"]
    # What is kept (the active item, the new one) is never let go, even when it alone is over.
    assert state.overflow(sizes, keep={"first", "fourth"}, most=1) == ["second", "third"]
    assert state.overflow({"huge": 500}, keep={"huge"}, most=1, most_size=100) == []


def test_corpora_that_differ_only_where_a_document_ends_have_different_digests():
    # The digest keys the cached statistics and trained tokenizers: a NUL ending one document
    # hashed as the separator did, so these two corpora shared them (and word counts holding
    # the separators of the counts' hash shared them too).
    assert (state.make_corpus("a", documents=["hello\x00", "b"]).digest
            != state.make_corpus("b", documents=["hello", "\x00b"]).digest)
    assert (state.make_corpus("c", counts={"a\x005\x01b": 3}).digest
            != state.make_corpus("d", counts={"a": 5, "b": 3}).digest)
    assert (state.make_corpus("e", documents=["x"]).digest
            == state.make_corpus("f", documents=["x"]).digest)
