"""Holding a page's background job still, so that a test clicks Cancel while it surely works.

A job on a few MB ends within a second, perhaps before the test's next click. :class:`Hold`
watches the server's job pool from a thread and stops (SIGSTOP) the worker of the next job of a
kind the moment it starts; :meth:`Hold.cancel` then clicks its Cancel button and checks that
its process is gone.
"""

from __future__ import annotations

import os
import signal
import threading
import time

from streamlit.testing.v1 import AppTest

from tests.test_jobs import gone
from ui.shared import work
from ui.shared.jobs import Job


class Hold:
    """Stop the worker of the next job of ``kind`` as soon as it starts (see the module)."""

    def __init__(self, kind: str):
        self.kind = kind
        self.job: Job | None = None
        self.pid = 0
        self._pool = work.pool()  # created here, in the test's thread: the pages share it
        self._before = {id(job) for job in self._pool.jobs()}  # other tests' jobs, left alone
        self._caught = threading.Event()
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for job in self._pool.jobs():
                pid = job.pid
                if (job.kind == self.kind and id(job) not in self._before and not job.finished
                        and pid is not None):
                    os.kill(pid, signal.SIGSTOP)
                    self.job, self.pid = job, pid
                    self._caught.set()
                    return
            time.sleep(0.001)

    def held(self) -> Job:
        """The job, its worker stopped (waits for it to start)."""
        assert self._caught.wait(timeout=30), f"no {self.kind} job started"
        assert self.job is not None and self.job.state == "running"
        return self.job

    def cancel(self, at: AppTest) -> None:
        """Click the held job's Cancel button and check that the job is cancelled and its
        process gone within a second (the pool's SIGKILL ends a stopped process too)."""
        job = self.held()
        at.button(key=f"cancel_{job.id}").click().run()
        assert job.state == "cancelled" and gone(self.pid, within=1.0)

