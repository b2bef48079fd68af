"""The worker-process pool: results, progress, streamed items, errors, cancelling and limits."""

from __future__ import annotations

import os
import sys
import threading
import time
import types
from contextlib import contextmanager

import pytest

from ui.shared import jobs
from ui.shared.jobs import CANCELLED, DONE, FAILED, JobPool, TooManyJobs


def square(x: int, *, report: jobs.Reporter) -> int:
    report.progress(0.5, "half way")
    report.item(x)
    return x * x


def spin(*, report: jobs.Reporter) -> None:
    """Busy for ever in pure Python, as a long merge loop is."""
    report.progress(0.1, "spinning")
    while True:
        pass


def rest(*, report: jobs.Reporter) -> None:
    """Holds its slot for ever without using a core."""
    report.progress(0.1, "resting")
    time.sleep(3600)


def fail(*, report: jobs.Reporter) -> None:
    raise ValueError("the pattern took too long on this text")


def die(*, report: jobs.Reporter) -> None:
    os._exit(3)


@pytest.fixture
def pool():
    alive: set[str] = {"a", "b"}
    p = JobPool(workers=2, is_alive=alive.__contains__)
    p.alive = alive
    yield p
    p.shutdown()


def gone(pid: int, within: float = 5.0) -> bool:
    """Whether process ``pid`` has exited (and been collected) within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def started(job: jobs.Job, within: float = 30.0) -> int:
    """The pid of ``job``'s worker once it runs and has reported."""
    deadline = time.monotonic() + within
    while (job.pid is None or job.progress == 0) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert job.pid is not None, job
    return job.pid


def test_a_job_returns_its_result_progress_and_items(pool):
    job = pool.submit("square", "a", square, 12)
    assert job.wait(timeout=30) == DONE
    assert (job.result, job.items, job.progress) == (144, [12], 1.0)


def test_a_failing_job_gives_a_message_not_a_traceback(pool):
    job = pool.submit("fail", "a", fail)
    assert job.wait(timeout=30) == FAILED
    assert job.error == "the pattern took too long on this text"


def test_a_worker_that_dies_fails_its_job_with_a_sentence(pool):
    job = pool.submit("die", "a", die)
    assert job.wait(timeout=30) == FAILED
    assert "stopped unexpectedly" in job.error


def test_cancel_frees_the_core_at_once(pool):
    job = pool.submit("spin", "a", spin)
    pid = started(job)
    assert job.message == "spinning"
    pool.cancel(job)
    assert job.state == CANCELLED
    assert gone(pid, within=1.0)  # the second: killed, and collected as it exits


def test_cancel_ends_even_a_stopped_worker_within_a_second(pool):
    import signal

    job = pool.submit("spin", "a", spin)
    pid = started(job)
    os.kill(pid, signal.SIGSTOP)  # a stopped process would keep a SIGTERM pending for ever
    pool.cancel(job)
    assert gone(pid, within=1.0)


def test_a_closed_session_loses_its_jobs(pool):
    job = pool.submit("spin", "b", spin)
    other = pool.submit("spin", "a", spin)
    pid = started(job)
    pool.alive.discard("b")  # the tab of session b closes
    assert job.wait(timeout=5) == CANCELLED
    assert gone(pid)
    assert not other.finished
    pool.cancel(other)


def test_new_work_of_the_same_kind_replaces_the_old(pool):
    first = pool.submit("train", "a", spin)
    pid = started(first)
    second = pool.submit("train", "a", square, 3)
    assert first.state == CANCELLED and gone(pid)
    assert second.wait(timeout=30) == DONE and second.result == 9


def test_a_session_holds_a_bounded_number_of_jobs(pool):
    held = [pool.submit(f"kind{k}", "a", spin) for k in range(jobs.MAX_JOBS_PER_SESSION)]
    with pytest.raises(TooManyJobs, match="wait for one to finish"):
        pool.submit("one more", "a", spin)
    assert pool.submit("spin", "b", spin).state in ("queued", "running")  # others are not held up
    pool.cancel_session("a")
    pool.cancel_session("b")
    assert all(j.state == CANCELLED for j in held)


