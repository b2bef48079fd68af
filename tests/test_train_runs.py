"""The Train page's live run (ui/train/runs.py) without a page: long work reports its progress,
and a stop raised from a report (as Streamlit raises when the session has ended or the user has
clicked something else) leaves the run whole, to go on from where it stopped."""

from __future__ import annotations

import pytest

import bpe_core
from bpe_core.analysis.vocabulary import token_frequencies
from ui.shared.state import make_corpus
from ui.train import runs

TEXT = "the cat sat on the mat. the dog sat on the log, and the cat saw the dog.\n" * 60
SETTINGS = {"transition": None, "unit": "byte", "pretokenizer": "gpt2", "min_frequency": 2,
            "tie_break": "first", "special_tokens": (), "byte_fallback": False,
            "vocab_size": 320, "max_merges": None, "name": "test"}


class Stopped(Exception):
    """Stands for Streamlit's StopException / RerunException."""


def stop_after(n: int, calls: list):
    def report(*args):
        calls.append(args)
        if len(calls) == n:
            raise Stopped
    return report


@pytest.fixture(autouse=True)
def report_every_time(monkeypatch):
    monkeypatch.setattr(runs, "REPORT_SECONDS", 0.0)


def start(**settings) -> runs.Run:
    return runs.start(make_corpus("cats", documents=[TEXT]), {**SETTINGS, **settings})


def test_finish_reports_progress_and_resumes_after_a_stop():
    run = start()
    calls: list = []
    with pytest.raises(Stopped):
        run.finish(stop_after(3, calls))
    assert not run.done and run.shown == len(run.steps) - 1
    made = [made for made, _ in calls]
    assert made == sorted(made) and calls[-1][1] == run.target == 64
    run.finish()
    assert run.done
    expected = bpe_core.train(TEXT, 320)
    assert run.tokenizer().merges == expected.merges


def test_superbpe_stage_2_reports_both_phases_and_resumes_after_a_stop():
    run = start(transition=300)
    run.finish()
    calls: list = []
    with pytest.raises(Stopped):
        run.run_stage2(stop_after(4, calls))  # two reports while reading, two merges
    assert "superbpe" not in run.extras
    assert [c[0] for c in calls] == ["read", "read", "merge", "merge"]
    assert calls[1][1] == calls[1][2] > 0  # every piece read
    # Stage 1 ran out of pairs at 278 tokens, short of the transition (300): stage 2 has the
    # 42 merges left to the vocabulary size to make, not 320 - 300.
    assert run.tokenizer().vocab_size == 278
    assert [c[1:] for c in calls[2:]] == [(1, 42), (2, 42)]
    more: list = []
    run.run_stage2(lambda *args: more.append(args))
    expected = bpe_core.train_superbpe(TEXT, 320, transition=300)
    made = len(expected.merges) - expected.config["stage1_merges"]
    assert [c[1] for c in more] == list(range(3, made + 1))  # it went on from merge 3
    assert run.result().merges == expected.merges and run.result().config == expected.config
    freq = token_frequencies(expected, TEXT)
    assert run.result_counts() == (sum(1 for n in freq.values() if n), sum(freq.values()))


def test_a_corpus_of_long_pieces_is_not_small():
    long_pieces = start(pretokenizer="none", vocab_size=300)
    assert len(long_pieces.trainer.word_counts) == 1 and not long_pieces.is_small()
    toy = runs.start(make_corpus("toy", documents=["low lower newest"]),
                     {**SETTINGS, "unit": "char", "pretokenizer": "whitespace",
                      "vocab_size": None, "max_merges": 3})
    assert toy.is_small()


def test_a_goal_survives_an_update_that_runs_out_of_time():
    """Finish clicked while a playing update is merging: that update's time runs out before
    the last merge, and the goal must wait for the next update instead of being dropped."""
    run = start()
    run.goal = run.last
    run.drive(seconds=0.0)  # out of time at once: one more merge to show, then back
    assert 0 < run.at < run.last and run.goal == run.last
    run.drive()
    assert run.at_end and run.goal is None
