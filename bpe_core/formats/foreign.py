"""What a JSON file is when it is not a tokenizer this package reads: the files that sit beside a
tokenizer in a model's folder and get uploaded by mistake, other tokenizer models, and JSON that
has nothing to do with tokenizers. The message says which file to use instead.

>>> what_json({"cells": [], "metadata": {}, "nbformat": 4})
'a Jupyter notebook, not a tokenizer'
>>> what_json({"model": {"type": "BPE", "vocab": {}}}) is None  # a tokenizer: not foreign
True
"""

from __future__ import annotations

from typing import Any

_BESIDE = ("upload the tokenizer.json from the same folder (a model on the Hugging Face Hub "
           "has it beside this file)")
_SPECIAL_MAP = {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token",
                "mask_token", "additional_special_tokens"}


def what_json(obj: Any) -> str | None:
    """A phrase naming what ``obj`` (parsed JSON) looks like when it cannot be a tokenizer file
    of ours or Hugging Face's, with what to upload instead; None when it may be one.

    >>> what_json({"tokenizer_class": "LlamaTokenizer", "model_max_length": 4096})[:38]
    'a tokenizer_config.json (the settings '
    >>> what_json([1, 2, 3])
    'a JSON list of 3 items, not a tokenizer'
    """
    if isinstance(obj, list):
        return f"a JSON list of {_many(len(obj), 'item')}, not a tokenizer"
    if not isinstance(obj, dict):
        return f"a single JSON {type(obj).__name__} value, not a tokenizer"
    if "format" in obj or "model" in obj:
        return None  # ours or Hugging Face's (any model): their readers say what is wrong
    if "nbformat" in obj and "cells" in obj:
        return "a Jupyter notebook, not a tokenizer"
    if {"tokenizer_class", "model_max_length", "added_tokens_decoder", "chat_template"} & set(obj):
        return ("a tokenizer_config.json (the settings around a tokenizer, not its vocabulary); "
                + _BESIDE)
    if obj and set(obj) <= _SPECIAL_MAP:
        return f"a special_tokens_map.json (the names of the special tokens only); {_BESIDE}"
    if "architectures" in obj or ("model_type" in obj and "vocab_size" in obj):
        return f"a model's config.json (its architecture, not its tokenizer); {_BESIDE}"
    if obj and all(isinstance(v, int) for v in obj.values()):
        return (f"a vocabulary of {_many(len(obj), 'token')} with ids and no merges (a GPT-2 "
                "vocab.json holds at least the 256 byte tokens and comes with a merges.txt)")
    if "name" in obj and ("dependencies" in obj or "scripts" in obj):
        return "an npm package.json, not a tokenizer"
    keys = ", ".join(repr(k) for k in list(obj)[:5]) + (", …" if len(obj) > 5 else "")
    return f"a JSON object with the keys {keys}, not a tokenizer" if obj else "an empty JSON object"


def _many(n: int, thing: str) -> str:
    return f"{n:,} {thing}{'s' * (n != 1)}"
