"""Long work off the session thread: one pool of worker processes for the whole server.

Streamlit runs every session's script in a thread of one process, under one GIL: a session that
trains for a minute in its own thread slows every other session's reruns, and nothing stops it
when its tab closes. Here each job runs in a worker process of its own, started from a fork
server that has already imported the engine (so starting one costs milliseconds). A process can
be stopped at any instruction, which a pure-Python merge loop in a thread cannot: cancelling a
job kills its process and frees its core at once.

The pool runs at most ``workers`` jobs at a time (one per core); later jobs wait their turn. A
thread of the pool reads every job's messages as they come (progress, streamed items, the result)
and cancels the jobs of sessions that have ended. Nothing here imports Streamlit: whether a
session is alive is a function given to the pool.

A job is a module-level function (the worker imports it by name); it gets a :class:`Reporter`
as its ``report`` keyword argument, and what it returns is the job's result::

    def square(x, *, report):
        report.progress(1.0, "squared")
        return x * x

    job = pool.submit("demo", session_id, square, 7)   # returns at once
    job.wait(timeout=30), job.result                    # ('done', 49)

The pool forgets a job once it has finished and its process is gone; the session that holds
the :class:`Job` keeps its result.
"""

from __future__ import annotations

import itertools
import os
import sys
import threading
import time
import traceback
import types
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection, wait
from typing import Any, Callable

#: How many jobs one session may hold at once (queued or running).
MAX_JOBS_PER_SESSION = 3
#: How often the pool thread looks at sessions and queued jobs when no message arrives (seconds).
TICK = 0.2
#: Modules the fork server imports once, so that every worker starts with them loaded.
PRELOAD = ["bpe_core", "bpe_core.training", "bpe_core.formats", "bpe_core.analysis.premium"]

QUEUED, RUNNING, DONE, FAILED, CANCELLED = "queued", "running", "done", "failed", "cancelled"
FINISHED = frozenset({DONE, FAILED, CANCELLED})


class TooManyJobs(RuntimeError):
    """A session asked for more jobs than it may hold at once."""


class Reporter:
    """What a job uses, in its worker, to tell the page how far it got and to stream results.

    Progress is sent at most every ``interval`` seconds (a job may report each of a million
    steps; the page needs a few updates a second)."""

    def __init__(self, conn: Connection | None, interval: float = 0.1):
        self._conn, self._interval, self._last = conn, interval, 0.0

    def progress(self, fraction: float, message: str = "") -> None:
        now = time.monotonic()
        if self._conn is not None and (now - self._last >= self._interval or fraction >= 1.0):
            self._last = now
            self._conn.send(("progress", min(max(fraction, 0.0), 1.0), message))

    def item(self, value: Any) -> None:
        """Stream one partial result (a merge, a row) to the page as soon as it is made."""
        if self._conn is not None:
            self._conn.send(("item", value))


_ids = itertools.count(1)


@dataclass(eq=False)
class Job:
    """One piece of work: its state, progress, streamed items and result, as the page sees it.

    ``args`` are let go once the worker has them (an upload's bytes need not stay in the
    server for as long as a page keeps the job); ``id`` names the job where holding the job
    itself would keep its result alive (a button's callback arguments)."""

    kind: str
    session: str
    fn: Callable
    args: tuple
    id: int = field(default_factory=lambda: next(_ids))
    state: str = QUEUED
    progress: float = 0.0
    message: str = ""
    items: list = field(default_factory=list)
    result: Any = None
    error: str = ""
    _process: Any = field(default=None, repr=False)
    _conn: Connection | None = field(default=None, repr=False)
    _finished: threading.Event = field(default_factory=threading.Event, repr=False)

    @property
    def finished(self) -> bool:
        return self.state in FINISHED

    def wait(self, timeout: float | None = None) -> str:
        """Block until the job has finished (or ``timeout`` passes); its state."""
        self._finished.wait(timeout)
        return self.state

    @property
    def pid(self) -> int | None:
        """The worker's process id while it runs (None before it starts and once collected)."""
        process = self._process
        return None if process is None else process.pid


