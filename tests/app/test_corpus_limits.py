"""What one tab may hold on the Corpus page, run headless with AppTest: files over the upload
limit (one by one or together) and archives over the unpacking cap are refused before they are
read, a tab keeps a bounded number of corpora of its own, and a tab past its tasks is told to
wait."""

from __future__ import annotations

import gzip

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.test_corpus_page import (active_corpus, errors, finish, metrics, open_app,
                                        pick_sample, upload, words)
from ui.corpus import jobs as corpus_jobs, view


@pytest.fixture
def one_mb_limit(monkeypatch):
    """The upload limit at 1 MB (``maxUploadSize = 1``), and reading an upload fails the test:
    a file over the limit must be refused before it is read."""
    from ui.shared import upload_limit

    monkeypatch.setattr(upload_limit, "limit_mb", lambda: 1)
    monkeypatch.setattr(view, "inspect_cached", lambda *args: pytest.fail("the file was read"))


def test_a_corpus_file_over_the_limit_is_refused_with_its_size_before_it_is_read(one_mb_limit):
    at = upload(open_app(), ("big.txt", b"hug pug\n" * (3 * 2**16)))  # 1.5 MB
    assert errors(at) == [
        "big.txt is 1.5 MB, more than the 1 MB a corpus may have here. Load a part of it. "
        "A gzip-compressed copy (corpus.txt.gz) is smaller, and is unpacked here up to 512 MB. "
        "To allow more, raise `maxUploadSize` under `[server]` in `.streamlit/config.toml` and "
        "restart the app."]
    assert not any(b.key == "corpus_upload_load" for b in at.button)  # nothing to load
    assert at.session_state["corpus"] == "English essays (default)"


def test_files_over_the_limit_together_are_refused_before_any_is_read(one_mb_limit):
    at = upload(open_app(), ("a.txt", b"a" * (3 * 2**18)), ("b.txt", b"b" * (3 * 2**18)))
    assert errors(at) == [
        "Together, these 2 files are 1.5 MB, more than the 1 MB a corpus may have here. Load "
        "fewer at once (each file can be a corpus of its own). To allow more, raise "
        "`maxUploadSize` under `[server]` in `.streamlit/config.toml` and restart the app."]
    assert not any(b.key == "corpus_upload_load" for b in at.button)


def test_a_gzip_file_that_unpacks_past_the_cap_is_refused_and_nothing_is_lost(monkeypatch):
    from bpe_core.analysis import upload_text

    # Small enough to be read in the session (a worker would not see this cap, only the real one).
    monkeypatch.setattr(upload_text, "MAX_DECOMPRESSED_BYTES", 2**20)
    at = open_app()
    before = active_corpus(at)
    packed = gzip.compress(b"hug pug pun bun\n" * 100_000)  # 1.6 MB unpacked, a few kB packed
    assert len(packed) < corpus_jobs.BACKGROUND_SIZE
    at = upload(at, ("bomb.txt.gz", packed))
    assert errors(at) == ["bomb.txt.gz unpacks to more than 1 MB. Upload a smaller sample of "
                          "the corpus."]
    assert active_corpus(at) is before and at.session_state["corpus"] == before.name


def paste(at: AppTest, name: str, text: str) -> AppTest:
    at.radio(key="corpus_source").set_value("paste").run()
    at.text_area(key="corpus_paste_text").set_value(text)
    at.text_input(key="corpus_paste_name").set_value(name)
    at.button(key="corpus_paste_use").click().run()
    assert not at.exception
    return at


def test_a_session_keeps_a_bounded_number_of_its_own_corpora_and_says_which_it_lets_go(
        monkeypatch):
    from ui.shared import state

    monkeypatch.setattr(state, "MAX_OWN_CORPORA", 2)
    monkeypatch.setattr(state, "MAX_OWN_CHARACTERS", 30)
    at = pick_sample(open_app(), "hug-pug")
    at = paste(paste(at, "first", "one two"), "second", "three four")
    assert not at.toast
    at = paste(at, "*third*", "five six")  # a third corpus of its own: the first goes
    assert [t.value for t in at.toast] == [
        "“first” was let go, the oldest of this tab's corpora: a tab keeps at most 2 corpora "
        "of its own, of 30 characters together. Load it again to use it."]
    at = paste(at, "long", "x" * 25)  # 25 + 8 characters are over 30: "second" and "third" go
    assert "“\\*third\\*” was let go" in at.toast[1].value
    corpora = list(at.session_state["corpora"])
    assert corpora == ["English essays (default)", "hug / pug / pun / bun / hugs (word counts)",
                       "long"]  # samples stay
    assert at.session_state["corpus"] == "long"


def test_past_its_jobs_a_tab_is_told_to_wait_and_its_work_starts_once_one_ends(monkeypatch):
    from tests.test_jobs import rest
    from ui.shared import jobs, work

    monkeypatch.setattr(work, "session_id", lambda: "a full tab")
    held = [work.pool().submit(f"rest{k}", "a full tab", rest)
            for k in range(jobs.MAX_JOBS_PER_SESSION)]
    try:
        at = paste(open_app(), "long", words(200_000))  # over a MB: counted by a worker
        assert [w.value for w in at.warning] == [
            f"This tab already has {jobs.MAX_JOBS_PER_SESSION} tasks running; wait for one to "
            "finish, or cancel one, before starting another."]
        assert view.STATS_JOB not in at.session_state and not at.metric  # nothing else shown
        assert at.session_state["corpus"] == "long"
    finally:
        for job in held:
            work.cancel(job)
    at = finish(at.run(), view.STATS_JOB)  # a slot is free: the count starts, and ends
    assert not at.warning and metrics(at)["Words"] == "200,000"
