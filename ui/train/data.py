"""The Train page's data side, without drawing: what changed since a run was trained.

>>> old = {"unit": "char", "max_merges": 3, "min_frequency": 1, "name": "a"}
>>> changes(old, dict(old, max_merges=5, name="b"))
['number of merges 3 → 5']
>>> stale_note("hug 10, pug 5", corpus_changed=False, changed=['number of merges 3 → 5'])
'This run is stale: it was trained with other settings (number of merges 3 → 5). Press Start \
training to train with the settings above.'
"""

from __future__ import annotations

from collections.abc import Sequence

#: The settings a user can change, as the page names them (the run's name follows from them).
SETTING_NAMES = {
    "unit": "base symbols", "byte_fallback": "byte fallback", "pretokenizer": "pre-tokenizer",
    "vocab_size": "vocabulary size", "max_merges": "number of merges",
    "min_frequency": "minimum pair frequency", "tie_break": "tie rule",
    "special_tokens": "special tokens", "transition": "SuperBPE transition",
}


def _shown(value: object) -> str:
    if value is None or value is False:
        return "off"
    if value is True:
        return "on"
    if isinstance(value, tuple):
        return " ".join(value) or "none"
    return f"{value:,}" if isinstance(value, int) else str(value)


def changes(old: dict, new: dict) -> list[str]:
    """The settings that differ between ``old`` and ``new``, as ``"name old → new"``."""
    return [f"{label} {_shown(old.get(key))} → {_shown(new.get(key))}"
            for key, label in SETTING_NAMES.items() if old.get(key) != new.get(key)]


def stale_note(trained_on: str, *, corpus_changed: bool, changed: Sequence[str]) -> str | None:
    """What to tell the user about a run made before the corpus or the settings changed (None
    when the run is up to date). A new corpus brings its own settings: it alone is named."""
    if corpus_changed:
        why, what = f"it was trained on {trained_on}, not on the active corpus", "corpus and "
    elif changed:
        why, what = f"it was trained with other settings ({'; '.join(changed)})", ""
    else:
        return None
    return f"This run is stale: {why}. Press Start training to train with the {what}settings above."


# --- the page address ----------------------------------------------------------------------

def settings_params(values: dict, defaults: dict) -> dict[str, str]:
    """The settings that differ from the corpus's defaults, as address parameters.

    >>> settings_params({"unit": "char", "max_merges": 5, "superbpe": True, "regex": None},
    ...                 {"unit": "char", "max_merges": 3, "superbpe": False, "regex": "gpt2"})
    {'max_merges': '5', 'superbpe': '1'}
    """
    out = {}
    for name, default in defaults.items():
        value = values.get(name)
        if value is not None and value != default:
            out[name] = ("1" if value else "0") if isinstance(default, bool) else str(value)
    return out


def read_settings(params: dict[str, str], defaults: dict,
                  choices: dict[str, Sequence[str]]) -> tuple[dict, list[str]]:
    """Settings from address ``params``, typed as in ``defaults`` and checked against
    ``choices`` (a range for numbers); returns ``(values, names of parameters not understood)``.

    >>> read_settings({"unit": "char", "max_merges": "5", "min_frequency": "0", "tie_break": "?"},
    ...               {"unit": "byte", "max_merges": 3, "min_frequency": 2, "tie_break": "first"},
    ...               {"unit": ("byte", "char"), "min_frequency": range(1, 10**9)})
    ({'unit': 'char', 'max_merges': 5, 'tie_break': '?'}, ['min_frequency'])
    """
    values, bad = {}, []
    for name, default in defaults.items():
        raw = params.get(name)
        if raw is None:
            continue
        if isinstance(default, bool):
            value = {"1": True, "0": False}.get(raw)
        elif isinstance(default, int):
            value = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 10 else None
        else:
            value = raw
        if value is None or (name in choices and value not in choices[name]):
            bad.append(name)
        else:
            values[name] = value
    return values, bad
