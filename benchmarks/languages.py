"""How long the Languages page takes to show every number for the bundled parallel sample
(32 sentences x 29 languages) with four tokenizers. The target is under 2 seconds.

    python -m benchmarks.languages

Prints three figures:

* engine: ``count_tokens`` + ``measure`` for the four tokenizers, nothing cached (the table,
  the bars, the heatmap, the per-sentence boxes and the vocabulary use all come from these);
* page, first view: the whole Languages page in Streamlit's AppTest with the four tokenizers
  chosen, caches empty (this adds the vocabulary-size curve and the vocabulary scripts);
* page, rerun: the same page again, as after any click (everything cached).

The four tokenizers: the session's default (byte-level, 1,000), one trained on the parallel
sample (byte-level, 2,000), a character-level one with ``[UNK]`` (600) and a larger byte-level
one (8,000), all trained on the bundled English essays before the clock starts.
"""

from __future__ import annotations

import time
from pathlib import Path

import bpe_core
from bpe_core.analysis import premium
from ui.shared.samples import parallel_sample, samples

APP = str(Path(__file__).resolve().parent.parent / "app.py")


def tokenizers() -> list[bpe_core.Tokenizer]:
    english = list(samples()["english"].documents())
    sample = parallel_sample()
    sentences = [s for column in sample.columns for s in column]
    return [
        bpe_core.train(english, 1000, unit="byte", pretokenizer="gpt2", name="English 1k"),
        bpe_core.train(sentences, 2000, unit="byte", pretokenizer="gpt2", name="Parallel 2k"),
        bpe_core.train(english, 600, unit="char", pretokenizer="end-of-word", name="Char 600"),
        bpe_core.train(english, 8000, unit="byte", pretokenizer="gpt2", name="English 8k"),
    ]


def engine(toks: list[bpe_core.Tokenizer]) -> float:
    sample = parallel_sample()
    start = time.perf_counter()
    for tok in toks:
        premium.measure(sample, premium.count_tokens(tok, sample), baseline="en")
    return time.perf_counter() - start


def page(toks: list[bpe_core.Tokenizer]) -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=300)
    at.run()
    # The session's default tokenizer stands in for toks[0] (trained with the same settings).
    for tok in toks[1:]:
        at.session_state["tokenizers"][tok.name] = tok
    at.session_state["lang_tokenizers"] = list(at.session_state["tokenizers"])
    start = time.perf_counter()
    at.switch_page("app_pages/languages.py").run()
    first = time.perf_counter() - start
    assert not at.exception and len(at.dataframe[0].value) == 4 * len(parallel_sample().codes)
    start = time.perf_counter()
    at.run()
    return first, time.perf_counter() - start


def main() -> None:
    toks = tokenizers()
    sample = parallel_sample()
    print(f"{sample.n_sentences} sentences x {len(sample.codes)} languages x {len(toks)} "
          f"tokenizers ({', '.join(t.name for t in toks)})")
    print(f"engine, nothing cached:     {engine(toks):.2f} s")
    toks = tokenizers()  # fresh encoders again, so the page starts cold too
    first, rerun = page(toks)
    print(f"page, first view (cold):    {first:.2f} s")
    print(f"page, rerun (cached):       {rerun:.2f} s")


if __name__ == "__main__":
    main()
