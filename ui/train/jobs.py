"""Training as a worker process runs it (``ui.shared.jobs``): every corpus but a small one,
and the step tables of a corpus of many words.

A big corpus is trained to the end in a worker, off the session's thread: other sessions'
pages stay quick meanwhile, and closing the tab or pressing Cancel stops the process at once.
What comes back is the run without its training state (``bpe_core.training.TrainingRecord``)
and every merge step, so the page replays the run exactly as if it had made the merges itself:
play, step, go back, step tables. SuperBPE's stage 2 runs in the same job.

A small corpus (a textbook example, a bundled language sample) is trained in the session's
thread, merge by merge as the user steps (``runs.start``): it costs milliseconds.

Nothing here imports Streamlit or pandas, so that a worker starts with only the engine loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import bpe_core
from bpe_core.gc_pause import gc_paused
from bpe_core.training import MergeStep, Stage2, TrainingRecord, VocabSizeError
from bpe_core.training.steps import StepTables, step_tables

from ..shared.jobs import Reporter

#: Corpora of at most this many characters are trained in the session, merge by merge.
INLINE_CHARS = 20_000


def is_small(corpus) -> bool:
    """Whether ``corpus`` (a ``SessionCorpus``) is trained in the session's thread."""
    pieces = corpus.counts if corpus.is_counts else corpus.documents
    return sum(map(len, pieces)) <= INLINE_CHARS


def trainer_for(settings: dict) -> bpe_core.Trainer:
    """The trainer of a run with the Train page's ``settings``; raises ``ValueError`` with a
    message for the user when they do not fit together. With a SuperBPE ``transition``, it is
    the trainer of stage 1: ordinary BPE up to the transition."""
    options = {k: v for k, v in settings.items() if k not in ("name", "transition")}
    transition = settings.get("transition")
    if transition:
        specials = len(set(settings["special_tokens"]))
        floor = 256 + specials
        if settings["vocab_size"] < floor:  # (no transition can lie between the two)
            raise ValueError(f"the vocabulary size {settings['vocab_size']} is below the base "
                             f"alphabet: 256 bytes + {specials} special tokens = {floor}. Choose "
                             f"a vocabulary size of at least {floor}, and a SuperBPE transition "
                             f"between {floor} and it")
        if not floor <= transition <= settings["vocab_size"]:
            raise ValueError(f"the SuperBPE transition must lie between {floor} (the 256 bytes "
                             f"and the special tokens) and the vocabulary size "
                             f"({settings['vocab_size']}); got {transition}")
        options["vocab_size"] = transition
    # One process: the app's server is multi-threaded (a fork()ed counting pool started from a
    # threaded process can deadlock), and a worker job has one core to itself.
    return bpe_core.Trainer(**options, processes=1, name=settings["name"])


def start_run(trainer: bpe_core.Trainer, corpus_input) -> Iterator[MergeStep]:
    """``trainer.run(corpus_input)``: count the corpus, then the merges one by one. A
    vocabulary size below the base alphabet raises ``ValueError`` in the page's words (the
    engine's names its options, vocab_size and max_merges), with the sizes that work.

    >>> start_run(bpe_core.Trainer(vocab_size=3, unit="char", pretokenizer="whitespace"),
    ...           ["hug pug"])
    Traceback (most recent call last):
    ValueError: the vocabulary size 3 is below the base alphabet: 5 base symbols + 0 special \
tokens = 5 ids before any merge. Choose a vocabulary size of 6 or more to make merges (5 makes \
none), or set "Stop at" to "Number of merges" instead
    """
    try:
        return trainer.run(corpus_input)
    except VocabSizeError as exc:
        raise ValueError(too_small(exc.vocab_size, exc.n_base, exc.n_special)) from None


def too_small(size: int, n_base: int, n_special: int) -> str:
    """Why a vocabulary of ``size`` makes no merge, and what size would, as the page says it.

    >>> too_small(200, 256, 1)
    'the vocabulary size 200 is below the base alphabet: 256 base symbols + 1 special token \
= 257 ids before any merge. Choose a vocabulary size of 258 or more to make merges (257 makes \
none), or set "Stop at" to "Number of merges" instead'
    """
    floor = n_base + n_special
    return (f"the vocabulary size {size:,} is below the base alphabet: {n_base:,} base symbols "
            f"+ {n_special:,} special token{'s' * (n_special != 1)} = {floor:,} ids before any "
            f"merge. Choose a vocabulary size of {floor + 1:,} or more to make merges "
            f"({floor:,} makes none), or set \"Stop at\" to \"Number of merges\" instead")


