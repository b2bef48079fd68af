"""Table column widths (ui/shared/columns.py): each column as wide as its heading and longest
cell, and together, where they can, no wider than the table's room, so that no column is out of
sight; numbers and headings are never cut."""

import doctest

import pandas as pd
import streamlit as st

from ui.shared import columns
from ui.shared.columns import column_width, fit_columns, text_px


def widths(config: dict) -> dict:
    return {name: c["width"] for name, c in config.items()}


FRAME = pd.DataFrame({"merge": ["lower + </w>", "·understand + ing"], "token": ["lower</w>", "x"],
                      "count": [7, 12_345], "ties": ["", "5: e + w, w + est</w>, w + i, i + d"]})


def test_columns_show_their_longest_cell_and_heading_when_there_is_room():
    got = widths(fit_columns(FRAME, {"token": st.column_config.TextColumn("new token")},
                             room=2_000))
    assert got == {"merge": column_width(["·understand + ing"]),
                   "token": column_width(["new token", "lower</w>"]),
                   "count": column_width(["12,345"]),  # as the grid shows it
                   "ties": column_width(["5: e + w, w + est</w>, w + i, i + d"])}


def test_columns_fit_their_room_the_widest_giving_way_first():
    natural = widths(fit_columns(FRAME, room=2_000))
    got = widths(fit_columns(FRAME, room=320))
    assert sum(got.values()) <= 320
    assert got["count"] == natural["count"] and got["token"] == natural["token"]  # narrow ones
    assert got["merge"] == got["ties"] < natural["merge"]  # the two widest, cut to one width


def test_a_note_column_gives_way_before_the_others():
    got = widths(fit_columns(FRAME, room=400, first=["ties"]))
    natural = widths(fit_columns(FRAME, room=2_000))
    assert sum(got.values()) == 400 and got["merge"] == natural["merge"]
    assert got["ties"] == 400 - natural["merge"] - natural["token"] - natural["count"]


def test_headings_and_numbers_are_never_cut():
    got = widths(fit_columns(FRAME, room=100, order=["merge", "count"]))
    assert got == {"merge": max(column_width(["merge"]), 50), "count": column_width(["12,345"])}


def test_widths_follow_the_grid_font():
    # Source Sans at 14 px: "w" and "m" are wide, "i" and "l" thin, capitals a little wider.
    assert text_px("mmmm") > text_px("oooo") > text_px("iiii")
    assert text_px("ABCD") > text_px("abcd")
    assert text_px("語") == text_px("ab") + 1  # a wide character counts about double
    # The isolate a cell puts around the marker after Hebrew letters takes no room.
    assert text_px("ם\u2066</w>\u2069") == text_px("ם</w>")


def test_examples():
    result = doctest.testmod(columns)
    assert result.attempted and not result.failed
