"""Training: from a corpus to a tokenizer of the one pipeline shape (see ``recipes.py``).

* ``counting``: the corpus cut into pieces by the pre-tokenizer and counted (``count_words``);
* ``pairs`` and ``trainer``: the fast incremental trainer (``train``, ``Trainer``);
* ``textbook``: the textbook loop that recounts everything after each merge, the oracle the
  fast trainer is tested against (``reference_train``); it does not import the trainer;
* ``record``: a watched run once it has stopped, without its training state (``TrainingRecord``);
* ``steps``: the textbook tables of one step, for the Train page;
* ``superbpe``: SuperBPE's second stage, merges across spaces (``Stage2`` step by step).

>>> from bpe_core.training import train
>>> [m.token for m in train("low lower lowest", unit="char", pretokenizer="whitespace",
...                         max_merges=2, min_frequency=1).merges]
['lo', 'low']
"""

from .counting import Corpus, CorpusReadError, count_words, read_files
from .superbpe import (Stage2, StageReport, default_transition, stage_report,
                       train_superbpe)
from .record import TrainingRecord
from .textbook import reference_train
from .trainer import (MergeStep, TiedPair, Trainer, VocabSizeError, train,
                      train_progress_line)

__all__ = ["Corpus", "CorpusReadError", "MergeStep", "Stage2", "StageReport", "TiedPair",
           "Trainer", "TrainingRecord", "count_words", "default_transition", "read_files", "reference_train",
           "stage_report", "train", "train_progress_line", "train_superbpe", "VocabSizeError"]
