"""Loading tokenizer files: bpe_core beside tiktoken and Hugging Face ``tokenizers``.

    python -m benchmarks.bench_load [--repeat 3]
    BPE_MODELS_DIR=/path/to/models python -m benchmarks.bench_load

What is timed is one call in a fresh process, from the call to a tokenizer ready to encode (the
imports come before): ``bpe_core.load(path)``, which ends with ``prepare()`` (the cutter of
``bpe_core/cuts.py`` is built at load); for a ``.tiktoken`` file, tiktoken's own
``load_tiktoken_bpe`` then ``tiktoken.Encoding`` (its cache turned off, so it reads the file);
for a ``tokenizer.json``, ``tokenizers.Tokenizer.from_file``. Each figure is the best of
``--repeat`` fresh processes, the engines taking turns, so that all of them see the same
machine (the load average is printed first).

A rank file is timed twice for bpe_core: its first load, which recovers the merges (the cache
of ``bpe_core/formats/merge_cache.py`` turned off), and a load after that one, which reads
them from the cache (a folder in ``benchmarks/output``, filled before it is timed).

The files: OpenAI's ``cl100k_base`` and ``o200k_base`` rank files (made offline by
``benchmarks/openai_ranks.py`` from installed packages) and the largest ``tokenizer.json`` files
of ``benchmarks/model_files.py`` (Gemma 3: 262k tokens, 515k merges). A file that is not
installed is skipped, with the command that installs it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from .common import Row, child, emit, report
from .corpus import OUTPUT
from .openai_ranks import rank_file
from .model_files import MODELS, locate

#: (label, the file's source, target in seconds or None)
RANK_FILES = (("cl100k_base", "cl100k", 0.3), ("o200k_base", "o200k", 0.6))
JSON_FILES = (("Gemma 3", 1.5), ("Llama 3", None), ("Qwen 3", None), ("GPT-4o", None),
              ("DeepSeek V3", None))


#: Where the merges of the rank files are kept for the loads after the first.
MERGE_CACHE = OUTPUT / "merge-cache"


def run(engine: str, path: str, pretokenizer: str) -> None:
    """The child's side: load ``path`` once with ``engine``, print the seconds it took."""
    if engine.startswith("bpe_core"):
        os.environ["BPE_CACHE_DIR"] = "" if engine == "bpe_core first" else str(MERGE_CACHE)
        import bpe_core

        start = time.perf_counter()
        bpe_core.load(path, pretokenizer=pretokenizer or None)
    elif engine == "tiktoken":
        os.environ["TIKTOKEN_CACHE_DIR"] = ""  # read the file itself, not a cached copy
        import tiktoken
        from tiktoken.load import load_tiktoken_bpe

        from bpe_core import PRESETS

        start = time.perf_counter()
        tiktoken.Encoding("ranks", pat_str=PRESETS[pretokenizer],
                          mergeable_ranks=load_tiktoken_bpe(path), special_tokens={})
    else:
        from tokenizers import Tokenizer

        start = time.perf_counter()
        Tokenizer.from_file(path)
    emit(seconds=time.perf_counter() - start)


def timed(engines: tuple[str, ...], path: str, pretokenizer: str, repeat: int) -> list[float]:
    """The best of ``repeat`` fresh processes per engine, the engines taking turns."""
    best = [float("inf")] * len(engines)
    for _ in range(repeat):
        for k, engine in enumerate(engines):
            r = child("benchmarks.bench_load", "run", engine, path, pretokenizer, threads=1)
            best[k] = min(best[k], r["seconds"])
    return best


def row(label: str, peer_name: str, peer: float, ours: float, target: float | None) -> Row:
    return Row(f"load {label}", f"{peer_name} {peer:.2f} s", f"{ours:.2f} s", ours / peer,
               f"≤ {target} s" if target else "", None if target is None else ours <= target)


def rank_file_rows(name: str, path: str, pretokenizer: str, target: float, repeat: int
                   ) -> list[Row]:
    """A rank file's first load and a later one (its merges cached) beside tiktoken's."""
    child("benchmarks.bench_load", "run", "bpe_core", path, pretokenizer)  # fills the cache
    peer, first, cached = timed(("tiktoken", "bpe_core first", "bpe_core"), path, pretokenizer,
                                repeat)
    return [row(f"{name}.tiktoken, first time", "tiktoken", peer, first, None),
            row(f"{name}.tiktoken, merges cached", "tiktoken", peer, cached, target)]


def measure(repeat: int = 3) -> list[Row]:
    rows = []
    for name, pretokenizer, target in RANK_FILES:
        path = rank_file(name)  # says why, when it cannot be made
        if path is not None:
            rows += rank_file_rows(name, str(path), pretokenizer, target, repeat)
    for label, target in JSON_FILES:
        model = next(m for m in MODELS if m.label == label)
        path = locate(model)
        if path is None:
            print(f"skipped {label}: {model.package} is not installed ({model.install()})")
            continue
        peer, ours = timed(("tokenizers", "bpe_core"), str(path), "", repeat)
        rows.append(row(f"{label} tokenizer.json", "tokenizers", peer, ours, target))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=3, help="fresh processes per figure (best kept)")
    a = p.parse_args()
    report(lambda: measure(a.repeat))


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        run(*sys.argv[2:5])
    else:
        main()
