"""Gage's byte-pair compression: the textbook example, the rules, and round trips."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core.analysis.compress import (Compression, Replacement, compress, decompress, render,
                                        symbol_names)


def test_classic_example():
    result = compress(b"aaabdaaabac")
    names = symbol_names(result)

    assert [render(step, names) for step in result.steps] == ["ZabdZabac", "ZYdZYac", "XdXac"]
    assert result.table == (
        Replacement(255, (ord("a"), ord("a")), 4),  # "aaa" twice: four overlapping "aa"
        # "ab" and "Za" tie at 2; the tie rule picks (97, 98) over (255, 97).
        Replacement(254, (ord("a"), ord("b")), 2),
        Replacement(253, (255, 254), 2),
    )
    assert result.data == b"\xfdd\xfdac"
    assert result.original_size == 11
    assert result.ratio == 5 / 11
    assert names == {255: "Z", 254: "Y", 253: "X"}
    assert decompress(result.data, result.table) == b"aaabdaaabac"


def test_abdcabecab():
    # AB (3 times) first; then C followed by the new AB symbol (twice); then every pair is single.
    result = compress(b"ABDCABECAB")
    names = symbol_names(result)

    assert [r.pair for r in result.table] == [(ord("A"), ord("B")), (ord("C"), 255)]
    assert [r.count for r in result.table] == [3, 2]
    assert [render(step, names) for step in result.steps] == ["ZDCZECZ", "ZDYEY"]
    assert result.data == b"\xffD\xfeE\xfe"
    assert result.ratio == 0.5


def test_tie_goes_to_smallest_pair():
    # "ab" and "xy" both occur twice; (97, 98) < (120, 121).
    result = compress(b"xyxyabab")
    assert result.table[0] == Replacement(255, (ord("a"), ord("b")), 2)


def test_overlapping_pairs_counted_but_replaced_without_overlap():
    result = compress(b"aaa")
    assert result.table == (Replacement(255, (97, 97), 2),)
    assert result.data == b"\xffa"


def test_symbols_skip_bytes_in_the_input():
    result = compress(b"\xff\xfdabab")
    assert result.table[0].symbol == 0xFE


def test_no_free_byte_value_leaves_data_unchanged():
    data = bytes(range(256)) * 2  # every pair (i, i+1) occurs twice, but nothing is free
    result = compress(data)
    assert result.data == data
    assert result.table == ()
    assert result.steps == ()
    assert result.ratio == 1.0


def test_what_stopped_it_when_the_byte_values_ran_out():
    # 159 byte values of its own and 97 symbols fill all 256 while pairs still repeat.
    text = "".join(map(chr, range(0x21, 0x7F))) + "".join(map(chr, range(0xC0, 0x100)))
    result = compress((text * 2).encode("utf-8"))
    assert len(result.table) == 97 and result.table[-1].symbol == 0
    assert result.repeated == ((0, 0xC3), 2)
    assert compress(bytes(range(256)) * 2).repeated == ((0, 1), 2)  # none free from the start
    assert compress(b"aaabdaaabac").repeated is None  # it ran out of repeated pairs instead
    assert compress(b"").repeated is None and compress(b"a").repeated is None


def test_empty_input():
    result = compress(b"")
    assert result == Compression(b"", (), (), 0)
    assert result.ratio == 1.0
    assert decompress(b"", ()) == b""


def test_str_is_rejected_with_a_hint():
    with pytest.raises(TypeError, match=r'encode the text first, e\.g\. text\.encode\("utf-8"\)'):
        compress("aaabdaaabac")
    with pytest.raises(TypeError, match="encode the text first"):
        decompress("abc", ())


def test_bytearray_is_accepted():
    assert compress(bytearray(b"aaabdaaabac")) == compress(b"aaabdaaabac")


def test_names_after_the_alphabet():
    # Each new symbol makes a new pair that occurs twice, so this runs for many steps.
    result = compress(bytes(range(60)) * 2)
    names = [symbol_names(result)[r.symbol] for r in result.table]
    assert len(names) > 27
    assert names[:3] == ["Z", "Y", "X"]
    assert names[25:28] == ["A", "Z₂", "Y₂"]
    assert len(set(names)) == len(names)


def test_a_symbol_then_a_digit_of_the_text_never_reads_as_a_later_symbol():
    # 61 symbols: names go round the alphabet thrice. L stands for M and the text's own 2,
    # shown M2; the 40th symbol was named M2 too, so "M2" in a step could be either.
    text = " ".join(w + d for w in ("ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st",
                                    "uv", "wx") for d in "12") * 2
    result = compress(text.encode())
    names = symbol_names(result)
    assert len(result.table) == 61
    assert names[result.table[13].symbol] == "M" and result.table[14].pair == (0xF2, ord("2"))
    assert render(bytes(result.table[14].pair), names) == "M2"
    assert [names[r.symbol] for r in result.table[38:41]] == ["N₂", "M₂", "L₂"]
    assert render(result.data, names) == "R₃R₃"


def test_render_escapes_unprintable_bytes():
    assert render(b"a b\n\x00\x7f\xe9", {}) == "a b\n<00><7F><E9>"


def gage(data: bytes) -> tuple[bytes, list[tuple[int, tuple[int, int], int]]]:
    """Gage's 1994 loop written out again, independently, for comparison: a list of byte values,
    the highest unused value as the next code, every adjacent pair counted, a left-to-right
    scan that replaces the winner without overlap."""
    seq, table = list(data), []
    taken = set(data)  # a byte of the input stays itself in the table: never a code
    while True:
        code = next((c for c in range(255, -1, -1) if c not in taken), None)
        counts: dict[tuple[int, int], int] = {}
        for i in range(len(seq) - 1):
            counts[seq[i], seq[i + 1]] = counts.get((seq[i], seq[i + 1]), 0) + 1
        best = max(sorted(counts), key=counts.__getitem__, default=None)  # the first of the most
        if code is None or best is None or counts[best] < 2:
            return bytes(seq), table
        out, i = [], 0
        while i < len(seq):
            hit = tuple(seq[i:i + 2]) == best
            out.append(code if hit else seq[i])
            i += 2 if hit else 1
        seq = out
        taken.add(code)
        table.append((code, best, counts[best]))


@pytest.mark.parametrize("data", [
    b"", b"a", b"aa", b"aaa", b"aaaa", b"a" * 17, b"aaabdaaabac", b"abababab",
    bytes(range(256)), bytes(range(256)) * 2, bytes(range(250)) + b"abababab",
    "héllo héllo wörld wörld".encode(), "日本語の日本語".encode(), b"\x00\xff" * 9,
])
def test_the_same_replacements_as_gages_loop_written_out(data):
    result = compress(data)
    assert (result.data, [(r.symbol, r.pair, r.count) for r in result.table]) == gage(data)


@given(st.lists(st.sampled_from(b"ab \x00\xff"), max_size=60).map(bytes))
def test_the_same_replacements_as_gages_loop_on_repetitive_bytes(data):
    result = compress(data)
    assert (result.data, [(r.symbol, r.pair, r.count) for r in result.table]) == gage(data)


def _check(data: bytes) -> None:
    result = compress(data)
    assert decompress(result.data, result.table) == data
    assert len(result.data) <= len(data)
    assert result.original_size == len(data)
    assert result.steps[-1:] == ((result.data,) if result.table else ())
    # Each step is shorter than the one before, and each symbol is new when it is made.
    sizes = [len(data)] + [len(step) for step in result.steps]
    assert all(after < before for before, after in zip(sizes, sizes[1:]))
    used = set(data)
    for replacement in result.table:
        assert replacement.symbol not in used
        used.add(replacement.symbol)
    # It stopped for one of the two reasons: no pair left twice, or no byte value left.
    counts = Counter(zip(result.data, result.data[1:]))
    assert max(counts.values(), default=0) < 2 or len(used) == 256


@given(st.binary(max_size=400))
def test_round_trip_arbitrary_bytes(data):
    _check(data)


@given(st.lists(st.sampled_from(b"ab \x00\xff"), max_size=400).map(bytes))
def test_round_trip_repetitive_bytes(data):
    # A small alphabet repeats pairs often, so many replacements stack on each other.
    _check(data)
