"""Browser-test harness: the real app in a Streamlit server, driven by Debian's Chromium.

Each pytest(-xdist) worker starts its own `streamlit run app.py` on a free loopback port and its own
Chromium, so browser tests run in parallel without sharing state. Everything collected under
tests/browser/ is marked `browser` (deselect with `-m "not browser"`).

A test usually reads:

    from tests.browser.conftest import assert_no_exception, wait_for_app

    def test_something(page, app_url):
        page.goto(app_url)
        wait_for_app(page)
        assert_no_exception(page)

The `page` fixture fails the test at teardown if the browser reported a JavaScript error or logged
a console error, and saves a screenshot of any failed test to tests/output/screenshots/.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import (Browser, BrowserContext, ConsoleMessage, Page, expect,
                                sync_playwright)
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

REPO_ROOT = Path(__file__).resolve().parents[2]
BROWSER_TESTS = Path(__file__).resolve().parent
SCREENSHOT_DIR = REPO_ROOT / "tests" / "output" / "screenshots"

CHROMIUM = "/usr/bin/chromium"
# Without the background-networking flags Chromium keeps dialling hosts this closed network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1400, "height": 1000}

SERVER_START_TIMEOUT_S = 60.0
APP_RUN_TIMEOUT_MS = 60_000
DEFAULT_TIMEOUT_MS = 30_000
# expect() waits 5 s unless told: on a machine twice as slow as ours (2026-11-30), a fresh
# server's first page drew its sidebar, and the Languages page its expander, later than that.
expect.set_options(timeout=15_000)

_REPORTS = pytest.StashKey[dict]()
# This worker's server log, quoted when the app shows an exception or hangs
# (users only see a redacted message; the traceback goes to the log).
_server_log: dict[str, Path | int] = {}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # This hook sees every collected item, not only this folder's, hence the path check.
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> Iterator:
    # Keep each phase's report on the item so `page` can tell at teardown whether the test failed.
    report = yield
    item.stash.setdefault(_REPORTS, {})[report.when] = report
    return report


# --- the app server -------------------------------------------------------------------------------


def _free_loopback_port() -> int:
    """A free loopback port: any, or the first free one of ``BPE_TEST_PORTS`` ("8500-8549")
    where a machine allows only some."""
    first, _, last = os.environ.get("BPE_TEST_PORTS", "0-0").partition("-")
    for port in range(int(first), int(last or first) + 1):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:  # taken
                continue
            return sock.getsockname()[1]
    pytest.fail(f"no free loopback port in BPE_TEST_PORTS={os.environ['BPE_TEST_PORTS']}",
                pytrace=False)


def _health_ok(url: str) -> bool:
    # An empty ProxyHandler: a proxy from the environment must not intercept loopback requests.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=2) as response:
            return response.status == 200 and response.read().strip() == b"ok"
    except (urllib.error.URLError, OSError):
        return False


def _stop(proc: subprocess.Popen) -> None:
    """Stop the server and every process it forked: it leads its own process group."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:  # the whole group is gone already
            return
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
    # The SIGKILL round also ends worker processes that outlived the server (they keep its group).


def _tail(path: Path, limit: int = 4000) -> str:
    text = path.read_text(encoding="utf-8", errors="replace")
    return text[-limit:] if text.strip() else "(empty)"


