"""The Train page's long work, run headless with AppTest: SuperBPE's stage 2 under its own bar,
its transition point following the vocabulary size, and a corpus of long pieces ("none")."""

from __future__ import annotations

from tests.app.test_train_page import click, frame, open_train, progress, run_of


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
    at = click(at, "train_play")  # pause: the tables appear
    words = frame(at, "piece")
    assert len(words) == 24
    cell = words["tokens"].iloc[0]
    first = run.tables(run.shown).words[0]
    assert cell.endswith(f"… ({len(first.tokens):,} tokens)") and len(first.tokens) > 200
    assert words["piece"].iloc[0].endswith("…") and len(words["piece"].iloc[0]) == 301
