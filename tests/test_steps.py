"""The textbook step tables (bpe_core.training.steps) agree with the trainer, step by step."""

from __future__ import annotations

import doctest
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core import Trainer
from bpe_core.encoders import merge_pair
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

    s0 = step_tables(trainer, 0)
    assert [(w.word, w.tokens, w.count) for w in s0.words] == [
        ("hug", ("h", "u", "g"), 10), ("pug", ("p", "u", "g"), 5), ("pun", ("p", "u", "n"), 12),
        ("bun", ("b", "u", "n"), 4), ("hugs", ("h", "u", "g", "s"), 5)]
    assert [(p.left, p.right, p.count, p.status) for p in s0.pairs] == [
        ("u", "g", 20, WINNER), ("p", "u", 17, ""), ("u", "n", 16, ""), ("h", "u", 15, ""),
        ("g", "s", 5, ""), ("b", "u", 4, "")]
    assert s0.total_tokens == 3 * 10 + 3 * 5 + 3 * 12 + 3 * 4 + 4 * 5
    assert all(f.change == 0 for f in s0.frequencies)

    s2 = step_tables(trainer, 2)
    assert [w.tokens for w in s2.words] == [("h", "ug"), ("p", "ug"), ("p", "un"), ("b", "un"),
                                            ("h", "ug", "s")]
    assert (s2.winner.left, s2.winner.right, s2.winner.count) == ("h", "ug", 15)
    freq = {f.token: (f.count, f.change) for f in s2.frequencies}
    # u+n made "un" 16 times: u and n each lose 16; n reaches zero and is shown once at 0.
    assert freq["un"] == (16, 16) and freq["u"] == (0, -16) and freq["n"] == (0, -16)
    assert "g" not in freq  # used up by merge 1, so gone from the table at step 2


def test_last_step_has_no_winner_and_steps_are_clamped():
    trainer, _ = trained(HUG_PUG, max_merges=3)
    last = step_tables(trainer, 99)
    assert last.step == 3 and last.winner is None and last.ties == ()
    assert [p.status for p in last.pairs] == [""] * len(last.pairs)
    assert step_tables(trainer, -5).step == 0


def test_ties_are_the_pairs_that_lost_on_the_first_rule():
    trainer, steps = trained("low lower newest widest", pretokenizer="end-of-word", max_merges=1)
    s0 = step_tables(trainer, 0)
    assert (s0.winner.left, s0.winner.right) == ("l", "o")
    assert [(p.left, p.right) for p in s0.ties] == [("o", "w"), ("w", "e"), ("e", "s"), ("s", "t"),
                                                     ("t", "</w>")]
    assert [(t.left, t.right) for t in steps[0].ties] == [(p.left, p.right) for p in s0.ties]
    assert all(p.count == 2 for p in s0.ties)


def test_lowest_id_rule_orders_ties_by_ids():
    trainer, steps = trained("low lower newest widest", pretokenizer="end-of-word", max_merges=1,
                             tie_break="lowest-id")
    s0 = step_tables(trainer, 0)
    ids = [(s0.winner.left_id, s0.winner.right_id)] + [(p.left_id, p.right_id) for p in s0.ties]
    assert ids == sorted(ids)
    assert [(t.left_id, t.right_id) for t in steps[0].ties] == ids[1:]


def test_encode_piece_does_not_pre_tokenize_again():
    # "a(?=b)" matches "a" only before "b", so the piece "a" alone is no match for the regex.
    trainer, _ = trained("abab", pretokenizer=r"a(?=b)|b")
    tok = trainer.tokenizer
    assert tok.encode("a") == []
    assert [tok.display(i) for i in tok.encode_piece("a")] == ["a"]
    assert [w.tokens for w in step_tables(trainer, 0).words] == [("a",), ("b",)]


words = st.dictionaries(st.text("abc ", min_size=1, max_size=7), st.integers(1, 6), min_size=1,
                        max_size=6)


@pytest.mark.parametrize("tie_break", ["first", "lowest-id"])
@settings(max_examples=60)  # (for each tie rule: 120 corpora in all)
@given(corpus=words)
def test_every_step_agrees_with_the_trainer(tie_break, corpus):
    trainer, steps = trained(corpus, unit="byte", pretokenizer="none", max_merges=12,
                             tie_break=tie_break)
    for k, merge in enumerate(steps):
        before = step_tables(trainer, k)
        assert (before.winner.left_id, before.winner.right_id, before.winner.count) == (
            merge.left_id, merge.right_id, merge.count)
        assert [(p.left_id, p.right_id) for p in before.ties] == [
            (t.left_id, t.right_id) for t in merge.ties]
        assert len(before.ties) == merge.n_tied
        after = step_tables(trainer, k + 1)
        assert after.total_tokens == merge.total_tokens == sum(f.count for f in after.frequencies)
        assert {f.id: f.change for f in after.frequencies if f.change} == {
            i: d for i, d in merge.freq_delta.items() if d}
        assert all(p.status in ("", TIED, WINNER) for p in after.pairs)
    final = step_tables(trainer, len(steps))
    assert {f.id: f.count for f in final.frequencies if f.count} == trainer.token_frequencies


