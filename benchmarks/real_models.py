"""Real models: bpe_core beside Hugging Face ``tokenizers`` on well-known models' tokenizer.json.

    python -m benchmarks.real_models [--repeat 1] [--model NAME ...] [--list]
    BPE_MODELS_DIR=/path/to/models python -m benchmarks.real_models

The files are the models' own ``tokenizer.json``, as registry packages ship them; nothing is
downloaded at run time and nothing is committed. Where each one is looked for is
``benchmarks/model_files.py``; a model that is not found is skipped, with the command that
installs it. The texts are ``benchmarks/model_texts.py``, the table ``benchmarks/model_report.py``.

Each model's file is loaded by ``tokenizers.Tokenizer.from_file`` and by ``bpe_core.load``, in a
fresh process per model (``TOKENIZERS_PARALLELISM=false``, ``RAYON_NUM_THREADS=1``). Then:

* ids: on a few dozen short texts (English prose, code, the 29 languages of
  ``assets/parallel/sentences.tsv``, emoji ZWJ sequences, right-to-left text, whitespace runs,
  compatibility characters, the file's own added tokens inside text), ``encode(text)`` must equal
  ``encode(text, add_special_tokens=False).ids``, ``encode(text, add_special_tokens=True)`` the
  default ``encode(text).ids``, and ``decode(ids)`` Hugging Face's ``decode(ids)``; the first
  difference is printed with a few tokens either side;
* speed, when Debian's ``linux-doc`` is installed (``benchmarks/corpus.py``): one long string,
  one thread, 2 MB of the English documentation and 0.5 MB of the Japanese, Korean and Chinese
  translations, ids checked identical too. Throughput is MB of UTF-8 per second, the best of
  ``--repeat`` calls (1 by default), each by tokenizers loaded afresh for it: caches cold (what
  each builds once per tokenizer, such as bpe_core's cutter of ``bpe_core/cuts.py``, is built
  at load, and counted in the load time);
* growth: how much longer bpe_core takes on 200 kB than on 10 kB of the same kind of text, each
  on a freshly loaded tokenizer: English prose, random CJK ideographs and one letter repeated
  (for a model with no pre-tokenizer each is a single piece); ~20x is linear, and the issue
  asks for at most ~25x.

A failure of bpe_core (a file it cannot load yet, an exception, a crash of the process) is
reported in the table for that model and the run goes on.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import time
from pathlib import Path

from .common import child, clock, emit, machine
from .model_files import MODELS, Model, locate, models_dir, node_modules
from .model_report import HEADER, Notes, cells, markdown
from .model_texts import GROWTH_LARGE, GROWTH_SMALL, growth_texts, long_texts, short_texts

CONTEXT = 3  # tokens shown either side of a difference


# --- one model, in its own process --------------------------------------------------------------

def _error(e: BaseException) -> str:
    first = (str(e).strip().splitlines() or [""])[0]
    return f"{type(e).__name__}: {first[:300]}"


def _tokens(hf, ids: list[int], k: int) -> str:
    lo = max(0, k - CONTEXT)
    shown = " ".join(("»" if i == k else "") + f"{t}:{hf.id_to_token(t)!r}"
                     for i, t in enumerate(ids[lo:k + CONTEXT + 1], start=lo))
    return ("… " if lo else "") + shown + (" …" if k + CONTEXT + 1 < len(ids) else "")


def difference(hf, text: str, what: str, enc, got: list[int]) -> str:
    """Where ``got`` first leaves Hugging Face's ids ``enc.ids``, with tokens either side."""
    want = enc.ids
    k = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    where = ""
    if k < len(want):
        start, end = enc.offsets[k]
        where = f" (text chars {start}-{end}: {text[max(0, start - 12):end + 12]!r})"
    return (f"{what}: first difference at token {k:,} of {len(want):,} (bpe_core gave "
            f"{len(got):,}){where}; tokenizers: {_tokens(hf, want, k)}; bpe_core: "
            f"{_tokens(hf, got, k)}")


def decode_difference(want: str, got: str) -> str:
    k = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
    return (f"decode: first difference at char {k:,}: tokenizers {want[max(0, k - 15):k + 15]!r}, "
            f"bpe_core {got[max(0, k - 15):k + 15]!r}")


def check(hf, ours, text: str) -> str | None:
    """None when bpe_core agrees with tokenizers on ``text``, else the first difference."""
    plain, full = hf.encode(text, add_special_tokens=False), hf.encode(text)
    calls = (("encode(text)", plain, lambda: ours.encode(text)),
             ("encode(text, add_special_tokens=True)", full,
              lambda: ours.encode(text, add_special_tokens=True)))
    for what, enc, call in calls:
        try:
            got = list(call())
        except Exception as e:  # noqa: BLE001 -- any failure of the engine is a finding
            return f"{what} raised {_error(e)}"
        if got != enc.ids:
            return difference(hf, text, what, enc, got)
    try:
        got = ours.decode(full.ids)
    except Exception as e:  # noqa: BLE001
        return f"decode raised {_error(e)}"
    want = hf.decode(full.ids)
    return None if got == want else decode_difference(want, got)


def cold(load, encode_with, repeat: int):
    """Fastest of ``repeat`` encodes, each by a tokenizer loaded afresh (its caches empty and
    nothing built yet): ``(seconds, result)``."""
    runs = []
    for _ in range(repeat):
        tok = load()
        runs.append(clock(encode_with, tok))
    return min(runs, key=lambda r: r[0])


