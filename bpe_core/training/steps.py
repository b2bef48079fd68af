"""The textbook step tables: one step of BPE training as it is drawn on paper.

After ``k`` merges every training word is segmented with the first ``k`` merges. From that
segmentation come the three tables a textbook shows for a step: the words with their current
segmentation and counts, the counts of adjacent pairs (the winner becomes merge ``k + 1``, and the
pairs with the same count are the ones it beat on the tie rule), and the token frequencies (the
last merge's new token gains exactly what its two parts lose).

>>> from bpe_core import Trainer
>>> t = Trainer(max_merges=3, unit="char", pretokenizer="whitespace", min_frequency=1)
>>> _ = list(t.run({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}))
>>> s = step_tables(t.tokenizer, t.word_counts, 1)
>>> [(w.word, w.tokens, w.count) for w in s.words[:2]]
[('hug', ('h', 'ug'), 10), ('pug', ('p', 'ug'), 5)]
>>> s.winner.left, s.winner.right, s.winner.count
('u', 'n', 16)
>>> [(f.token, f.count, f.change) for f in s.frequencies if f.change]  # g is used up
[('ug', 20, 20), ('u', 16, -20), ('g', 0, -20)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..tokenizer import Tokenizer
from .textbook import count_pairs

WINNER, TIED = "winner", "tied"


@dataclass(frozen=True)
class WordRow:
    """A training word (pre-tokenized piece), its count and its tokens after ``step`` merges."""

    word: str
    count: int
    ids: tuple[int, ...]
    tokens: tuple[str, ...]  # display texts


@dataclass(frozen=True)
class PairRow:
    """An adjacent pair and its count; ``status`` is "winner", "tied" or ""."""

    left_id: int
    right_id: int
    left: str
    right: str
    count: int
    status: str = ""


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
    pairs: tuple[PairRow, ...]  # highest count first; the winner first among its equals
    frequencies: tuple[FrequencyRow, ...]  # highest first; tokens at zero are dropped...
    total_tokens: int  # ...except those the last merge used up, shown once with count 0

    @property
    def winner(self) -> PairRow | None:
        """The pair merged next (merge ``step + 1``), or None when training stopped here."""
        return self.pairs[0] if self.pairs and self.pairs[0].status == WINNER else None

    @property
    def ties(self) -> tuple[PairRow, ...]:
        """The pairs that had the winner's count and lost the tie."""
        return tuple(p for p in self.pairs if p.status == TIED)


def step_tables(tok: Tokenizer, word_counts: Mapping[str, int], step: int) -> StepTables:
    """The three tables after ``step`` merges of ``tok``, over the training ``word_counts``.

    ``word_counts`` is what training counted (``Trainer.word_counts``). Training's segmentation
    after ``k`` merges is the rank-priority encoding with the first ``k`` merges: a merge never
    creates a pair that an earlier merge could have joined, so applying merges in rank order and
    applying the lowest-ranked one present agree.
    """
    step = max(0, min(int(step), len(tok.merges)))
    show = tok.display
    words, freq, total = [], {}, 0
    for word, count in word_counts.items():
        ids = tok.encode_piece(word, upto=step)
        words.append(WordRow(word, count, ids, tuple(show(i) for i in ids)))
        total += len(ids) * count
        for i in ids:
            freq[i] = freq.get(i, 0) + count
    return StepTables(step, tuple(words), _pairs(tok, words, step), _frequencies(tok, freq, step),
                      total)


def _pairs(tok: Tokenizer, words: list[WordRow], step: int) -> tuple[PairRow, ...]:
    # count_pairs keeps first-occurrence order, which is the "first" tie rule's order.
    counts = count_pairs([w.ids for w in words], [w.count for w in words])
    nxt = tok.merges[step] if step < len(tok.merges) else None
    win = (nxt.left_id, nxt.right_id) if nxt else None
    best = counts.get(win, 0)
    order = list(counts) if tok.config.get("tie_break", "first") == "first" else sorted(counts)
    rank = {p: n for n, p in enumerate(order)}
    ranked = sorted(counts, key=lambda p: (-counts[p], p != win, rank[p]))
    show = tok.display
    return tuple(
        PairRow(a, b, show(a), show(b), counts[(a, b)],
                WINNER if (a, b) == win else TIED if win and counts[(a, b)] == best else "")
        for a, b in ranked)


def _frequencies(tok: Tokenizer, freq: dict[int, int], step: int) -> tuple[FrequencyRow, ...]:
    change: dict[int, int] = {}
    if step:
        last = tok.merges[step - 1]
        gained = freq.get(last.token_id, 0)
        change[last.token_id] = gained
        for part in (last.left_id, last.right_id):
            change[part] = change.get(part, 0) - gained
    ids = set(freq) | {i for i, d in change.items() if d}
    rows = [FrequencyRow(i, tok.display(i), freq.get(i, 0), change.get(i, 0)) for i in ids]
    rows.sort(key=lambda r: (-r.count, r.id))
    return tuple(rows)
