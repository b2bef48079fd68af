"""OpenAI's encodings by name, fetched through tiktoken's own downloader and cache.

>>> list(REFERENCE_ENCODINGS)
['gpt2', 'r50k_base', 'p50k_base', 'cl100k_base', 'o200k_base', 'o200k_harmony']
>>> REFERENCE_ENCODINGS["o200k_harmony"].models
'GPT-OSS (gpt-oss-20b, gpt-oss-120b)'
>>> REFERENCE_ENCODINGS["cl100k_base"].pretokenizer
'cl100k'

``reference_encoding("cl100k_base")`` returns a :class:`Tokenizer` with exactly tiktoken's ids,
merges recovered from the ranks (so merge trees and ``upto=k`` work). tiktoken downloads the
files once and keeps them in its cache folder; offline, the error says which file to put where.
Building the tokenizer takes seconds for the large encodings, so callers should keep it
(the app caches it with ``st.cache_resource``).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass
from urllib.parse import urlsplit

from tiktoken_ext.openai_public import ENCODING_CONSTRUCTORS

from ..gc_pause import gc_paused
from ..presets import PRESETS
from ..tokenizer import Tokenizer
from .tiktoken_file import from_ranks

_BLOB = "https://openaipublic.blob.core.windows.net"


@dataclass(frozen=True)
class ReferenceEncoding:
    """What tiktoken fetches for one encoding, and how to recognise a local copy."""

    name: str  # tiktoken's name
    title: str
    pretokenizer: str  # our preset with tiktoken's exact pattern
    special_tokens: dict[str, int]
    urls: tuple[str, ...]  # what tiktoken downloads
    rank_file: str  # a single .tiktoken file with these ranks (for a manual download)
    rank_file_sha256: str  # recognises that file whatever it is called
    models: str  # the models that read text with it


_R50K_SHA = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"
_O200K_SHA = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
_ENDOFTEXT = {"<|endoftext|>": 50256}
# GPT-OSS's chat format ("harmony") names tokens past o200k's ranks; the others up to 201,087
# are reserved (200018 has both names, as in tiktoken).
_HARMONY = ({"<|startoftext|>": 199998, "<|endoftext|>": 199999, "<|return|>": 200002,
             "<|constrain|>": 200003, "<|channel|>": 200005, "<|start|>": 200006,
             "<|end|>": 200007, "<|message|>": 200008, "<|call|>": 200012,
             "<|endofprompt|>": 200018}
            | {f"<|reserved_{i}|>": i for i in (200000, 200001, 200004, 200009, 200010, 200011)}
            | {f"<|reserved_{i}|>": i for i in range(200013, 201088)})

# In tiktoken's order. "gpt2" and "r50k_base" have the same ranks, fetched from different files
# (GPT-2's own vocab.bpe + encoder.json, or one .tiktoken file); o200k_harmony is o200k_base's
# ranks with GPT-OSS's special tokens.
REFERENCE_ENCODINGS: dict[str, ReferenceEncoding] = {
    "gpt2": ReferenceEncoding(
        "gpt2", "GPT-2 (2019)", "gpt2", _ENDOFTEXT,
        (f"{_BLOB}/gpt-2/encodings/main/vocab.bpe", f"{_BLOB}/gpt-2/encodings/main/encoder.json"),
        f"{_BLOB}/encodings/r50k_base.tiktoken", _R50K_SHA,  # r50k_base has GPT-2's ranks
        "GPT-2, from its own release files"),
    "r50k_base": ReferenceEncoding(
        "r50k_base", "GPT-3 (r50k_base)", "gpt2", _ENDOFTEXT,
        (f"{_BLOB}/encodings/r50k_base.tiktoken",), f"{_BLOB}/encodings/r50k_base.tiktoken",
        _R50K_SHA, "GPT-2 and GPT-3 (davinci, curie, babbage, ada)"),
    "p50k_base": ReferenceEncoding(
        "p50k_base", "Codex (p50k_base)", "gpt2", _ENDOFTEXT,
        (f"{_BLOB}/encodings/p50k_base.tiktoken",), f"{_BLOB}/encodings/p50k_base.tiktoken",
        "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069",
        "Codex, text-davinci-002 and text-davinci-003"),
    "cl100k_base": ReferenceEncoding(
        "cl100k_base", "GPT-4 and GPT-3.5 (cl100k_base)", "cl100k",
        {"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
         "<|fim_suffix|>": 100260, "<|endofprompt|>": 100276},
        (f"{_BLOB}/encodings/cl100k_base.tiktoken",), f"{_BLOB}/encodings/cl100k_base.tiktoken",
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        "GPT-4, GPT-3.5-turbo and text-embedding-3"),
    "o200k_base": ReferenceEncoding(
        "o200k_base", "GPT-4o (o200k_base)", "o200k",
        {"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
        (f"{_BLOB}/encodings/o200k_base.tiktoken",), f"{_BLOB}/encodings/o200k_base.tiktoken",
        _O200K_SHA, "GPT-4o, GPT-4.1, o1, o3 and o4-mini"),
    "o200k_harmony": ReferenceEncoding(
        "o200k_harmony", "GPT-OSS (o200k_harmony)", "o200k", _HARMONY,
        (f"{_BLOB}/encodings/o200k_base.tiktoken",), f"{_BLOB}/encodings/o200k_base.tiktoken",
        _O200K_SHA, "GPT-OSS (gpt-oss-20b, gpt-oss-120b)"),
}


class ReferenceUnavailableError(RuntimeError):
    """tiktoken could not fetch a reference encoding (usually: offline, nothing cached)."""


def tiktoken_cache_dir() -> str:
    """The folder tiktoken caches downloads in ("" means caching is off), by tiktoken's rule."""
    for var in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR"):
        if var in os.environ:
            return os.environ[var]
    return os.path.join(tempfile.gettempdir(), "data-gym-cache")


