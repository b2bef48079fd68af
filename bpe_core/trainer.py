"""Incremental BPE training: the textbook algorithm without the recount.

The textbook loop recounts every adjacent pair after each merge. Here the corpus is held as
deduplicated words with counts, and we keep

* ``counts``: pair -> occurrences, weighted by word count (every adjacent pair, as the textbook
  counts them, so "a a a" holds the pair (a, a) twice);
* ``where``: pair -> indices of the words that hold it, for pairs that can still win (never
  shrunk eagerly: stale entries are skipped when met);
* a heap of the pairs that can still win (count at least ``min_frequency``) with lazy
  invalidation: an entry whose count fell is fixed only when it reaches the top.

A merge touches only the words that hold the merged pair, and in them only the pairs next to each
merge site change; each word is rewritten in place, jumping between sites with ``list.index``.
The result is exactly the reference trainer's (``reference.py``); the property tests check it.
The speed, beside Hugging Face's trainer, is in ``benchmarks/bench_train.py``.

>>> tok = train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, max_merges=3,
...             unit="char", pretokenizer="whitespace", min_frequency=1)
>>> [(m.token, m.count) for m in tok.merges]
[('ug', 20), ('un', 16), ('hug', 15)]
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Iterator

from .gc_pause import gc_paused
from .pretokenize import END_OF_WORD, resolve
from .merges import Merge, MergeList
from .tokenizer import Tokenizer
from .vocab import Base, byte_base, char_base, token_display
from .words import Corpus, count_words

TIE_BREAKS = ("first", "lowest-id")
UNITS = ("byte", "char")


@dataclass(frozen=True)
class TiedPair:
    """A pair that had the winner's count but lost the tie."""

    left: str
    right: str
    left_id: int
    right_id: int


@dataclass(frozen=True)
class MergeStep(Merge):
    """One merge as it happens, with what a live view needs.

    ``ties`` lists up to ``Trainer.max_ties`` of the pairs that had the same count and lost the
    tie (best first); ``n_tied`` counts them all. ``freq_delta`` maps token id to the change of its
    frequency: the new token gains what its parts lose.
    """

    ties: tuple[TiedPair, ...] = ()
    n_tied: int = 0
    total_tokens: int = 0
    freq_delta: dict = field(default_factory=dict)


def base_for(words: dict[str, int], *, unit: str, end_of_word: bool, byte_fallback: bool) -> Base:
    """The base alphabet training starts from."""
    if unit == "byte":
        return byte_base(end_of_word=end_of_word)
    chars = set()
    for w in words:
        chars.update(w)
    return char_base(chars, end_of_word=end_of_word, byte_fallback=byte_fallback)


