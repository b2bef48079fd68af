"""bpe_core: byte-pair encoding, the textbook way and fast. No UI code lives here.

>>> import bpe_core
>>> tok = bpe_core.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
...                      unit="char", pretokenizer="whitespace", max_merges=3, min_frequency=1)
>>> [m.token for m in tok.merges]
['ug', 'un', 'hug']
"""

from . import decoders, normalizers, post_processors, pre_tokenizers
from .added_vocabulary import AddedToken
from .compress import Compression, Replacement, compress, decompress
from .corpus import SUPPORTED_EXTENSIONS, CorpusError, decode_text, iter_upload, upload_fields
from .files import dumps, load, load_gpt2, loads, loads_files, save
from .merges import Merge, MergeList
from .models import BPE
from .native import TokenizerFileError
from .pretokenize import LOSSLESS_PRESETS, PRESETS, PatternError, split
from .reference import reference_train
from .references import REFERENCE_ENCODINGS, ReferenceUnavailableError, reference_encoding
from .scripts import dominant_script, script_counts, script_of
from .stats import CorpusStats, corpus_stats
from .superbpe import StageReport, stage_report, train_superbpe
from .spans import TokenSpan
from .tokenizer import MergeTree, Tokenizer
from .trainer import MergeStep, TiedPair, Trainer, train, train_progress_line
from .vocab import show_bytes
from .words import CorpusReadError, count_words

__all__ = [
    "AddedToken", "BPE", "decoders", "dumps", "normalizers", "post_processors", "pre_tokenizers",
    "save",
    "REFERENCE_ENCODINGS", "ReferenceUnavailableError", "StageReport", "load_gpt2", "loads_files",
    "reference_encoding", "stage_report", "train_superbpe",
    "SUPPORTED_EXTENSIONS", "CorpusError", "CorpusStats", "corpus_stats", "decode_text",
    "dominant_script", "iter_upload", "script_counts", "script_of", "upload_fields",
    "Compression", "CorpusReadError", "LOSSLESS_PRESETS", "Merge",
    "MergeList", "MergeStep", "MergeTree", "PRESETS", "PatternError", "Replacement", "TiedPair", "TokenSpan",
    "Tokenizer", "TokenizerFileError", "Trainer", "compress", "count_words", "decompress", "load",
    "loads", "reference_train", "show_bytes", "split", "train", "train_progress_line",
]
