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
        assert gc.get_freeze_count() == frozen and made_later
    finally:
        gc.unfreeze()
