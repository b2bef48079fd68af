"""The live training run of the Train page: a ``bpe_core.Trainer`` kept in the session and fed
merges in batches, so the page can play, pause, step and replay it. A big corpus is trained in a
worker process instead (``jobs``); its run comes back with every merge made, as a
``TrainingRecord`` in the trainer's place, and is replayed the same way.

Session keys, all owned here:

- ``train_run``: the current :class:`Run` (absent until the first "Start training")
- ``train_playing``: whether the run is playing (merges arrive on a timer)

The run is kept one merge ahead of what it shows: to draw the pair counts of a step with their
winner highlighted, the winner (the next merge) must already be known.

The page's controls only say where the user wants to be (:attr:`Run.goal`); merges are made in
one place, :meth:`Run.drive`. Two clicks racing are then harmless: a click while a long Finish
runs starts a second script run of the session on another thread (Streamlit's fast reruns),
which sets its own goal (read by the running loop between merges, so Pause stops a Finish) and
waits for the run's lock instead of stepping the merge generator from two threads at once.

Long work (Finish, a far step, SuperBPE's stage 2) reports its progress every
``REPORT_SECONDS``. The page draws each report, and a drawing call is where Streamlit ends a
script run whose session has closed or whose user has clicked something else (it raises there):
the loop stops within a fraction of a second instead of running on for minutes, and the run,
left whole between two merges, goes on from there when asked again. Meanwhile the cyclic garbage
collector is paused (``bpe_core.gc_pause``): its full passes would walk the whole training state
of this run again and again: about a third of the time of stage 2 on 10 MB.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pandas as pd
import streamlit as st

import bpe_core
from bpe_core.gc_pause import gc_paused
from bpe_core.training.steps import StepTables, step_tables
from bpe_core.training import Stage2, TrainingRecord
from bpe_core.training.superbpe import MAX_WORDS

from ..shared.state import SessionCorpus
from . import jobs as train_jobs

RUN, PLAYING = "train_run", "train_playing"
#: Seconds between updates while playing, and the most one update may spend merging.
TICK_SECONDS, BATCH_SECONDS = 0.4, 0.25
#: Corpora with at most this many distinct words, of at most this many characters in all, get
#: the full step tables (a corpus of a few long pieces, as "none" makes, is not small).
SMALL_CORPUS_WORDS, SMALL_CORPUS_CHARS = 200, 2_000
#: Seconds of long work between two progress reports (see the module docstring).
REPORT_SECONDS = 0.2
#: Beyond this many distinct words the step tables take seconds: they wait to be asked for.
HUGE_CORPUS_WORDS = 20_000
PASSAGE_CHARS = 600

STOP_REASONS = {
    "vocab_size": "the vocabulary reached the size you asked for",
    "max_merges": "it made the number of merges you asked for",
    "min_frequency": "the most frequent pair left occurs fewer times than the minimum frequency",
    "no_pairs": "no adjacent pairs are left: every word is a single token",
    "not_allowed": f"every pair left that is frequent enough would make a superword of more "
                   f"than {MAX_WORDS} words, or one with a colon and then a space, which "
                   "SuperBPE does not make",
    "byte_names": "every pair left that is frequent enough would make a token spelled as a "
                  "byte fallback token, such as <0x41>, which would be read as that byte",
}


def sample_passage(corpus: SessionCorpus, limit: int = PASSAGE_CHARS) -> str:
    """A passage to re-segment as merges arrive: the corpus's first paragraph (or its words)."""
    text = corpus.text.strip()
    if len(text) <= limit:
        return text
    for para in text.split("\n\n"):
        para = para.strip()
        if len(para) >= 120:
            text = para
            break
    if len(text) <= limit:
        return text
    cut = text.rfind(" ", 0, limit)
    return text[:cut if cut > limit // 2 else limit]


@dataclass
class Run:
    """One training run: the trainer, what it has merged so far and how much of it is shown."""

    trainer: bpe_core.Trainer | TrainingRecord  # a record once a worker has trained the run
    corpus: SessionCorpus
    settings: dict
    passage: str
    start_tokens: int
    total_bytes: int
    target: int  # merges to make unless a stop rule fires first
    steps: list = field(default_factory=list)  # every MergeStep made, one ahead of ``shown``
    at: int = 0  # the step on show: the state after this many merges
    furthest: int = 0  # the furthest step shown yet: the growth chart goes that far
    goal: int | None = None  # the step the user asked for, until reached (None: stay)
    kept_as: str | None = None
    _merges: Iterator | None = None
    _tok: tuple = (None, None)  # ((merges made, stop reason), tokenizer)
    _tables: dict = field(default_factory=dict)
    extras: dict = field(default_factory=dict)  # results computed once the run is done
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    stage2: Stage2 | None = None  # SuperBPE's stage 2, once stage 1 is done
    _stage2_steps: Iterator | None = None  # stage 2 as it goes (jobs.stage2_phases)

    # -- making merges -------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True when training stopped: every merge is made (whichever step is on show)."""
        return self.trainer.stop_reason is not None

    @property
    def shown(self) -> int:
        """How many merges can be shown: all of them once training stopped; until then all but
        the newest, which is known only as the winner that step ``shown`` highlights."""
        return len(self.steps) if self.done else max(len(self.steps) - 1, 0)

    @property
    def at_end(self) -> bool:
        """True when the last merge is on show: there is nothing to step forward to."""
        return self.done and self.at == self.shown

    @property
    def last(self) -> int:
        """The last step: the number of merges once training stopped, else the target."""
        return self.shown if self.done else max(self.target, self.shown)

    def drive(self, *, seconds: float | None = None,
              progress: Callable[[int, int], None] | None = None) -> None:
        """Go to :attr:`goal`, making the merges it needs (or as many as ``seconds`` allow, at
        least one more to show): the one place merges are made. ``progress(made, goal)`` is
        called every ``REPORT_SECONDS`` (see the module docstring for why)."""
        deadline = None if seconds is None else time.monotonic() + seconds
        report = _every(REPORT_SECONDS, progress)
        with self._lock, gc_paused():  # see the module docstring
            while (goal := self.goal) is not None:
                out_of_time = deadline is not None and time.monotonic() > deadline
                # Step ``goal`` can be shown once merge goal + 1, its winner, is known.
                reached = len(self.steps) > goal or self.done
                if reached or (out_of_time and self.shown > self.at):
                    self.at = max(0, min(goal, self.shown))
                    self.furthest = max(self.furthest, self.at)
                    # Out of time, the goal stays for the next update to go on to (a Finish
                    # clicked during a playing update is not lost); reached, it is done, unless
                    # a click meanwhile asked for another step.
                    if reached and self.goal == goal:
                        self.goal = None
                    return
                step = next(self._merges, None)
                if step is not None:
                    self.steps.append(step)
                report(len(self.steps), goal)

    def finish(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Make every remaining merge and show the last (see :meth:`drive`)."""
        self.goal = self.last
        self.drive(progress=progress)

    # -- what the page draws -------------------------------------------------------------------

    def tokenizer(self) -> bpe_core.Tokenizer:
        """The tokenizer with every merge made so far (use ``upto`` to see fewer)."""
        key, tok = self._tok
        now = (len(self.steps), self.trainer.stop_reason)
        if key != now:
            tok = self.trainer.tokenizer
            self._tok = (now, tok)
        return tok

    @property
    def superbpe(self) -> bool:
        return bool(self.settings.get("transition"))

    def result(self) -> bpe_core.Tokenizer:
        """The finished tokenizer (once ``done``): the run's own, or SuperBPE's after stage 2."""
        if not self.superbpe:
            return self.tokenizer()
        self.run_stage2()
        return self.extras["superbpe"]

    def run_stage2(self, progress: Callable[[str, int, int], None] | None = None) -> None:
        """SuperBPE's stage 2 (once stage 1 is ``done``), from this run's stage-1 tokenizer to
        the end. ``progress(phase, done, total)`` is called every ``REPORT_SECONDS``: phase
        "read" while the corpus is read as superword pieces (done and total count pieces), then
        "merge" (they count merges). Raises ``ValueError`` if the settings do not allow it."""
        if "superbpe" in self.extras:
            return
        if "superbpe_error" in self.extras:  # found by the worker that trained the run
            raise ValueError(self.extras["superbpe_error"])
        if self.stage2 is None:
            self.stage2 = train_jobs.stage2_for(self.corpus.training_input, self.tokenizer(),
                                              self.settings)
            self._stage2_steps = train_jobs.stage2_phases(self.stage2)
        report = _every(REPORT_SECONDS, progress)
        with gc_paused():  # see the module docstring
            for phase, done, total in self._stage2_steps:  # kept in the run: a stop resumes it
                report(phase, done, total)
            self.extras.update(superbpe=self.stage2.tokenizer(), superbpe_counts=(
                train_jobs.counts_of(self.stage2.trainer.token_frequencies)))

    def result_counts(self) -> tuple[int, int]:
        """``(effective vocabulary, corpus length in tokens)`` for the result: how many of its
        tokens occur when the training corpus is encoded, and how many tokens that takes."""
        if not self.superbpe:
            # The trainer's own counts: the final segmentation.
            return train_jobs.counts_of(self.trainer.token_frequencies)
        # Stage 2's words are the corpus's pieces, and encoding them with the result gives
        # stage 2's segmentation (bpe_core.training.superbpe): its counts are the result's,
        # under stage 2's own ids, which change neither number.
        self.run_stage2()
        return self.extras["superbpe_counts"]

    def vocab_size(self, k: int) -> int:
        return train_jobs.unmerged(self.tokenizer()) + k

    def is_small(self) -> bool:
        words = self.trainer.word_counts
        return len(words) <= SMALL_CORPUS_WORDS and sum(map(len, words)) <= SMALL_CORPUS_CHARS

    def tables(self, k: int) -> StepTables:
        """The textbook tables after ``k`` merges (cached: merges never change once made)."""
        return self.counted_tables(k) or self.keep_tables(
            k, step_tables(self.trainer, k, tokenizer=self.tokenizer()))

    def counted_tables(self, k: int) -> StepTables | None:
        """The tables after ``k`` merges if they are counted already (here or in a worker)."""
        return self._tables.get(self._tables_key(k))

    def keep_tables(self, k: int, tables: StepTables) -> StepTables:
        if len(self._tables) > 64:
            self._tables.clear()
        self._tables[self._tables_key(k)] = tables
        return tables

    def _tables_key(self, k: int) -> tuple[int, bool]:
        return k, len(self.steps) > k or self.done  # is merge k + 1 known yet?

    def history(self) -> pd.DataFrame:
        """One row per state shown yet (0 merges, 1 merge, ...), for the growth chart: it grows
        as the run plays, even when a worker made every merge before."""
        steps = self.steps[:self.furthest]
        n_base = self.vocab_size(0)
        tokens = [self.start_tokens] + [s.total_tokens for s in steps]
        return pd.DataFrame({
            "merges": range(len(tokens)),
            "vocab_size": [n_base + k for k in range(len(tokens))],
            "tokens": tokens,
            "bytes_per_token": [self.total_bytes / t if t else 0.0 for t in tokens],
            "count": [None] + [s.count for s in steps],
        })

    def merge_log(self, upto: int | None = None) -> pd.DataFrame:
        """The merges shown (or the first ``upto``), as the merge log and its CSV list them:
        numbered from 1 as the pages number merges, with the rank (from 0) beside."""
        steps = self.steps[:self.shown if upto is None else upto]
        return pd.DataFrame({
            "merge": [s.rank + 1 for s in steps],
            "rank": [s.rank for s in steps],
            "left": [s.left for s in steps],
            "right": [s.right for s in steps],
            "token": [s.token for s in steps],
            "token_id": [s.token_id for s in steps],
            "count": [s.count for s in steps],
            "tied_pairs": [s.n_tied for s in steps],
            "tied_with": [", ".join(f"{t.left} + {t.right}" + " (never merged)" * bool(t.refused)
                                    for t in s.ties) for s in steps],
            "tokens_after": [s.total_tokens for s in steps],
        })


def start(corpus: SessionCorpus, settings: dict) -> Run:
    """Count a small corpus and set up a run, in the session (a big one is trained in a worker:
    ``jobs``); raises ``ValueError`` (or ``PatternError``) if the settings do not fit the
    corpus, with a message meant for the user.

    With a SuperBPE ``transition``, the run is SuperBPE's stage 1: ordinary BPE up to the
    transition; stage 2 follows when it is done (:meth:`Run.result`).
    """
    trainer = train_jobs.trainer_for(settings)
    merges = train_jobs.start_run(trainer, corpus.training_input)  # counts: may raise
    run = Run(trainer, corpus, settings, sample_passage(corpus),
              start_tokens=sum(trainer.token_frequencies.values()),
              total_bytes=_bytes(trainer.word_counts), target=trainer.merge_target,
              _merges=merges)
    run.goal = 0
    run.drive()  # make the first merge, so that step 0 can show its winner
    st.session_state[RUN] = run
    return run


def replay(trained: train_jobs.Trained, corpus: SessionCorpus, settings: dict) -> Run:
    """The run a worker trained (``train_jobs.train``), every merge made, to be replayed."""
    record = trained.record
    run = Run(record, corpus, settings, sample_passage(corpus),
              start_tokens=trained.start_tokens, total_bytes=_bytes(record.word_counts),
              target=len(trained.steps), steps=list(trained.steps), _merges=iter(()))
    if trained.superbpe is not None:
        run.extras.update(superbpe=trained.superbpe, superbpe_counts=trained.superbpe_counts)
    elif trained.superbpe_error:
        run.extras["superbpe_error"] = trained.superbpe_error
    st.session_state[RUN] = run
    return run


def _bytes(words: dict[str, int]) -> int:
    return sum(len(w.encode("utf-8")) * c for w, c in words.items())


def forget() -> None:
    """Drop the run on show (a new one is being trained)."""
    st.session_state.pop(RUN, None)


def current() -> Run | None:
    return st.session_state.get(RUN)


def playing() -> bool:
    return bool(st.session_state.get(PLAYING)) and current() is not None


def set_playing(on: bool) -> None:
    st.session_state[PLAYING] = on


def _every(seconds: float, report: Callable | None) -> Callable:
    """``report``, passed on at most once every ``seconds`` (a no-op without one)."""
    last = time.monotonic()

    def every(*args) -> None:
        nonlocal last
        now = time.monotonic()
        if report is not None and now - last >= seconds:
            last = now
            report(*args)
    return every
