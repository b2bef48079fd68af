"""The Train page, run headless with Streamlit's AppTest: settings, a live run, replay, results,
Gage's compression and the error paths; plus the page's kit (token colouring, figures, files).
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core import TokenSpan
from ui.shared import charts, tokens as colour
from ui.shared.samples import samples
from ui.shared.state import make_corpus
from ui.train import background, results as training_results

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/train.py"


# --- helpers --------------------------------------------------------------------------------


def open_train(sample_id: str | None = None) -> AppTest:
    """The app on the Train page, with a bundled sample as the active corpus."""
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    if sample_id is not None:
        s = samples()[sample_id]
        corpus = (make_corpus(s.title, counts=s.counts(), source="sample", sample=s)
                  if s.kind == "counts" else
                  make_corpus(s.title, documents=s.documents(), source="sample", sample=s))
        at.session_state["corpora"] = {**at.session_state["corpora"], corpus.name: corpus}
        at.session_state["corpus"] = corpus.name
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def click(at: AppTest, key: str) -> AppTest:
    """Click the button ``key``; a big corpus's training job is waited for and its run shown."""
    at.button(key=key).click().run()
    assert not at.exception, [e.value for e in at.exception]
    return settle(at)


def settle(at: AppTest) -> AppTest:
    """Wait for the session's training job, if one runs in a worker, then draw its result."""
    held = at.session_state[background.JOB] if background.JOB in at.session_state else None
    if held is not None and not held[0].finished:
        held[0].wait(timeout=120)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
    return at


def progress(at: AppTest) -> str:
    return at.get("progress")[0].proto.text


def headline(at: AppTest) -> str:
    return next(h.proto.body for h in at.get("html") if "<b>Merge" in h.proto.body
                or "Before any merge" in h.proto.body)


def frame(at: AppTest, first_column: str) -> pd.DataFrame:
    """The dataframe whose first column is ``first_column`` (Styler frames come back as data)."""
    for df in at.dataframe:
        value = df.value
        if list(value.columns)[:1] == [first_column]:
            return value
    raise AssertionError(f"no table starting with {first_column!r}")