def _work(fn: Callable, args: tuple, conn: Connection) -> None:
    """The worker side: run the job, send its result or what went wrong."""
    try:
        result = fn(*args, report=Reporter(conn))
    except Exception as exc:  # noqa: BLE001 - every failure becomes a message for the page
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        conn.send(("error", str(exc) or type(exc).__name__, detail))
    else:
        conn.send(("result", result))
    conn.close()


@contextmanager
def _bare_main():
    """While a worker starts, ``__main__`` is an empty module.

    A new process re-runs the parent's ``__main__`` file first (multiprocessing's "spawn" and
    "forkserver" start methods do, so that pickled references to it resolve). Streamlit makes
    each page run's script the ``__main__`` module and leaves it there: every worker would run
    ``app.py`` again (train the default tokenizer, draw a page, in bare mode) before its job:
    half a second to a second per job. Jobs are module-level functions of the ``ui`` and
    ``bpe_core`` packages and never need it. A session's script run may swap ``__main__`` at the
    same moment: it is put back only if it is still the empty one.
    """
    main, bare = sys.modules.get("__main__"), types.ModuleType("__main__")
    sys.modules["__main__"] = bare
    try:
        yield
    finally:
        if sys.modules.get("__main__") is bare and main is not None:
            sys.modules["__main__"] = main


