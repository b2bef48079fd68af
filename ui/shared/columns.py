"""Column widths for ``st.dataframe``: wide enough to show a column's cells whole, and, given
the room a table has, narrow enough that every column is in sight without scrolling sideways.

The grid draws on a canvas and cuts a cell's text off at the edge of its column; left to size
itself, it makes each column as wide as its longest cell, so one long token or a long heading
pushes the last columns out of the table. Widths here come from the pixels each character takes
in the grid's font (Source Sans at 14 px, measured in Chromium, rounded up).

>>> text_px("count"), text_px("lower + </w>"), text_px("語彙")
(51, 99, 48)
>>> fit_widths({"pair": 100, "count": 53, "note": 120}, {"pair": 60, "count": 53, "note": 50},
...            room=250)
{'pair': 98, 'count': 53, 'note': 98}
"""

from __future__ import annotations

import math
from typing import Collection, Iterable, Mapping, Sequence
from unicodedata import east_asian_width

import pandas as pd
import streamlit as st

from .tokens import NOTATION_HELP

#: Pixels of a table as wide as the page in a 1280-px window (the sidebar open), the narrowest
#: window whose tables show every column; in a narrower one a wide table scrolls sideways.
PAGE_PX = 816
#: The padding of a cell, both sides (the grid clips text at the cell's edge, not at its padding).
PADDING_PX = 16
#: The grid's narrowest column.
LEAST_PX = 50
#: A text column's widest: a 20,000-character word would push the table's numbers out of sight.
MOST_PX = 320
#: Characters by width: thin ones (3 to 4 px), narrow ones (4 to 5), wide ones (10 to 13);
#: capitals take 9, the rest 7.5 (lower case, digits), wide East Asian characters 16.
_THIN = frozenset(" !'.,:;|ijlI·")
_NARROW = frozenset("()-/[\\]{}frt⟨⟩")
_WIDE = frozenset("%@MWmw↵…")
#: The invisible isolate around a marker after right-to-left letters (see bidi.cell).
_ISOLATES = frozenset("\u2066\u2069")
#: The fewest pixels a character takes, isolates aside (a thin one).
_LEAST_CHAR_PX = 3.75
#: Cells measured per column: the longest ones (by characters) are the widest but for a few px.
_MEASURED = 200
#: The column of check boxes of a table whose rows can be picked (``selection_mode``).
PICK_PX = 40


def _char_px(c: str) -> float:
    if c in _ISOLATES:
        return 0
    if c in _THIN:
        return _LEAST_CHAR_PX
    if c in _NARROW:
        return 5
    if c in _WIDE:
        return 12
    if east_asian_width(c) in "WF":
        return 16
    return 9 if c.isupper() else 7.5


def text_px(text: str) -> int:
    """Pixels a cell needs to show ``text`` whole, padding included."""
    return math.ceil(sum(map(_char_px, text)) + PADDING_PX)


def column_width(texts: Iterable[str], *, least: int = LEAST_PX, most: int = MOST_PX) -> int:
    """Pixels a table column needs to show the longest of ``texts`` whole, at least ``least``
    and at most ``most``.

    >>> column_width(["·the", "·language"]), column_width(["x" * 200]), column_width([])
    (76, 320, 50)
    """
    widest = 0
    for text in texts:
        widest = max(widest, _px_up_to(text, most))
        if widest >= most:
            break
    return max(least, min(most, widest))


def _px_up_to(text: str, most: int) -> int:
    """``text_px(text)``, or where that is ``most`` or more, some width of at least ``most``:
    a cell wider than its column is cut, so of a token of 3,000 characters only the first
    hundred or so are measured (all of 200 such cells took 0.2 s of CPU to measure, on every
    run of a page listing them).

    >>> _px_up_to("x" * 3000, 320), _px_up_to("\\u2066" * 3000 + "x", 320), text_px("x")
    (661, 24, 24)
    """
    head = text[:math.ceil(most / _LEAST_CHAR_PX)]  # each character but an isolate takes more
    px = text_px(head)
    return px if px >= most or len(head) == len(text) else text_px(text)


def fitted_columns(frame: pd.DataFrame, *names: str,
                   labels: Mapping[str, str] | None = None) -> dict[str, dict]:
    """``column_config`` for ``st.dataframe`` giving each named text column the width that
    shows its longest cell, and its heading (``labels[name]``, else the name), whole, and the
    notation as its help."""
    labels = labels or {}
    return {name: st.column_config.TextColumn(
                labels.get(name), help=NOTATION_HELP,
                width=column_width([labels.get(name, name), *_longest(frame[name].astype(str))]))
            for name in names}