@pytest.fixture(scope="session")
def hub_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Hugging Face cache of this worker's server: empty, offline, never the machine's own.
    A test puts a model there (``tests.hub_cache.put_model``) and the server finds it."""
    return tmp_path_factory.mktemp("hub-cache")


@pytest.fixture(scope="session")
def app_url(tmp_path_factory: pytest.TempPathFactory, hub_cache: Path) -> Iterator[str]:
    """URL of `streamlit run app.py`, started from the repository root for this worker."""
    with _serve(tmp_path_factory, hub_cache, main=True) as url:
        yield url


@pytest.fixture(scope="session")
def small_upload_app_url(tmp_path_factory: pytest.TempPathFactory,
                         hub_cache: Path) -> Iterator[str]:
    """URL of a second server of this worker, whose upload limit is 1 MB
    (``--server.maxUploadSize 1``): big enough for what a test uploads, small enough to pass."""
    with _serve(tmp_path_factory, hub_cache, "--server.maxUploadSize", "1") as url:
        yield url


@contextmanager
def _serve(tmp_path_factory: pytest.TempPathFactory, hub_cache: Path, *options: str,
           main: bool = False) -> Iterator[str]:
    """Start `streamlit run app.py` with ``options``, wait until it is healthy, stop it after.
    The ``main`` server's log and process id are the ones the helpers below read."""
    port = _free_loopback_port()
    logs = tmp_path_factory.mktemp("streamlit-server")
    stdout_path, stderr_path = logs / "stdout.log", logs / "stderr.log"
    env = {
        **os.environ,
        "STREAMLIT_SERVER_FILE_WATCHER_TYPE": "none",
        "PYTHONUNBUFFERED": "1",
        "HF_HUB_CACHE": str(hub_cache),
        "HF_HUB_OFFLINE": "1",
    }
    command = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--browser.gatherUsageStats", "false",
        *options,
    ]  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    if main:
        _server_log.update(stdout=stdout_path, stderr=stderr_path)
    with open(stdout_path, "wb") as stdout, open(stderr_path, "wb") as stderr:
        proc = subprocess.Popen(
            command, cwd=REPO_ROOT, env=env, stdin=subprocess.DEVNULL, stdout=stdout,
            stderr=stderr, start_new_session=True,  # a group of its own, so _stop reaches forks too
        )
    if main:
        _server_log["pid"] = proc.pid
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _health_ok(f"{url}/_stcore/health"):
            problem = None
            if proc.poll() is not None:
                problem = f"exited with code {proc.returncode} before it was healthy"
            elif time.monotonic() > deadline:
                problem = (f"did not answer {url}/_stcore/health "
                           f"within {SERVER_START_TIMEOUT_S:.0f} s")
            if problem:
                _stop(proc)
                pytest.fail(
                    f"The Streamlit server ({' '.join(command)}, in {REPO_ROOT}) {problem}.\n"
                    f"--- server stderr ---\n{_tail(stderr_path)}\n"
                    f"--- server stdout ---\n{_tail(stdout_path)}",
                    pytrace=False,
                )
            time.sleep(0.25)
        yield url
    finally:
        _stop(proc)


# --- the browser ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Headless Debian Chromium, one per worker (never Playwright's own browser download)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(
            f"{CHROMIUM} is missing: install Debian's chromium package "
            "(`apt-get install chromium`, which `bash .ci/run` does for you).",
            pytrace=False,
        )
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """tests/output/screenshots/ (git-ignored), created on first use."""
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    return SCREENSHOT_DIR


# Opened on a page's own URL (say /vocabulary), Streamlit's frontend first probes that path as a
# possible base URL and gets a 404 for these two endpoints before it falls back to the root.
_BASE_URL_PROBE = re.compile(r"/_stcore/(health|host-config)$")


def _record_console_error(msg: ConsoleMessage, errors: list[str]) -> None:
    url = msg.location.get("url", "")
    if msg.type != "error":
        return
    if msg.text.startswith("Failed to load resource") and _BASE_URL_PROBE.search(url):
        return
    errors.append(f"console error: {msg.text} (at {url})")


# No CSS animation or transition runs in the tests' pages. Streamlit animates its "Running"
# status and fades elements while a script runs; on a machine without a GPU each frame of that is
# drawn and composited in software, and in the Train layout test that came to a sixth of
# Chromium's CPU time. No test looks at motion.
_STILL = """document.addEventListener('DOMContentLoaded', () => {
    const style = document.createElement('style');
    style.textContent = '*, *::before, *::after '
        + '{ animation: none !important; transition: none !important; }';
    document.head.appendChild(style);
});"""