class JobPool:
    """Worker processes shared by every session of the server (see the module docstring).

    ``is_alive(session)`` says whether a session still has a browser tab; jobs of a session
    that has gone are cancelled within ``TICK`` seconds."""

    def __init__(self, *, workers: int | None = None,
                 is_alive: Callable[[str], bool] = lambda session: True):
        self.workers = workers or os.cpu_count() or 1
        self.is_alive = is_alive
        self._jobs: list[Job] = []
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = get_context("spawn").Pipe(duplex=False)
        self._context = get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._closed = False
        self._thread = threading.Thread(target=self._loop, name="bpe-jobs", daemon=True)
        self._thread.start()

    # -- what sessions call ------------------------------------------------------------------

    def submit(self, kind: str, session: str, fn: Callable, *args: Any) -> Job:
        """Queue ``fn(*args, report=...)`` for ``session``. A job of the same kind that the
        session still holds is cancelled first: the user has asked for something else."""
        with self._lock:
            for job in self._jobs:
                if job.session == session and job.kind == kind and not job.finished:
                    self._cancel(job)
            held = sum(1 for j in self._jobs if j.session == session and not j.finished)
            if held >= MAX_JOBS_PER_SESSION:
                raise TooManyJobs(
                    f"This tab already has {held} tasks running; wait for one to finish, or "
                    "cancel one, before starting another.")
            job = Job(kind, session, fn, args)
            self._jobs.append(job)
        self._wake()
        return job

    def cancel(self, job: Job) -> None:
        """Stop ``job`` now: its process is killed (a no-op for a finished job). A job that had
        no process yet (queued) is forgotten at once, not on the pool thread's next pass."""
        with self._lock:
            self._cancel(job)
            self._reap()
        self._wake()

    def cancel_id(self, session: str, job_id: int) -> None:
        """Stop the job of ``session`` numbered ``job_id``, if the pool still holds it."""
        for job in self.jobs(session):
            if job.id == job_id:
                self.cancel(job)

    def cancel_session(self, session: str) -> None:
        with self._lock:
            for job in self._jobs:
                if job.session == session:
                    self._cancel(job)
            self._reap()
        self._wake()

    def jobs(self, session: str | None = None) -> list[Job]:
        """The jobs the pool holds (of one session): queued, running, or finished with their
        process not yet collected."""
        with self._lock:
            return [j for j in self._jobs if session is None or j.session == session]

    def running(self) -> int:
        with self._lock:
            return sum(1 for j in self._jobs if j.state == RUNNING)

    def shutdown(self) -> None:
        with self._lock:
            self._closed = True
            for job in self._jobs:
                self._cancel(job)
        self._wake()
        self._thread.join(timeout=5)

    # -- the pool thread ---------------------------------------------------------------------

    def _wake(self) -> None:
        try:
            self._wake_w.send_bytes(b"!")
        except OSError:  # the pool has shut down
            pass

    def _cancel(self, job: Job) -> None:
        """(Lock held.) Mark ``job`` cancelled and stop its process.

        SIGKILL, not SIGTERM: a worker holds nothing to clean up (its pipe closes with it), and
        SIGTERM would wait while the worker is stopped (SIGSTOP) or has the signal blocked,
        keeping its core busy past the second a user may wait for it."""
        if job.finished:
            return
        if job._process is not None:
            job._process.kill()
        self._finish(job, CANCELLED)

    def _finish(self, job: Job, state: str) -> None:
        job.state = state
        job._finished.set()
        if job._conn is not None:
            job._conn.close()
            job._conn = None

    def _take_queued(self) -> list[Job]:
        """(Lock held.) The queued jobs to start now, oldest first, while a worker slot is free.
        They stay queued, as the pages see them, until their worker runs (only this thread
        starts workers, and it starts these before it looks again)."""
        busy = sum(1 for j in self._jobs if j.state == RUNNING)
        return [j for j in self._jobs if j.state == QUEUED][:max(0, self.workers - busy)]

    def _launch(self, job: Job) -> None:
        """Start ``job``'s worker, without the lock: handing its arguments to the new process
        (a 10 MB corpus) takes a while, and every session's page would wait for the lock
        meanwhile. A job cancelled while its worker started has that worker killed at once."""
        recv, send = self._context.Pipe(duplex=False)
        process = self._context.Process(target=_work, args=(job.fn, job.args, send), daemon=True,
                                        name=f"bpe-job-{job.kind}")
        try:
            with _bare_main():
                process.start()
        except Exception as exc:  # noqa: BLE001 - arguments that cannot be sent, no resources
            recv.close()
            send.close()
            with self._lock:
                job.args = ()
                if not job.finished:  # (a job cancelled meanwhile stays cancelled)
                    job.error = f"its worker could not start ({type(exc).__name__})"
                    self._finish(job, FAILED)
            return
        send.close()  # the worker holds the only writing end: EOF when it exits
        with self._lock:
            job.args = ()  # the worker has them now (see Job)
            cancelled = job.finished
            if not cancelled:
                job._process, job._conn, job.state = process, recv, RUNNING
        if cancelled:
            process.kill()
            process.join()
            process.close()
            recv.close()

    def _read(self, job: Job) -> None:
        """(Lock held.) Take every message ``job`` has sent so far."""
        try:
            while job._conn is not None and job._conn.poll():
                message = job._conn.recv()
                if message[0] == "progress":
                    job.progress, job.message = message[1], message[2]
                elif message[0] == "item":
                    job.items.append(message[1])
                elif message[0] == "result":
                    job.result, job.progress = message[1], 1.0
                    self._finish(job, DONE)
                else:
                    job.error = message[1]
                    self._finish(job, FAILED)
        except (EOFError, OSError):  # the worker died without a word (killed, out of memory)
            job.error = "the worker process stopped unexpectedly (out of memory?)"
            self._finish(job, FAILED)

    def _loop(self) -> None:
        # Each pass is a method call of its own: a loop variable left in this frame, which
        # never returns, would keep the last job it named, and its result, alive.
        while self._pass():
            pass

    def _pass(self) -> bool:
        """One pass of the pool thread: False once the pool has shut down."""
        with self._lock:
            if self._closed:
                return False
            for job in self._jobs:
                if not job.finished and not self.is_alive(job.session):
                    self._cancel(job)  # its tab has closed: nobody will read the result
            starting = self._take_queued()
        for job in starting:
            self._launch(job)
        with self._lock:
            conns = [j._conn for j in self._jobs if j._conn is not None]
            # A stopped worker's sentinel is ready once it has exited: it is collected then.
            ending = [j._process.sentinel for j in self._jobs
                      if j.finished and j._process is not None]
        ready = wait([*conns, *ending, self._wake_r], timeout=TICK)
        with self._lock:
            while self._wake_r.poll():
                self._wake_r.recv_bytes()
            for job in self._jobs:
                if job._conn is not None and job._conn in ready:
                    self._read(job)
            self._reap()
        return True

    def _reap(self) -> None:
        """(Lock held.) Collect the processes of finished jobs (no zombie is left) and forget
        those jobs; one still exiting is kept until it has."""
        keep = []
        for job in self._jobs:
            process = job._process
            if job.finished and process is not None and process.exitcode is None:
                keep.append(job)
            elif job.finished:
                if process is not None:
                    process.join()
                    process.close()
                    job._process = None
            else:
                keep.append(job)
        self._jobs = keep