def go_to(at: AppTest, step: int) -> AppTest:
    """Type ``step`` in the go-to box and submit it."""
    next(n for n in at.number_input if n.label == "Go to merge").set_value(step)
    next(b for b in at.button if b.label == "Go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def run_of(at: AppTest):
    return at.session_state["train_run"]


# --- a toy run, step by step ----------------------------------------------------------------


def test_settings_default_to_the_samples_suggestions():
    at = open_train("hug-pug")
    assert at.radio(key="train_unit").value == "char"
    assert at.selectbox(key="train_pretokenizer").value == "whitespace"
    # Named as on the Corpus page and in the loaders ('none' was "None (Gage)" here alone).
    assert at.selectbox(key="train_pretokenizer").options == [
        "GPT-2 regex", "GPT-4 regex (cl100k)", "GPT-4o regex (o200k)", "Leading-space words",
        "Whitespace words", "Words ending in </w>", "None (whole text)", "Custom regex…"]
    assert at.radio(key="train_stop_by").value == "max_merges"
    assert at.number_input(key="train_max_merges").value == 3
    assert at.number_input(key="train_min_frequency").value == 1
    at = open_train()  # the default English sample: byte-level GPT-2 to 1,000 tokens
    assert at.radio(key="train_unit").value == "byte"
    assert at.selectbox(key="train_pretokenizer").value == "gpt2"
    assert at.number_input(key="train_vocab_size").value == 1000


def test_hug_pug_start_step_and_finish():
    at = click(open_train("hug-pug"), "train_start")
    # A textbook corpus waits at merge 0, paused, with the first merge announced.
    assert progress(at) == "Merge 0 of 3 · vocabulary 8 tokens"
    assert "Before any merge" in headline(at) and "u</span> + " in headline(at)
    assert at.button(key="train_play").label == "Play"

    at = click(at, "train_step")
    assert progress(at) == "Merge 1 of 3 · vocabulary 9 tokens"
    assert "u</span> + " in headline(at) and ">ug</span>" in headline(at)
    at = click(at, "train_step")
    assert progress(at) == "Merge 2 of 3 · vocabulary 10 tokens"
    log = frame(at, "#")
    assert list(zip(log["#"], log["merge"], log["token"], log["count"])) == [
        (2, "u + n", "un", 16), (1, "u + g", "ug", 20)]
    words = frame(at, "word")
    assert list(zip(words["word"], words["tokens"], words["count"])) == [
        ("hug", "h ug", 10), ("pug", "p ug", 5), ("pun", "p un", 12), ("bun", "b un", 4),
        ("hugs", "h ug s", 5)]
    pairs = frame(at, "pair")
    assert (pairs.iloc[0]["pair"], pairs.iloc[0]["count"], pairs.iloc[0]["outcome"]) == (
        "h + ug", 15, "← merged next")
    # Every column named: a screen reader reads a cell with its header ("← merged next" alone).
    assert [c for df in at.dataframe for c in df.value.columns if not str(c).strip()] == []
    freq = frame(at, "token").set_index("token")
    assert (freq.loc["un", "frequency"], freq.loc["un", "change"]) == (16, "+16")
    assert (freq.loc["n", "frequency"], freq.loc["n", "change"]) == (0, "-16")
    assert "g" not in freq.index  # used up by merge 1: gone from the table

    at = click(at, "train_finish")
    assert progress(at) == "Done after 3 merges: it made the number of merges you asked for."
    assert [m.token for m in run_of(at).tokenizer().merges] == ["ug", "un", "hug"]
    shown = {m.label: m.value for m in at.metric}
    assert shown["Merges learned"] == "3"
    assert shown["Vocabulary size"] == "11"  # [UNK], b g h n p s u, and three merges
    assert shown["Effective vocabulary"] == "6"  # p un hug s ug b still occur
    assert at.button(key="train_play").disabled and at.button(key="train_step").disabled


def test_play_and_pause_toggle():
    at = click(open_train(), "train_start")  # a big corpus plays from the start
    assert at.button(key="train_pause").label == "Pause" and at.session_state["train_playing"]
    assert not [b for b in at.button if b.key == "train_play"]
    at = click(at, "train_pause")
    # Play is another button, not Pause relabelled: a browser's click on Pause can reach the
    # app twice (once in a playing update, once in the rerun it asks for), and a second
    # Pause under the same key ran Play's callback and played on (CI of 73dc88f).
    assert at.button(key="train_play").label == "Play"
    assert not [b for b in at.button if b.key == "train_pause"]
    assert not at.session_state["train_playing"]
    paused = run_of(at).at
    assert paused == 10
    at = click(at, "train_play")  # plays on from where it paused: one more update
    assert at.button(key="train_pause").label == "Pause" and run_of(at).at == paused + 10


def test_ties_are_named_and_highlighted():
    at = click(click(open_train("low-lower"), "train_start"), "train_step")  # end-of-word
    text = headline(at)
    assert "<b>Merge 1</b>" in text and "it beat" in text and "and 2 more on the tie rule" in text
    at = click(at, "train_finish")
    go_to(at, 0)
    pairs = frame(at, "pair")
    assert list(pairs["outcome"][:6]) == ["← merged next"] + ["tie: lost"] * 5
    assert list(pairs["count"][:6]) == [2] * 6
    assert "Before any merge" in headline(at)


def test_replay_shows_any_earlier_step():
    at = click(click(open_train("hug-pug"), "train_start"), "train_finish")
    go_to(at, 1)
    assert not at.exception
    assert "<b>Merge 1</b>" in headline(at)
    assert list(frame(at, "#")["token"]) == ["ug"]
    assert list(frame(at, "word")["tokens"])[:2] == ["h ug", "p ug"]
    assert frame(at, "pair").iloc[0]["pair"] == "u + n"  # merge 2 is next
    passage = next(h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body
                   and "title=\"id" in h.proto.body)
    assert ">ug</span>" in passage and ">un</span>" not in passage


def test_result_can_be_kept_and_downloaded():
    at = click(click(open_train("hug-pug"), "train_start"), "train_finish")
    labels = [b.label for b in at.get("download_button")]
    assert "BPE Playground JSON" in labels and "Merge log (CSV)" in labels
    name_box = next(t for t in at.text_input if t.label == "Name")
    name_box.set_value("my hug tokenizer").run()
    at = click(at, "train_keep")
    assert at.session_state["tokenizer"] == "my hug tokenizer"
    kept = at.session_state["tokenizers"]["my hug tokenizer"]
    assert [m.token for m in kept.merges] == ["ug", "un", "hug"]
    assert any("Kept as “my hug tokenizer”, now the active" in s.value for s in at.success)
    # Another active tokenizer: the page no longer calls this one active.
    at.sidebar.selectbox(key="sidebar_tokenizer").set_value("English byte-level 1k").run()
    assert any(s.value == "Kept as “my hug tokenizer”: pick it in the sidebar to use it on the "
               "other pages." for s in at.success)
    # Let go since (a tab keeps a bounded number of tokenizers): it can be kept again.
    del at.session_state["tokenizers"]["my hug tokenizer"]
    at.run()
    assert not any("Kept as" in s.value for s in at.success)
    assert at.button(key="train_keep")


def test_a_run_that_stops_short_of_its_vocabulary_is_named_by_the_size_it_reached():
    at = open_train("hug-pug")
    at.radio(key="train_stop_by").set_value("vocab_size").run()
    at.number_input(key="train_vocab_size").set_value(2000).run()
    at = click(click(at, "train_start"), "train_finish")
    size = run_of(at).result().vocab_size
    assert size < 2000
    name = next(t for t in at.text_input if t.label == "Name").value
    assert name.endswith(f"· vocab {size}") and "2000" not in name


def test_a_run_that_stops_short_of_its_merges_is_named_by_the_merges_it_made():
    at = open_train("hug-pug")  # asks for 3 merges; no pair occurs 1,000 times
    at.number_input(key="train_min_frequency").set_value(1000).run()
    at = click(at, "train_start")
    assert {m.label: m.value for m in at.metric}["Merges learned"] == "0"
    name = next(t for t in at.text_input if t.label == "Name").value
    assert name == "hug-pug · char · whitespace · 0 merges"


def test_a_format_that_cannot_hold_the_result_says_so_in_the_pages_words():
    # The caption quoted the engine's advice, "Save it in the native or Hugging Face format
    # instead.", though the page's buttons for those say "BPE Playground JSON" and "Hugging
    # Face tokenizer.json".
    at = click(click(open_train("hug-pug"), "train_start"), "train_finish")
    # (Markdown: the page escapes the engine's words, "byte\\-level".)
    assert [c.value.replace("\\", "") for c in at.caption if "is not available" in c.value] == [
        "tiktoken .tiktoken is not available for this tokenizer: tiktoken files hold byte-level "
        "BPE only; 'hug-pug · char · whitespace · 3 merges' is not byte-level. Download it as "
        "“BPE Playground JSON” or “Hugging Face tokenizer.json” instead.",
        "GPT-2 vocab.json + merges.txt is not available for this tokenizer: GPT-2 "
        "vocab.json/merges.txt files hold byte-level BPE only. Download it as “BPE Playground "
        "JSON” or “Hugging Face tokenizer.json” instead."]


def test_download_files_load_back_and_the_csv_lists_the_merges():
    at = click(click(open_train("hug-pug"), "train_start"), "train_finish")
    run = run_of(at)
    tok = run.tokenizer()
    name, data = training_results.tokenizer_file(tok, "native", "hug")
    assert name == "hug.json"
    assert [m.token for m in bpe_core.loads(data).merges] == ["ug", "un", "hug"]
    rows = list(csv.DictReader(io.StringIO(
        training_results.merge_log_csv(run).decode("utf-8-sig"))))
    # Merge 1 has rank 0, as on the page and in the files ('rank' held 1, the merge's number).
    assert [(r["merge"], r["rank"], r["left"], r["right"], r["token"], r["count"])
            for r in rows] == [("1", "0", "u", "g", "ug", "20"), ("2", "1", "u", "n", "un", "16"),
                               ("3", "2", "h", "ug", "hug", "15")]
    assert [int(r["rank"]) for r in rows] == [m.rank for m in tok.merges]


def test_multi_file_formats_download_as_a_zip():
    tok = bpe_core.train("hug pug pun bun hugs", unit="byte", max_merges=3, min_frequency=1)
    if "gpt2" not in bpe_core.formats.FORMATS:
        pytest.skip("this bpe_core has no GPT-2 file format")
    name, data = training_results.tokenizer_file(tok, "gpt2", "hug")
    assert name == "hug-gpt2.zip"
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert sorted(archive.namelist()) == ["merges.txt", "vocab.json"]
        assert json.loads(archive.read("vocab.json"))
    # Hugging Face's names: OpenAI released the same two files as encoder.json and vocab.bpe.
    assert training_results.format_help(tok, "gpt2").startswith(
        "GPT-2's two files as the Hugging Face Hub names them (OpenAI's release calls them "
        "encoder.json and vocab.bpe), in one zip. They hold no pre-tokenizer")


def test_big_corpus_tables_show_top_rows():
    at = click(open_train(), "train_start")  # English essays: 10 merges per update
    assert progress(at).startswith("Merge 10 of 744")
    assert any("appear when you pause" in c.value for c in at.caption)
    at = click(at, "train_pause")
    # GPT-2's pieces, not whitespace words: the table and its caption say so, and a newline
    # (a piece of its own) shows as ↵.
    words = frame(at, "piece")
    assert len(words) == 30 and list(words["count"]) == sorted(words["count"], reverse=True)
    assert "↵" in list(words["piece"])
    assert any(m.value == "**Pieces after 10 merges**" for m in at.markdown)
    assert any(c.value.endswith("the 30 most frequent of 5,620 distinct pieces (split by the "
                                "pre-tokenizer “GPT-2 regex”).") for c in at.caption)


# --- SuperBPE ------------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(bpe_core, "train_superbpe"), reason="no SuperBPE in bpe_core")
def test_superbpe_runs_stage_1_live_then_learns_superwords():
    at = open_train("spanish")  # byte-level, GPT-2 regex, 500 tokens
    at.checkbox(key="train_superbpe").check().run()
    at.number_input(key="train_transition").set_value(400).run()
    at = click(at, "train_start")
    assert progress(at).startswith("SuperBPE stage 1 · Merge 10 of 144")
    at = click(at, "train_finish")
    assert any(s.value == "SuperBPE stage 2: superwords" for s in at.header)
    tok = run_of(at).result()
    assert tok.config["transition"] == 400 and tok.vocab_size == 500
    stage2 = [m.token for m in tok.merges[tok.config["stage1_merges"]:]]
    assert " de los" in stage2  # a token across a space: a superword
    # Its table numbers merges as the merge log does, under "#": it said "rank" (401 for rank 400).
    [table] = [d.value for d in at.dataframe if list(d.value.columns)[:2] == ["#", "merge"]
               and d.value["#"].iloc[0] == tok.config["stage1_merges"] + 1]
    assert all("rank" not in d.value.columns for d in at.dataframe)
    assert {m.label: m.value for m in at.metric}["Vocabulary size"] == "500"
    # Stage 2 replays on the passage: 0 merges is the transition point, k merges upto n1 + k.
    n1, passage = tok.config["stage1_merges"], run_of(at).passage
    slider = next(s for s in at.slider if s.key.startswith("superbpe_step::"))
    assert slider.value == len(stage2)
    report = bpe_core.stage_report(tok, passage)
    for k, expected in ((0, report.stage1_tokens), (3, len(tok.encode(passage, upto=n1 + 3))),
                        (len(stage2), report.tokens)):
        slider.set_value(k).run()
        assert not at.exception
        captions = [c.value for c in at.caption]
        assert any(f"The passage: {expected:,} tokens after {k:,} stage-2 merges" in c
                   for c in captions), k
        assert any(c.startswith(f"Stage-2 merge {k:,} of {len(stage2):,}") for c in captions) \
            == (k > 0)
    at = click(at, "train_keep")
    assert at.session_state["tokenizers"][at.session_state["tokenizer"]].config["method"] == (
        "superbpe")


def test_superbpe_with_the_transition_at_the_vocabulary_size_says_it_is_plain_bpe():
    # It said stage 2 "made 0 more merges: tokens may now span several words", over an empty
    # table of stage 2's merges.
    at = open_train("spanish")  # byte-level, GPT-2 regex, 500 tokens
    at.checkbox(key="train_superbpe").check().run()
    at.number_input(key="train_transition").set_value(500).run()
    at = click(click(at, "train_start"), "train_finish")
    assert run_of(at).result().vocab_size == 500
    assert "Above, ordinary BPE ran to the transition point (500 tokens, 244 merges). Stage 2 " \
           "made no merges: the transition point is the vocabulary size, so the tokenizer is " \
           "ordinary BPE; set a lower transition to learn superwords." in [m.value
                                                                            for m in at.markdown]
    assert not any(c.value.startswith("Stage 2's merges") for c in at.caption)


@pytest.mark.skipif(not hasattr(bpe_core, "train_superbpe"), reason="no SuperBPE in bpe_core")
def test_superbpe_needs_running_text_and_a_sane_transition():
    assert open_train("hug-pug").checkbox(key="train_superbpe").disabled  # word counts
    at = open_train("spanish")
    at.checkbox(key="train_superbpe").check().run()
    at.number_input(key="train_transition").set_value(600).run()  # above the vocabulary size
    at = click(at, "train_start")
    assert any("transition must lie between 256" in e.value for e in at.error)


# --- error paths --------------------------------------------------------------------------


def test_invalid_custom_regex_is_explained_and_blocks_training():
    at = open_train("hug-pug")
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value("(ab").run()
    assert not at.exception
    assert any("invalid pre-tokenizer regex “(ab”" in e.value.replace("\\", "") for e in at.error)
    assert at.button(key="train_start").disabled
    at.text_input(key="train_regex").set_value(r"\w+").run()
    assert not at.error and not at.button(key="train_start").disabled
    # Groups nested deeper than the regex module's parser recurses: a traceback before.
    at.text_input(key="train_regex").set_value("(" * 10_000).run()
    assert not at.exception and at.button(key="train_start").disabled
    assert [e.value.replace("\\", "").endswith(": its groups nest too deeply to be read. Check "
                                               "brackets and escapes, or pick a preset: none, "
                                               "whitespace, end-of-word, space-prefix, gpt2, "
                                               "cl100k, o200k.") for e in at.error] == [True]


def test_a_custom_regex_that_matches_nothing_is_named_not_the_corpus():
    at = open_train("low-lower")
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value("Z{3}").run()
    at = click(at, "train_start")
    shown = [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]  # as Markdown shows it
    assert shown == ["Training cannot start: the pre-tokenizer regex “Z{3}” matches nothing in "
                     "the corpus, so there are no pieces to train on; try a pattern such as \\S+"]


def test_a_catastrophic_custom_regex_stops_in_the_preview_with_a_sentence(monkeypatch):
    monkeypatch.setattr(bpe_core.presets, "REGEX_SECONDS", 0.2)  # AppTest runs in this process
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    corpus = make_corpus("a run of a", documents=["a" * 46 + "!"], source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], corpus.name: corpus}
    at.session_state["corpus"] = corpus.name
    at.switch_page(PAGE).run()
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value(r"(?:a|aa)+$").run()
    assert not at.exception
    assert any("took more than 0.2 s on 47 characters and was stopped" in e.value.replace("\\", "")
               for e in at.error)
    assert at.button(key="train_start").disabled  # training would meet the same pattern