def test_jobs_past_the_worker_count_wait_their_turn(pool):
    busy = [pool.submit("spin", s, spin) for s in ("a", "b")]
    for job in busy:
        started(job)
    queued = pool.submit("square", "a", square, 5)
    time.sleep(0.5)  # the pool thread has had two ticks to start it, were a worker free
    assert queued.state == "queued" and pool.running() == 2
    pool.cancel(busy[0])
    assert queued.wait(timeout=30) == DONE
    pool.cancel(busy[1])


def test_finished_jobs_are_forgotten_once_collected(pool):
    job = pool.submit("square", "a", square, 2)
    job.wait(timeout=30)
    deadline = time.monotonic() + 5
    while pool.jobs() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert pool.jobs() == [] and job.result == 4 and job.pid is None


def test_a_worker_does_not_run_the_pages_script_again(pool, tmp_path, monkeypatch):
    # Streamlit leaves the page's script as __main__; a new process would re-run that file.
    marker = tmp_path / "ran"
    script = tmp_path / "page.py"
    script.write_text(f"open({str(marker)!r}, 'w').close()\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    job = pool.submit("square", "a", square, 5)
    assert job.wait(timeout=60) == DONE and job.result == 25
    assert not marker.exists()
    assert sys.modules["__main__"] is page  # put back once the worker has started


def test_a_started_job_lets_go_of_its_arguments(pool):
    # The worker has them; the server need not keep, say, an upload's bytes while a page
    # keeps the job for its result.
    job = pool.submit("square", "a", square, 6)
    assert job.wait(timeout=60) == DONE and job.result == 36
    assert job.args == ()


def test_cancel_by_number_stops_only_that_sessions_job(pool):
    job = pool.submit("spin", "a", spin)
    pid = started(job)
    pool.cancel_id("b", job.id)  # another session's number: nothing happens
    assert job.state == jobs.RUNNING
    pool.cancel_id("a", job.id)
    assert job.state == CANCELLED and gone(pid)


@pytest.fixture
def slow_start(pool, monkeypatch):
    """Workers that start only once ``go`` is set (``entered`` says one is starting), and the
    pid of each, as a large job's arguments keep a start busy for a while."""
    entered, go, made, pids = threading.Event(), threading.Event(), [], []
    real, context = jobs._bare_main, pool._context

    @contextmanager
    def held():  # around a worker's start
        entered.set()
        go.wait(60)
        with real():
            yield
        pids.append(made[-1].pid)

    class Recording:  # the pool's start-up context, keeping each worker it makes
        Pipe = staticmethod(context.Pipe)

        @staticmethod
        def Process(*args, **kwargs):
            made.append(context.Process(*args, **kwargs))
            return made[-1]

    monkeypatch.setattr(jobs, "_bare_main", held)
    monkeypatch.setattr(pool, "_context", Recording)
    yield types.SimpleNamespace(entered=entered, go=go, pids=pids)
    go.set()


def test_starting_a_worker_leaves_the_pool_to_other_sessions(pool, slow_start):
    job = pool.submit("square", "a", square, 3)
    assert slow_start.entered.wait(30)  # the pool thread is starting its worker
    answered, other = threading.Event(), []
    threading.Thread(target=lambda: (other.append(pool.submit("square", "b", square, 4)),
                                     answered.set()), daemon=True).start()
    # Another session is answered while that start is still held (it waited for it before).
    assert answered.wait(10) and not slow_start.go.is_set()
    slow_start.go.set()
    assert job.wait(timeout=60) == DONE and job.result == 9
    assert other[0].wait(timeout=60) == DONE and other[0].result == 16


def test_a_job_cancelled_while_its_worker_starts_has_that_worker_killed(pool, slow_start):
    job = pool.submit("spin", "a", spin)
    assert slow_start.entered.wait(30)
    pool.cancel(job)
    assert job.state == CANCELLED
    slow_start.go.set()
    deadline = time.monotonic() + 30
    while not slow_start.pids and time.monotonic() < deadline:
        time.sleep(0.02)
    [pid] = slow_start.pids
    assert gone(pid) and pool.jobs() == []


def test_a_job_whose_worker_cannot_start_fails_and_the_pool_goes_on(pool):
    job = pool.submit("square", "a", square, threading.Lock())  # cannot be sent to a process
    assert job.wait(timeout=30) == FAILED
    assert job.error == "its worker could not start (TypeError)"
    after = pool.submit("square", "b", square, 7)
    assert after.wait(timeout=60) == DONE and after.result == 49