def cache_path(url: str) -> str:
    """Where tiktoken keeps the download of ``url``: the cache folder, named by the URL's SHA-1."""
    return os.path.join(tiktoken_cache_dir(), hashlib.sha1(url.encode()).hexdigest())


def unavailable(name: str, *, timeout: float = 3.0) -> str | None:
    """Why tiktoken could not load the encoding ``name`` now, in a few words; None if it could:
    its files are in tiktoken's cache, or their host answers (one HEAD request, no download).

    >>> unavailable("no such encoding")  # doctest: +ELLIPSIS
    'not one of gpt2, r50k_base, p50k_base, cl100k_base, o200k_base, o200k_harmony'
    """
    ref = REFERENCE_ENCODINGS.get(name)
    if ref is None:
        return f"not one of {', '.join(REFERENCE_ENCODINGS)}"
    missing = [url for url in ref.urls if not os.path.isfile(cache_path(url))]
    if not missing:
        return None
    import requests  # tiktoken downloads with it; imported here, as only this check needs it

    try:
        requests.head(missing[0], timeout=timeout, allow_redirects=True)
    except requests.RequestException as exc:
        cache = tiktoken_cache_dir() or "turned off by an empty TIKTOKEN_CACHE_DIR"
        return (f"offline ({urlsplit(missing[0]).hostname} cannot be reached: "
                f"{type(exc).__name__}) and not in tiktoken's cache ({cache})")
    return None


def identify(data: bytes) -> ReferenceEncoding | None:
    """The reference encoding whose ``.tiktoken`` file ``data`` is, by content (not name)."""
    digest = hashlib.sha256(data).hexdigest()
    return next((r for r in REFERENCE_ENCODINGS.values() if r.rank_file_sha256 == digest), None)


def reference_encoding(name: str) -> Tokenizer:
    """OpenAI's encoding ``name`` ("gpt2", "cl100k_base", "o200k_base") as a Tokenizer.

    Raises :class:`ReferenceUnavailableError` when tiktoken can neither download nor find it
    in its cache.
    """
    ref = REFERENCE_ENCODINGS.get(name)
    if ref is None:
        raise ValueError(f"unknown reference encoding {name!r}; choose one of "
                         f"{', '.join(REFERENCE_ENCODINGS)}")
    try:
        # tiktoken's own recipe for the encoding: it downloads (or reads from its cache) the
        # ranks and names the pattern and special tokens.
        params = ENCODING_CONSTRUCTORS[name]()
    except Exception as exc:  # network errors, hash mismatches, unwritable caches: all say why
        raise ReferenceUnavailableError(_offline_help(ref, exc)) from exc
    pattern = params["pat_str"]
    preset = ref.pretokenizer if PRESETS[ref.pretokenizer] == pattern else pattern
    with gc_paused(kept=True):  # many objects, none in a cycle: see gc_pause.py
        return from_ranks(params["mergeable_ranks"], pretokenizer=preset,
                          special_tokens=params["special_tokens"], name=name,
                          source=f"tiktoken's {name}").prepare()


def _offline_help(ref: ReferenceEncoding, exc: Exception) -> str:
    where = "; ".join(f"{url} as {cache_path(url)}" for url in ref.urls)
    if tiktoken_cache_dir() == "":
        where += " (TIKTOKEN_CACHE_DIR is empty, which turns tiktoken's cache off: unset it)"
    local = os.path.basename(ref.rank_file)
    return (f"cannot fetch the reference encoding {ref.name!r}: tiktoken failed with "
            f"{type(exc).__name__}: {exc}. Without internet, tiktoken reads its cache: put "
            f"{where}. Set TIKTOKEN_CACHE_DIR to use another folder. Or download "
            f"{ref.rank_file} on another machine and open that file: bpe_core.load({local!r}) "
            f"in Python, or its path in place of {ref.name!r} on the command line (the file is "
            f"recognised by its content).")