def test_module_examples():
    result = doctest.testmod(steps_module)
    assert result.attempted and not result.failed


# --- one long piece: the "none" pre-tokenizer on a document ----------------------------------

def long_document(chars: int, seed: int) -> str:
    """A generated document of about ``chars`` characters: words, spaces, punctuation and
    newlines, a few of them non-ASCII, as one piece under the "none" pre-tokenizer."""
    rng = random.Random(seed)
    vocab = ["the", "piece", "of", "bread", "naïve", "café", "and", "a", "merge", "token", "—",
             "rivers", "über", "is", "long", "2024", "ok", "日本"]
    parts, n = [], 0
    while n < chars:
        word = rng.choice(vocab)
        sep = rng.choice([" "] * 12 + [", ", ".\n", "\n\n", "  "])
        parts.append(word + sep)
        n += len(word) + len(sep)
    return "".join(parts)[:chars]


@pytest.mark.parametrize("unit", ["byte", "char"])
def test_long_pieces_tables_equal_a_brute_force_recount(unit):
    # Two 60 KB documents, one of them twice: each is one training word, one with count 2.
    doc, other = long_document(60_000, 1), long_document(60_000, 2)
    trainer, steps = trained([doc, other, doc], unit=unit, pretokenizer="none", max_merges=30,
                             min_frequency=2)
    assert list(trainer.word_counts.values()) == [2, 1] and len(steps) == 30
    tok = trainer.tokenizer
    # The brute force: every word from its base symbols, the merges applied one by one, and
    # everything recounted from scratch at the steps checked.
    words = [list(tok.encode_piece(w, upto=0)) for w in trainer.word_counts]
    counts = list(trainer.word_counts.values())
    for k in range(31):
        if k in (0, 1, 2, 17, 29, 30):
            t = step_tables(trainer, k, tokenizer=tok)
            assert [list(w.ids) for w in t.words] == words
            assert [w.tokens for w in t.words[:1]] == [tuple(tok.display(i) for i in words[0])]
            pairs, freq = Counter(), Counter()
            for ids, c in zip(words, counts):
                for p in zip(ids, ids[1:]):
                    pairs[p] += c
                for i in ids:
                    freq[i] += c
            assert {(p.left_id, p.right_id): p.count for p in t.pairs} == pairs
            assert {f.id: f.count for f in t.frequencies if f.count} == freq
            assert t.total_tokens == sum(freq.values())
            if k < 30:
                best = max(pairs.values())
                assert (t.winner.left_id, t.winner.right_id, t.winner.count) == (
                    steps[k].left_id, steps[k].right_id, best)
                assert len(t.ties) == sum(1 for n in pairs.values() if n == best) - 1
            else:
                assert t.winner is None
        if k < 30:
            m = tok.merges[k]
            words = [merge_pair(ids, (m.left_id, m.right_id), m.token_id) for ids in words]


def test_segmentation_needs_a_watched_run():
    trainer = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1)
    trainer.fit("low lower")
    with pytest.raises(RuntimeError, match="call run"):
        trainer.segmentation(1)


@pytest.mark.parametrize("unit", ["byte", "char"])
def test_a_record_replays_every_step_as_its_trainer_did(unit):
    # What a run trained in a worker process sends back: it must pickle, and give the same
    # tables at every step as the trainer it came from.
    trainer, steps = trained(long_document(3_000, 3).split(". "), unit=unit,
                             pretokenizer="gpt2", max_merges=40, min_frequency=2)
    record = pickle.loads(pickle.dumps(trainer.record()))
    tok = trainer.tokenizer
    assert record.stop_reason == "max_merges" and record.word_counts == trainer.word_counts
    assert record.token_frequencies == trainer.token_frequencies
    assert [m.token for m in record.tokenizer.merges] == [s.token for s in steps]
    for k in range(len(steps) + 1):
        assert record.segmentation(k) == trainer.segmentation(k)
        assert step_tables(record, k) == step_tables(trainer, k, tokenizer=tok)


def test_a_record_is_made_once_the_run_has_stopped():
    trainer = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1)
    merges = trainer.run("low lower")
    next(merges)
    with pytest.raises(RuntimeError, match="once it has stopped"):
        trainer.record()


def test_a_records_special_tokens_are_its_trainers():
    trainer = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1,
                      special_tokens=["<a>", "<b>", "<a>"])
    list(trainer.run("low lower"))
    assert trainer.record().special_tokens == trainer.special_tokens == ("<a>", "<b>")
