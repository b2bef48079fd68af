"""Checks for the bundled parallel multilingual sample (assets/parallel/).

The Languages page divides each language's token count by English's for the same sentences
(the "tokenization premium" of Petrov et al. 2023), so the sample must stay a clean, aligned
table: one column per language, one row per sentence, every cell filled and in its own script.
"""

from __future__ import annotations

import csv
import json
import unicodedata
from pathlib import Path

import pytest
import regex

ROOT = Path(__file__).resolve().parent.parent
TSV = ROOT / "assets" / "parallel" / "sentences.tsv"
LANGUAGES = ROOT / "bpe_core" / "analysis" / "languages.json"  # the languages bpe_core knows

# Letters of a cell must mostly belong to these scripts. Digits, punctuation and spaces are
# script "Common" and are ignored because only letters (\p{L}) are counted.
SCRIPT_PATTERNS = {
    "Latin": r"\p{Script=Latin}",
    "Cyrillic": r"\p{Script=Cyrillic}",
    "Greek": r"\p{Script=Greek}",
    "Arabic": r"\p{Script=Arabic}",
    "Hebrew": r"\p{Script=Hebrew}",
    "Devanagari": r"\p{Script=Devanagari}",
    "Bengali": r"\p{Script=Bengali}",
    "Tamil": r"\p{Script=Tamil}",
    "Thai": r"\p{Script=Thai}",
    "Georgian": r"\p{Script=Georgian}",
    "Armenian": r"\p{Script=Armenian}",
    "Ethiopic": r"\p{Script=Ethiopic}",
    "Myanmar": r"\p{Script=Myanmar}",
    "Han": r"\p{Script=Han}",
    "Hangul": r"\p{Script=Hangul}",
    "Japanese": r"[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]",
}
MIN_SCRIPT_SHARE = 0.8
LETTER = regex.compile(r"\p{L}")
KANA = regex.compile(r"[\p{Script=Hiragana}\p{Script=Katakana}]")


def _read_tsv() -> list[list[str]]:
    with TSV.open(encoding="utf-8", newline="") as f:
        return list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))


@pytest.fixture(scope="module")
def table() -> list[list[str]]:
    return _read_tsv()


@pytest.fixture(scope="module")
def languages() -> list[dict]:
    return json.loads(LANGUAGES.read_text(encoding="utf-8"))


def test_tsv_shape(table):
    header, rows = table[0], table[1:]
    assert len(rows) >= 30, f"expected at least 30 sentences, found {len(rows)}"
    assert len(header) >= 25, f"expected at least 25 languages, found {len(header)}"
    for i, row in enumerate(rows, start=2):
        assert len(row) == len(header), f"line {i} has {len(row)} cells, header has {len(header)}"


def test_header_matches_languages_json(table, languages):
    codes = [lang["code"] for lang in languages]
    assert table[0] == codes
    assert codes[0] == "en", "English is the baseline and must be the first column"
    assert len(set(codes)) == len(codes), "duplicate language codes"


def test_languages_json_fields(languages):
    for lang in languages:
        assert set(lang) == {"code", "script", "spaces"}, lang  # names come from langcodes
        assert lang["script"] in SCRIPT_PATTERNS, f"unknown script {lang['script']!r}"
        assert isinstance(lang["spaces"], bool)
    no_spaces = {lang["code"] for lang in languages if not lang["spaces"]}
    assert no_spaces == {"th", "my", "zh", "ja"}


def test_no_empty_or_untrimmed_cells(table):
    header = table[0]
    for i, row in enumerate(table[1:], start=2):
        for code, cell in zip(header, row):
            assert cell.strip(), f"empty cell: line {i}, column {code}"
            assert cell == cell.strip(), f"stray whitespace: line {i}, column {code}"
            assert '"' not in cell, f"double quote would confuse quoting readers: line {i}, {code}"


def test_cells_are_nfc(table):
    for row in table[1:]:
        for cell in row:
            assert unicodedata.normalize("NFC", cell) == cell


def test_cells_are_mostly_in_their_script(table, languages):
    scripts = {lang["code"]: lang["script"] for lang in languages}
    for i, row in enumerate(table[1:], start=2):
        for code, cell in zip(table[0], row):
            pattern = regex.compile(SCRIPT_PATTERNS[scripts[code]])
            letters = LETTER.findall(cell)
            assert letters, f"no letters: line {i}, column {code}"
            share = sum(1 for ch in letters if pattern.match(ch)) / len(letters)
            assert share >= MIN_SCRIPT_SHARE, (
                f"line {i}, column {code}: only {share:.0%} of letters are {scripts[code]}"
            )


def test_japanese_uses_kana(table):
    # Japanese and Chinese share Han characters; kana is what tells them apart.
    col = table[0].index("ja")
    for i, row in enumerate(table[1:], start=2):
        assert KANA.search(row[col]), f"line {i}: Japanese cell has no kana"