def test_custom_regex_preview_shows_the_pieces():
    at = open_train("set-new-renew")
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value(r"\w+").run()
    preview = next(h.proto.body for h in at.get("html") if "title=\"piece" in h.proto.body)
    assert preview.count('title="piece') == 6  # set new new renew reset renew
    assert any(c.value.startswith("6 pieces") for c in at.caption)
    at.text_input(key="train_regex").set_value(r".+").run()  # the line is one piece
    assert any(c.value.startswith("1 piece: merges never cross") for c in at.caption)


def test_vocab_size_below_the_base_alphabet_is_explained():
    at = open_train()
    at.number_input(key="train_vocab_size").set_value(100).run()
    at = click(at, "train_start")
    shown = [e.value.replace("\\", "") for e in at.error]  # as Markdown shows it
    # It named the engine's options: "Choose a vocab_size of at least 256, or set max_merges".
    assert shown == [
        "Training cannot start: the vocabulary size 100 is below the base alphabet: 256 base "
        "symbols + 0 special tokens = 256 ids before any merge. Choose a vocabulary size of 257 "
        'or more to make merges (256 makes none), or set "Stop at" to "Number of merges" '
        "instead"]
    assert "train_run" not in at.session_state


def test_a_character_vocabulary_at_or_below_its_alphabet_says_what_size_makes_merges():
    at = open_train("low-lower")  # 12 base symbols: 10 characters, </w> and [UNK]
    at.radio(key="train_stop_by").set_value("vocab_size").run()
    at.number_input(key="train_vocab_size").set_value(5).run()
    at = click(at, "train_start")
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Training cannot start: the vocabulary size 5 is below the base alphabet: 12 base "
        "symbols + 0 special tokens = 12 ids before any merge. Choose a vocabulary size of 13 "
        'or more to make merges (12 makes none), or set "Stop at" to "Number of merges" '
        "instead"]
    at.number_input(key="train_vocab_size").set_value(12).run()
    at = click(at, "train_start")  # it said only "the vocabulary reached the size you asked for"
    assert progress(at) == ("Done after 0 merges: the vocabulary size 12 is the base alphabet "
                            "alone; choose a vocabulary size of 13 or more to make merges.")



