"""Encoding speed: bpe_core beside tiktoken, Hugging Face ``tokenizers`` and ``rs_bpe``.

    python -m benchmarks.bench_encode [--repeat 3]
    BPE_MODELS_DIR=/path/to/models python -m benchmarks.bench_encode

The encoding is OpenAI's ``cl100k_base``, made offline by ``benchmarks/openai_ranks.py`` from
GPT-4's ``tokenizer.json`` when a package holding it is installed. Without it, a 50,000-token
byte-level tokenizer with the cl100k pre-tokenizer is trained on the English corpus (once, kept
in benchmarks/output/) and only tiktoken is compared. Every engine reads the same ranks:

* tiktoken: ``Encoding(pat_str=cl100k, mergeable_ranks=load_tiktoken_bpe(file))``,
  ``encode_ordinary``;
* bpe_core: ``bpe_core.load(file, pretokenizer="cl100k")``, ``encode``;
* Hugging Face: ``Tokenizer.from_file`` on GPT-4's ``tokenizer.json``, ``encode(...).ids``;
* rs_bpe (``pip install rs_bpe``, optional): its own built-in cl100k, ``encode``.

Measured, the ids checked identical to tiktoken's each time:

* one thread, one long string: the 10.5 MB English corpus and the 2.8 MB multilingual one
  (``benchmarks/corpus.py``). Ours is timed "cold", on a tokenizer loaded afresh for each run
  (every distinct piece is encoded for the first time), and "warm", the same text again on the
  same tokenizer (pieces come from its cache). The peers keep no such cache (Hugging Face keeps
  a small one): each is timed as the best of ``--repeat`` calls;
* long single pieces, cold: ``'a' × 1,000,000`` and 300,000 random CJK ideographs (one piece
  each for cl100k), and how much longer a 200 kB piece takes than a 10 kB one of the same kind,
  and of Chinese prose with all but its Han characters taken out (~20× is linear; the issue asks
  for at most ~25×);
* all cores: 40 MB of the mixed corpus as its paragraphs, tiktoken's ``encode_ordinary_batch``
  (a thread pool) against our ``encode_batch`` (worker processes, as it starts them by default
  for this much text), and ours by default against ours on one process, in fresh processes: the
  speed-up, and the memory, as the peak PSS of the process and its workers
  (``benchmarks/pss.py``; RSS would count the memory a forked worker shares with its parent
  twice).

Throughput is MB of UTF-8 per second.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import Callable

import regex

import bpe_core
from bpe_core import workers

from .common import CORES, Row, best_of, child, clock, emit, report
from .corpus import OUTPUT, corpus_path, read_text, translation
from .pss import PssWatch
from .openai_ranks import rank_file as openai_rank_file
from .model_files import MODELS, locate

VOCAB = 50_000
ME = "benchmarks.bench_encode"
BATCH_CHARS = 40_000_000  # encode_batch's text: enough for the default to use every core
Encode = Callable[[str], list]


def trained_rank_file() -> Path:
    """The 50k cl100k-style tokenizer as a .tiktoken file, trained on first use."""
    path = OUTPUT / "en-10mb-cl100k-50k.tiktoken"
    if not path.exists():
        print(f"training the {VOCAB:,} tokenizer (once)…", flush=True)
        tok = bpe_core.train(corpus_path("en-10mb"), VOCAB, pretokenizer="cl100k", unit="byte",
                             min_frequency=2)
        bpe_core.save(tok, path, format="tiktoken")
    return path


def tiktoken_encoding(path: Path):
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    return tiktoken.Encoding("bench", pat_str=bpe_core.PRESETS["cl100k"],
                             mergeable_ranks=load_tiktoken_bpe(str(path)), special_tokens={})


def peers(path: Path, real: bool) -> dict[str, Encode]:
    """name -> encode, tiktoken first; the others only for the real cl100k, when installed."""
    out: dict[str, Encode] = {"tiktoken": tiktoken_encoding(path).encode_ordinary}
    if not real:
        return out
    from tokenizers import Tokenizer

    gpt4 = next(m for m in MODELS if m.label == "GPT-4")
    found = locate(gpt4)
    if found is None:
        print(f"skipped tokenizers: GPT-4's tokenizer.json is not installed "
              f"({gpt4.install()})")
    else:
        hf = Tokenizer.from_file(str(found))
        out["tokenizers"] = lambda text: hf.encode(text, add_special_tokens=False).ids
    try:
        from rs_bpe.bpe import openai
    except ImportError:
        print("skipped rs_bpe: not installed (pip install rs_bpe)")
    else:
        out["rs_bpe"] = openai.cl100k_base().encode
    return out


def best(repeat: int, fn: Encode, text: str) -> tuple[float, list]:
    """Fastest of ``repeat`` calls: (seconds, ids)."""
    return min((clock(fn, text) for _ in range(repeat)), key=lambda r: r[0])


def cold(path: Path, repeat: int, text: str, expected: list) -> float:
    """Fastest ``encode(text)`` on a tokenizer loaded afresh for each run; ids checked."""
    times = []
    for _ in range(repeat):
        tok = bpe_core.load(path, pretokenizer="cl100k")
        seconds, got = clock(tok.encode, text)
        if got != expected:
            raise AssertionError("bpe_core and tiktoken disagree: the ids differ")
        times.append(seconds)
    return min(times)


def paragraphs(text: str) -> list[str]:
    return [d for d in text.split("\n\n") if d]


def batch_texts() -> list[str]:
    """The first ``BATCH_CHARS`` of the mixed corpus, as its paragraphs."""
    return paragraphs(read_text("mixed-100mb")[:BATCH_CHARS])


def run_batch(path: Path, processes: int | None, memory: bool) -> None:
    """A fresh process: ``encode_batch`` of :func:`batch_texts` on ``processes`` (None: the
    default), the ids checked; its time, or (``memory``) the peak PSS of this process and its
    workers."""
    docs = batch_texts()
    expected = tiktoken_encoding(path).encode_ordinary_batch(docs, num_threads=CORES)
    tok = bpe_core.load(path, pretokenizer="cl100k")
    watcher = PssWatch.start() if memory else None  # it takes CPU time: not while timed
    seconds, got = clock(tok.encode_batch, docs, processes=processes)
    pss = watcher.stop() if watcher else None
    if got != expected:
        raise AssertionError("bpe_core and tiktoken disagree on encode_batch")
    emit(seconds=seconds, pss_mb=pss)


def cjk(n: int) -> str:
    """``n`` random CJK ideographs (U+4E00-U+9FFF), the same on every run."""
    rng = random.Random(16)
    return "".join(chr(rng.randrange(0x4E00, 0xA000)) for _ in range(n))


def chinese(n: int) -> str:
    """The first ``n`` Chinese characters of the kernel documentation's Chinese translation,
    all else taken out: one piece for cl100k, whose characters stick to each other at many
    places (random ideographs seldom do)."""
    return "".join(regex.findall(r"\p{Han}+", translation("zh_CN", 12 * n)))[:n]


def measure(repeat: int) -> list[Row]:
    real = openai_rank_file("cl100k_base")
    path = real or trained_rank_file()
    engines = peers(path, real is not None)
    tiktoken_encode = engines["tiktoken"]
    print(f"ranks: {path.name}; engines: {', '.join(['bpe_core', *engines])}")
    rows, speeds = [], []

    def speed(what: str, text: str, target: float | None) -> None:
        mb = len(text.encode("utf-8")) / 1e6
        peer_s, expected = best(repeat, tiktoken_encode, text)
        ours_cold = cold(path, repeat, text, expected)
        tok = bpe_core.load(path, pretokenizer="cl100k")
        tok.encode(text)
        ours_warm = best(repeat, tok.encode, text)[0]
        line = [f"bpe_core {mb / ours_cold:.1f} cold, {mb / ours_warm:.1f} warm"]
        for name, fn in engines.items():
            seconds, ids = best(repeat, fn, text)
            if ids != expected:
                raise AssertionError(f"{name} and tiktoken disagree on {what}")
            line.append(f"{name} {mb / seconds:.1f}")
        speeds.append(f"{what}: " + ", ".join(line) + " MB/s")
        for kind, seconds, goal in (("cold", ours_cold, target), ("warm", ours_warm, None)):
            ratio = peer_s / seconds
            rows.append(Row(f"encode {what}, 1 thread, {kind}", f"{mb / peer_s:.1f} MB/s",
                            f"{mb / seconds:.1f} MB/s", ratio,
                            f"≥ {goal}× tiktoken" if goal else "",
                            ratio >= goal if goal else None))

    speed("English 10.5 MB", read_text("en-10mb"), 1.0)
    speed("multilingual 2.8 MB", read_text("multi-2.8mb"), 0.5)

    for what, text, limit in (("'a' × 1,000,000", "a" * 1_000_000, 3.0),
                              ("300,000 random CJK", cjk(300_000), 2.0)):
        peer_s, expected = best(repeat, tiktoken_encode, text)
        ours = cold(path, repeat, text, expected)
        rows.append(Row(f"encode {what}, one piece, cold", f"{peer_s:.2f} s", f"{ours:.2f} s",
                        None, f"≤ {limit:.0f} s", ours <= limit))
    for what, make in (("'a'", lambda n: "a" * n), ("random CJK", lambda n: cjk(n // 3)),
                       ("Chinese", lambda n: chinese(n // 3))):
        small, large = make(10_000), make(200_000)
        t_small = cold(path, repeat, small, tiktoken_encode(small))
        t_large = cold(path, repeat, large, tiktoken_encode(large))
        rows.append(Row(f"one piece of {what}: 200 kB / 10 kB", "", f"{t_large / t_small:.1f}×",
                        None, "≤ 25×", t_large / t_small <= 25))

    docs = batch_texts()
    mb = sum(len(d.encode("utf-8")) for d in docs) / 1e6
    enc = tiktoken_encoding(path)
    tt_batch = min(clock(enc.encode_ordinary_batch, docs, num_threads=CORES)[0]
                   for _ in range(repeat))
    one, default = ({**best_of(repeat, lambda: child(ME, "batch", str(path), n)),
                     "pss_mb": child(ME, "batch", str(path), n, "memory")["pss_mb"]}
                    for n in ("1", "default"))
    rows.append(Row(f"encode_batch, {mb:.0f} MB of mixed text as {len(docs):,} paragraphs, "
                    f"cold, {CORES} cores", f"{mb / tt_batch:.1f} MB/s (threads)",
                    f"{mb / default['seconds']:.1f} MB/s", tt_batch / default["seconds"], ""))
    speedup = one["seconds"] / default["seconds"]
    rows.append(Row(f"the same, {CORES} processes (the default from "
                    f"{workers.BATCH_PARALLEL_MIN_CHARS / 1e6:.1f}M characters) ÷ 1: "
                    f"speed; peak PSS of the process and its workers", "",
                    f"{speedup:.2f}× faster; {default['pss_mb']:.0f} ÷ {one['pss_mb']:.0f} MB",
                    default["pss_mb"] / one["pss_mb"], "≥ 1.3× faster, < 2× memory",
                    speedup >= 1.3 and default["pss_mb"] < 2 * one["pss_mb"]))
    print("\n".join(speeds))
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("mode", nargs="?", default="all", choices=["all", "batch"])
    p.add_argument("args", nargs="*")
    p.add_argument("--repeat", type=int, default=3, help="runs per figure (best is kept)")
    a = p.parse_args()
    if a.mode == "batch":
        run_batch(Path(a.args[0]), None if a.args[1] == "default" else int(a.args[1]),
                  a.args[2:] == ["memory"])
    else:
        report(lambda: measure(a.repeat))


if __name__ == "__main__":
    main()