def unmerged(tok: bpe_core.Tokenizer) -> int:
    """The tokens of ``tok`` no merge made: its base symbols and the special tokens with ids of
    their own (a special token "[UNK]" of a character-level run is the base's [UNK], no new
    token, as in Hugging Face's trainers)."""
    return tok.vocab_size - len(tok.merges)


def stage2_for(corpus_input, stage1: bpe_core.Tokenizer, settings: dict) -> Stage2:
    """SuperBPE's stage 2 from the ``stage1`` tokenizer; raises ``ValueError`` if the settings
    do not allow it."""
    s = settings
    return Stage2(corpus_input, stage1, s["vocab_size"], transition=s["transition"],
                  pretokenizer=s["pretokenizer"], min_frequency=s["min_frequency"],
                  tie_break=s["tie_break"], processes=1, name=s["name"])


def stage2_phases(stage2: Stage2) -> Iterator[tuple[str, int, int]]:
    """Stage 2 to the end, step by step: ``("read", pieces done, pieces)`` while the corpus is
    read as superword pieces, then ``("merge", merges made, merges to make)``. A generator:
    left part way, it goes on from there when asked again."""
    for done, total in stage2.read():
        yield "read", done, total
    for step in stage2.run():
        yield "merge", step.rank + 1, stage2.target


def counts_of(freq: dict[int, int]) -> tuple[int, int]:
    """``(tokens that occur, tokens in all)`` of a segmentation's token frequencies."""
    return sum(1 for n in freq.values() if n), sum(freq.values())


@dataclass(frozen=True)
class Trained:
    """What a training job returns: the stopped run, its merges, and SuperBPE's stage 2."""

    record: TrainingRecord
    steps: tuple[MergeStep, ...]
    start_tokens: int  # tokens of the corpus before any merge
    superbpe: bpe_core.Tokenizer | None = None
    superbpe_counts: tuple[int, int] | None = None  # counts_of stage 2's segmentation
    superbpe_error: str = ""  # why stage 2 could not run


def train(corpus_input, settings: dict, *, report: Reporter) -> Trained:
    """The job: count, make every merge (and SuperBPE's stage 2), reporting as it goes."""
    report.progress(0.0, "counting the words of the corpus")
    trainer = trainer_for(settings)
    merges = start_run(trainer, corpus_input)
    start_tokens = sum(trainer.token_frequencies.values())
    target = max(trainer.merge_target, 1)
    share = 0.5 if settings.get("transition") else 1.0  # of the bar, for stage 1
    steps = []
    with gc_paused():  # its full passes would walk the whole training state again and again
        for step in merges:
            steps.append(step)
            report.progress(share * len(steps) / target,
                            f"merge {len(steps):,} of {target:,}")
        record = trainer.record()
    del trainer, merges  # the training state: free it before stage 2 builds its own
    if not settings.get("transition"):
        return Trained(record, tuple(steps), start_tokens)
    try:
        stage2 = stage2_for(corpus_input, record.tokenizer, settings)
        with gc_paused():
            for phase, done, total in stage2_phases(stage2):
                if phase == "read":
                    report.progress(0.5, "SuperBPE stage 2: reading the corpus as superwords")
                else:
                    report.progress(0.5 + 0.5 * done / max(total, 1),
                                    f"SuperBPE stage 2: merge {done:,} of {total:,}")
            tok = stage2.tokenizer()
    except ValueError as exc:
        return Trained(record, tuple(steps), start_tokens, superbpe_error=str(exc))
    return Trained(record, tuple(steps), start_tokens, tok,
                   counts_of(stage2.trainer.token_frequencies))


def tables(record: TrainingRecord, step: int, *, report: Reporter) -> StepTables:
    """The job: the step tables of a run a worker trained, after ``step`` merges."""
    report.progress(0.0, f"{len(record.word_counts):,} words")
    return step_tables(record, step)
