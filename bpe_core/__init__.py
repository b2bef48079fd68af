"""bpe_core: byte-pair encoding, the textbook way and fast. No UI code lives here.

A tokenizer is Hugging Face's pipeline: normalizer -> pre-tokenizer -> model (BPE) -> decoder,
with added tokens found first and an optional post-processor (BOS/EOS). The stages live in
``normalizers``, ``pre_tokenizers``, ``models``, ``decoders``, ``post_processors`` and
``added_vocabulary``; :class:`Tokenizer` composes them. Training (``bpe_core.training``) and
every file format (``bpe_core.formats``) build that same shape; ``bpe_core.analysis`` holds what
the playground's pages measure (corpus statistics, vocabulary rows, language premiums).

>>> import bpe_core
>>> tok = bpe_core.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
...                      unit="char", pretokenizer="whitespace", max_merges=3, min_frequency=1)
>>> [m.token for m in tok.merges]
['ug', 'un', 'hug']
>>> tok.describe()
'pre-tokenizer Split(whitespace) → BPE → decoder Fuse'
"""

from . import decoders, models, normalizers, post_processors, pre_tokenizers
from .added_vocabulary import AddedToken
from .alphabet import show_bytes
from .formats import dumps, load, load_gpt2, loads, loads_files, save
from .formats.errors import TokenizerFileError
from .formats.openai import REFERENCE_ENCODINGS, ReferenceUnavailableError, reference_encoding
from .merges import Merge, MergeList
from .models import BPE
from .presets import LOSSLESS_PRESETS, PRESETS, PatternError, PatternTimeout, split
from .spans import TokenSpan
from .tokenizer import Tokenizer
from .vocab_view import MergeTree
from .training import (CorpusReadError, MergeStep, StageReport, TiedPair, Trainer, count_words,
                       reference_train, stage_report, train, train_progress_line, train_superbpe)

__all__ = [
    # the pipeline
    "AddedToken", "BPE", "Merge", "MergeList", "MergeTree", "TokenSpan", "Tokenizer", "decoders",
    "models", "normalizers", "post_processors", "pre_tokenizers", "show_bytes",
    # pre-tokenizer presets
    "LOSSLESS_PRESETS", "PRESETS", "PatternError", "PatternTimeout", "split",
    # training
    "CorpusReadError", "MergeStep", "StageReport", "TiedPair", "Trainer", "count_words",
    "reference_train", "stage_report", "train", "train_progress_line", "train_superbpe",
    # files
    "REFERENCE_ENCODINGS", "ReferenceUnavailableError", "TokenizerFileError", "dumps", "load",
    "load_gpt2", "loads", "loads_files", "reference_encoding", "save",
]
