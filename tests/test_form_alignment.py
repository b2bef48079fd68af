"""Where each character of a normalized text came from (bpe_core/form_alignment.py): exact
places on the cases that used to spread one token's colour over the text before it, and
properties on any text."""

import time
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import normalizers
from bpe_core.form_alignment import align

FORMS = {"NFC": normalizers.NFC(), "NFD": normalizers.NFD(), "NFKC": normalizers.NFKC(),
         "NFKD": normalizers.NFKD()}


def aligned(form: str, text: str):
    return FORMS[form].normalize_aligned(text, [(k, k + 1) for k in range(len(text))])


@pytest.mark.parametrize("form, text, expected", [
    # Jamo that compose: the text before keeps its own places.
    ("NFC", "Hi, \u1100\u1161", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 6)]),
    ("NFC", "a\u1100\u1161b", [(0, 1), (1, 3), (3, 4)]),
    # A letter takes the mark it composes with, and not the one it leaves.
    ("NFC", "a\u0323\u0301", [(0, 2), (2, 3)]),
    ("NFD", "\u1ea1", [(0, 1), (0, 1)]),
    # Half-width katakana and its voiced mark become one character under NFKC.
    ("NFKC", "a\uff76\uff9e", [(0, 1), (1, 3)]),
    ("NFKC", "\ufb01x", [(0, 1), (0, 1), (1, 2)]),
    # Marks that change nothing keep their places, whatever else in the text changes.
    ("NFC", "\u0e02\u0e49 \u212b", [(0, 1), (1, 2), (2, 3), (3, 4)]),
    ("NFKC", "\u0938\u094d\u3000", [(0, 1), (1, 2), (2, 3)]),
    ("NFC", " \u0340", [(0, 1), (1, 2)]),
    # Marks put in canonical order share their places, which run in order.
    ("NFD", "a\u0301\u0323", [(0, 1), (1, 3), (1, 3)]),
    ("NFC", "a\u0301\u0323", [(0, 3), (0, 3)]),  # ạ takes the dot from beyond the acute
])
def test_places(form, text, expected):
    out, spans = aligned(form, text)
    assert out == unicodedata.normalize(form, text)
    assert spans == expected


def test_a_composition_far_into_a_text_costs_no_more_than_the_text():
    text = "word " * 20_000 + "\u1100\u1161"
    start = time.perf_counter()
    out, spans = aligned("NFC", text)
    assert time.perf_counter() - start < 5  # (quadratic, it took minutes)
    assert spans[:3] == [(0, 1), (1, 2), (2, 3)] and spans[-1] == (100_000, 100_002)


def test_marks_that_all_reorder_together_stay_within_the_text():
    text = "a" + "\u0f72\u0f73" * 3_000  # each U+0F73 decomposes into marks that reorder
    out, spans = aligned("NFD", text)
    assert out == unicodedata.normalize("NFD", text) and len(spans) == len(out)
    assert all(0 <= a < b <= len(text) for a, b in spans)


PIECES = st.sampled_from(["a", "e", "A", " ", "\u0301", "\u0323", "\u0302", "\u1100", "\u1161",
                          "\u11a8", "\uac00", "\uff76", "\uff9e", "\ufb01", "\u212b", "\u00e9",
                          "\u0f73", "\u0f72", "\u09c7", "\u09be", "\u0e49", "\u3000", "\u2460",
                          "\U0001d400", "\u0340", "\u0344"])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join), st.sampled_from(sorted(FORMS)))
def test_any_text(text, form):
    """The form itself; one place per character; each place is one of the text's characters
    or a run of them whose form holds that character; every character of the text is in one."""
    out, spans = aligned(form, text)
    assert out == FORMS[form].normalize_str(text)
    assert len(spans) == len(out)
    assert [a for a, _ in spans] == sorted(a for a, _ in spans)
    assert [b for _, b in spans] == sorted(b for _, b in spans)
    for ch, (a, b) in zip(out, spans):
        assert 0 <= a < b <= len(text)
        assert ch in unicodedata.normalize(form, text[a:b]) or b - a == 1
    assert set().union(*(range(a, b) for a, b in spans)) == set(range(len(text)))


def test_align_is_the_normalizers_own():
    text = "x \uff76\uff9e y"
    out, spans = align("NFKC", text, [(k, k + 1) for k in range(len(text))],
                       lambda t: unicodedata.normalize("NFKC", t))
    assert (out, spans) == aligned("NFKC", text)
