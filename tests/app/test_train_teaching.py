"""The Train page as a teacher uses it: a textbook demo stepped from merge 0, typed word counts,
the user's own sentence, compact metric cards, stale runs, and the page's address (a reload).
"""

from __future__ import annotations

import json
import re
import threading

import bpe_core
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from bpe_core.training.superbpe import default_transition
from tests.app.test_train_page import (APP, PAGE, click, frame, go_to, headline, open_train,
                                       progress, run_of)
from ui.shared import metrics
from ui.shared.columns import PICK_PX, text_px
from ui.shared.state import make_corpus
from ui.train import runs, view

HF_COURSE = "hug 10, pug 5, pun 12, bun 4, hugs 5"
BUTTONS = ("train_restart", "train_back", "train_play", "train_step", "train_finish")


def disabled(at: AppTest) -> dict[str, bool]:
    return {key: at.button(key=key).disabled for key in BUTTONS}


def segmented(at: AppTest) -> list[list[str]]:
    """The texts of the token boxes of each segmented text on the page (passage first)."""
    bodies = [h.proto.body for h in at.get("html") if 'title="id ' in h.proto.body]
    return [re.findall(r'title="id \d+ · bytes [^·"]* · &#x27;(.*?)&#x27;', b) for b in bodies]


# --- stepping a textbook demo -------------------------------------------------------------


def test_a_textbook_demo_starts_paused_at_merge_0_and_steps_both_ways():
    at = click(open_train("hug-pug"), "train_start")
    assert progress(at) == "Merge 0 of 3 · vocabulary 8 tokens"
    assert at.button(key="train_play").label == "Play" and not at.session_state["train_playing"]
    assert disabled(at) == {"train_restart": True, "train_back": True, "train_play": False,
                            "train_step": False, "train_finish": False}
    assert "The first merge will join" in headline(at) and "(20 times)" in headline(at)

    for expected in ("Merge 1 of 3", "Merge 2 of 3"):
        at = click(at, "train_step")
        assert progress(at).startswith(expected)
    assert list(frame(at, "#")["token"]) == ["un", "ug"]
    at = click(at, "train_back")
    assert progress(at) == "Merge 1 of 3 · vocabulary 9 tokens"
    assert "<b>Merge 1</b> (rank 0): " in headline(at) and list(frame(at, "#")["token"]) == ["ug"]
    assert any(c.value.startswith("1 merge; each line") for c in at.caption)  # not "1 merges"
    assert frame(at, "pair").iloc[0]["pair"] == "u + n"  # merge 2 comes next, as before

    at = go_to(at, 3)  # the go-to box jumps to any step
    assert progress(at) == "Done after 3 merges: it made the number of merges you asked for."
    assert disabled(at) == {"train_restart": False, "train_back": False, "train_play": True,
                            "train_step": True, "train_finish": True}
    at = go_to(at, 0)
    assert "Before any merge" in headline(at) and disabled(at)["train_back"]
    at = go_to(at, 2)
    assert progress(at).startswith("Merge 2 of 3") and not disabled(at)["train_step"]
    # Stepping back leaves the result in place: training itself is finished.
    assert {m.label for m in at.metric} >= {"Merges learned", "Vocabulary size"}

    at = click(at, "train_restart")
    assert progress(at) == "Merge 0 of 3 · vocabulary 8 tokens"
    assert run_of(at).at == 0 and not at.session_state["train_playing"]
    at = go_to(at, 2)  # the same step asked for again goes there again
    assert progress(at).startswith("Merge 2 of 3")


def test_play_and_pause_from_merge_0():
    at = click(click(open_train("old-finest"), "train_start"), "train_play")
    # Playing makes one merge per update here; AppTest runs one update per click.
    assert at.button(key="train_pause").label == "Pause" and at.session_state["train_playing"]
    assert progress(at).startswith("Merge 1 of 5")
    at = click(at, "train_pause")
    assert at.button(key="train_play").label == "Play" and not at.session_state["train_playing"]
    assert progress(at).startswith("Merge 1 of 5")
    at = click(at, "train_step")
    assert progress(at).startswith("Merge 2 of 5")
    at = click(at, "train_finish")
    assert progress(at).startswith("Done after 5 merges")
    assert at.button(key="train_play").disabled
    at = click(at, "train_back")
    assert progress(at).startswith("Merge 4 of 5") and not at.button(key="train_play").disabled
    at = click(at, "train_play")  # plays the last merge and stops by itself
    assert progress(at).startswith("Done after 5 merges")
    assert at.button(key="train_play").label == "Play" and not at.session_state["train_playing"]


