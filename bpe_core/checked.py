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
from typing import TypeVar

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
