"""The Train page's long work, run headless with AppTest: a big corpus trained in a worker
process (and cancelled), SuperBPE's stage 2 under its own bar, its transition point following
the vocabulary size, and a corpus of long pieces ("none")."""

from __future__ import annotations

import random
import time

import pytest

from bpe_core.training import TrainingRecord
from bpe_core.training.steps import step_tables
from tests.app.test_train_page import click, frame, open_train, progress, run_of
from ui.shared import jobs, work
from ui.shared.state import make_corpus
from ui.train import background, jobs as train_jobs, runs, view


def asleep(*, report: jobs.Reporter) -> None:
    """A job that holds a worker slot and no core."""
    time.sleep(3_600)


@pytest.fixture
def busy_pool():
    """Every worker of the app's pool busy with another tab's job: new jobs wait their turn."""
    pool = work.pool()
    held = [pool.submit(f"hold{k}", "another tab", asleep) for k in range(pool.workers)]
    yield pool
    for job in held:
        pool.cancel(job)


def bars(at) -> list[str]:
    return [p.proto.text for p in at.get("progress")]


def test_superbpe_stage_2_has_its_own_bar():
    at = open_train("spanish")  # byte-level, GPT-2 regex, 500 tokens
    at.checkbox(key="train_superbpe").check().run()
    at = click(at, "train_start")
    assert len(bars(at)) == 1  # stage 2 waits for stage 1
    at = click(at, "train_finish")
    tok = run_of(at).result()
    made = len(tok.merges) - tok.config["stage1_merges"]
    assert made > 0
    stage1 = (f"SuperBPE stage 1 · Done after {tok.config['stage1_merges']:,} merges: the "
              "vocabulary reached the transition point; stage 2 follows below.")
    assert bars(at) == [stage1, f"SuperBPE stage 2 · Done after {made:,} superword merges."]


def test_the_transition_follows_the_vocabulary_size_until_the_user_sets_it():
    at = open_train("spanish")
    at.checkbox(key="train_superbpe").check().run()
    transition = at.number_input(key="train_transition")
    assert transition.value == 450  # 90 % of 500
    assert "90%" in transition.help
    at.number_input(key="train_vocab_size").set_value(2000).run()
    assert at.number_input(key="train_transition").value == 1800
    at.text_input(key="train_specials").input("<s> </s>").run()
    at.number_input(key="train_vocab_size").set_value(270).run()
    assert at.number_input(key="train_transition").value == 258  # the bytes and 2 specials
    at.number_input(key="train_transition").set_value(700).run()  # the user's own value
    at.number_input(key="train_vocab_size").set_value(3000).run()
    assert at.number_input(key="train_transition").value == 700


def test_a_corpus_of_long_pieces_trains_and_shows_its_step_tables():
    at = open_train()  # the English essays: 24 documents of about 10 KB
    at.selectbox(key="train_pretokenizer").set_value("none").run()
    at = click(at, "train_start")
    run = run_of(at)
    assert len(run.trainer.word_counts) == 24 and not run.is_small()
    assert progress(at).startswith("Merge 10 of ")  # ten merges per update, as big corpora get
    at = click(at, "train_pause")  # the tables appear
    words = frame(at, "piece")
    assert len(words) == 24
    cell = words["tokens"].iloc[0]
    first = run.tables(run.at).words[0]  # paused where the play had got to
    assert cell.endswith(f"… ({len(first.tokens):,} tokens)") and len(first.tokens) > 200
    assert words["piece"].iloc[0].endswith("…") and len(words["piece"].iloc[0]) == 301