SENNRICH = ("low low low low low lower lower newest newest newest newest newest newest widest "
            "widest widest")


def test_merge_0_names_the_base_symbols_that_the_vocabulary_size_counts():
    # 10 letters make 12 tokens: </w> and [UNK] are in the vocabulary too, and said to be.
    at = open_link(corpus_text=SENNRICH, unit="char", pretokenizer="end-of-word",
                   stop_by="max_merges", max_merges="15", min_frequency="1", step="0")
    assert progress(at) == "Merge 0 of 15 · vocabulary 12 tokens"
    assert ("The vocabulary holds 12 base symbols: 10 characters of the corpus, &lt;/w&gt; "
            "(ends each word) and [UNK] (any other character).") in headline(at)


def test_a_merge_of_overlapping_pairs_says_where_it_merged_and_what_its_part_lost():
    # aaa holds a + a twice and is merged once: 4 pairs counted, aa made twice, a down by 4.
    at = open_link(corpus_text="aaabdaaabac", unit="char", pretokenizer="none",
                   stop_by="max_merges", max_merges="3", min_frequency="1", step="1")
    assert "a pair seen 4 times, merged at 2 places (overlapping pairs each count" in headline(at)
    freq = frame(at, "token").set_index("token")
    assert (freq.loc["aa", "change"], freq.loc["a", "change"]) == ("+2", "-4")
    assert any("Merge 1 made aa 2 times: both its parts are a, which loses twice that (red)"
               in c.value for c in at.caption)
    at = click(at, "train_step")  # aa + a: no overlap, nothing more to say
    assert "merged at" not in headline(at)


def test_a_pair_byte_fallback_refuses_is_marked_in_the_tables_and_the_tie_list():
    # "<0x41" + ">" (3 times) stood above the winner, unmarked, and the caption said training
    # had stopped; "<0x4a" + ">" was a tie that lost, and the tie line listed nothing.
    at = open_link(corpus_text="<0x41> <0x4a>x <0x41> <0x4a>x <0x41>", unit="char",
                   byte_fallback="1", pretokenizer="whitespace", stop_by="max_merges",
                   max_merges="20", min_frequency="1", step="5")
    assert at.checkbox(key="train_byte_fallback").value
    pairs = frame(at, "pair")
    assert list(zip(pairs["pair"], pairs["outcome"])) == [
        ("<0x41 + >", "refused: would be spelled as a byte token"), ("> + x", "← merged next"),
        ("<0x4a + >", "refused: would be spelled as a byte token")]
    assert any(c.value.endswith(
        r"The top pair that may be merged (green), \> \+ x with 2, becomes merge 6. A pair "
        "marked “refused: would be spelled as a byte token” (grey) is never merged, whatever "
        "its count: its token would be spelled as a byte fallback token, such as `<0x41>`, "
        "which decoding reads as that byte.") for c in at.caption), [c.value for c in at.caption]
    at = go_to(at, 6)
    at.session_state[view.LOG] = {"selection": {"rows": [0], "columns": [], "cells": []}}
    at.run()
    assert [m.value for m in at.markdown if m.value.startswith("**Merge 6**")] == [
        r"**Merge 6** (\> \+ x) had no rival: 1 other pair also had its count, 2; never merged, "
        r"whatever its count: \<0x4a \+ \> (refused: would be spelled as a byte token)."]
    assert run_of(at).merge_log()["tied_with"][5] == "<0x4a + > (never merged)"  # in the CSV


def test_the_words_caption_of_a_single_piece_speaks_of_one_piece():
    # With the "none" pre-tokenizer one document is one piece: the caption said "all 1 distinct
    # pieces".
    at = click(open_train("abdcabecab"), "train_start")
    assert any(c.value.endswith("its tokens at this step: 1 distinct piece (each document is "
                                "one piece).") for c in at.caption)

