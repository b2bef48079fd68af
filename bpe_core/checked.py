"""A pipeline stage read from a file, checked: each field of a simple type (a string, an
integer, a flag) holds one, so that a malformed file is refused as it is read, with the field
named, rather than failing in the middle of an encode.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Strip:
...     content: str
...     start: int = 0
>>> checked(Strip(" ", 1))
Strip(content=' ', start=1)
>>> checked(Strip(" ", True))
Traceback (most recent call last):
ValueError: the Strip stage's start is True; it must be an integer
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, TypeVar

T = TypeVar("T")
#: Annotation -> (the types it allows, what to call it). True and False are no integers here.
_KINDS = {"str": ((str,), "a string"), "str | None": ((str, type(None)), "a string or null"),
          "int": ((int,), "an integer"), "bool": ((bool,), "true or false"),
          "bool | None": ((bool, type(None)), "true, false or null")}


def option(d: dict, key: str, default):
    """``d[key]``, or ``default`` when the file leaves it out or writes null.

    >>> option({"split": None}, "split", True), option({"split": "no"}, "split", True)
    (True, 'no')
    """
    value = d.get(key)
    return default if value is None else value


def checked(stage: T) -> T:
    """``stage``, once every field annotated as a simple type holds a value of that type (see
    the module docstring); a ValueError naming the first that does not."""
    for f in dataclasses.fields(stage):
        kind = _KINDS.get(f.type) if isinstance(f.type, str) else None
        if kind is None:
            continue
        value = getattr(stage, f.name)
        if type(value) not in kind[0]:
            raise ValueError(f"the {type(stage).__name__} stage's {f.name} is {value!r}; it "
                             f"must be {kind[1]}")
    return stage


def shown(value: Any) -> str:
    """``value`` as the file writes it (JSON), cut short: what an error quotes.

    >>> shown(True), shown(None), shown({"type": "Foo", "x": "a" * 60})
    ('true', 'null', '{"type": "Foo", "x": "aaaaaaaaaaaaaaaaa…')
    """
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 40 else text[:39] + "…"


def listed(value: Any, what: str) -> list:
    """``value``, once it is a list (``what`` names it in the error)."""
    if not isinstance(value, list):
        raise ValueError(f"{what} must be a list, not {shown(value)}")
    return value


def stage(d: Any, what: str) -> dict:
    """``d``, once it is a stage as a file writes it: an object whose ``"type"`` is a string.

    >>> stage({"type": "NFC"}, "the normalizer")
    {'type': 'NFC'}
    >>> stage([], "normalizer 2 of the Sequence")
    Traceback (most recent call last):
    ValueError: normalizer 2 of the Sequence must be an object with a "type", not []
    """
    if not isinstance(d, dict) or not isinstance(d.get("type"), str):
        raise ValueError(f"{what} must be an object with a \"type\", not {shown(d)}")
    return d


def stages(d: dict, key: str, what: str) -> list[dict]:
    """The stages a Sequence lists under ``key``, each one checked (``what``: "normalizer").

    >>> stages({"type": "Sequence", "normalizers": [{"type": "NFC"}, None]}, "normalizers",
    ...        "normalizer")
    Traceback (most recent call last):
    ValueError: normalizer 2 of the Sequence must be an object with a "type", not null
    """
    items = listed(d.get(key), f"the Sequence {what}'s {key}")
    return [stage(item, f"{what} {k} of the Sequence") for k, item in enumerate(items, 1)]