def new_context(browser: Browser) -> BrowserContext:
    """A browser context of its own (a separate Streamlit session for each page in it): the
    tests' window size and time-out, and no animations."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    context.add_init_script(_STILL)
    return context


@pytest.fixture(scope="session")
def shared_context(browser: Browser) -> Iterator[BrowserContext]:
    """The browser context of the tests' pages, one per worker. Each page in it is still a
    Streamlit session of its own (a session is a page's connection), and the context keeps
    Streamlit's scripts in its cache, compiled: a context per test fetched and compiled them
    again, 1.5 s of Chromium's CPU and 0.5 s of the server's for each test."""
    context = new_context(browser)
    yield context
    context.close()


# What Streamlit keeps in the browser: the sidebar's state and width, the theme.
_FORGET = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"


@pytest.fixture
def page(shared_context: BrowserContext, request: pytest.FixtureRequest,
         screenshot_dir: Path) -> Iterator[Page]:
    """A fresh page, a new Streamlit session; fails at teardown on any JS page error or console
    error. It leaves nothing behind for the next test's page: no storage, no permission."""
    new_page = shared_context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    new_page.on("console", lambda msg: _record_console_error(msg, errors))
    yield new_page
    call = request.node.stash.get(_REPORTS, {}).get("call")
    if call is not None and call.failed:
        name = re.sub(r"[^\w.-]+", "_", request.node.nodeid)
        new_page.screenshot(path=screenshot_dir / f"FAILED-{name}.png", full_page=True)
    if not new_page.is_closed():
        try:
            new_page.evaluate(_FORGET)
        except PlaywrightError:  # a page that crashed, or is between two documents, is left so
            pass
        new_page.close()
    shared_context.clear_permissions()
    if errors:
        pytest.fail("The browser reported errors:\n" + "\n".join(errors), pytrace=False)


# --- helpers for tests ----------------------------------------------------------------------------


def upload_corpus(page: Page, app_url: str, name: str, data: bytes) -> None:
    """Upload ``data`` as the corpus file ``name`` on the Corpus page and wait until it is the
    active corpus and counted (a file of 1 MB or more is read and counted by workers)."""
    page.goto(app_url)
    wait_for_app(page)
    page.get_by_text("Upload files", exact=True).click()
    wait_for_app(page)
    page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        [{"name": name, "mimeType": "text/plain", "buffer": data}])
    wait_for_app(page)
    page.get_by_role("button", name="Load as the active corpus").click()
    page.get_by_text("It is now the active corpus", exact=False).wait_for(timeout=300_000)
    # Then counted (by a worker too): its end reruns the page, which would swallow a click.
    # (The first: while the page redraws, the last run's copy of the figures can show too.)
    page.locator('[data-testid="stMetric"]').filter(has_text="Distinct words").first.wait_for(
        timeout=300_000)
    wait_for_app(page)


def train_on_upload(page: Page, app_url: str, name: str, data: bytes, vocab_size: int) -> None:
    """:func:`upload_corpus`, then the Train page with ``vocab_size`` set, ready to start."""
    upload_corpus(page, app_url, name, data)
    page.get_by_role("link", name="Train", exact=True).click()
    wait_for_app(page)
    size = page.get_by_role("spinbutton", name=re.compile("^Vocabulary size"))
    size.fill(str(vocab_size))
    size.press("Enter")
    wait_for_app(page)


def job_workers() -> set[int]:
    """The process ids of the server's job workers (``ui/shared/jobs.py``): the children of the
    fork server that the server started, read from the process list."""
    parents: dict[int, int] = {}
    commands: dict[int, bytes] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            pid = int(stat.parent.name)
            # The parent id is the fourth field, after the command in brackets.
            parents[pid] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            commands[pid] = (stat.parent / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):  # a process that ended meanwhile
            continue
    servers = {pid for pid, parent in parents.items()
               if parent == _server_log["pid"] and b"forkserver" in commands[pid]}
    return {pid for pid, parent in parents.items() if parent in servers}

_SCRIPT_DONE = ("notRunning", "compilationError")


def _server_stderr() -> str:
    return _tail(_server_log["stderr"]) if "stderr" in _server_log else "(no server log)"


def wait_for_app(
    page: Page, *, timeout_ms: float = APP_RUN_TIMEOUT_MS, settle_ms: int = 300
) -> None:
    """Wait until the app is connected and its script has finished running (and stays finished).

    Streamlit marks its root element with `data-test-script-state` ("initial" before the first run,
    then "running" / "notRunning" ...). A rerun triggered by a click starts a moment later, so the
    finished state must hold for `settle_ms` before we trust it.
    """
    app = page.locator('[data-testid="stApp"]')
    running = page.locator('[data-testid="stStatusWidget"]')
    app.wait_for(state="attached", timeout=timeout_ms)
    deadline = time.monotonic() + timeout_ms / 1000
    finished_since = None
    while True:
        connection = app.get_attribute("data-test-connection-state")
        script = app.get_attribute("data-test-script-state")
        now = time.monotonic()
        if connection == "CONNECTED" and script in _SCRIPT_DONE and running.count() == 0:
            finished_since = now if finished_since is None else finished_since
            if now - finished_since >= settle_ms / 1000:
                return
        else:
            finished_since = None
        if now > deadline:
            pytest.fail(
                f"The app had not finished running after {timeout_ms / 1000:.0f} s "
                f"(connection {connection!r}, script {script!r}).\n"
                f"--- server stderr ---\n{_server_stderr()}",
                pytrace=False,
            )
        page.wait_for_timeout(100)


