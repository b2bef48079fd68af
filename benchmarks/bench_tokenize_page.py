"""How long the Tokenize page takes to re-colour a 10,000-character paste: the spans of the text
plus the coloured HTML (with the page's tooltips), under the app's default tokenizer.

    python -m benchmarks.bench_tokenize_page

"Cold" is the first pass (the tokenizer's piece cache is empty, as after a fresh paste of new
text); "warm" repeats it, as when one character is typed into text already seen. Each figure is
the median of several runs.
"""

from __future__ import annotations

import statistics
import time

import bpe_core
from ui.shared.annotate import coloured_html
from ui.shared.samples import samples
from ui.shared.state import DEFAULT_SETTINGS
from ui.tokenize.presets import presets

CHARS = 10_000
RUNS = 7


def texts() -> dict[str, str]:
    english = "\n\n".join(samples()["english"].documents())
    mixed = "\n".join(presets().values())
    return {"English prose": english[:CHARS],
            "mixed (languages, code, emoji)": (mixed * (CHARS // len(mixed) + 1))[:CHARS]}


def measure(tok: bpe_core.Tokenizer, text: str, *, cold: bool) -> tuple[float, float, int, int]:
    """Median seconds for spans and for HTML, the token count and the HTML size."""
    spans_s, html_s = [], []
    for _ in range(RUNS):
        if cold:
            tok._cache.clear()  # noqa: SLF001 -- a benchmark may reach in to start cold
        t0 = time.perf_counter()
        spans = tok.spans(text, allowed_special="all")
        t1 = time.perf_counter()
        html = coloured_html(tok, spans, text)
        t2 = time.perf_counter()
        spans_s.append(t1 - t0)
        html_s.append(t2 - t1)
    return statistics.median(spans_s), statistics.median(html_s), len(spans), len(html)


def main() -> None:
    tok = bpe_core.train(list(samples()["english"].documents()), **DEFAULT_SETTINGS)
    print(f"tokenizer: {tok!r}")
    for name, text in texts().items():
        for cold in (True, False):
            spans_s, html_s, n, size = measure(tok, text, cold=cold)
            print(f"{name:32} {len(text):,} chars, {n:,} tokens, {'cold' if cold else 'warm'}: "
                  f"spans {spans_s * 1000:6.1f} ms + HTML {html_s * 1000:6.1f} ms = "
                  f"{(spans_s + html_s) * 1000:6.1f} ms  ({size / 1000:,.0f} kB of HTML)")


if __name__ == "__main__":
    main()