def test_a_special_unk_token_is_the_base_one_and_the_run_reaches_its_vocabulary_size():
    # "[UNK]" typed as a special token of a character-level run is the base's [UNK], no new
    # token: counted twice, the page aimed at 3 merges where training makes 4, and Step and
    # Finish stopped at "Merge 3 of 3", with no Result ever shown.
    at = open_train("low-lower")  # 12 base symbols: 10 characters, </w> and [UNK]
    at.text_input(key="train_specials").set_value("[UNK] [CLS] [SEP]").run()
    at.radio(key="train_stop_by").set_value("vocab_size").run()
    at.number_input(key="train_vocab_size").set_value(18).run()
    at = click(at, "train_start")
    assert progress(at) == "Merge 0 of 4 · vocabulary 14 tokens"
    assert "(any other character); and 2 special tokens." in headline(at)
    at = click(at, "train_finish")
    assert progress(at) == ("Done after 4 merges: the vocabulary reached the size you asked "
                            "for.")
    assert {m.label: m.value for m in at.metric}["Vocabulary size"] == "18"


def test_the_go_to_box_offers_the_merges_there_are_once_training_stopped_short():
    # A vocabulary of 1,000 on four words stops after 15 merges; the box kept offering
    # "0 – 988", the merges asked for, though the bar said "Done after 15 merges".
    at = open_train("low-lower")
    at.radio(key="train_stop_by").set_value("vocab_size").run()
    at.number_input(key="train_vocab_size").set_value(1000).run()
    at = click(at, "train_start")
    box = next(n for n in at.number_input if n.label == "Go to merge")
    assert (box.placeholder, box.max) == ("0 – 988", 988)  # not known to stop short yet
    at = click(at, "train_finish")
    assert progress(at).startswith("Done after 15 merges: no adjacent pairs are left")
    box = next(n for n in at.number_input if n.label == "Go to merge")
    assert (box.placeholder, box.max) == ("0 – 15", 15)


