"""Many users, one server: how quickly one tab's Tokenize page answers while another tab trains
a 10 MB corpus (against the same tab with the server to itself), and the server's memory with
five tabs each holding a 10 MB corpus, before and after they close.

    python -m benchmarks.bench_many_users

Everything goes through the real app: ``streamlit run app.py`` and Debian's Chromium, one
browser context per user (a Streamlit session each). The corpus is ``en-10mb`` (Debian's
``linux-doc``, see ``corpus.py``), uploaded as a file on the Corpus page.

Goals (issue "Many users, one server"): B's response while A trains within 1.5x of B alone, and
under 1 s; memory given back when the tabs close. Streamlit keeps a closed tab's session for
``server.disconnectedSessionTTL`` seconds (120 by default) in case it reconnects, and lets the
expired ones go the next time a tab disconnects: memory is read 10 s after the tabs close, and
again after that time and one more tab opened and closed.
"""

from __future__ import annotations

import re
import statistics
import time
from pathlib import Path

import bpe_core
from ui.shared.samples import samples
from ui.shared.state import DEFAULT_SETTINGS

from tests.browser.conftest import train_on_upload, upload_corpus

from .common import machine
from .corpus import corpus_path
from .served import chromium, idle, served_app

RUNS = 7
USERS = 5
TTL_S = 120  # Streamlit's server.disconnectedSessionTTL default
TEXT = ("Byte-pair encoding learns its vocabulary one merge at a time: it counts every pair of "
        "adjacent tokens and joins the most frequent pair into a new token. ") * 8


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` (MB), from the process list."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def tab(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    context.set_default_timeout(300_000)
    return context, context.new_page()


def response_s(page, text: str, tok: bpe_core.Tokenizer) -> float:
    """Seconds from Ctrl+Enter to the new text's token count shown and the page idle."""
    area = page.locator(".st-key-tok_text textarea")
    area.fill(text)
    t0 = time.perf_counter()
    area.press("Control+Enter")
    page.wait_for_function(
        "want => [...document.querySelectorAll('[data-testid=stMetricValue]')]"
        ".some(e => e.textContent === want) && document.querySelector('[data-testid=stApp]')"
        ".getAttribute('data-test-script-state') === 'notRunning'",
        arg=f"{len(tok.encode(text)):,}", timeout=120_000)
    return time.perf_counter() - t0


def main() -> None:
    print(machine())
    data = corpus_path("en-10mb").read_bytes()
    tok = bpe_core.train(list(samples()["english"].documents()), **DEFAULT_SETTINGS)
    with served_app() as (url, server), chromium() as browser:
        context_b, b = tab(browser)
        b.goto(f"{url}/tokenize")
        idle(b)
        response_s(b, TEXT, tok)  # the first answer builds the page's caches: not counted
        alone = [response_s(b, f"{TEXT} {k}", tok) for k in range(RUNS)]

        context_a, a = tab(browser)
        train_on_upload(a, url, "en-10mb.txt", data, 32_000)
        training = a.get_by_text(re.compile(r"in the background…"))
        busy, restarts = [], 0
        while len(busy) < RUNS:
            if not training.is_visible():  # A's run finished: train it again
                a.get_by_role("button", name="Start training", exact=True).click()
                training.wait_for()
                restarts += 1
            seconds = response_s(b, f"{TEXT} {len(busy) + RUNS}", tok)
            if training.is_visible():  # A trained from before B asked until B had its answer
                busy.append(seconds)
        context_a.close()

        base = rss_mb(server.pid)
        users = [tab(browser) for _ in range(USERS)]
        for _, page in users:
            upload_corpus(page, url, "en-10mb.txt", data)
        held = rss_mb(server.pid)
        for context, _ in users:
            context.close()
        context_b.close()
        time.sleep(10)
        soon = rss_mb(server.pid)
        time.sleep(TTL_S)
        context, page = tab(browser)  # its disconnect lets the expired sessions go
        page.goto(url)
        idle(page)
        context.close()
        time.sleep(5)
        later = rss_mb(server.pid)

    b_alone, b_busy = statistics.median(alone), statistics.median(busy)
    print(f"\nTokenize response in tab B ({len(TEXT):,} characters, median of {RUNS}):")
    print(f"  alone:                 {b_alone:.2f} s")
    print(f"  while tab A trains:    {b_busy:.2f} s  ({b_busy / b_alone:.2f}x; A's run started "
          f"{restarts} time(s))")
    print(f"\nServer RSS, {USERS} tabs each holding the 10.5 MB corpus:")
    print(f"  before the tabs:       {base:.0f} MB")
    print(f"  with {USERS} tabs:            {held:.0f} MB  (+{held - base:.0f} MB)")
    print(f"  10 s after they close: {soon:.0f} MB")
    print(f"  after the TTL and one more tab: {later:.0f} MB")


if __name__ == "__main__":
    main()
