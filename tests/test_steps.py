"""The textbook step tables (bpe_core.training.steps) agree with the trainer, step by step."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bpe_core import Trainer
from bpe_core.training import steps as steps_module
from bpe_core.training.steps import TIED, WINNER, step_tables

HUG_PUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}


def trained(corpus, **options):
    options = {"unit": "char", "pretokenizer": "whitespace", "min_frequency": 1, "max_ties": 1000,
               **options}
    trainer = Trainer(**options)
    steps = list(trainer.run(corpus))
    return trainer, steps


def test_hug_pug_words_pairs_and_frequencies_by_hand():
    trainer, _ = trained(HUG_PUG, max_merges=3)
    tok, wc = trainer.tokenizer, trainer.word_counts

    s0 = step_tables(tok, wc, 0)
    assert [(w.word, w.tokens, w.count) for w in s0.words] == [
        ("hug", ("h", "u", "g"), 10), ("pug", ("p", "u", "g"), 5), ("pun", ("p", "u", "n"), 12),
        ("bun", ("b", "u", "n"), 4), ("hugs", ("h", "u", "g", "s"), 5)]
    assert [(p.left, p.right, p.count, p.status) for p in s0.pairs] == [
        ("u", "g", 20, WINNER), ("p", "u", 17, ""), ("u", "n", 16, ""), ("h", "u", 15, ""),
        ("g", "s", 5, ""), ("b", "u", 4, "")]
    assert s0.total_tokens == 3 * 10 + 3 * 5 + 3 * 12 + 3 * 4 + 4 * 5
    assert all(f.change == 0 for f in s0.frequencies)

    s2 = step_tables(tok, wc, 2)
    assert [w.tokens for w in s2.words] == [("h", "ug"), ("p", "ug"), ("p", "un"), ("b", "un"),
                                            ("h", "ug", "s")]
    assert (s2.winner.left, s2.winner.right, s2.winner.count) == ("h", "ug", 15)
    freq = {f.token: (f.count, f.change) for f in s2.frequencies}
    # u+n made "un" 16 times: u and n each lose 16; n reaches zero and is shown once at 0.
    assert freq["un"] == (16, 16) and freq["u"] == (0, -16) and freq["n"] == (0, -16)
    assert "g" not in freq  # used up by merge 1, so gone from the table at step 2


def test_last_step_has_no_winner_and_steps_are_clamped():
    trainer, _ = trained(HUG_PUG, max_merges=3)
    tok = trainer.tokenizer
    last = step_tables(tok, trainer.word_counts, 99)
    assert last.step == 3 and last.winner is None and last.ties == ()
    assert [p.status for p in last.pairs] == [""] * len(last.pairs)
    assert step_tables(tok, trainer.word_counts, -5).step == 0


def test_ties_are_the_pairs_that_lost_on_the_first_rule():
    trainer, steps = trained("low lower newest widest", pretokenizer="end-of-word", max_merges=1)
    s0 = step_tables(trainer.tokenizer, trainer.word_counts, 0)
    assert (s0.winner.left, s0.winner.right) == ("l", "o")
    assert [(p.left, p.right) for p in s0.ties] == [("o", "w"), ("w", "e"), ("e", "s"), ("s", "t"),
                                                     ("t", "</w>")]
    assert [(t.left, t.right) for t in steps[0].ties] == [(p.left, p.right) for p in s0.ties]
    assert all(p.count == 2 for p in s0.ties)


def test_lowest_id_rule_orders_ties_by_ids():
    trainer, steps = trained("low lower newest widest", pretokenizer="end-of-word", max_merges=1,
                             tie_break="lowest-id")
    s0 = step_tables(trainer.tokenizer, trainer.word_counts, 0)
    ids = [(s0.winner.left_id, s0.winner.right_id)] + [(p.left_id, p.right_id) for p in s0.ties]
    assert ids == sorted(ids)
    assert [(t.left_id, t.right_id) for t in steps[0].ties] == ids[1:]


def test_encode_piece_does_not_pre_tokenize_again():
    # "a(?=b)" matches "a" only before "b", so the piece "a" alone is no match for the regex.
    trainer, _ = trained("abab", pretokenizer=r"a(?=b)|b")
    tok = trainer.tokenizer
    assert tok.encode("a") == []
    assert [tok.display(i) for i in tok.encode_piece("a")] == ["a"]
    assert [w.tokens for w in step_tables(tok, trainer.word_counts, 0).words] == [("a",), ("b",)]


words = st.dictionaries(st.text("abc ", min_size=1, max_size=7), st.integers(1, 6), min_size=1,
                        max_size=6)


@pytest.mark.parametrize("tie_break", ["first", "lowest-id"])
@given(corpus=words)
def test_every_step_agrees_with_the_trainer(tie_break, corpus):
    trainer, steps = trained(corpus, unit="byte", pretokenizer="none", max_merges=12,
                             tie_break=tie_break)
    tok, wc = trainer.tokenizer, trainer.word_counts
    for k, merge in enumerate(steps):
        before = step_tables(tok, wc, k)
        assert (before.winner.left_id, before.winner.right_id, before.winner.count) == (
            merge.left_id, merge.right_id, merge.count)
        assert [(p.left_id, p.right_id) for p in before.ties] == [
            (t.left_id, t.right_id) for t in merge.ties]
        assert len(before.ties) == merge.n_tied
        after = step_tables(tok, wc, k + 1)
        assert after.total_tokens == merge.total_tokens == sum(f.count for f in after.frequencies)
        assert {f.id: f.change for f in after.frequencies if f.change} == {
            i: d for i, d in merge.freq_delta.items() if d}
        assert all(p.status in ("", TIED, WINNER) for p in after.pairs)
    final = step_tables(tok, wc, len(steps))
    assert {f.id: f.count for f in final.frequencies if f.count} == trainer.token_frequencies


def test_module_examples():
    result = doctest.testmod(steps_module)
    assert result.attempted and not result.failed