def fit_columns(frame: pd.DataFrame, config: Mapping[str, object] | None = None, *, room: int,
                order: Sequence[str] | None = None,
                first: Collection[str] = ()) -> dict[str, object]:
    """``config`` (``st.dataframe``'s ``column_config``) with a width for every column shown
    (``order``, else all of ``frame``'s), such that together they fit in ``room`` pixels when
    they can: each as wide as its heading and longest cell, and where that is too wide, the
    text columns named ``first`` (a long note, say), then the widest of the others, give up
    room, down to their headings, and cut their longest cells short. Numbers are never cut.
    Streamlit shares any room left over among the columns, so a wider window widens them all.

    >>> frame = pd.DataFrame({"token": ["lower</w>", "·understanding"], "count": [1, 12345]})
    >>> {n: c["width"] for n, c in fit_columns(frame, room=250).items()}
    {'token': 109, 'count': 58}
    >>> {n: c["width"] for n, c in fit_columns(frame, room=120).items()}
    {'token': 62, 'count': 58}
    """
    config = {name: ({"label": value} if isinstance(value, str) else value)
              for name, value in (config or {}).items()}
    shown = [name for name in (order if order is not None else frame.columns)
             if name in frame.columns and config.get(name, {}) is not None]
    natural, floor = {}, {}
    for name in shown:
        label = config.get(name, {}).get("label") or str(name)
        column = frame[name]
        if pd.api.types.is_numeric_dtype(column) and not pd.api.types.is_bool_dtype(column):
            shown_as = config.get(name, {}).get("type_config", {}).get("format")
            natural[name] = floor[name] = column_width([label, *_numbers(column, shown_as)],
                                                       most=10**6)
        else:
            natural[name] = column_width([label, *_longest(column.astype(str))])
            floor[name] = min(natural[name], column_width([label]))
    widths = fit_widths(natural, floor, room=room, first=first)
    return {**config, **{name: {**config.get(name, {}), "width": widths[name]}
                         for name in shown}}


def fit_widths(natural: Mapping[str, int], floor: Mapping[str, int], *, room: int,
               first: Collection[str] = ()) -> dict[str, int]:
    """The ``natural`` widths, or if together they exceed ``room``, the columns named ``first``
    and then the others cut down, the widest to one width (none below its ``floor``), so that
    they fit; the floors if even those do not.

    >>> fit_widths({"a": 100, "b": 200, "c": 300}, {"a": 50, "b": 50, "c": 50}, room=400)
    {'a': 100, 'b': 150, 'c': 150}
    >>> fit_widths({"a": 100, "b": 200, "c": 300}, {"a": 50, "b": 50, "c": 50}, room=400,
    ...            first=["c"])
    {'a': 100, 'b': 200, 'c': 100}
    """
    ahead = [n for n in natural if n in first]
    if ahead:
        rest = {n: w for n, w in natural.items() if n not in first}
        budget = room - sum(rest.values())
        if sum(floor[n] for n in ahead) <= budget:
            out = {**rest, **fit_widths({n: natural[n] for n in ahead}, floor, room=budget)}
        else:
            out = {**fit_widths(rest, floor, room=room - sum(floor[n] for n in ahead)),
                   **{n: floor[n] for n in ahead}}
        return {n: out[n] for n in natural}

    def total(cap: int) -> int:
        return sum(max(floor[n], min(w, cap)) for n, w in natural.items())

    low, high = 0, max(natural.values(), default=0)
    if total(high) <= room:
        return dict(natural)
    while high - low > 1:  # the widest cap that fits
        middle = (low + high) // 2
        low, high = (middle, high) if total(middle) <= room else (low, middle)
    return {n: max(floor[n], min(w, low)) for n, w in natural.items()}


def _longest(texts: pd.Series) -> list[str]:
    """The longest of ``texts``, those worth measuring (a table may have 10,000 rows)."""
    if len(texts) <= _MEASURED:
        return texts.tolist()
    return texts.iloc[texts.str.len().to_numpy().argsort()[-_MEASURED:]].tolist()


def _numbers(column: pd.Series, shown_as: str | None) -> list[str]:
    """The widest numbers of ``column`` as the grid shows them in the format ``shown_as``
    (printf-style, "percent", else with thousands separators: the widest of the others).

    >>> _numbers(pd.Series([0.5, 12.25, None]), "%.1f×"), _numbers(pd.Series([3, 12345]), None)
    (['0.5×', '12.2×'], ['3', '12,345'])
    """
    values = column.dropna()
    if values.empty:
        return []
    ends = [values.min(), values.max()]
    if shown_as == "percent":  # as 79%, 1.3%
        return [f"{v:,.1%}" for v in ends]
    if shown_as and "%" in shown_as:
        try:
            return [shown_as % v for v in ends]
        except (TypeError, ValueError):  # a format Python does not read: counted as below
            pass
    if all(float(v).is_integer() for v in ends):
        return [f"{int(v):,}" for v in ends]
    return [f"{v:,.4f}" for v in ends]
