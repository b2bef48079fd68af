"""The bundled sample corpora: the manifest and the files it points to stay consistent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "assets" / "samples"
MANIFEST = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))


def _text_files(entry: dict) -> list[Path]:
    # A folder sample is the concatenation of its .txt files in name order.
    path = SAMPLES / entry["path"]
    return sorted(path.glob("*.txt")) if path.is_dir() else [path]


def test_manifest_is_a_list_of_samples_with_unique_ids():
    assert isinstance(MANIFEST, list) and MANIFEST
    ids = [entry["id"] for entry in MANIFEST]
    assert len(ids) == len(set(ids)), f"duplicate ids: {sorted(i for i in ids if ids.count(i) > 1)}"
    assert ids[0] == "english"
    for entry in MANIFEST:
        assert {"id", "title", "path", "kind", "language", "script", "description", "suggested"} <= set(entry)
        assert entry["kind"] in {"text", "counts"}
        assert entry["suggested"]["unit"] in {"byte", "char"}


@pytest.mark.parametrize("entry", MANIFEST, ids=lambda e: e["id"])
def test_sample_path_exists(entry):
    assert (SAMPLES / entry["path"]).exists(), f"{entry['path']} is missing from {SAMPLES}"


@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["kind"] == "text"], ids=lambda e: e["id"])
def test_text_sample_is_non_empty_utf8(entry):
    files = _text_files(entry)
    assert files, f"{entry['path']} holds no .txt files"
    for path in files:
        data = path.read_bytes()
        assert data, f"{path.name} is empty"
        data.decode("utf-8")  # raises UnicodeDecodeError on invalid UTF-8


@pytest.mark.parametrize("entry", [e for e in MANIFEST if e["kind"] == "counts"], ids=lambda e: e["id"])
def test_counts_sample_maps_words_to_positive_ints(entry):
    counts = json.loads((SAMPLES / entry["path"]).read_text(encoding="utf-8"))
    assert isinstance(counts, dict) and counts
    for word, count in counts.items():
        assert isinstance(word, str) and word
        assert type(count) is int and count > 0, f"{word!r}: {count!r}"


def test_english_default_corpus_is_large_enough():
    total = sum(path.stat().st_size for path in (SAMPLES / "english").glob("*.txt"))
    assert total >= 200_000, f"english/ holds {total:,} bytes; the default corpus needs 200,000"


def test_textbook_toys_are_exact():
    # Byte-pair compression works on the exact bytes, so a stray newline would change the merges.
    assert (SAMPLES / "aaabdaaabac.txt").read_bytes() == b"aaabdaaabac"
    assert (SAMPLES / "abdcabecab.txt").read_bytes() == b"A B D C A B E C A B"
    hug = json.loads((SAMPLES / "hug-pug.json").read_text(encoding="utf-8"))
    assert list(hug.items()) == [("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)]
