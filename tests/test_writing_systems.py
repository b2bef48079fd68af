"""Writing systems of tokens, longest tokens and byte tokens, on small files shaped like real
models' (a Llama 2-like byte-fallback file and a Llama 3-like byte-level one)."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import bpe_core
from bpe_core.analysis import writing_systems
from bpe_core.analysis.scripts import script_counts
from bpe_core.analysis.vocabulary import diff, vocabulary
from bpe_core.analysis.writing_systems import (BYTE_FALLBACK, DIGITS, NOT_SCRIPTS, PARTIAL,
                                               SPECIAL, SYMBOLS, UNASSIGNED, WHITESPACE,
                                               text_system, token_system)
from tests.model_files import llama2_file, llama3_file
from ui.vocabulary.data import (byte_fallback_tokens, diff_frame, diff_systems, longest,
                                search_diff, systems_table, vocabulary_frame)


def test_worked_examples_in_docstrings_hold() -> None:
    result = doctest.testmod(writing_systems)
    assert result.attempted > 0 and result.failed == 0


@pytest.fixture(scope="module")
def llama2(tmp_path_factory) -> bpe_core.Tokenizer:
    path = tmp_path_factory.mktemp("llama2") / "tokenizer.json"
    path.write_bytes(llama2_file())
    return bpe_core.load(path).renamed("llama2-like")


@pytest.fixture(scope="module")
def llama3(tmp_path_factory) -> bpe_core.Tokenizer:
    path = tmp_path_factory.mktemp("llama3") / "tokenizer.json"
    path.write_bytes(llama3_file())
    return bpe_core.load(path).renamed("llama3-like")


@pytest.mark.parametrize("text, system", [
    ("the", "Latin"), (" the", "Latin"), ("ing", "Latin"), ("мир", "Cyrillic"),
    (" 世界", "Han"), ("हिन्दी", "Devanagari"), ("한국", "Hangul"), ("ひら", "Hiragana"),
    ("カタ", "Katakana"), ("αβ", "Greek"), ("שלום", "Hebrew"), ("سلام", "Arabic"),
    ("ไทย", "Thai"), ("ᐃᓄ", "Canadian Aboriginal"),
    ("2024", DIGITS), (" 42", DIGITS), ("1.5", DIGITS), ("1.", SYMBOLS), ("...", SYMBOLS),
    ("🙂", SYMBOLS), ("\u0301", SYMBOLS), (" ", WHITESPACE), ("\n\n", WHITESPACE),
    ("\t ", WHITESPACE), ("\ue000", UNASSIGNED), (" \uf0b7", UNASSIGNED),
    # several scripts: the one with most letters; a tie goes to the one written first
    ("東京 Tokyo", "Latin"), ("Hi 東京都", "Han"), ("ab αβ", "Latin"), ("αβ ab", "Greek"),
    ("2024年", "Han"), ("e\u0301", "Latin"),
])
def test_text_system(text: str, system: str) -> None:
    assert text_system(text) == system


def _by_counts(text: str) -> str:
    """text_system as the module docstring defines it, from the full count by script."""
    letters = next((s for s in script_counts(text) if s != "Common"), None)
    if letters is not None:
        return UNASSIGNED if letters == "Unknown" else letters.replace("_", " ")
    shown = [c for c in text if not c.isspace()]
    if not shown:
        return WHITESPACE
    return DIGITS if 2 * sum(c.isdecimal() for c in shown) > len(shown) else SYMBOLS


# Letters of a few scripts, marks, digits, spaces and symbols: mixes of one or more scripts.
_MIXED = st.text(st.sampled_from("aZé\u0301\u064bмж東京ひカ한αأ١2 \n.!🙂\ue000\u0378"), max_size=8)


@given(st.one_of(_MIXED, st.text(max_size=6)))
def test_text_system_is_the_count_by_script(text: str) -> None:
    assert text_system(text) == _by_counts(text)


def test_kinds_come_before_text() -> None:
    assert [token_system(k, "<s>") for k in ("special", "added", "unk", "eow")] == [SPECIAL] * 4
    assert token_system("byte", "A", byte_fallback=True) == BYTE_FALLBACK
    assert token_system("byte", None, byte_fallback=True) == BYTE_FALLBACK
    assert token_system("byte", "A") == "Latin"  # a byte-level model's base byte
    assert token_system("merge", None) == PARTIAL


def test_a_byte_fallback_model(llama2) -> None:
    rows = vocabulary(llama2)
    by_system = {}
    for r in rows:
        by_system.setdefault(r.script, []).append(r)
    fallback = by_system[BYTE_FALLBACK]
    assert [llama2.view.raw(r.id) for r in fallback] == [f"<0x{b:02X}>" for b in range(256)]
    assert [bytes.fromhex(r.hex) for r in fallback] == [bytes([b]) for b in range(256)]
    assert PARTIAL not in by_system  # every piece of a character is a fallback token here
    assert sorted(r.token for r in by_system[SPECIAL]) == ["</s>", "<s>", "<unk>"]
    latin = {r.token for r in by_system["Latin"]}
    assert {"a", " the", "the"} <= latin  # ▁ is a space, and a space does not count
    df = vocabulary_frame(llama2)
    table = systems_table(df)
    assert table["tokens"].sum() == len(llama2.ids()) == len(df)
    counts = dict(zip(table["writing system"], table["tokens"]))
    assert counts == {s: len(v) for s, v in by_system.items()}
    # scripts of letters first, most tokens first, then the others in a fixed order
    names = list(table["writing system"])
    scripts = [n for n in names if n not in NOT_SCRIPTS]
    assert names[:len(scripts)] == scripts and scripts[0] == "Latin"
    assert names[len(scripts):] == [n for n in NOT_SCRIPTS if n in counts]
    assert list(byte_fallback_tokens(df)["id"]) == [r.id for r in fallback]


def test_a_byte_level_model(llama3) -> None:
    rows = vocabulary(llama3)
    assert not any(r.script == BYTE_FALLBACK for r in rows)
    partial = [r for r in rows if r.script == PARTIAL]
    assert partial == [r for r in rows if not r.utf8]
    assert {bytes.fromhex(r.hex)[0] for r in partial if r.n_bytes == 1} == set(range(0x80, 0x100))
    assert {r.script for r in rows if r.kind == "byte" and r.utf8} >= {"Latin", DIGITS,
                                                                       WHITESPACE, SYMBOLS}


def test_longest_tokens(llama3) -> None:
    df = vocabulary_frame(llama3)
    learned = df[~df["kind"].isin(["special", "added"])]
    top = longest(df, n=5)
    assert len(top) == 5
    assert list(top["chars"]) == sorted(learned["chars"].dropna(), reverse=True)[:5]
    by_bytes = longest(df, n=3, unit="bytes")
    assert list(by_bytes["n_bytes"]) == sorted(learned["n_bytes"], reverse=True)[:3]
    greek = longest(df, n=100, systems=["Greek"])
    assert set(greek["script"]) == {"Greek"} and len(greek) == (df["script"] == "Greek").sum()
    # the longest are found whatever their ids, ties in id order
    assert list(top["id"]) == list(learned.sort_values(["chars", "id"],
                                                       ascending=[False, True])["id"][:5])


def test_diff_lists_a_fallback_byte_as_the_character_it_spells(llama2, llama3) -> None:
    d = diff(llama2, llama3)
    a = next(e for e in d.shared if e.token == "a")
    assert llama2.kind(a.id_a) == "char" and llama3.kind(a.id_b) == "byte"
    assert not any(llama2.kind(e.id_a) == "byte" and e.hex == "61" for e in d.shared)
    scripts_a = {r.id: r.script for r in vocabulary(llama2)}
    scripts_b = {r.id: r.script for r in vocabulary(llama3)}
    lists = (diff_frame(d.only_a, side="a", scripts=scripts_a),
             diff_frame(d.only_b, side="b", scripts=scripts_b),
             diff_frame(d.shared, scripts=scripts_a, scripts_b=scripts_b))
    table = diff_systems(*lists)
    assert list(table.columns) == ["writing system", "A", "B", "shared", "only in A",
                                   "only in B"]
    assert table["shared"].sum() == len(d.shared)
    assert table["only in A"].sum() == len(d.only_a)
    assert table["only in B"].sum() == len(d.only_b)
    by_system = table.set_index("writing system")
    latin = by_system.loc["Latin"]
    assert latin["shared"] == sum(scripts_a[e.id_a] == "Latin" for e in d.shared)
    assert latin["A"] == latin["shared"] + latin["only in A"]
    assert latin["B"] == sum(scripts_b[e.id_b] == "Latin" for e in d.shared) + latin["only in B"]
    # bytes the Llama 2-like file spells with fallback tokens are plain bytes in Llama 3's
    fallback, partial = by_system.loc[BYTE_FALLBACK], by_system.loc[PARTIAL]
    assert fallback["shared"] == fallback["A"] > 0 and fallback["B"] == 0
    assert partial["B"] == sum(not r.utf8 for r in vocabulary(llama3))
    assert table["B"].sum() == len(d.shared) + len(d.only_b)
    shared = lists[2]
    assert search_diff(shared, "·th")["text"].tolist() == [
        e.token for e in d.shared if e.token.startswith(" th") or " th" in e.token]
    assert set(search_diff(shared, r"^\p{Greek}", use_regex=True)["script"]) <= {"Greek"}
