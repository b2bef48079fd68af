"""Incremental BPE training: the textbook algorithm without the recount.

The textbook loop recounts every adjacent pair after each merge. Here the corpus is held as
deduplicated words with counts, and only the pairs next to each merge site change: the counts,
the words that hold each pair and a heap of candidates are kept up to date (``pairs.py``).
The result is exactly the reference trainer's (``reference.py``); the property tests check it.
The speed, beside Hugging Face's trainer, is in ``benchmarks/bench_train.py``.

>>> tok = train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, max_merges=3,
...             unit="char", pretokenizer="whitespace", min_frequency=1)
>>> [(m.token, m.count) for m in tok.merges]
[('ug', 20), ('un', 16), ('hug', 15)]
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from .. import recipes
from ..alphabet import base_for
from ..end_of_word import without_marker
from ..gc_pause import gc_paused
from ..merges import Merge
from ..presets import resolve, shown_pattern
from ..tokenizer import Tokenizer
from .counting import Corpus, count_words
from .pairs import PairState
from .record import TrainingRecord, rewind
from .refusals import BYTE_NAMES, NOT_ALLOWED, why_refused

TIE_BREAKS = ("first", "lowest-id")
MAX_TOKENS = 0x110000  # one per Unicode code point: training holds a token id as a character
UNITS = ("byte", "char")


class VocabSizeError(ValueError):
    """A ``vocab_size`` below the base alphabet: ``n_base`` base symbols and ``n_special``
    special tokens take ``floor`` ids before any merge. Its fields let an app say it in its
    own words (the message names this library's options).

    >>> VocabSizeError(5, 11, 1).floor
    12
    """

    def __init__(self, vocab_size: int, n_base: int, n_special: int):
        self.vocab_size, self.n_base, self.n_special = vocab_size, n_base, n_special
        self.floor = n_base + n_special
        super().__init__(
            f"vocab_size {vocab_size} is below the base alphabet: {n_base} base symbols + "
            f"{n_special} special tokens = {self.floor}. Choose a vocab_size of at least "
            f"{self.floor}, or set max_merges instead.")


@dataclass(frozen=True)
class TiedPair:
    """A pair that had the winner's count but lost the tie, or is never merged: ``refused``
    then says why (``"byte_names"`` or ``"not_allowed"``, see ``refusals.py``)."""

    left: str
    right: str
    left_id: int
    right_id: int
    refused: str = ""


@dataclass(frozen=True)
class MergeStep(Merge):
    """One merge as it happens, with what a live view needs.

    ``ties`` lists up to ``Trainer.max_ties`` of the other pairs that had the same count: those
    that lost the tie (best first) and those the run never merges (their ``refused`` says why);
    ``n_tied`` counts them all. ``freq_delta`` maps token id to the change of its frequency: the
    new token gains what its parts lose.
    """

    ties: tuple[TiedPair, ...] = ()
    n_tied: int = 0
    total_tokens: int = 0
    freq_delta: dict = field(default_factory=dict)


def _check_count(option: str, value: object) -> None:
    """Refuse a count that is not a whole number (``vocab_size="300"`` failed with "'<' not
    supported between instances of 'str' and 'int'"); None and numpy's integers pass."""
    if value is not None:
        try:
            operator.index(value)
        except TypeError:
            raise TypeError(f"{option} takes a whole number, not {value!r}") from None


def special_token_tuple(special_tokens: Iterable[str]) -> tuple[str, ...]:
    """The special tokens asked for, each once, in order; one string is refused (its characters
    would each become a special token).

    >>> special_token_tuple("<s>")
    Traceback (most recent call last):
    TypeError: special_tokens takes a list of strings, such as ['<s>'], not one string
    """
    if isinstance(special_tokens, str):
        raise TypeError(f"special_tokens takes a list of strings, such as "
                        f"[{special_tokens!r}], not one string")
    specials = tuple(dict.fromkeys(special_tokens))
    if any(not s for s in specials):
        raise ValueError("special tokens must be non-empty strings")
    return specials


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
                 processes: int | None = None, max_ties: int = 10, name: str = "bpe",
                 allow: Callable[[bytes], bool] | None = None):
        for option, value in (("vocab_size", vocab_size), ("max_merges", max_merges),
                              ("min_frequency", min_frequency)):
            _check_count(option, value)
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
        self.special_tokens = special_token_tuple(special_tokens)
        self.byte_fallback, self.processes, self.max_ties, self.name = (
            byte_fallback, processes, max_ties, name)
        # Given the bytes of a merge's token, whether it may be made (SuperBPE's stage 2 rules
        # out some); a pair it refuses is never merged.
        self.allow = allow
        self.end_of_word = self.preset == "end-of-word"
        self.stop_reason: str | None = None
        self.word_counts: dict[str, int] = {}
        self._pairs: list[tuple[int, int, int]] = []  # (left id, right id, count) per merge
        self._refused: list[tuple[int, int]] = []  # pairs refused so far, if ties are listed
        self._target: int | None = None  # merges to make on the corpus counted (_merge_target)
        self._state: PairState | None = None

    # -- the public loop ---------------------------------------------------------------------

    def run(self, corpus: Corpus) -> Iterator[MergeStep]:
        """Count ``corpus``, then yield one :class:`MergeStep` per merge until a stop rule fires."""
        self._prepare(corpus, watched=True)
        return self.resume()

    def resume(self) -> Iterator[MergeStep]:
        """Go on from the last merge (after ``run`` was left part way)."""
        state = self._state
        if state is None:
            raise RuntimeError("call run(corpus) first (fit() frees its state when done)")
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
                            ties=tuple(TiedPair(show(x), show(y), x, y, self.refusal(x, y) or "")
                                       for x, y in ties),
                            n_tied=n_tied, total_tokens=state.total, freq_delta=delta)

    def fit(self, corpus: Corpus) -> Tokenizer:
        """Train on ``corpus`` to the end with nobody watching and return the tokenizer.

        The fastest way through: no :class:`MergeStep` per merge and no tie bookkeeping, and the
        training state is freed at the end (``resume`` cannot go on from it).
        """
        with gc_paused():
            self._prepare(corpus, watched=False)
            while self._merge_next() is not None:
                pass
            tok = self.tokenizer
            # Free the training state (reference counting does it: there are no cycles) before
            # the collector is back; it would otherwise walk every object of it once more.
            self._state = None
        return tok

    def _prepare(self, corpus: Corpus, *, watched: bool) -> None:
        self.word_counts = count_words(corpus, self.pattern, special_tokens=self.special_tokens,
                                       processes=self.processes)
        if self.end_of_word and self.unit == "char":
            self.word_counts = without_marker(self.word_counts)
        if not self.word_counts:
            # A custom regex that matches nothing leaves a corpus of text just as bare as an
            # empty one: name the regex, the thing to fix.
            raise ValueError(
                "the corpus is empty: the pre-tokenizer found no pieces in it"
                if self.preset is not None else
                f"the pre-tokenizer regex {shown_pattern(self.pattern)} matches nothing in the "
                f"corpus, so there are no pieces to train on; try a pattern such as \\S+")
        base = base_for(self.word_counts, unit=self.unit, end_of_word=self.end_of_word,
                        byte_fallback=self.byte_fallback)
        own = recipes.own_special_tokens(base, self.special_tokens)  # ([UNK] is in the base)
        self._target = self._merge_target(len(base), len(own))
        self._pairs, self._refused, self.stop_reason = [], [], None
        with gc_paused():
            self._state = PairState(self.word_counts, base, self.tie_break, self.min_frequency,
                                 watched=watched)

    def _merge_next(self) -> tuple[tuple[int, int], int, list, int, int] | None:
        """Make the next merge: ``(pair, count, ties, n_tied, sites)``, or None once a rule
        stops us."""
        state = self._state
        if len(self._pairs) >= self._target:
            self.stop_reason = self._target_rule
            return None
        best = state.pop_best()
        refusing = self.allow is not None or self.byte_fallback
        while best is not None and refusing and self.refusal(*best[0]) is not None:
            # Popped, it is gone for good: a pair enters the heap once, when it first occurs.
            if self.max_ties:
                self._refused.append(best[0])
            best = state.pop_best()
        if best is None:
            # The heap holds only pairs that may still win: a pair left at min_frequency or
            # more was refused (by `allow`, or as a byte's name), any other is too rare.
            refused = refusing and state.top_count() >= self.min_frequency
            self.stop_reason = (
                (NOT_ALLOWED if self.allow is not None else BYTE_NAMES) if refused
                else "min_frequency" if state.any_pair() else "no_pairs")
            return None
        pair, count = best
        ties = state.ties(count, self.max_ties) if self.max_ties else []
        if self._refused:
            # A refused pair keeps its count: one of this count tied too, and is listed as such.
            counts = state.counts
            ties += [p for p in self._refused if counts.get(chr(p[0]) + chr(p[1])) == count
                     ][:self.max_ties - len(ties)]
        n_tied = state.hist.get(count, 1) - 1 if state.hist is not None else 0
        new_id = len(state.base) + len(self._pairs)
        state.add_token(pair)
        sites = state.merge(pair, new_id)
        self._pairs.append((*pair, count))
        return pair, count, ties, n_tied, sites

    def refusal(self, left_id: int, right_id: int) -> str | None:
        """Why this run never merges these two tokens, or None if it may (see ``refusals.py``):
        ``"byte_names"`` with byte fallback, for a token spelled as a byte's own (a merged
        "<0x41>" would decode as "A", and no tokenizer.json could tell it from the byte's
        token), ``</w>`` after it or not; ``"not_allowed"`` where ``allow`` refuses it.

        >>> t = Trainer(unit="char", pretokenizer="whitespace", byte_fallback=True,
        ...             min_frequency=1)
        >>> [s.token for s in t.run("<0x41>")], t.stop_reason
        (['<0', '<0x', '<0x4', '<0x41'], 'byte_names')
        >>> vocab = t.tokenizer.model.vocab
        >>> t.refusal(vocab["<0x41"], vocab[">"]), t.refusal(vocab["<0x4"], vocab["1"])
        ('byte_names', None)
        """
        if not (self.byte_fallback or self.allow):
            return None
        data = self._state.data  # (</w> has no bytes)
        return why_refused(data[left_id] + data[right_id], byte_fallback=self.byte_fallback,
                           allow=self.allow)

    def _merge_target(self, n_base: int, n_special: int) -> int:
        targets = {}
        if self.vocab_size is not None:
            floor = n_base + n_special
            if self.vocab_size < floor:
                raise VocabSizeError(self.vocab_size, n_base, n_special)
            targets["vocab_size"] = self.vocab_size - floor
        if self.max_merges is not None:
            targets["max_merges"] = self.max_merges
        # Training holds a token id as one character (see pairs.py): no id beyond Unicode's.
        room = MAX_TOKENS - n_base - n_special
        target = min(targets.values(), default=room)
        if target > room:
            raise ValueError(f"this trainer makes at most {MAX_TOKENS:,} tokens; ask for "
                             f"{room:,} merges or fewer")
        # Which rule stops us (vocab_size when both stop at once), for this corpus: its alphabet
        # sets how many merges vocab_size leaves. Neither option is dropped: a next corpus may
        # leave fewer, and the tokenizer's config records both.
        self._target_rule = next((rule for rule, n in targets.items() if n == target),
                                 "max_merges")
        return target

    @property
    def merge_target(self) -> int:
        """How many merges the run on the corpus counted last (by ``run`` or ``fit``) aims at:
        the fewer of what ``vocab_size`` leaves after its base symbols and special tokens and
        ``max_merges``; a stop rule (``min_frequency``, no pairs left) may end it sooner.

        >>> t = Trainer(12, max_merges=3, unit="char", pretokenizer="whitespace")
        >>> _ = t.run("abcd")  # 5 base symbols with [UNK]: vocab_size leaves 7 merges
        >>> t.merge_target
        3
        """
        if self._target is None:
            raise RuntimeError("call run(corpus) or fit(corpus) first")
        return self._target

    def segmentation(self, step: int) -> list[tuple[int, ...]]:
        """Each training word's token ids after the first ``step`` merges, in ``word_counts``
        order (a watched run only: ``run``, not ``fit``).

        Read off the segmentation training keeps up to date, not encoded again: later merges
        are undone (``record.rewind``).

        >>> t = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1)
        >>> _ = list(t.run("low lower"))
        >>> [[t.tokenizer.display(i) for i in w] for w in t.segmentation(1)]
        [['lo', 'w'], ['lo', 'w', 'e', 'r']]
        """
        state = self._state
        if state is None:
            raise RuntimeError("call run(corpus) first (fit() frees its state when done)")
        step = max(0, min(int(step), len(self._pairs)))
        if step == len(self._pairs):
            return state.segments()
        later = ((a, b) for a, b, _ in self._pairs[step:])
        return rewind(state.segments(), later, len(state.base) + step)

    def record(self) -> TrainingRecord:
        """This run without its training state, once it has stopped (see ``record.py``)."""
        if self._state is None or self.stop_reason is None:
            raise RuntimeError("a record is made of a watched run (run) once it has stopped")
        return TrainingRecord(self.tokenizer, self.word_counts,
                              tuple(self._state.segments()), self.token_frequencies, self.allow)

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
        return recipes.build(state.base, self._pairs, pattern=self.pattern, preset=self.preset,
                             special_tokens=self.special_tokens, name=self.name,
                             stop_reason=self.stop_reason,
                             config={"vocab_size": self.vocab_size, "max_merges": self.max_merges,
                                     "min_frequency": self.min_frequency,
                                     "tie_break": self.tie_break})


