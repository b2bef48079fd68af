"""Reference encodings by name, through tiktoken's downloader and cache (no network here).

The "downloads" are small rank files the tests make, served where tiktoken reads URLs.
"""

from __future__ import annotations

import base64
import hashlib
import os

import pytest
import requests
import tiktoken
import tiktoken.load
import tiktoken.registry
import tiktoken_ext.openai_public as openai_public
from hypothesis import given

import bpe_core
from bpe_core import REFERENCE_ENCODINGS, ReferenceUnavailableError, reference_encoding
from bpe_core.formats.openai import cache_path
from bpe_core.presets import PRESETS
from tests.test_tiktoken_format import ENGLISH, ANY_TEXT, gpt2_ordered_ranks


@pytest.fixture()
def offline(monkeypatch, tmp_path):
    """No network, an empty tiktoken cache, and no encoding tiktoken built earlier."""
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})

    def no_network(url):
        raise requests.ConnectionError(f"Failed to resolve {url.split('/')[2]}")

    monkeypatch.setattr(tiktoken.load, "read_file", no_network)
    return tmp_path / "cache"


@pytest.fixture(scope="module")
def rank_file():
    """A small OpenAI-style rank file (GPT-2 byte order), standing in for a real download."""
    tok = bpe_core.train(ENGLISH, 600, unit="byte", pretokenizer="o200k")
    ranks = gpt2_ordered_ranks(tok)
    return b"".join(base64.b64encode(t) + b" %d\n" % r for t, r in ranks.items())


@pytest.fixture()
def online(offline, monkeypatch, rank_file):
    """tiktoken "downloads" our rank file (and trusts its hash, which is not OpenAI's)."""
    monkeypatch.setattr(tiktoken.load, "read_file", lambda url: rank_file)
    monkeypatch.setattr(tiktoken.load, "check_hash", lambda data, expected: True)
    return offline


@pytest.mark.parametrize("name", ["cl100k_base", "o200k_base"])
def test_offline_error_names_the_file_and_where_to_put_it(offline, name):
    url = f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
    cached = os.path.join(offline, hashlib.sha1(url.encode()).hexdigest())
    with pytest.raises(ReferenceUnavailableError) as error:
        reference_encoding(name)
    message = str(error.value)
    assert f"cannot fetch the reference encoding {name!r}" in message
    assert "ConnectionError: Failed to resolve openaipublic.blob.core.windows.net" in message
    assert f"put {url} as {cached}" in message
    assert "Set TIKTOKEN_CACHE_DIR to use another folder" in message
    # The command line gave this message too, which spoke of Python only.
    assert (f"open that file: bpe_core.load('{name}.tiktoken') in Python, or its path in place "
            f"of {name!r} on the command line (the file is recognised by its content)."
            ) in message


def test_offline_gpt2_names_both_of_its_files(offline):
    with pytest.raises(ReferenceUnavailableError) as error:
        reference_encoding("gpt2")
    message = str(error.value)
    for file in ("vocab.bpe", "encoder.json"):
        url = f"https://openaipublic.blob.core.windows.net/gpt-2/encodings/main/{file}"
        assert f"{url} as {cache_path(url)}" in message
    assert "bpe_core.load('r50k_base.tiktoken')" in message  # the same ranks in one file


def test_an_emptied_cache_setting_is_pointed_out(offline, monkeypatch):
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    with pytest.raises(ReferenceUnavailableError, match="TIKTOKEN_CACHE_DIR is empty, which turns "
                                                        "tiktoken's cache off"):
        reference_encoding("o200k_base")


def test_unknown_names_are_listed():
    with pytest.raises(ValueError, match="unknown reference encoding 'gpt5'; choose one of gpt2, "
                                         "r50k_base, p50k_base, cl100k_base, o200k_base, "
                                         "o200k_harmony"):
        reference_encoding("gpt5")


def test_fetched_encodings_give_tiktokens_ids(online):
    tok = reference_encoding("o200k_base")
    enc = tiktoken.get_encoding("o200k_base")
    assert (tok.name, tok.config["pretokenizer"], tok.special_tokens) == \
           ("o200k_base", "o200k", REFERENCE_ENCODINGS["o200k_base"].special_tokens)
    assert [tok.token_bytes(i) for i in range(3)] == [b"!", b'"', b"#"]  # GPT-2's byte order

    @given(text=ANY_TEXT)
    def same_ids(text):
        for t in (text, text + "<|endoftext|>" + ENGLISH[:300]):
            assert tok.encode(t) == enc.encode(t, allowed_special="all")

    same_ids()


def test_tiktoken_caches_the_download_and_works_offline_after(online, monkeypatch, rank_file):
    url = REFERENCE_ENCODINGS["cl100k_base"].urls[0]
    first = reference_encoding("cl100k_base")
    with open(cache_path(url), "rb") as f:  # tiktoken wrote it, under the name we tell users
        assert f.read() == rank_file
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    monkeypatch.setattr(tiktoken.load, "read_file", lambda url: pytest.fail("went online"))
    again = reference_encoding("cl100k_base")
    assert again.encode(ENGLISH[:1000]) == first.encode(ENGLISH[:1000])
    assert [m.token for m in again.merges[:3]] == [m.token for m in first.merges[:3]]


def test_our_table_matches_tiktokens_own(monkeypatch):
    """URLs, hashes, patterns and special tokens, as tiktoken's encoding constructors give them."""
    seen = {}
    monkeypatch.setattr(openai_public, "load_tiktoken_bpe",
                        lambda url, expected_hash: seen.update({url: expected_hash}) or {})
    monkeypatch.setattr(openai_public, "data_gym_to_mergeable_bpe_ranks",
                        lambda **files: seen.update(files) or {})
    for name, ref in REFERENCE_ENCODINGS.items():
        seen.clear()
        spec = getattr(openai_public, name)()
        assert PRESETS[ref.pretokenizer] == spec["pat_str"]
        assert ref.special_tokens == spec["special_tokens"]
        if name == "gpt2":
            assert ref.urls == (seen["vocab_bpe_file"], seen["encoder_json_file"])
            seen.clear()
            assert PRESETS["gpt2"] == openai_public.r50k_base()["pat_str"]
        else:
            assert ref.urls == (ref.rank_file,)
        assert seen == {ref.rank_file: ref.rank_file_sha256}


def test_an_encoding_not_cached_is_unavailable_offline(offline):
    from bpe_core.formats.openai import unavailable

    why = unavailable("cl100k_base")  # requests.head fails: the suite has no network
    assert why == (f"offline (openaipublic.blob.core.windows.net cannot be reached: "
                   f"ConnectionError) and not in tiktoken's cache ({offline})")


def test_an_encoding_in_the_cache_is_available_without_the_network(offline):
    from bpe_core.formats.openai import unavailable

    os.makedirs(offline)
    for url in REFERENCE_ENCODINGS["gpt2"].urls:  # GPT-2 needs both of its files
        with open(cache_path(url), "wb") as f:
            f.write(b"cached")
        assert (unavailable("gpt2") is None) == (url == REFERENCE_ENCODINGS["gpt2"].urls[-1])
    assert unavailable("o200k_base") is not None


def test_an_encoding_is_available_when_its_host_answers(offline, monkeypatch):
    from bpe_core.formats.openai import unavailable

    asked = []
    monkeypatch.setattr(requests, "head", lambda url, **options: asked.append(url))
    assert unavailable("o200k_base") is None
    assert asked == ["https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"]