def test_superbpe_with_a_vocabulary_below_the_bytes_says_the_vocabulary_is_too_small():
    # It said "the SuperBPE transition must lie between 256 ... and the vocabulary size (200);
    # got 256": no transition could, and the vocabulary size was what to change.
    at = open_train("set-new-renew")
    at.radio(key="train_stop_by").set_value("vocab_size").run()
    at.number_input(key="train_vocab_size").set_value(200).run()
    at.checkbox(key="train_superbpe").check().run()
    at = click(at, "train_start")
    assert [e.value.replace("\\", "") for e in at.error] == [
        "Training cannot start: the vocabulary size 200 is below the base alphabet: 256 bytes "
        "+ 0 special tokens = 256. Choose a vocabulary size of at least 256, and a SuperBPE "
        "transition between 256 and it"]

def test_the_pre_tokenizer_notes_say_what_the_regexes_do():
    # What each note says cl100k and o200k change, on the regexes themselves.
    from ui.train.config import PRETOKENIZER_NOTES as notes
    split = bpe_core.split
    assert "numbers come in up to three digits, without the space before them" in notes["cl100k"]
    assert split(" 12345", "gpt2") == [" 12345"]
    assert split(" 12345", "cl100k") == split(" 12345", "o200k") == [" ", "123", "45"]
    assert "contractions match in any case (IT'S)" in notes["cl100k"]
    assert split("IT'S", "gpt2") == ["IT", "'", "S"] and split("IT'S", "cl100k") == ["IT", "'S"]
    assert notes["o200k"] == ("As GPT-4's, but splits CamelCase and keeps a contraction on its "
                              "word (don't).")
    assert split(" CamelCase", "cl100k") == [" CamelCase"]
    assert split(" CamelCase", "o200k") == [" Camel", "Case"]
    assert split(" don't", "cl100k") == [" don", "'t"] and split(" don't", "o200k") == [" don't"]