def test_the_frequency_caption_names_only_the_colours_its_table_shows():
    # Merge 2 of old/finest takes es and t to zero: both rows are struck through, none is red,
    # yet the caption said "its parts lose exactly that (red)".
    at = click(click(click(open_train("old-finest"), "train_start"), "train_step"), "train_step")
    assert any(c.value.endswith("Merge 2 made est 13 times: its parts lose exactly that, the "
                                "new token gains it (green). t, es reached zero, struck through "
                                "here, and leave the table.") for c in at.caption)
    at = click(at, "train_step")  # est + </w>: </w> keeps 7 of its 20, a red row
    assert any("its parts lose exactly that (red)" in c.value for c in at.caption)


def test_the_merge_log_counts_the_ties_in_its_room_and_lists_those_of_a_row_ticked():
    # The tied pairs, listed in the log's last column ("6: n + e, e + w, w + est</w>, …"), were
    # cut at 1280 px after a pair or two: half the page left that column 80 px.
    at = open_link(sample="low-lower", max_merges="10", step="10")
    [log] = [d for d in at.dataframe if list(d.value.columns)[:2] == ["#", "merge"]]
    config = json.loads(log.proto.columns)
    widths = {name: config[name]["width"] for name in log.value.columns}
    cells = {name: [f"{v:,}" if isinstance(v, int) else str(v) for v in log.value[name]
                    if not pd.isna(v)] for name in log.value.columns}
    assert {name: [c for c in cells[name] if text_px(c) > widths[name]]
            for name in cells} == {name: [] for name in cells}
    assert sum(widths.values()) <= view.LOG_ROOM - PICK_PX  # a 1280-px window's half page
    assert log.value["ties"].tolist()[:2] == [5, 6]
    assert any(c.value.endswith("Tick a row's box to list the pairs it tied with.")
               for c in at.caption)
    at.session_state[view.LOG] = {"selection": {"rows": [1], "columns": [], "cells": []}}
    at.run()  # the row of merge 9 ticked: all its ties, in a line that wraps
    assert [m.value for m in at.markdown if "won a tie" in m.value] == [
        r"**Merge 9** (lower \+ \</w\>) won a tie: 6 other pairs also had its count, 1, and lost "
        r"on the tie rule: n \+ e, e \+ w, w \+ est\</w\>, w \+ i, i \+ d, d \+ est\</w\>."]


class Gate:
    """Merges that stop inside the generator before the second one, until released."""

    def __init__(self):
        self.inside, self.release = threading.Event(), threading.Event()

    def wrap(self, merges):
        for n, step in enumerate(merges):
            if n == 1:
                self.inside.set()
                self.release.wait()
            yield step


def gated_run(monkeypatch) -> tuple[runs.Run, Gate]:
    """A run of the hug/pug table whose trainer stops inside its second merge."""
    gate = Gate()

    class GatedTrainer(bpe_core.Trainer):
        def run(self, corpus):
            return gate.wrap(super().run(corpus))

    monkeypatch.setattr(bpe_core, "Trainer", GatedTrainer)
    counts = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    settings = {"unit": "char", "pretokenizer": "whitespace", "max_merges": 4, "vocab_size": None,
                "min_frequency": 1, "tie_break": "first", "special_tokens": (),
                "byte_fallback": False, "transition": None, "name": "hug"}
    return runs.start(make_corpus("hug", counts=counts), settings), gate


def drive_in_thread(run: runs.Run, errors: list) -> threading.Thread:
    def drive():
        try:
            run.drive()
        except Exception as exc:  # noqa: BLE001 - the test reports whatever went wrong
            errors.append(exc)
    thread = threading.Thread(target=drive)
    thread.start()
    return thread