def assert_no_exception(page: Page) -> None:
    """Fail if the app shows any exception box (a user must never see one)."""
    boxes = page.locator('[data-testid="stException"]')
    if boxes.count():
        texts = "\n---\n".join(text.strip() for text in boxes.all_inner_texts())
        pytest.fail(
            f"The app shows {boxes.count()} exception(s):\n{texts}\n"
            f"--- server stderr ---\n{_server_stderr()}",
            pytrace=False,
        )


def choose(page: Page, label: str, option: str) -> None:
    """Pick ``option`` in the select box or multiselect labelled ``label`` (typing filters it).

    A rerun of the app that lands just after the click redraws the box and closes its option
    list (seen on a loaded machine), as it would for a user, who would open it again: so do we.
    The option's name goes in at once, as a paste, but for its last character, typed: typed key
    by key, each key filtered and drew the list again; pasted whole, no key opened the list when
    the click had not, and the option waited 10 s for its first try to time out.
    """
    widget = page.locator('[data-testid="stSelectbox"], [data-testid="stMultiSelect"]').filter(
        has=page.get_by_text(label, exact=True))  # by the label shown (markdown rendered)
    box = widget.get_by_role("combobox")
    wanted = page.get_by_role("option", name=option, exact=True)
    for _ in range(3):
        wait_for_app(page)
        box.click()
        box.fill(option[:-1])
        box.press_sequentially(option[-1])
        try:
            wanted.wait_for(state="visible", timeout=10_000)
            break
        except PlaywrightTimeoutError:
            box.press("Escape")
    else:
        pytest.fail(f"the option {option!r} of {label!r} never showed", pytrace=False)
    wanted.click()
    wait_for_app(page)


def switch_on(page: Page, key: str) -> None:
    """Turn on the toggle or checkbox whose widget key is ``key``.

    A rerun landing just as the click arrives redraws the widget and the click is lost (seen on
    a loaded CI machine), as a user's would be, who would click again: so do we, until it is on.
    """
    widget = page.locator(f".st-key-{key}")
    for _ in range(3):
        wait_for_app(page)
        if widget.locator("input[type=checkbox]").is_checked():
            return
        widget.locator("label").first.click()
    wait_for_app(page)
    expect(widget.locator("input[type=checkbox]")).to_be_checked()


# Where the page's frame and charts are drawn: the same twice running means the page has laid
# itself out at the window's new width (Streamlit slides its sidebar for about 200 ms).
_LAYOUT = """() => {
    const box = e => { const r = e && e.getBoundingClientRect(); return r && [r.left, r.right]; };
    const charts = [...document.querySelectorAll('.js-plotly-plot')]
        .filter(c => c.getBoundingClientRect().width);  // (not those in a closed tab)
    return {
        redrawn: charts.every(c => c._fullLayout
                              && Math.abs(c._fullLayout.width - box(c)[1] + box(c)[0]) < 2),
        frame: [box(document.querySelector('[data-testid="stMain"]')),
                box(document.querySelector('[data-testid="stSidebar"]'))],
    };
}"""


def resize(page: Page, width: int, height: int = VIEWPORT["height"]) -> None:
    """Make the window ``width`` × ``height`` and wait until the page is laid out for it: as a
    fresh load at that size lays it out (the sidebar shut below 768 px, open above), every chart
    in sight redrawn to its new width. No rerun of the app: a resize costs the server nothing."""
    page.set_viewport_size({"width": width, "height": height})
    deadline = time.monotonic() + DEFAULT_TIMEOUT_MS / 1000
    last = None
    while True:
        page.wait_for_timeout(50)
        now = page.evaluate(_LAYOUT)
        if now["redrawn"] and now == last:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"the page was still laying itself out at {width} px: {now}",
                        pytrace=False)
        last = now


def open_page(page: Page, app_url: str, path: str, heading: str) -> None:
    """Go straight to a page's address (as a shared link does) and check it rendered."""
    page.goto(f"{app_url}/{path}")
    wait_for_app(page)
    assert_no_exception(page)
    expect(page.get_by_role("heading", name=heading)).to_be_visible()
