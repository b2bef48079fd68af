"""Incremental BPE training: the textbook algorithm without the recount.

The textbook loop recounts every adjacent pair after each merge. Here the corpus is held as
deduplicated words with counts, and we keep

* ``counts``: pair -> occurrences, weighted by word count (every adjacent pair, as the textbook
  counts them, so "a a a" holds the pair (a, a) twice);
* ``where``: pair -> indices of the words that hold it (never shrunk eagerly: stale entries are
  skipped when met);
* a heap of candidate pairs with lazy invalidation.

A merge touches only the words that hold the merged pair, and in them only the pairs next to each
merge site change. The result is exactly the reference trainer's (``reference.py``); the property
tests check it.

>>> tok = train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, max_merges=3,
...             unit="char", pretokenizer="whitespace", min_frequency=1)
>>> [(m.token, m.count) for m in tok.merges]
[('ug', 20), ('un', 16), ('hug', 15)]
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import Iterator

from .pretokenize import END_OF_WORD, resolve
from .tokenizer import Merge, Tokenizer
from .vocab import Base, byte_base, char_base
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
        self._merges: list[Merge] = []
        self._state: _State | None = None

    # -- the public loop ---------------------------------------------------------------------

    def run(self, corpus: Corpus) -> Iterator[MergeStep]:
        """Count ``corpus``, then yield one :class:`MergeStep` per merge until a stop rule fires."""
        self.word_counts = count_words(corpus, self.pattern, special_tokens=self.special_tokens,
                                       processes=self.processes)
        if not self.word_counts:
            raise ValueError("the corpus is empty: the pre-tokenizer found no pieces in it")
        base = base_for(self.word_counts, unit=self.unit, end_of_word=self.end_of_word,
                        byte_fallback=self.byte_fallback)
        self._target = self._merge_target(len(base))
        self._merges, self.stop_reason = [], None
        self._state = _State(self.word_counts, base, self.tie_break)
        return self.resume()

    def resume(self) -> Iterator[MergeStep]:
        """Go on from the last merge (after ``run`` was left part way)."""
        state = self._state
        if state is None:
            raise RuntimeError("call run(corpus) first")
        while self.stop_reason is None:
            if self._target is not None and len(self._merges) >= self._target:
                self.stop_reason = "vocab_size" if self.vocab_size is not None else "max_merges"
                break
            best = state.pop_best()
            if best is None:
                self.stop_reason = "no_pairs"
                break
            pair, count = best
            if count < self.min_frequency:
                state.push_back(pair, count)
                self.stop_reason = "min_frequency"
                break
            ties = state.ties(count, self.max_ties) if self.max_ties else []
            n_tied = state.hist.get(count, 1) - 1
            rank = len(self._merges)
            new_id = len(state.base) + rank
            state.add_token(pair)
            sites = state.merge(pair, new_id)
            delta = {new_id: sites}
            for part in pair:
                delta[part] = delta.get(part, 0) - sites
            show = state.display
            step = MergeStep(rank=rank, left=show(pair[0]), right=show(pair[1]),
                             token=show(new_id), count=count, left_id=pair[0],
                             right_id=pair[1], token_id=new_id,
                             ties=tuple(TiedPair(show(a), show(b), a, b) for a, b in ties),
                             n_tied=n_tied, total_tokens=state.total, freq_delta=delta)
            self._merges.append(Merge(rank, step.left, step.right, step.token, count,
                                      pair[0], pair[1], new_id))
            yield step

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
        return {i: n for i, n in self._state.freq.items() if n} if self._state else {}

    @property
    def tokenizer(self) -> Tokenizer:
        """The tokenizer as of the last merge."""
        if self._state is None:
            raise RuntimeError("call run(corpus) first")
        return Tokenizer(self._state.base, self._merges, pretokenizer=self.preset,
                         pattern=self.pattern, special_tokens=self.special_tokens,
                         name=self.name, stop_reason=self.stop_reason,
                         config={"vocab_size": self.vocab_size, "max_merges": self.max_merges,
                                 "min_frequency": self.min_frequency,
                                 "tie_break": self.tie_break})


class _State:
    """The incremental data structures (see the module docstring)."""

    def __init__(self, word_counts: dict[str, int], base: Base, tie_break: str):
        self.base = base
        self.first = tie_break == "first"
        self.words = [base.symbols(w) for w in word_counts]
        self.wcounts = list(word_counts.values())
        self.length = [0 if k == "eow" else 1 for k in base.kinds]  # base symbols per token
        self.shown = [base.display(i) for i in range(len(base))]
        self.counts: dict[tuple[int, int], int] = {}
        self.where: dict[tuple[int, int], set[int]] = {}
        firsts: dict[tuple[int, int], tuple[int, int]] = {}
        freq: dict[int, int] = {}
        total = 0
        for wi, (w, c) in enumerate(zip(self.words, self.wcounts)):
            total += len(w) * c
            for s in w:
                freq[s] = freq.get(s, 0) + c
            off = 0
            for j in range(len(w) - 1):
                p = (w[j], w[j + 1])
                self.counts[p] = self.counts.get(p, 0) + c
                ws = self.where.get(p)
                if ws is None:
                    self.where[p] = {wi}
                    firsts[p] = (wi, off)
                else:
                    ws.add(wi)
                off += self.length[w[j]]
        self.total, self.freq = total, freq
        self.hist: dict[int, int] = {}
        for c in self.counts.values():
            self.hist[c] = self.hist.get(c, 0) + 1
        # Heap entries: (-count, k1, k2, left, right, exact). For "first", (k1, k2) is the
        # (word index, offset) of the pair's earliest occurrence, or a lower bound of it when
        # exact is False; for "lowest-id" it is the pair itself.
        self.heap = [(-c, *(firsts[p] if self.first else p), *p, True)
                     for p, c in self.counts.items()]
        heapq.heapify(self.heap)

    def display(self, i: int) -> str:
        return self.shown[i]

    def add_token(self, pair: tuple[int, int]) -> None:
        self.length.append(self.length[pair[0]] + self.length[pair[1]])
        left, right = self.shown[pair[0]], self.shown[pair[1]]
        self.shown.append(left + right)

    def _first_occurrence(self, pair) -> tuple[int, int]:
        a, b = pair
        ws = self.where[pair]
        length = self.length
        for wi in sorted(ws):
            w = self.words[wi]
            off = 0
            for j in range(len(w) - 1):
                if w[j] == a and w[j + 1] == b:
                    return wi, off
                off += length[w[j]]
            ws.discard(wi)  # stale: the pair left this word in an earlier merge
        raise AssertionError(f"pair {pair} has a count but no occurrence")

    def _settle_top(self) -> tuple[tuple[int, int], int] | None:
        """Fix the heap top until it is exact; return it (still on the heap) or None."""
        heap, counts = self.heap, self.counts
        while heap:
            negc, k1, k2, a, b, exact = heap[0]
            pair = (a, b)
            c = counts.get(pair, 0)
            if c == 0:
                heapq.heappop(heap)
            elif c != -negc:
                # The count fell since the push; the old first occurrence is still a lower
                # bound (occurrences only ever disappear), so reuse it, marked inexact.
                heapq.heapreplace(heap, (-c, k1, k2, a, b, not self.first))
            elif not exact:
                heapq.heapreplace(heap, (-c, *self._first_occurrence(pair), a, b, True))
            else:
                return pair, c
        return None

    def pop_best(self) -> tuple[tuple[int, int], int] | None:
        top = self._settle_top()
        if top is not None:
            heapq.heappop(self.heap)
        return top

    def push_back(self, pair, count) -> None:
        key = self._first_occurrence(pair) if self.first else pair
        heapq.heappush(self.heap, (-count, *key, *pair, True))

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
        words, wcounts, length = self.words, self.wcounts, self.length
        delta: dict[tuple[int, int], int] = {}
        born: dict[tuple[int, int], tuple[int, int]] = {}  # new pair -> earliest (word, offset)
        born_in: dict[tuple[int, int], set[int]] = {}
        # A pair born at one site and undone by the next ("a b a b": (new, a) lives only until
        # the second site merges) may keep a too-early first occurrence: recompute it later.
        undone: set[tuple[int, int]] = set()
        sites = 0
        for wi in self.where.pop(pair):
            w = words[wi]
            if len(w) < 2:
                continue
            c = wcounts[wi]
            out: list[int] = []
            offs: list[int] = []
            i, n, off = 0, len(w), 0
            found = False
            while i < n:
                s = w[i]
                if s == a and i + 1 < n and w[i + 1] == b:
                    found = True
                    sites += c
                    delta[pair] = delta.get(pair, 0) - c
                    if out:  # the pair on the left now ends in the new token
                        p = out[-1]
                        delta[(p, a)] = delta.get((p, a), 0) - c
                        if p == new:
                            undone.add((p, a))
                        q = (p, new)
                        delta[q] = delta.get(q, 0) + c
                        key = (wi, offs[-1])
                        if q not in born or key < born[q]:
                            born[q] = key
                        born_in.setdefault(q, set()).add(wi)
                    if i + 2 < n:  # and the pair on the right starts with it
                        nx = w[i + 2]
                        delta[(b, nx)] = delta.get((b, nx), 0) - c
                        q = (new, nx)
                        delta[q] = delta.get(q, 0) + c
                        key = (wi, off)
                        if q not in born or key < born[q]:
                            born[q] = key
                        born_in.setdefault(q, set()).add(wi)
                    out.append(new)
                    offs.append(off)
                    off += length[a] + length[b]
                    i += 2
                else:
                    out.append(s)
                    offs.append(off)
                    off += length[s]
                    i += 1
            if found:
                words[wi] = out
        counts, hist = self.counts, self.hist
        for p, d in delta.items():
            if not d:
                continue
            old = counts.get(p, 0)
            now = old + d
            if old:
                hist[old] -= 1
            if now:
                hist[now] = hist.get(now, 0) + 1
                counts[p] = now
            else:
                counts.pop(p, None)
        for q, key in born.items():
            c = counts.get(q, 0)
            if c:
                self.where[q] = born_in[q]
                if self.first:
                    heapq.heappush(self.heap, (-c, *key, *q, q not in undone))
                else:
                    heapq.heappush(self.heap, (-c, *q, *q, True))
        self.total -= sites
        freq = self.freq
        freq[new] = sites
        freq[a] -= sites
        freq[b] -= sites
        return sites


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
    for _ in trainer.run(corpus):
        pass
    return trainer.tokenizer