@pytest.mark.parametrize("second_click", ["finish", "pause"])
def test_a_click_while_merges_are_being_made_is_harmless(second_click, monkeypatch):
    # Streamlit's fast reruns run a click's callbacks and script on a new thread while the
    # previous script run (a long Finish) is still making merges.
    run, gate = gated_run(monkeypatch)
    errors: list = []
    run.goal = 4  # Finish
    first = drive_in_thread(run, errors)
    assert gate.inside.wait(30)  # the first run is inside the merge generator now
    run.goal = 4 if second_click == "finish" else None  # the second click records its wish
    second = drive_in_thread(run, errors)
    second.join(0.2)
    assert second.is_alive() and not errors  # it waits for the merges instead of stepping them
    gate.release.set()
    first.join(30)
    second.join(30)
    assert not errors
    if second_click == "finish":
        assert (run.at, run.done, [s.token for s in run.steps]) == (
            4, True, ["ug", "un", "hug", "pun"])
    else:  # Pause: the Finish stops after the merge under way, and the step shown stays
        assert (run.at, run.done, len(run.steps)) == (0, False, 2)
    assert run.goal is None


# --- the user's own word counts -----------------------------------------------------------


def test_typed_word_counts_become_a_corpus_that_trains_to_the_textbook_merges():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.radio(key="corpus_source").set_value("counts").run()
    at.text_area(key="corpus_counts_text").set_value("hug 10, pug").run()
    assert any("'pug' has no count" in e.value for e in at.error)
    at.text_area(key="corpus_counts_text").set_value(HF_COURSE)
    at.text_input(key="corpus_counts_name").set_value("HF course")
    at.button(key="corpus_counts_use").click().run()
    assert not at.exception
    corpus = at.session_state["corpora"]["HF course"]
    assert corpus.counts == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    assert at.session_state["corpus"] == "HF course"
    assert any("These 5 words are the active corpus" in s.value for s in at.success)

    at.switch_page(PAGE).run()
    # Typed counts get textbook settings: characters, whole words, merges to step through.
    assert at.radio(key="train_unit").value == "char"
    assert at.selectbox(key="train_pretokenizer").value == "whitespace"
    assert at.number_input(key="train_max_merges").value == 10
    assert at.number_input(key="train_min_frequency").value == 1
    at = click(click(at, "train_start"), "train_step")
    assert "u</span> + " in headline(at) and "seen 20 times" in headline(at)
    words = frame(at, "word")
    assert list(zip(words["word"], words["count"])) == [
        ("hug", 10), ("pug", 5), ("pun", 12), ("bun", 4), ("hugs", 5)]
    at = click(at, "train_finish")
    assert [(m.left, m.right, m.count) for m in run_of(at).tokenizer().merges][:4] == [
        ("u", "g", 20), ("u", "n", 16), ("h", "ug", 15), ("p", "un", 12)]


def test_the_corpus_page_lists_more_than_20_words():
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()  # the English essays
    top = next(df.value for df in at.dataframe if "share" in df.value.columns)
    assert len(top) == 500 and list(top["count"]) == sorted(top["count"], reverse=True)


# --- the user's sentence ------------------------------------------------------------------


def test_the_users_sentence_is_re_segmented_at_every_step():
    at = click(open_train("hug-pug"), "train_start")
    assert len(segmented(at)) == 1  # the passage alone until something is typed
    at.text_area(key="train_sentence").set_value("hugs bug <script>x</script>").run()
    assert not at.exception
    passage, mine = segmented(at)
    assert mine[:2] == ["h", "u"]  # merge 0: single characters
    at = click(at, "train_step")
    assert segmented(at)[1][:3] == ["h", "ug", "s"]
    at = click(at, "train_finish")
    assert segmented(at)[1][:2] == ["hug", "s"]
    at = go_to(at, 1)  # the sentence follows a jump back too
    assert segmented(at)[1][:3] == ["h", "ug", "s"]
    body = [h.proto.body for h in at.get("html") if 'title="id ' in h.proto.body][1]
    # Characters unseen in training are [UNK], and the tooltip names them, escaped.
    assert "<script>" not in body and "cannot spell &#x27;&lt;&#x27;" in body
    n = len(run_of(at).tokenizer().spans("hugs bug <script>x</script>", upto=1))
    assert n == 3 + 2 + 18  # h ug s, b ug, and the 18 characters of the tags one by one
    [said] = [c.value for c in at.caption if c.value.startswith(f"{n} tokens for 27 characters")]
    # Counted as the charts count: the 2 spaces the pre-tokenizer drops hold no bytes of a token.
    assert f"({25 / n:.2f} bytes per token; the 2 spaces the pre-tokenizer drops" in said
    at = click(at, "train_finish")
    at.text_area(key="train_sentence").set_value("hug").run()
    assert any(c.value.startswith("1 token for 3 characters (") for c in at.caption)


