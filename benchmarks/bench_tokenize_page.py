"""How long the Tokenize page takes to show a long paste of 10,000 and of 100,000 tokens, under the
app's default tokenizer.

    python -m benchmarks.bench_tokenize_page            # the server's share
    python -m benchmarks.bench_tokenize_page --browser  # and the browser's (/usr/bin/chromium)

The server's share: the spans of the text ("cold", the tokenizer's piece cache empty, as after a
fresh paste), the coloured HTML of the page of tokens drawn (``view.PAGE_TOKENS`` at most), and
the whole page script as Streamlit's AppTest runs it. The browser's share: from pressing
Ctrl+Enter in a real Chromium until the boxes are drawn and the app is idle, the script included.
Each figure is the median of several runs.

Measured on the 2-core build machine (load average about 7 from other work, so the figures are
high), ``--browser``, pages of 5,000 tokens:

    27,944 chars, 10,002 tokens: spans 113 ms, page HTML 255 ms (968 kB), page script 141 ms,
        in Chromium 611 ms
    279,446 chars, 99,580 tokens: spans 608 ms, page HTML 65 ms (968 kB), page script 733 ms,
        in Chromium 2346 ms

Before pages and the scroll box, 142,000 tokens made 23 MB of HTML (1.4 s to build, and the
browser had to lay out every box), and the page took no more than 20,000 characters.
"""

from __future__ import annotations

import argparse
import pickle
import statistics
import time
from pathlib import Path

import bpe_core
from ui.shared.annotate import coloured_html
from ui.shared.samples import samples
from ui.shared.state import DEFAULT_SETTINGS
from ui.tokenize import view
from ui.tokenize.data import pages

ROOT = Path(__file__).resolve().parents[1]
TOKENS = (10_000, 100_000)
RUNS = 5


def text_of(tok: bpe_core.Tokenizer, tokens: int) -> str:
    """English prose (the default corpus, repeated) cut to about ``tokens`` tokens."""
    english = "\n\n".join(samples()["english"].documents())
    per_char = len(tok.encode(english[:20_000])) / 20_000
    text = english * (int(tokens / per_char) // len(english) + 1)
    return text[:int(tokens / per_char)]


def median_s(run, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        run()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def server(tok: bpe_core.Tokenizer, text: str) -> dict[str, float]:
    """Seconds for the spans (cold), the page's HTML, and the page script (AppTest)."""
    from streamlit.testing.v1 import AppTest

    def cold_spans():
        fresh = pickle.loads(pickle.dumps(tok))  # the same tokenizer, its caches empty
        t0 = time.perf_counter()
        fresh.spans(text)
        return time.perf_counter() - t0

    spans = tok.spans(text)
    window = pages(len(spans), view.PAGE_TOKENS)[0]
    html = coloured_html(tok, spans, text, window=window)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.run()
    at.switch_page("app_pages/tokenize.py").run()

    def page_run():
        at.text_area(key="tok_text").set_value(text + " ").run()  # a change, so it reruns
        at.text_area(key="tok_text").set_value(text).run()

    return {"tokens": len(spans), "spans": statistics.median(cold_spans() for _ in range(RUNS)),
            "html": median_s(lambda: coloured_html(tok, spans, text, window=window)),
            "html_kb": len(html) / 1000, "page": median_s(page_run, 3) / 2}


def browser(tok: bpe_core.Tokenizer, text: str) -> float:
    """Median seconds from Ctrl+Enter to the boxes drawn, in Chromium against a live server."""
    from .served import chromium, served_app

    with served_app() as (url, _), chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/tokenize")
        page.wait_for_selector(".bpe-pick [data-i]", timeout=120_000)
        area = page.locator(".st-key-tok_text textarea")
        times = []
        for k in range(RUNS):
            variant = text + " " * (k + 1)  # a new text every time
            area.fill(variant)
            t0 = time.perf_counter()
            area.press("Control+Enter")
            # Done when the count of the new text shows, its boxes are drawn and the app idles.
            page.wait_for_function(
                "want => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
                ".some(e => e.textContent === want) && document.querySelector("
                "'.bpe-pick [data-i]') && document.querySelector('[data-testid=stApp]')"
                ".getAttribute('data-test-script-state') === 'notRunning'",
                arg=f"{len(tok.spans(variant)):,}", timeout=120_000)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--browser", action="store_true", help="also time the page in Chromium")
    a = p.parse_args()
    tok = bpe_core.train(list(samples()["english"].documents()), **DEFAULT_SETTINGS)
    print(f"tokenizer: {tok!r}; a page draws {view.PAGE_TOKENS:,} tokens at most")
    for tokens in TOKENS:
        text = text_of(tok, tokens)
        f = server(tok, text)
        line = (f"{len(text):,} chars, {f['tokens']:,} tokens: spans {f['spans'] * 1000:.0f} ms, "
                f"page HTML {f['html'] * 1000:.0f} ms ({f['html_kb']:,.0f} kB), page script "
                f"{f['page'] * 1000:.0f} ms")
        if a.browser:
            line += f", in Chromium {browser(tok, text) * 1000:.0f} ms"
        print(line, flush=True)


if __name__ == "__main__":
    main()
