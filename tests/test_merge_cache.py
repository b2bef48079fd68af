"""Merges recovered from a rank file are kept on disk, read back on the next load, and never
trusted when the file is not whole."""

from __future__ import annotations

import pytest

import bpe_core
from bpe_core.formats import merge_cache, tiktoken_file

TEXT = "the quick brown fox jumps over the lazy dog; the dog naps, the fox hunts. " * 8


@pytest.fixture(scope="module")
def rank_file_data() -> bytes:
    tok = bpe_core.train(TEXT, unit="byte", pretokenizer="gpt2", max_merges=60, min_frequency=1)
    return tiktoken_file.dumps(tok)


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("BPE_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def load(data: bytes):
    return tiktoken_file.loads(data, pretokenizer="gpt2")


def test_the_second_load_reads_the_merges_the_first_recovered(rank_file_data, cache,
                                                               monkeypatch):
    first = load(rank_file_data)
    assert [p.suffix for p in cache.iterdir()] == [".merges"]

    def refuse(*_, **__):
        raise AssertionError("recovered again instead of read from the cache")

    monkeypatch.setattr(merge_cache, "recover", refuse)
    again = load(rank_file_data)
    assert [m.token for m in again.merges] == [m.token for m in first.merges]
    assert again.encode(TEXT) == first.encode(TEXT)


@pytest.mark.parametrize("damage", ["cut short", "one byte changed", "another version"])
def test_a_damaged_cache_file_is_ignored_and_written_again(rank_file_data, cache, damage):
    expected = load(rank_file_data)
    path, = cache.iterdir()
    whole = path.read_bytes()
    if damage == "cut short":
        path.write_bytes(whole[:-8])
    elif damage == "one byte changed":  # a left part of 97 ("a") where there was another
        k = len(whole) - 8 * len(expected.merges)
        path.write_bytes(whole[:k] + bytes([whole[k] ^ 1]) + whole[k + 1:])
    else:
        path.write_bytes(whole.replace(merge_cache.MAGIC, merge_cache.MAGIC[:-2] + b"0\n"))
    again = load(rank_file_data)
    assert [m.token for m in again.merges] == [m.token for m in expected.merges]
    assert again.encode(TEXT) == expected.encode(TEXT)
    assert path.read_bytes() == whole


def test_other_ranks_get_a_file_of_their_own(rank_file_data, cache):
    load(rank_file_data)
    other = bpe_core.train(TEXT, unit="byte", pretokenizer="gpt2", max_merges=30, min_frequency=1)
    load(tiktoken_file.dumps(other))
    assert len(list(cache.iterdir())) == 2


def test_an_empty_folder_setting_turns_the_cache_off(rank_file_data, monkeypatch, tmp_path):
    monkeypatch.setenv("BPE_CACHE_DIR", "")
    monkeypatch.chdir(tmp_path)
    assert merge_cache.cache_dir() == ""
    assert load(rank_file_data).merges
    assert list(tmp_path.iterdir()) == []


def test_a_folder_that_cannot_be_written_is_no_error(rank_file_data, monkeypatch, tmp_path):
    blocked = tmp_path / "a file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("BPE_CACHE_DIR", str(blocked / "cache"))
    assert load(rank_file_data).encode(TEXT) == load(rank_file_data).encode(TEXT)
    assert blocked.read_text() == "not a folder"


def test_the_folder_follows_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv("BPE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert merge_cache.cache_dir() == str(tmp_path / "xdg" / "bpe-playground")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert merge_cache.cache_dir() == str(tmp_path / ".cache" / "bpe-playground")