# --- Gage's byte-pair compression ---------------------------------------------------------


def test_gage_mode_rewrites_aaabdaaabac_to_XdXac():
    at = open_train("aaabdaaabac")
    assert at.segmented_control(key="train_mode").value == "compress"
    steps = at.code[0].value.splitlines()
    assert [line.split()[0] for line in steps] == ["aaabdaaabac", "ZabdZabac", "ZYdZYac", "XdXac"]
    assert at.code[1].value == "XdXac"
    shown = {m.label: m.value for m in at.metric}
    assert shown["Compressed data (bytes)"] == "5" and shown["Ratio"] == "0.455"  # 5 / 11
    table = frame(at, "symbol")
    assert list(zip(table["symbol"], table["stands for"], table["expands to"])) == [
        ("Z", "aa", "aa"), ("Y", "ab", "ab"), ("X", "ZY", "aaab")]
    # ZabdZabac holds Za and ab twice each: why Y is ab (61 62), not Za (FF 61), is said.
    assert any("Of pairs with the same count, the one of the smallest byte values is replaced "
               "first" in c.value for c in at.caption)
    # Here a pair is replaced from two occurrences, as in the textbook example; Gage's code
    # (THRESHOLD 3 in his compress.c) waits for three, and the page says so.
    assert any("repeat while some pair occurs at least twice and a byte value is unused. "
               "(Gage's own code waits for three occurrences: a pair replaced twice saves two "
               "bytes, what its table entry costs.)" in m.value for m in at.markdown)
    # The table of 3 pairs travels with it: 5 + 6 bytes, all that was saved.
    assert shown["With the table (bytes)"] == "11"
    assert [i.value for i in at.info] == [
        "With its table, at two bytes a pair, the result takes 11 bytes, no fewer than the "
        "input's 11: the pairs saved no more than the table costs. Byte-pair compression pays "
        "on longer texts, where each pair repeats many times."]
    at.text_area(key="train_gage_text").set_value("the cat sat on the mat " * 8).run()
    shown = {m.label: m.value for m in at.metric}
    assert int(shown["With the table (bytes)"]) < 184 and not at.info