class Trainer:
    """BPE training you can watch: ``run(corpus)`` yields a :class:`MergeStep` per merge.

    Stop iterating whenever you like and resume with ``resume()``; ``tokenizer`` is always the
    tokenizer as of the last merge.

    >>> t = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1)
    >>> [s.token for s in t.run("low lower lowest")]
    ['lo', 'low']
    >>> t.stop_reason
    'max_merges'
    """

    def __init__(self, vocab_size: int | None = None, *, max_merges: int | None = None,
                 min_frequency: int = 2, unit: str = "byte", pretokenizer: str = "gpt2",
                 tie_break: str = "first", special_tokens=(), byte_fallback: bool = False,
                 processes: int | None = None, max_ties: int = 10, name: str = "bpe"):
        if unit not in UNITS:
            raise ValueError(f"unit must be one of {UNITS}, got {unit!r}")
        if tie_break not in TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {TIE_BREAKS}, got {tie_break!r}")
        if min_frequency < 1:
            raise ValueError(f"min_frequency must be at least 1, got {min_frequency}")
        if max_merges is not None and max_merges < 0:
            raise ValueError(f"max_merges must be 0 or more, got {max_merges}")
        if byte_fallback and unit != "char":
            raise ValueError("byte_fallback applies to unit='char' only (byte units never need it)")
        self.preset, self.pattern = resolve(pretokenizer)
        self.vocab_size, self.max_merges = vocab_size, max_merges
        self.min_frequency, self.unit, self.tie_break = min_frequency, unit, tie_break
        self.special_tokens = tuple(dict.fromkeys(special_tokens))
        if any(not s for s in self.special_tokens):
            raise ValueError("special tokens must be non-empty strings")
        self.byte_fallback, self.processes, self.max_ties, self.name = (
            byte_fallback, processes, max_ties, name)
        self.end_of_word = self.preset == "end-of-word"
        self.stop_reason: str | None = None
        self.word_counts: dict[str, int] = {}
        self._pairs: list[tuple[int, int, int]] = []  # (left id, right id, count) per merge
        self._state: _State | None = None

    # -- the public loop ---------------------------------------------------------------------

    def run(self, corpus: Corpus) -> Iterator[MergeStep]:
        """Count ``corpus``, then yield one :class:`MergeStep` per merge until a stop rule fires."""
        self._prepare(corpus, watched=True)
        return self.resume()

    def resume(self) -> Iterator[MergeStep]:
        """Go on from the last merge (after ``run`` was left part way)."""
        state = self._state
        if state is None:
            raise RuntimeError("call run(corpus) first")
        while self.stop_reason is None:
            done = self._merge_next()
            if done is None:
                break
            (a, b), count, ties, n_tied, sites = done
            rank = len(self._pairs) - 1
            new_id = len(state.base) + rank
            delta = {new_id: sites}
            for part in (a, b):
                delta[part] = delta.get(part, 0) - sites
            show = state.display
            yield MergeStep(rank=rank, left=show(a), right=show(b), token=show(new_id),
                            count=count, left_id=a, right_id=b, token_id=new_id,
                            ties=tuple(TiedPair(show(x), show(y), x, y) for x, y in ties),
                            n_tied=n_tied, total_tokens=state.total, freq_delta=delta)

    def _prepare(self, corpus: Corpus, *, watched: bool) -> None:
        self.word_counts = count_words(corpus, self.pattern, special_tokens=self.special_tokens,
                                       processes=self.processes)
        if not self.word_counts:
            raise ValueError("the corpus is empty: the pre-tokenizer found no pieces in it")
        base = base_for(self.word_counts, unit=self.unit, end_of_word=self.end_of_word,
                        byte_fallback=self.byte_fallback)
        self._target = self._merge_target(len(base))
        self._pairs, self.stop_reason = [], None
        with gc_paused():
            self._state = _State(self.word_counts, base, self.tie_break, self.min_frequency,
                                 watched=watched)

    def _merge_next(self) -> tuple[tuple[int, int], int, list, int, int] | None:
        """Make the next merge: ``(pair, count, ties, n_tied, sites)``, or None once a rule
        stops us."""
        state = self._state
        if self._target is not None and len(self._pairs) >= self._target:
            self.stop_reason = "vocab_size" if self.vocab_size is not None else "max_merges"
            return None
        best = state.pop_best()
        if best is None:
            # The heap holds only pairs that may still win; any pair left is too rare.
            self.stop_reason = "min_frequency" if state.counts else "no_pairs"
            return None
        pair, count = best
        ties = state.ties(count, self.max_ties) if self.max_ties else []
        n_tied = state.hist.get(count, 1) - 1 if state.hist is not None else 0
        new_id = len(state.base) + len(self._pairs)
        state.add_token(pair)
        sites = state.merge(pair, new_id)
        self._pairs.append((*pair, count))
        return pair, count, ties, n_tied, sites

    def _merge_target(self, n_base: int) -> int | None:
        targets = []
        if self.vocab_size is not None:
            floor = n_base + len(self.special_tokens)
            if self.vocab_size < floor:
                raise ValueError(
                    f"vocab_size {self.vocab_size} is below the base alphabet: {n_base} base "
                    f"symbols + {len(self.special_tokens)} special tokens = {floor}. "
                    f"Choose a vocab_size of at least {floor}, or set max_merges instead.")
            targets.append(self.vocab_size - floor)
        if self.max_merges is not None:
            targets.append(self.max_merges)
        if len(targets) == 2 and targets[1] < targets[0]:
            self.vocab_size = None  # max_merges is the rule that stops us
        return min(targets) if targets else None

    @property
    def token_frequencies(self) -> dict[int, int]:
        """Token id -> occurrences in the training corpus as segmented now (non-zero only)."""
        freq = self._state.freq if self._state else None
        return {i: n for i, n in freq.items() if n} if freq else {}

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenizer as of the last merge."""
        state = self._state
        if state is None:
            raise RuntimeError("call run(corpus) first")
        left, right, count = zip(*self._pairs) if self._pairs else ((), (), ())
        n_base = len(state.base)
        merges = MergeList(n_base, left=left, right=right, count=count,
                           shown=state.shown[:n_base + len(left)])  # a copy: training goes on
        return Tokenizer(state.base, merges, pretokenizer=self.preset,
                         pattern=self.pattern, special_tokens=self.special_tokens,
                         name=self.name, stop_reason=self.stop_reason,
                         config={"vocab_size": self.vocab_size, "max_merges": self.max_merges,
                                 "min_frequency": self.min_frequency,
                                 "tie_break": self.tie_break})


class _State:
    """The incremental data structures (see the module docstring)."""

    def __init__(self, word_counts: dict[str, int], base: Base, tie_break: str, floor: int,
                 watched: bool = True):
        self.base = base
        self.first = tie_break == "first"
        # Counts only ever fall once a pair exists, so a pair below min_frequency can never win:
        # it stays out of the heap (it is still counted, for n_tied and the stop reason).
        self.floor = floor
        self.words = words = [base.symbols(w) for w in word_counts]
        self.wcounts = wcounts = list(word_counts.values())
        self.length = [0 if k == "eow" else 1 for k in base.kinds]  # base symbols per token
        self.shown = [base.display(i) for i in range(len(base))]
        self.data = list(base.tokens)  # each token's bytes and whether it ends with </w>
        self.eow = [k == "eow" for k in base.kinds]
        self.counts = counts = {}
        self.where = where = {}
        firsts: dict[tuple[int, int], tuple[int, int]] = {}
        total = 0
        for wi, w in enumerate(words):
            c = wcounts[wi]
            total += len(w) * c
            # Before any merge every symbol but </w> (always last) is one base symbol long, so
            # a pair's index in the word is also its offset in base symbols.
            for j, p in enumerate(zip(w, w[1:])):
                n = counts.get(p)
                if n is None:
                    counts[p] = c
                    where[p] = {wi}
                    firsts[p] = (wi, j)
                else:
                    counts[p] = n + c
                    where[p].add(wi)
        self.total = total
        # What only a watcher needs (train() goes without): token id -> occurrences, and
        # count -> number of pairs with it (to report how many pairs tied).
        self.freq: dict[int, int] | None = None
        self.hist: dict[int, int] | None = None
        if watched:
            self.freq = freq = {}
            for w, c in zip(words, wcounts):
                for s in w:
                    freq[s] = freq.get(s, 0) + c
            self.hist = hist = {}
            for c in counts.values():
                hist[c] = hist.get(c, 0) + 1
        # Heap entries: (-count, k1, k2, left, right, inexact). For "first", (k1, k2) is the
        # (word index, offset in base symbols) of the pair's earliest occurrence, or a lower
        # bound of it while inexact is 1; for "lowest-id" it is the pair itself.
        self.heap = [(-c, *(firsts[p] if self.first else p), *p, 0)
                     for p, c in counts.items() if c >= floor]
        heapq.heapify(self.heap)

    def display(self, i: int) -> str:
        return self.shown[i]

    def add_token(self, pair: tuple[int, int]) -> None:
        a, b = pair
        self.length.append(self.length[a] + self.length[b])
        self.data.append(self.data[a] + self.data[b])
        self.eow.append(self.eow[b])
        self.shown.append(token_display(self.data[-1], self.eow[-1]))

    def _first_occurrence(self, pair, hint: int) -> tuple[int, int]:
        """(word index, offset in base symbols) of the earliest occurrence of ``pair``.

        ``hint`` is a word index no later than the earliest: a pair never enters a word after it
        is born, so the earliest word it was known in stays a lower bound. If that word still
        holds it, it is the earliest, and the pair's other words need not be looked at.
        """
        a, b = pair
        ws, words = self.where[pair], self.words
        wi = hint
        j = _find(words[wi], a, b)
        if j < 0:
            for wi in sorted(ws):
                j = _find(words[wi], a, b)
                if j >= 0:
                    break
                ws.discard(wi)  # stale: the pair left this word in an earlier merge
            else:
                raise AssertionError(f"pair {pair} has a count but no occurrence")
        return wi, sum(map(self.length.__getitem__, words[wi][:j]))

    def _settle_top(self) -> tuple[tuple[int, int], int] | None:
        """Fix the heap top until it is exact; return it (still on the heap) or None."""
        heap, counts, floor = self.heap, self.counts, self.floor
        while heap:
            negc, k1, k2, a, b, inexact = heap[0]
            pair = (a, b)
            c = counts.get(pair, 0)
            if c < floor:
                heapq.heappop(heap)
                continue
            runner_up = min(heap[1:3], default=None)
            if c != -negc:
                # The count fell since the push; the old first occurrence is still a lower
                # bound (occurrences only ever disappear), so keep it, marked inexact.
                entry = (-c, k1, k2, a, b, self.first)
            elif inexact and runner_up is not None and -runner_up[0] >= c:
                # Its exact first occurrence only matters against a pair of the same count, and
                # the runner-up (whose count is an upper bound) may have it: look it up.
                entry = (-c, *self._first_occurrence(pair, k1), a, b, 0)
            else:
                return pair, c
            if runner_up is None or entry <= runner_up:
                heap[0] = entry  # still on top: no need to sift it down
            else:
                heapq.heapreplace(heap, entry)
        return None

    def pop_best(self) -> tuple[tuple[int, int], int] | None:
        top = self._settle_top()
        if top is not None:
            heapq.heappop(self.heap)
        return top

    def ties(self, count: int, limit: int) -> list[tuple[int, int]]:
        """Up to ``limit`` other pairs with ``count``, in tie order (left on the heap)."""
        found, held = [], []
        while len(found) < limit:
            top = self._settle_top()
            if top is None or top[1] != count:
                break
            held.append(heapq.heappop(self.heap))
            found.append(top[0])
        for entry in held:
            heapq.heappush(self.heap, entry)
        return found

    def merge(self, pair: tuple[int, int], new: int) -> int:
        """Apply one merge everywhere; return the number of sites (weighted by word count)."""
        a, b = pair
        words, wcounts, counts, where, hist = (self.words, self.wcounts, self.counts, self.where,
                                               self.hist)
        # New pair (it holds `new`) -> the words it is born in, a word once per occurrence: the
        # pair's count and word set are made from this list at the end, in C.
        born: defaultdict[tuple[int, int], list[int]] = defaultdict(list)
        # Old pairs next to a merge site -> occurrences lost (weighted by word count); applied
        # to `counts` at the end, once per pair instead of once per site.
        lost: defaultdict[tuple[int, int], int] = defaultdict(int)

        sites = 0
        for wi in where.pop(pair):
            w = words[wi]
            # Jump from one `a` to the next with list.index (a C loop) instead of stepping
            # through every symbol in Python; the word is rewritten in place, site by site.
            todo = w.count(a)
            if not todo:
                continue  # stale: the pair left this word in an earlier merge
            c = wcounts[wi]
            last = len(w) - 1
            j = 0
            while todo:
                j = w.index(a, j)
                todo -= 1
                if j < last and w[j + 1] == b:
                    if a == b:
                        todo -= 1  # the `b` was one of the `a`s still to look at
                    sites += c
                    if j:  # the pair on the left now ends in the new token
                        p = w[j - 1]
                        if p == new:  # "a b a b": (new, a), born at the site just before, is undone
                            born[new, a].pop()
                        else:
                            lost[p, a] += c
                        born[p, new].append(wi)
                    if j + 1 < last:  # and the pair on the right starts with it
                        nx = w[j + 2]  # never `new`: the sites to the right are still to come
                        lost[b, nx] += c
                        born[new, nx].append(wi)
                    w[j:j + 2] = (new,)
                    last -= 1
                j += 1
        for q, c in lost.items():
            n = counts[q] - c
            if hist is not None:
                _recount(hist, n + c, n)
            if n:
                counts[q] = n
            else:
                del counts[q]
                where.pop(q, None)
        # Every occurrence is gone (a run "a a a" counts the pair twice but merges once, so
        # what is left of its count is dropped, not decremented).
        rest = counts.pop(pair, 0)
        if hist is not None and rest:
            _recount(hist, rest, 0)
        heap, first, floor = self.heap, self.first, self.floor
        count_of = wcounts.__getitem__
        for q, ws in born.items():
            if not ws:
                continue  # undone at once: "a b a b" merges the (new, a) it made
            counts[q] = c = sum(map(count_of, ws))
            if hist is not None:
                _recount(hist, 0, c)
            if c >= floor:
                # Only a pair that can still win needs to know its words.
                where[q] = set(ws)
                # A new pair occurs only in words this merge touched, so its earliest word is
                # among them; its offset there is looked up only if it ever reaches the top.
                heapq.heappush(heap, (-c, min(ws), 0, *q, 1) if first else (-c, *q, *q, 0))
        self.total -= sites
        freq = self.freq
        if freq is not None:
            freq[new] = sites
            freq[a] -= sites
            freq[b] -= sites
        return sites


def _recount(hist: dict[int, int], old: int, now: int) -> None:
    """One pair's count went from ``old`` to ``now`` (0 for none): keep the histogram."""
    if old:
        hist[old] -= 1
    if now:
        hist[now] = hist.get(now, 0) + 1