def timed(path: str, hf, ours, text: str, repeat: int) -> dict:
    """Throughput of both on one long string, each on freshly loaded tokenizers, the ids
    checked identical."""
    import tokenizers

    import bpe_core

    mb = len(text.encode("utf-8")) / 1e6
    hf_s, enc = cold(lambda: tokenizers.Tokenizer.from_file(path),
                     lambda tok: tok.encode(text, add_special_tokens=False), repeat)
    figures = {"mb": mb, "hf_mbs": mb / hf_s}
    if ours is None:
        return figures
    try:
        ours_s, got = cold(lambda: bpe_core.load(path), lambda tok: tok.encode(text), repeat)
    except Exception as e:  # noqa: BLE001
        return figures | {"error": f"encode raised {_error(e)}"}
    figures["ours_mbs"] = mb / ours_s
    got = list(got)
    if got != enc.ids:
        return figures | {"error": difference(hf, text, "encode(text)", enc, got)}
    try:
        decoded = ours.decode(got)
    except Exception as e:  # noqa: BLE001
        return figures | {"error": f"decode raised {_error(e)}"}
    want = hf.decode(got)
    return figures | ({} if decoded == want else {"error": decode_difference(want, decoded)})


def growth(path: str, with_long: bool) -> dict[str, float]:
    """Time on the first 200 kB / time on the first 10 kB, per kind of text, each encoded by a
    tokenizer loaded afresh (its piece cache empty, its cutter built at load), after a full
    collection."""
    import bpe_core

    data = Path(path).read_bytes()
    out = {}
    for kind, text in growth_texts(with_long).items():
        times = []
        for n in (GROWTH_SMALL, GROWTH_LARGE):
            tok = bpe_core.loads(data, source=path)
            # A full collection owed to what this process did before (the checks, the speed
            # runs) would land in whichever encode comes next: it walks the heap, not the text.
            gc.collect()
            times.append(clock(tok.encode, text[:n])[0])
        out[kind] = times[1] / times[0]
    return out


def run(path: str, repeat: int, with_long: bool) -> None:
    """The child's side: one file, both tokenizers; prints one JSON object last."""
    os.environ["TOKENIZERS_PARALLELISM"] = "false"  # before tokenizers is imported
    import tokenizers

    figures: dict = {}
    figures["hf_load"], hf = clock(tokenizers.Tokenizer.from_file, path)
    ours = None
    try:
        import bpe_core

        figures["ours_load"], ours = clock(bpe_core.load, path)
    except Exception as e:  # noqa: BLE001 -- expected while bpe_core cannot read the file
        figures["load_error"] = f"bpe_core.load raised {_error(e)}"
    texts = short_texts(hf)
    figures["texts"] = len(texts)
    if ours is not None:
        differ = [(name, msg) for name, text in texts.items() if (msg := check(hf, ours, text))]
        figures["differ"] = [f"{name}: {msg}" for name, msg in differ]
        figures["growth"] = growth(path, with_long)
    if with_long:
        figures["long"] = {name: timed(path, hf, ours, text, repeat)
                           for name, text in long_texts().items()}
    emit(**figures)


# --- the command line ---------------------------------------------------------------------------


def selected(names: list[str] | None) -> list[Model]:
    if not names:
        return list(MODELS)
    chosen = [m for m in MODELS if any(n.lower() in m.label.lower() for n in names)]
    if not chosen:
        sys.exit(f"error: no model matches {', '.join(names)}; the models are: "
                 f"{', '.join(m.label for m in MODELS)}")
    return chosen


def linux_doc() -> bool:
    from .corpus import DOC, corpus_path

    if not DOC.is_dir():
        print(f"{DOC} is missing: throughput skipped (apt-get install linux-doc to measure it)")
        return False
    corpus_path("en-10mb")  # built once here, so the per-model processes only read it
    return True


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--repeat", type=int, default=1, help="timed calls per figure (best is kept)")
    p.add_argument("--model", action="append", metavar="NAME",
                   help="only the models whose label contains NAME (repeatable)")
    p.add_argument("--list", action="store_true", help="only say where each file was found")
    a = p.parse_args()
    models = selected(a.model)
    started = time.perf_counter()
    print(machine(), flush=True)
    where = models_dir()
    print(f"BPE_MODELS_DIR={where or '(not set)'}; node_modules searched: "
          f"{', '.join(map(str, node_modules())) or 'none found'}")
    found = []
    for m in models:
        path = locate(m)
        if path is None:
            print(f"skipped {m.label}: {m.package} ({m.registry}) not found; {m.install()}")
        else:
            found.append((m, path))
            if a.list:
                print(f"{m.label:24} {path}")
    if a.list or not found:
        return
    with_long = linux_doc()
    rows, notes = [], Notes()
    for m, path in found:
        print(f"… {m.label}: {path}", flush=True)
        args = ["run", str(path), str(a.repeat), "long" if with_long else "short"]
        try:
            r = child("benchmarks.real_models", *args, threads=1)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            lines = str(e).strip().splitlines()
            r = {"crash": lines[-1] if lines else type(e).__name__}
        rows.append(cells(m.label, r, notes))
    print(markdown(HEADER, rows))
    print("\n".join(notes.lines))
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        run(sys.argv[2], int(sys.argv[3]), sys.argv[4] == "long")
    else:
        main()