def test_gage_mode_on_typed_text_and_on_nothing_to_compress():
    at = open_train("aaabdaaabac")
    at.text_area(key="train_gage_text").set_value("abcd").run()
    assert any("nothing to replace" in i.value for i in at.info)
    at.text_area(key="train_gage_text").set_value("").run()
    assert not at.exception and any("Type some text" in i.value for i in at.info)


def test_gage_mode_says_it_stopped_because_every_byte_value_was_taken():
    # Printable ASCII and U+00C0..U+00FF twice: 159 byte values of the text's and 97 symbols
    # take all 256 while pairs still repeat; the page said only "until no pair occurs twice".
    text = "".join(map(chr, range(0x21, 0x7F))) + "".join(map(chr, range(0xC0, 0x100)))
    at = open_train("aaabdaaabac")
    at.text_area(key="train_gage_text").set_value(text * 2).run()
    assert {m.label: m.value for m in at.metric}["Table entries"] == "97"
    shown = [i.value.replace("\\", "") for i in at.info]  # as Markdown shows it
    assert shown[:1] == ["It stopped with pairs still repeated (⟨97⟩<C3> occurs 2 times): all 256 "
                     "byte values are in use, the text's own 159 and 97 new symbols, so none is "
                     "left to stand for another pair."]
    at.text_area(key="train_gage_text").set_value("aaabdaaabac").run()
    # It stopped for want of a repeated pair: nothing more to say of why it stopped.
    assert not any("It stopped" in i.value for i in at.info)


# --- the kit: token colouring, figures, module examples ----------------------------------


def test_colouring_escapes_hostile_text_and_keeps_neighbours_apart():
    text = '<script>alert(1)</script> <img src=x onerror="alert(2)">'
    tok = bpe_core.train(text * 3, unit="byte", pretokenizer="gpt2", max_merges=20,
                         min_frequency=1)
    html = colour.tokens_html(tok.spans(text), text)
    assert "<script>" not in html and "<img" not in html and "onerror=\"" not in html
    assert "&lt;script&gt;" in html or "&lt;" in html
    colours = re.findall(r'<span class="t (c\d+)', html)  # each box's colour class
    assert len(colours) == len(tok.spans(text)) > 5
    assert all(a != b for a, b in zip(colours, colours[1:]))


def test_colouring_shows_split_characters_by_their_bytes_and_whitespace_marks():
    text = "你 a\tb\n"
    spans = [TokenSpan(1, "<E4 BD>", "你".encode()[:2], 0, 1, partial=True),
             TokenSpan(2, "<A0>", "你".encode()[2:], 0, 1, partial=True),
             TokenSpan(3, " a", b" a", 1, 3), TokenSpan(4, "\tb\n", b"\tb\n", 3, 6)]
    html = colour.tokens_html(spans, text)
    assert "&lt;E4 BD&gt;" in html and "&lt;A0&gt;" in html and "\ufffd" not in html
    assert html.count("你") == 0  # each half shows its bytes, never the whole character twice
    marks = [f'<span class="m">{c}</span>' for c in "·→↵"]
    assert all(m in html for m in marks)
    assert 'title="id 1 · bytes E4 BD · &#x27;&lt;E4 BD&gt;&#x27;"' in html
    plain = colour.tokens_html(spans, text, show_whitespace=False)
    assert marks[0] not in plain and marks[1] not in plain
    assert marks[2] in plain  # a newline token still shows as ↵ (an empty box otherwise)


def test_colouring_marks_bidi_overrides():
    text = "a\u202eb"
    html = colour.tokens_html([TokenSpan(0, text, text.encode(), 0, 3)], text,
                              show_whitespace=False)
    assert "\u202e" not in html and "U+202E" in html