def _find(w: list[int], a: int, b: int) -> int:
    """Index of the first ``a, b`` in ``w``, or -1."""
    j = -1
    for _ in range(w.count(a)):
        j = w.index(a, j + 1)
        if j + 1 < len(w) and w[j + 1] == b:
            return j
    return -1


def train_progress_line(step: MergeStep) -> str:
    """One line about a merge, for logs: ``merge 12: 'th' + 'e' -> 'the' (count 523)``."""
    return f"merge {step.rank}: {step.left!r} + {step.right!r} -> {step.token!r} (count {step.count:,})"


def train(corpus: Corpus, vocab_size: int | None = None, *, max_merges: int | None = None,
          min_frequency: int = 2, unit: str = "byte", pretokenizer: str = "gpt2",
          tie_break: str = "first", special_tokens=(), byte_fallback: bool = False,
          processes: int | None = None, name: str = "bpe") -> Tokenizer:
    """Train a BPE tokenizer; see :class:`Trainer` for the options and the module for the method.

    ``vocab_size`` counts base symbols, merges and special tokens. Training stops at the first of:
    the vocabulary reaches ``vocab_size``, ``max_merges`` merges are done, or the best pair occurs
    fewer than ``min_frequency`` times; ``tok.stop_reason`` says which.
    """
    trainer = Trainer(vocab_size, max_merges=max_merges, min_frequency=min_frequency, unit=unit,
                      pretokenizer=pretokenizer, tie_break=tie_break,
                      special_tokens=special_tokens, byte_fallback=byte_fallback,
                      processes=processes, max_ties=0, name=name)
    with gc_paused():
        # Nobody watches these steps: skip the tie bookkeeping and the MergeStep objects.
        trainer._prepare(corpus, watched=False)
        while trainer._merge_next() is not None:
            pass
        tok = trainer.tokenizer
        # Free the training state (reference counting does it: there are no cycles) before the
        # collector is back; it would otherwise walk every object of it once more.
        trainer._state = None
    return tok