# --- metric cards and stale runs ----------------------------------------------------------


def test_metric_cards_write_counts_out_while_they_fit():
    at = open_train("aaabdaaabac")
    at.text_area(key="train_gage_text").set_value("abab cdcd " * 150).run()
    cards = {m.label: m for m in at.metric}
    assert cards["Original (bytes)"].value == "1,500" and not cards["Original (bytes)"].proto.help


def test_a_count_too_long_for_its_card_is_compact_with_the_exact_value_on_hover():
    shown = []

    class Card:
        def metric(self, label, value, **options):
            shown.append((label, value, options))

    metrics.count(Card(), "Tokens", 12_345_678, help="In the corpus.")
    metrics.count(Card(), "Merges", 999_999)
    assert shown == [("Tokens", 12_345_678, {"format": "compact",
                                            "help": "In the corpus. Exactly 12,345,678."}),
                     ("Merges", "999,999", {"help": None})]


def test_result_cards_on_a_big_run():
    at = click(click(open_train(), "train_start"), "train_finish")
    cards = {m.label: m for m in at.metric}
    size = cards["Vocabulary size"]
    assert size.value == "1,000"
    assert size.proto.help == "Base symbols + merges + special tokens."
    assert cards["Merges learned"].value == "744" and cards["Merges learned"].proto.help == ""


def test_the_tie_rule_and_the_notation_say_what_a_textbook_or_a_file_would_show():
    at = open_train("hug-pug")
    help_text = at.selectbox(key="train_tie_break").help
    assert "first in the corpus as merged so far" in help_text and "minbpe" in help_text
    assert "smallest id: on characters, as in Hugging Face's trainer. On bytes" in help_text
    notation = click(at, "train_start").toggle(key="train_show_whitespace").help
    assert "a space as `Ġ` and a newline as `Ċ`, SentencePiece's a space as `▁`" in notation


def test_a_run_made_before_the_settings_or_the_corpus_changed_says_it_is_stale():
    at = click(open_train("hug-pug"), "train_start")
    assert not at.warning
    at.number_input(key="train_max_merges").set_value(5).run()
    at.selectbox(key="train_tie_break").set_value("lowest-id").run()
    assert [w.value for w in at.warning] == [
        "This run is stale: it was trained with other settings (number of merges 3 → 5; tie rule "
        "first → lowest-id). Press Start training to train with the settings above."]
    at = click(at, "train_start")
    assert not at.warning and progress(at) == "Merge 0 of 5 · vocabulary 8 tokens"
    other = make_corpus("two words", documents=["low lower"], source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], other.name: other}
    at.session_state["corpus"] = other.name
    at.run()
    assert [w.value for w in at.warning] == [
        "This run is stale: it was trained on hug / pug / pun / bun / hugs \\(word counts\\), not "
        "on the active corpus. Press Start training to train with the corpus and settings above."]


# --- the address: reloading the page ------------------------------------------------------


def open_link(**params: str) -> AppTest:
    """A fresh session (a reload) opened on the Train page with ``params`` in the address."""
    at = AppTest.from_file(APP, default_timeout=180)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def test_the_address_follows_the_corpus_the_settings_and_the_step():
    at = click(click(click(open_train("hug-pug"), "train_start"), "train_step"), "train_step")
    assert dict(at.query_params) == {"sample": "hug-pug", "step": "2"}
    at.number_input(key="train_max_merges").set_value(4).run()
    assert dict(at.query_params) == {"sample": "hug-pug", "max_merges": "4"}  # stale: no step
    at.text_area(key="train_sentence").set_value("hugs").run()
    assert dict(at.query_params)["sentence"] == "hugs"