def test_growth_figure_marks_the_step_shown():
    history = pd.DataFrame({"merges": [0, 1, 2], "vocab_size": [8, 9, 10], "tokens": [62, 42, 26],
                            "bytes_per_token": [1.0, 1.5, 2.4], "count": [None, 20, 16]})
    fig = charts.growth_figure(history, step=1)
    assert list(fig.data[0].y) == [62, 42, 26] and list(fig.data[2].x) == [1, 2]
    assert [s.x0 for s in fig.layout.shapes] == [1, 1]


def test_growth_figure_shows_the_single_point_before_any_merge():
    # A line through one point draws nothing: while there are few points, each is marked (and
    # not clipped at the axes, where the first sits).
    history = pd.DataFrame({"merges": [0], "vocab_size": [8], "tokens": [62],
                            "bytes_per_token": [1.0], "count": [None]})
    fig = charts.growth_figure(history, step=0)
    assert [t.mode for t in fig.data] == ["lines+markers"] * 3
    assert all(t.cliponaxis is False for t in fig.data)
    assert list(fig.data[0].y) == [62] and list(fig.data[1].y) == [1.0]  # the data as it was
    many = pd.DataFrame({"merges": range(100), "vocab_size": range(8, 108),
                         "tokens": range(200, 100, -1), "bytes_per_token": [1.0] * 100,
                         "count": [None, *range(99, 0, -1)]})
    assert [t.mode for t in charts.growth_figure(many).data] == ["lines"] * 3


def test_growth_figure_counts_merges_and_pair_counts_in_whole_numbers():
    # Plotly's own ticks on an axis from 0 to 1 or 2 fall on halves: "0.5 merges", a pair
    # counted 1.5 times. Short axes get a tick at each whole number instead.
    history = pd.DataFrame({"merges": [0, 1, 2], "vocab_size": [8, 9, 10], "tokens": [9, 7, 5],
                            "bytes_per_token": [1.0, 1.3, 1.8], "count": [None, 2, 2]})
    layout = charts.growth_figure(history, step=1).layout
    for axis in (layout.xaxis, layout.xaxis2, layout.yaxis3):
        assert (axis.tick0, axis.dtick) == (0, 1)
    many = pd.DataFrame({"merges": range(100), "vocab_size": range(8, 108),
                         "tokens": range(200, 100, -1), "bytes_per_token": [1.0] * 100,
                         "count": [None, *range(99, 0, -1)]})
    layout = charts.growth_figure(many).layout
    assert layout.xaxis2.dtick is None and layout.yaxis3.dtick is None  # plotly's, whole anyway


# --- the notation ---------------------------------------------------------------------------


def test_end_of_word_marker_shows_in_the_passage_and_the_merge_log():
    at = click(click(open_train("low-lower"), "train_start"), "train_finish")
    log = frame(at, "#")
    assert list(zip(log["merge"], log["token"]))[:2] == [("est + </w>", "est</w>"),
                                                        ("es + t", "est")]
    passage = next(h.proto.body for h in at.get("html") if "bpe-tokens" in h.proto.body
                   and "title=\"id" in h.proto.body)
    boxes = re.findall(r'data-i="\d+">(.*?)</span>', passage)
    marked = 'est<bdi dir="ltr">&lt;/w&gt;</bdi>'  # the marker reads left to right, always
    assert boxes.count(marked) == 2  # newest, widest: the merged token, marker and all
    words = frame(at, "word")
    assert list(words["tokens"]) == ["low </w>", "low e r </w>", "n e w est</w>",
                                     "w i d est</w>"]


def test_the_merge_log_csv_writes_tokens_a_spreadsheet_would_run_as_text():
    # '=' + '=' -> '==' and '-' + '1' -> '-1' went raw into the CSV: a spreadsheet ran them as
    # formulas (#NAME?) or read a number; and without a byte-order mark Excel misread UTF-8.
    at = click(click(open_train("hug-pug"), "train_start"), "train_finish")
    log = run_of(at).merge_log().head(2).assign(left=["=", "-"], right=["=", "1"],
                                                 token=["==", "-1"], tied_with=["+ + a", ""])
    data = training_results.merge_log_csv(SimpleNamespace(merge_log=lambda: log))
    assert data.startswith("\ufeff".encode("utf-8"))
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert [(r["left"], r["right"], r["token"], r["tied_with"], r["count"]) for r in rows] == [
        ("'=", "'=", "'==", "'+ + a", "20"), ("'-", "1", "'-1", "", "16")]