def test_a_big_corpus_is_trained_in_a_worker_and_replayed_exactly(busy_pool):
    at = open_train()  # the English essays, 240 KB: beyond what trains in the session
    assert not train_jobs.is_small(at.session_state["corpora"][at.session_state["corpus"]])
    at.button(key="train_start").click().run()
    job = at.session_state[background.JOB][0]
    assert job.state == jobs.QUEUED  # every worker is busy: it waits its turn, and says so
    # (Progress text is Markdown: the name's brackets are escaped.)
    assert bars(at) == [r"Training on English essays \(default\) in the background…"]
    assert "train_run" not in at.session_state
    next(b for b in at.button if b.label == "Cancel").click().run()
    assert job.state == jobs.CANCELLED and job not in busy_pool.jobs()
    assert any("Training was cancelled" in i.value for i in at.info)
    for held in busy_pool.jobs("another tab"):
        busy_pool.cancel(held)

    at = click(at, "train_start")  # waits for the worker, then draws its run
    run = run_of(at)
    assert isinstance(run.trainer, TrainingRecord) and run.done
    trainer = train_jobs.trainer_for(run.settings)  # the same run, made here merge by merge
    steps = list(trainer.run(run.corpus.training_input))
    assert [(s.left_id, s.right_id, s.count, s.n_tied) for s in run.steps] == [
        (s.left_id, s.right_id, s.count, s.n_tied) for s in steps]
    for k in (0, 7, len(steps)):
        assert run.tables(k) == step_tables(trainer, k)
    assert progress(at).startswith("Merge 10 of ")  # a big run plays from the first merge


def test_training_a_small_corpus_stops_the_big_run_under_way(busy_pool):
    at = open_train()  # the English essays: trained in a worker (queued: the pool is busy)
    at.button(key="train_start").click().run()
    job = at.session_state[background.JOB][0]
    assert job.state == jobs.QUEUED
    small = make_corpus("Toy", documents=("hug pug hug hugs bun",), source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], small.name: small}
    at.session_state["corpus"] = small.name
    at.run()
    at = click(at, "train_start")  # trained here, merge by merge: the big run is replaced
    assert run_of(at).corpus.name == "Toy"
    assert job.state == jobs.CANCELLED and job not in busy_pool.jobs()


def test_superbpe_on_a_big_corpus_runs_both_stages_in_the_worker():
    at = open_train()
    at.checkbox(key="train_superbpe").check().run()
    at.number_input(key="train_vocab_size").set_value(400).run()
    at = click(at, "train_start")
    run = run_of(at)
    assert isinstance(run.trainer, TrainingRecord) and run.stage2 is None  # not made here
    tok = run.result()
    stage2 = train_jobs.stage2_for(run.corpus.training_input, run.tokenizer(), run.settings)
    list(stage2.read()), list(stage2.run())
    expected = stage2.tokenizer()
    assert [(m.left_id, m.right_id) for m in tok.merges] == [
        (m.left_id, m.right_id) for m in expected.merges]
    assert run.result_counts() == train_jobs.counts_of(stage2.trainer.token_frequencies)
    at = click(at, "train_finish")
    made = len(tok.merges) - tok.config["stage1_merges"]
    assert bars(at)[1] == f"SuperBPE stage 2 · Done after {made:,} superword merges."


def test_the_step_tables_of_many_words_are_counted_in_a_worker_when_asked():
    rng = random.Random(5)
    words = {"".join(rng.choice("abcdefghij") for _ in range(7)) for _ in range(30_000)}
    assert len(words) > runs.HUGE_CORPUS_WORDS
    at = open_train()
    corpus = make_corpus("Many words", documents=(" ".join(sorted(words)),), source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], corpus.name: corpus}
    at.session_state["corpus"] = corpus.name
    at.run()
    at.number_input(key="train_vocab_size").set_value(300).run()
    at = click(at, "train_start")
    at = click(at, "train_pause")  # at the step played to: the tables wait to be asked
    run = run_of(at)
    assert not any(df for df in at.dataframe if list(df.value.columns)[:1] == ["piece"])
    at.toggle(key=view.TABLES).set_value(True).run()
    _, job = at.session_state[view.TABLES_JOB]
    assert job.wait(timeout=120) == jobs.DONE
    at.run()
    shown = frame(at, "piece")
    counted = step_tables(run.trainer, run.at)
    assert job.result == counted and run.counted_tables(run.at) == counted
    assert list(shown["count"]) == [w.count for w in sorted(
        counted.words, key=lambda w: -w.count)][:len(shown)]
    at.toggle(key=view.TABLES).set_value(False).run()  # off: the job is forgotten
    assert view.TABLES_JOB not in at.session_state
