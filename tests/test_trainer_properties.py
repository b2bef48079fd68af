"""The incremental trainer must give exactly the textbook loop's merges and counts."""

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bpe_core
from bpe_core import count_words, reference_train
from bpe_core.presets import PRESETS

# Few distinct letters make many repeated pairs, overlapping runs ("aaaa") and ties.
small_text = st.text(alphabet="aab bc\nd é你", min_size=0, max_size=250)
word = st.text(alphabet="abcab", min_size=1, max_size=7)
word_counts = st.dictionaries(word, st.integers(1, 5), min_size=1, max_size=8)


def merges_of(tok):
    return [(m.left_id, m.right_id, m.count) for m in tok.merges]


def check(corpus, *, unit, pretokenizer, tie_break, min_frequency, max_merges=40):
    words = count_words(corpus, PRESETS.get(pretokenizer, pretokenizer))
    if not words:
        return
    expected = reference_train(words, unit=unit, pretokenizer=pretokenizer, tie_break=tie_break,
                               min_frequency=min_frequency, max_merges=max_merges)
    tok = bpe_core.train(corpus, unit=unit, pretokenizer=pretokenizer, tie_break=tie_break,
                         min_frequency=min_frequency, max_merges=max_merges, processes=1)
    assert merges_of(tok) == expected


@settings(max_examples=60)
@given(text=small_text, unit=st.sampled_from(["byte", "char"]),
       pretokenizer=st.sampled_from(sorted(PRESETS)), tie_break=st.sampled_from(["first", "lowest-id"]),
       min_frequency=st.integers(1, 3))
def test_incremental_equals_reference_on_text(text, unit, pretokenizer, tie_break, min_frequency):
    check(text, unit=unit, pretokenizer=pretokenizer, tie_break=tie_break,
          min_frequency=min_frequency)


@settings(max_examples=60)
@given(counts=word_counts, unit=st.sampled_from(["byte", "char"]),
       pretokenizer=st.sampled_from(["whitespace", "end-of-word"]),
       tie_break=st.sampled_from(["first", "lowest-id"]))
def test_incremental_equals_reference_on_word_counts(counts, unit, pretokenizer, tie_break):
    check(counts, unit=unit, pretokenizer=pretokenizer, tie_break=tie_break, min_frequency=1)


@settings(max_examples=30)
@given(text=st.text(alphabet="ab", min_size=2, max_size=40))
def test_runs_of_one_letter_overlap_like_the_textbook(text):
    # "aaaa" holds (a, a) three times but merges into two tokens: the hardest case to count.
    check(text, unit="byte", pretokenizer="none", tie_break="first", min_frequency=1)


@settings(max_examples=40)
@given(text=st.text(alphabet="aab b\n你", min_size=2, max_size=1500),
       tie_break=st.sampled_from(["first", "lowest-id"]))
def test_one_long_piece_with_many_sites_gives_the_same_merges(text, tie_break):
    # Under "none" the whole text is one word: a merge has hundreds of sites in it, next to each
    # other ("a b a b") and overlapping ("a a a").
    check(text, unit="byte", pretokenizer="none", tie_break=tie_break, min_frequency=1)

# Counts over three orders of magnitude: most pairs are born far below the best count, and wait
# outside the heap until its top comes down near them (``pending`` in pairs.py): 1 to 1,000.
wide_counts = st.dictionaries(st.text(alphabet="abcdab", min_size=1, max_size=9),
                              st.integers(1, 1000), min_size=2, max_size=30)


@settings(max_examples=60)
@given(counts=wide_counts, tie_break=st.sampled_from(["first", "lowest-id"]),
       min_frequency=st.integers(1, 40))
def test_pairs_born_far_below_the_best_count_win_in_the_textbook_order(counts, tie_break,
                                                                       min_frequency):
    check(counts, unit="byte", pretokenizer="whitespace", tie_break=tie_break,
          min_frequency=min_frequency, max_merges=80)


def pair_counts(segments, counts):
    """Every adjacent pair's occurrences, weighted by word count (the textbook's recount)."""
    out = {}
    for ids, n in zip(segments, counts):
        for pair in pairwise(ids):
            out[pair] = out.get(pair, 0) + n
    return out


@settings(max_examples=30)
@given(counts=wide_counts, tie_break=st.sampled_from(["first", "lowest-id"]))
def test_a_watched_run_reports_the_pairs_that_tie_with_far_apart_counts(counts, tie_break):
    trainer = bpe_core.Trainer(max_merges=40, unit="byte", pretokenizer="whitespace",
                               tie_break=tie_break, min_frequency=1, max_ties=3)
    steps = list(trainer.run(counts))
    tok = bpe_core.train(counts, max_merges=40, unit="byte", pretokenizer="whitespace",
                         tie_break=tie_break, min_frequency=1)
    assert [(s.left_id, s.right_id, s.count) for s in steps] == merges_of(tok)
    for s in steps:
        now = pair_counts(trainer.segmentation(s.rank), trainer.word_counts.values())
        tied = {p for p, n in now.items() if n == s.count} - {(s.left_id, s.right_id)}
        assert s.n_tied == len(tied)
        assert len(s.ties) == min(3, len(tied))
        assert {(t.left_id, t.right_id) for t in s.ties} <= tied


def test_trainer_steps_agree_with_train_and_report_ties():
    corpus = "set new new renew reset renew"
    trainer = bpe_core.Trainer(unit="byte", pretokenizer="space-prefix", min_frequency=2)
    steps = list(trainer.run(corpus))
    tok = bpe_core.train(corpus, pretokenizer="space-prefix")
    assert [s.token for s in steps] == [m.token for m in tok.merges]
    first = steps[0]
    # "ne" and "ew" both occur 4 times; "ne" occurs first, so "ew" is the tied loser.
    assert (first.token, first.count, first.n_tied) == ("ne", 4, 1)
    assert [(t.left, t.right) for t in first.ties] == [("e", "w")]
    # The new token gains what its parts lose.
    assert first.freq_delta == {first.token_id: 4, ord("n"): -4, ord("e"): -4}
    # 29 characters in 6 pieces ("set", " new" ...) -> total tokens fall by the merge sites.
    assert steps[0].total_tokens == 29 - 4
    assert trainer.tokenizer.merges == tok.merges


def test_pause_and_resume_gives_the_same_merges():
    trainer = bpe_core.Trainer(max_merges=6, unit="char", pretokenizer="end-of-word",
                               min_frequency=1)
    it = trainer.run({"old": 7, "older": 3, "finest": 9, "lowest": 4})
    first_two = [next(it).token, next(it).token]
    assert len(trainer.tokenizer.merges) == 2  # the tokenizer as of the last merge
    rest = [s.token for s in trainer.resume()]
    # f+i: "finest" occurs 9 times, ahead of every other pair left.
    assert first_two + rest == ["es", "est", "est</w>", "ol", "old", "fi"]
    assert trainer.stop_reason == "max_merges"


def test_more_tokens_than_code_points_are_refused_clearly():
    # Training holds each token id as one character, so ids stop at Unicode's last code point.
    with pytest.raises(ValueError, match="at most 1,114,112 tokens"):
        bpe_core.train("low lower", vocab_size=2_000_000)
    tok = bpe_core.train("low lower", vocab_size=1_114_112, min_frequency=1)
    assert tok.stop_reason == "no_pairs"