def train_progress_line(step: MergeStep) -> str:
    """One line about a merge, for logs: ``merge 12 (rank 11): 'th' + 'e' -> 'the' (count 523)``,
    numbered as the app numbers merges."""
    return (f"merge {step.rank + 1} (rank {step.rank}): {step.left!r} + {step.right!r} -> "
            f"{step.token!r} (count {step.count:,})")


def train(corpus: Corpus, vocab_size: int | None = None, *, max_merges: int | None = None,
          min_frequency: int = 2, unit: str = "byte", pretokenizer: str = "gpt2",
          tie_break: str = "first", special_tokens=(), byte_fallback: bool = False,
          processes: int | None = None, name: str = "bpe") -> Tokenizer:
    """Train a BPE tokenizer; see :class:`Trainer` for the options and the module for the method.

    ``vocab_size`` counts base symbols, merges and special tokens. Training stops at the first of:
    the vocabulary reaches ``vocab_size``, ``max_merges`` merges are done, or the best pair occurs
    fewer than ``min_frequency`` times; ``tok.stop_reason`` says which.

    ``tie_break`` picks among pairs of the same count: ``"first"``, the one that occurs first in
    the corpus as merged so far (the code of Sennrich et al.'s paper, minbpe); ``"lowest-id"``,
    the one with the smallest (left id, right id). With ``unit="char"`` that is Hugging Face's
    ``BpeTrainer``: the same merges and vocabulary. Bytes have their values as ids here, and
    ``BpeTrainer`` numbers them in GPT-2's order (the printable ones first, the space at 220),
    so a tie between byte pairs can go the other way there.

    ``special_tokens`` are cut out of the corpus before it is counted, so no merge is learned
    inside one (``BpeTrainer`` counts their characters as text), and take the ids after the
    merges (``BpeTrainer`` gives them the first ones); a character-level ``"[UNK]"`` among them
    is the base's unknown token, id 0.

    ``byte_fallback`` (characters only) spells a character unseen in training in its UTF-8
    bytes, the tokens ``<0x00>`` to ``<0xFF>``; no merge then makes a token spelled as one of
    them, ``</w>`` after it or not (``<0x41>`` in the corpus would decode as "A"), and a run
    stopped by such pairs alone says ``stop_reason == "byte_names"``.

    ``processes`` spreads the counting of the corpus over worker processes (the merges run in
    this one: each depends on the last). None, the default, counts in this process too: on
    2 cores a second process never paid, from 10 MB to 100 MB, and held more memory (see
    ``count_words`` and benchmarks/README.md, "Training"). The result is the same either way.
    """
    return Trainer(vocab_size, max_merges=max_merges, min_frequency=min_frequency, unit=unit,
                   pretokenizer=pretokenizer, tie_break=tie_break, special_tokens=special_tokens,
                   byte_fallback=byte_fallback, processes=processes, max_ties=0,
                   name=name).fit(corpus)
