"""The textbook step tables: one step of BPE training as it is drawn on paper.

After ``k`` merges every training word is segmented with the first ``k`` merges. From that
segmentation come the three tables a textbook shows for a step: the words with their current
segmentation and counts, the counts of adjacent pairs (the winner becomes merge ``k + 1``, and the
pairs with the same count are the ones it beat on the tie rule, but for those the run never
merges, which say why), and the token frequencies (the last merge's new token gains exactly what
its two parts lose).

The segmentation is the trainer's own (``Trainer.segmentation``), never the words encoded again,
so a step costs the length of the corpus in tokens, whatever the length of its pieces: with the
"none" pre-tokenizer a piece is a whole document.

>>> from bpe_core import Trainer
>>> t = Trainer(max_merges=3, unit="char", pretokenizer="whitespace", min_frequency=1)
>>> _ = list(t.run({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}))
>>> s = step_tables(t, 1)
>>> [(w.word, w.tokens, w.count) for w in s.words[:2]]
[('hug', ('h', 'ug'), 10), ('pug', ('p', 'ug'), 5)]
>>> s.winner.left, s.winner.right, s.winner.count
('u', 'n', 16)
>>> [(f.token, f.count, f.change) for f in s.frequencies if f.change]  # g is used up
[('ug', 20, 20), ('u', 16, -20), ('g', 0, -20)]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from typing import Callable

from ..tokenizer import Tokenizer
from .record import TrainingRecord
from .trainer import Trainer

WINNER, TIED, REFUSED = "winner", "tied", "refused"


@dataclass(frozen=True)
class WordRow:
    """A training word (pre-tokenized piece), its count and its tokens after ``step`` merges."""

    word: str
    count: int
    ids: tuple[int, ...]
    tokens: tuple[str, ...]  # display texts


@dataclass(frozen=True)
class PairRow:
    """An adjacent pair and its count; ``status`` is "winner", "tied", "refused" (a pair the
    run never merges, whatever its count: ``refused`` says why, as ``Trainer.refusal``) or ""."""

    left_id: int
    right_id: int
    left: str
    right: str
    count: int
    status: str = ""
    refused: str = ""


@dataclass(frozen=True)
class FrequencyRow:
    """A token's frequency after ``step`` merges and its change in the last merge."""

    id: int
    token: str
    count: int
    change: int = 0


@dataclass(frozen=True)
class StepTables:
    """The tables for the state after ``step`` merges (``step`` 0: before any merge)."""

    step: int
    words: tuple[WordRow, ...]  # in corpus order
    pairs: tuple[PairRow, ...]  # highest count first (a refused pair may come before the
    # winner); the winner first among its equals
    frequencies: tuple[FrequencyRow, ...]  # highest first; tokens at zero are dropped...
    total_tokens: int  # ...except those the last merge used up, shown once with count 0

    @property
    def winner(self) -> PairRow | None:
        """The pair merged next (merge ``step + 1``), or None when training stopped here."""
        return next((p for p in self.pairs if p.status == WINNER), None)

    @property
    def ties(self) -> tuple[PairRow, ...]:
        """The pairs that had the winner's count and lost the tie."""
        return tuple(p for p in self.pairs if p.status == TIED)


def step_tables(trainer: Trainer | TrainingRecord, step: int, *,
                tokenizer: Tokenizer | None = None) -> StepTables:
    """The three tables after ``step`` merges of a watched ``trainer`` (one fed by ``run``), or
    of its record once it has stopped.

    ``tokenizer`` is ``trainer.tokenizer``, if you hold it already (building it takes a moment).
    The words are the trainer's ``word_counts``, segmented as training had them after ``step``
    merges: the merges up to ``step`` applied in rank order, the same as the rank-priority
    encoding with the first ``step`` merges (a merge never creates a pair that an earlier merge
    could have joined).
    """
    tok = tokenizer if tokenizer is not None else trainer.tokenizer
    step = max(0, min(int(step), len(tok.merges)))
    segments = trainer.segmentation(step)
    counts = list(trainer.word_counts.values())
    freq, pairs = _count(segments, counts)
    change = _change(tok, freq, step)
    show = {i: tok.display(i) for i in freq.keys() | change.keys()}
    shown = show.__getitem__
    words = tuple(WordRow(w, c, ids, tuple(map(shown, ids)))
                  for w, c, ids in zip(trainer.word_counts, counts, segments))
    rows = [FrequencyRow(i, show[i], freq.get(i, 0), change.get(i, 0))
            for i in freq.keys() | {i for i, d in change.items() if d}]
    rows.sort(key=lambda r: (-r.count, r.id))
    return StepTables(step, words, _pairs(tok, pairs, show, step, trainer.refusal), tuple(rows),
                      sum(freq.values()))


def _count(segments: list[tuple[int, ...]], counts: list[int]) -> tuple[Counter, Counter]:
    """Token and adjacent-pair occurrences, weighted by word count, in first-occurrence order.

    A word met once is counted by ``Counter.update``'s C loop; only the distinct tokens and pairs
    of a repeated word are weighted in Python. First-occurrence order is the "first" tie rule's.
    """
    freq: Counter = Counter()
    pairs: Counter = Counter()
    for ids, c in zip(segments, counts):
        if c == 1:
            freq.update(ids)
            pairs.update(pairwise(ids))
            continue
        for i, n in Counter(ids).items():
            freq[i] += n * c
        for p, n in Counter(pairwise(ids)).items():
            pairs[p] += n * c
    return freq, pairs


def _pairs(tok: Tokenizer, counts: Counter, show: dict[int, str], step: int,
           refusal: Callable[[int, int], str | None]) -> tuple[PairRow, ...]:
    nxt = tok.merges[step] if step < len(tok.merges) else None
    win = (nxt.left_id, nxt.right_id) if nxt else None
    best = counts.get(win, 0)
    order = list(counts) if tok.config.get("tie_break", "first") == "first" else sorted(counts)
    rank = {p: n for n, p in enumerate(order)}
    ranked = sorted(counts, key=lambda p: (-counts[p], p != win, rank[p]))
    rows = []
    for a, b in ranked:
        why = refusal(a, b) or ""
        status = (WINNER if (a, b) == win else REFUSED if why
                  else TIED if win and counts[(a, b)] == best else "")
        rows.append(PairRow(a, b, show[a], show[b], counts[(a, b)], status, why))
    return tuple(rows)


def _change(tok: Tokenizer, freq: Counter, step: int) -> dict[int, int]:
    """Token id -> what merge ``step`` changed its frequency by (its new token gains, its parts
    lose the same)."""
    if not step:
        return {}
    last = tok.merges[step - 1]
    gained = freq.get(last.token_id, 0)
    change = {last.token_id: gained}
    for part in (last.left_id, last.right_id):
        change[part] = change.get(part, 0) - gained
    return change