def test_a_reload_trains_the_run_again_and_comes_back_to_its_step():
    at = open_link(sample="hug-pug", max_merges="4", step="2", sentence="bugs")
    assert at.session_state["corpus"] == "hug / pug / pun / bun / hugs (word counts)"
    assert at.number_input(key="train_max_merges").value == 4
    assert progress(at) == "Merge 2 of 4 · vocabulary 10 tokens"
    assert not at.session_state["train_playing"]
    assert segmented(at)[1] == ["b", "ug", "s"]  # the sentence, after u+g and u+n
    assert any(c.value.startswith(":material/link: The address bar holds the corpus") for c in at.caption)
    at = click(at, "train_step")
    assert progress(at).startswith("Merge 3 of 4")


def test_a_reload_restores_typed_word_counts_and_says_what_it_could_not_use():
    at = open_link(words=HF_COURSE, corpus="course", step="1", unit="bytes", tie_break="?")
    assert at.session_state["corpus"] == "course"
    assert run_of(at).corpus.counts == {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
    assert progress(at) == "Merge 1 of 10 · vocabulary 9 tokens"
    assert [w.value for w in at.warning] == [
        "Parts of the link could not be used: unit=bytes (Base symbols stays Characters "
        "\\(those seen in the corpus\\)); tie\\_break=? (Tie rule stays first in the corpus "
        "wins)."]
    at = open_link(words="hug 10, pug", step="1")
    assert any("The link's word counts cannot be read: 'pug' has no count" in w.value
               for w in at.warning)
    assert at.session_state["corpus"] == "English essays (default)"


def test_a_hand_edited_link_says_which_part_it_could_not_use_and_what_it_shows():
    # A step past the run's end was shown as its last merge without a word, and a step that
    # is no number left the page with no run, under "settings ... keep their defaults: step".
    at = open_link(sample="hug-pug", max_merges="abc", pretokenizer="nonsense", step="99999")
    assert progress(at) == "Done after 3 merges: it made the number of merges you asked for."
    assert [w.value for w in at.warning] == [
        "Parts of the link could not be used: pretokenizer=nonsense (Pre\\-tokenizer stays "
        "Whitespace words); max\\_merges=abc (Number of merges stays 3); step=99999 (the run "
        "has 3 merges\\: merge 3 is shown)."]
    at = open_link(words="hug 10, pug 5", step="-3")
    assert progress(at) == "Merge 0 of 10 · vocabulary 5 tokens"
    assert [w.value for w in at.warning] == [
        "Part of the link could not be used: step=\\-3 (merge 0 is shown)."]
    at = open_link(sample="missing", sentence="s" * 1001)
    assert [w.value for w in at.warning] == [
        "The link names a sample this version does not have ('missing'), so the page uses "
        "English essays \\(default\\) instead. Part of the link could not be used: "
        "sentence=ssssssssssssssssssssssss… (its first 1,000 characters are kept)."]
    at = open_link(corpus="essays.txt")  # an upload's message names the corpus used itself
    assert [w.value for w in at.warning] == [
        "This link's corpus, essays\\.txt, was an upload, which no address can hold: upload it "
        "again on the Corpus page (the default corpus is used meanwhile)."]


def test_a_link_brings_back_the_text_given_to_gages_compressor():
    at = open_train("hug-pug")
    at.segmented_control(key="train_mode").set_value("compress").run()
    at.text_area(key="train_gage_text").set_value("aaabdaaabac").run()
    params = dict(at.query_params)
    assert params["gage"] == "aaabdaaabac" and params["mode"] == "compress"
    at = open_link(**params)
    assert at.text_area(key="train_gage_text").value == "aaabdaaabac"
    assert "XdXac" in at.code[-1].value  # compressed as before the reload, not the corpus


def test_superbpe_whose_stage_1_stops_short_of_the_transition_says_so_and_fills_the_size():
    # Stage 1 runs out of pairs at 273 tokens: the page said it "ran to the transition point
    # (280 tokens, 17 merges)", and stage 2 stopped at 278 tokens, "the size you asked for".
    text = ("the cat sat on the mat. the cat sat on the hat. of the cat, on the mat, "
            "in the hat. ") * 6
    at = open_link(corpus_text=text, unit="byte", pretokenizer="gpt2", stop_by="vocab_size",
                   vocab_size="285", min_frequency="2", superbpe="1", transition="280")
    at = click(click(at, "train_start"), "train_finish")
    assert any(m.value.startswith("Above, ordinary BPE stopped at 273 tokens (17 merges), short "
                                  "of the transition point of 280. Stage 2 went on")
               for m in at.markdown)
    assert {m.label: m.value for m in at.metric}["Vocabulary size"] == "285"
    assert "Training stopped because the vocabulary reached the size you asked for." in [
        s.value for s in at.success]


def test_superbpe_stage_2_keeps_to_the_papers_limits_and_says_so():
    # Stage 2 made ' a cat. Q: what' (6 times): five words, across "Q: ", which the paper's
    # trainer never makes; the page said only that tokens "may now span several words".
    text = "Q: what is it? A: a cat. Q: what is that? A: a dog. " * 5
    at = open_link(corpus_text=text, unit="byte", pretokenizer="gpt2", stop_by="vocab_size",
                   vocab_size="400", min_frequency="2", superbpe="1", transition="280")
    at = click(click(at, "train_start"), "train_finish")
    [table] = [d.value for d in at.dataframe if list(d.value.columns)[:3] == ["#", "merge",
                                                                             "new token"]]
    assert list(table["new token"])[-4:] == [
        "·what·is·that", "·what·is·that?·A:", "·a·dog", "·a·dog.·Q:"]
    assert any(m.value.endswith("made 13 more merges: tokens may now span up to 4 words, "
                                "though never a colon and the space after it (the paper's "
                                "limits).") for m in at.markdown)
    assert [s.value for s in at.success] == [
        "Training stopped because every pair left that is frequent enough would make a "
        "superword of more than 4 words, or one with a colon and then a space, which SuperBPE "
        "does not make."]


def test_a_link_with_superbpe_but_no_transition_takes_the_one_of_its_vocabulary_size():
    # A link written by hand: the transition follows vocab_size as on the page, not the
    # default's (900 for 1,000), which no vocabulary of 400 can reach.
    at = open_link(vocab_size="400", superbpe="1")
    assert at.number_input(key="train_transition").value == default_transition(400)
    at = click(at, "train_start")
    assert not at.error and not at.exception


def test_an_uploaded_corpus_is_said_to_be_lost_on_reload():
    at = open_train()
    upload = make_corpus("notes", documents=["hug pug", "pun bun"], source="upload")
    at.session_state["corpora"] = {**at.session_state["corpora"], upload.name: upload}
    at.session_state["corpus"] = upload.name
    at.run()
    assert any(c.value.startswith(":material/warning: Reloading this page loses **notes**") for c in at.caption)
    assert "sample" not in at.query_params and "corpus_text" not in at.query_params


def test_word_counts_say_the_pre_tokenizer_cuts_only_the_passage():
    # Training takes counted words as cut already; a regex that would split "hug" does not.
    at = open_train("hug-pug")
    captions = [c.value for c in at.caption]
    assert any(c.startswith("Word counts are words already: training merges inside each "
                            "counted word and cuts none.") for c in captions)
    assert not any("merges never cross a piece boundary" in c for c in captions)
    at = open_train()  # running text: its pieces are what training merges inside
    captions = [c.value for c in at.caption]
    assert any(" pieces: merges never cross a piece boundary." in c for c in captions)
    assert not any(c.startswith("Word counts are words already") for c in captions)


def test_the_pre_tokenizer_preview_keeps_special_tokens_whole_as_training_does():
    # With the special token <s>, the preview drew '<', 's' and '>' as pieces of their own,
    # though training cuts special tokens out first and keeps each whole.
    at = open_train()
    notes = make_corpus("notes", documents=["hug<s>pug bun"], source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], notes.name: notes}
    at.session_state["corpus"] = notes.name
    at.run()  # (a new corpus sets the page's defaults for it)
    at.text_input(key="train_specials").set_value("<s>").run()
    captions = [c.value for c in at.caption if "merges never cross a piece boundary" in c.value]
    assert captions == ["4 pieces: merges never cross a piece boundary. Special tokens, outlined, "
                        "are cut out first and kept whole. Hover a piece for its bytes."]

