"""The app as users meet it, for benchmarks: ``streamlit run app.py`` on a free loopback port,
and Debian's Chromium driven by Playwright (never Playwright's own browser download)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def served_app() -> Iterator[tuple[str, subprocess.Popen]]:
    """``(url, server process)`` of the app, once it answers its health check; the server and
    every process it started (job workers) are stopped at the end."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false"], cwd=ROOT, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(240):
            try:
                urllib.request.urlopen(f"{url}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        yield url, server
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextmanager
def chromium() -> Iterator:
    """A headless Chromium (Playwright's ``Browser``)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                    args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def idle(page, timeout_ms: float = 300_000) -> None:
    """Wait until the page's script run has finished (and a rerun has had time to start)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=stApp]')?.getAttribute("
        "'data-test-script-state') === 'notRunning' && !document.querySelector("
        "'[data-testid=stStatusWidget]')", timeout=timeout_ms)
