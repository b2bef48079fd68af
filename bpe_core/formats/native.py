"""The playground's own file format: versioned JSON with everything needed to rebuild a tokenizer,
including the merge history with counts and what training recorded.

Version 2 writes the pipeline stage by stage (as ``tokenizer.json`` does, plus the playground's
own end-of-word step) and the model by ids, so any tokenizer, trained or loaded, round-trips.
Version 1 files (a unit, a regex and merges by id) still load.

>>> from bpe_core import train
>>> tok = train("aaabdaaabac", unit="byte", pretokenizer="none", max_merges=1)
>>> d = to_dict(tok)
>>> d["format"], d["version"], d["model"]["merges"]
('bpe-playground', 2, [[97, 97, 256, 4]])
>>> from_dict(d).encode("aaab") == tok.encode("aaab")
True
"""

from __future__ import annotations

from itertools import chain

from .. import decoders, normalizers, post_processors, pre_tokenizers, recipes
from ..added_vocabulary import added_tokens
from ..alphabet import byte_base, char_base
from ..checked import listed, shown
from ..merges import MergeList
from ..models import BPE
from ..presets import PRESETS
from ..tokenizer import Tokenizer
from .errors import TokenizerFileError

FORMAT = "bpe-playground"
VERSION = 2
#: The BPE model's options, with the type each takes (null: the model's default).
_MODEL_OPTIONS = {"unk_token": str, "fuse_unk": bool, "byte_fallback": bool,
                  "continuing_subword_prefix": str, "end_of_word_suffix": str,
                  "ignore_merges": bool}


def to_dict(tok: Tokenizer) -> dict:
    m = tok.model

    def part(component):
        return None if component is None else component.to_dict()

    return {
        "format": FORMAT, "version": VERSION, "name": tok.name, "stop_reason": tok.stop_reason,
        "config": tok.config,
        "normalizer": part(tok.normalizer), "pre_tokenizer": part(tok.pre_tokenizer),
        "decoder": part(tok.decoder), "post_processor": part(tok.post_processor),
        "added_tokens": [t.to_dict() for t in tok.added_tokens],
        "model": {"tokens": list(m.tokens), **{k: getattr(m, k) for k in _MODEL_OPTIONS},
                  "merges": [list(x) for x in zip(m.merges.left, m.merges.right,
                                                  m.merges.result, m.merges.count)]},
    }


def from_dict(d: dict, *, source: str = "the file") -> Tokenizer:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise TokenizerFileError(f"{source} is not a BPE Playground tokenizer (no "
                                 f'"format": "{FORMAT}" field)')
    if d.get("version") not in (1, VERSION):
        raise TokenizerFileError(f"{source} has format version {d.get('version')!r}; this "
                                 f"version of bpe_core reads versions 1 and {VERSION}. Upgrade "
                                 f"bpe_core.")
    try:
        return _version1(d) if d["version"] == 1 else _version2(d)
    except (KeyError, TypeError, ValueError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TokenizerFileError(f"{source} is a malformed BPE Playground tokenizer: {what}"
                                 ) from None


def _version2(d: dict) -> Tokenizer:
    m = d["model"]
    if not isinstance(m, dict):
        raise ValueError(f"the model must be an object, not {shown(m)}")
    tokens = tuple(listed(m["tokens"], "the model's tokens"))
    if set(map(type, tokens)) - {str, type(None)}:
        k = next(k for k, t in enumerate(tokens) if t is not None and type(t) is not str)
        raise ValueError(f"token {k} is {shown(tokens[k])}; tokens are strings (null for an "
                         f"unused id)")
    rows = listed(m["merges"], "the model's merges")
    unused = {i for i, t in enumerate(tokens) if t is None}
    columns = _columns(rows, len(tokens), unused)
    if columns is None:  # (the first merge that is not one, for the message)
        k = next(k for k, row in enumerate(rows) if _columns([row], len(tokens), unused) is None)
        raise ValueError(f"merge {k + 1} is {shown(rows[k])}; a merge is [left id, right id, "
                         f"result id, count], ids of the vocabulary and a count from 0")
    left, right, result, counts = columns
    merges = MergeList(left=left, right=right, result=result, count=counts, shown=tokens)
    options = {k: m[k] for k in _MODEL_OPTIONS if m.get(k) is not None}
    for k, v in options.items():
        if type(v) is not _MODEL_OPTIONS[k]:
            raise ValueError(f"the model's {k} is {shown(v)}; it must be "
                             f"{'a string' if _MODEL_OPTIONS[k] is str else 'true or false'}")
    model = BPE(tokens, merges, **options)
    return Tokenizer(model, normalizers.from_dict(d.get("normalizer")),
                     pre_tokenizers.from_dict(d.get("pre_tokenizer")),
                     decoders.from_dict(d.get("decoder")),
                     added_tokens(d.get("added_tokens")),
                     post_processors.from_dict(d.get("post_processor")),
                     name=str(d.get("name") or "bpe"), stop_reason=d.get("stop_reason"),
                     config=_config(d))


def _config(d: dict) -> dict:
    """What a file records of how its tokenizer was made (``config``), checked."""
    config = d.get("config") or {}
    if not isinstance(config, dict):
        raise ValueError(f"the config must be an object, not {shown(config)}")
    return config


def _version1(d: dict) -> Tokenizer:
    unit, eow = d["unit"], bool(d["end_of_word"])
    preset, pattern = d.get("pretokenizer"), d["pattern"]
    for key, value in (("unit", unit), ("pattern", pattern), ("pretokenizer", preset)):
        if not isinstance(value, str) and not (key == "pretokenizer" and value is None):
            raise ValueError(f"the {key} is {shown(value)}; it must be a string")
    merges = listed(d["merges"], "the merges")
    if not all(type(m) is list and len(m) == 3 and all(type(x) is int for x in m)
               for m in merges):
        raise ValueError("each merge must be [left id, right id, count], three integers")
    if unit == "byte":
        base = byte_base(end_of_word=eow, order=d.get("byte_order"))
    elif unit == "char":
        alphabet = listed(d["alphabet"], "the alphabet")
        if not all(type(c) is str and len(c) == 1 for c in alphabet):
            raise ValueError("the alphabet must list single characters")
        base = char_base(alphabet, end_of_word=eow, byte_fallback=bool(d["byte_fallback"]))
        if base.chars != alphabet:
            raise ValueError("the alphabet must list distinct characters in code-point order")
    else:
        raise ValueError(f"unknown unit {unit!r}")
    if preset is not None and PRESETS.get(preset) != pattern:
        raise ValueError(f"pre-tokenizer {preset!r} does not match its pattern")
    specials = d.get("special_tokens") or {}
    if not isinstance(specials, dict) or not all(type(i) is int for i in specials.values()):
        raise ValueError("special_tokens must map token text to id")
    return recipes.build(base, merges, pattern=pattern, preset=preset, special_tokens=specials,
                         name=str(d.get("name") or "bpe"), stop_reason=d.get("stop_reason"),
                         config=_config(d),
                         ignore_merges=bool(d.get("ignore_merges", False)))


def _columns(rows: list, size: int, unused: set[int]) -> tuple[tuple[int, ...], ...] | None:
    """The left ids, right ids, result ids and counts of a version 2 file's merges (rows of
    three ids below ``size``, none ``unused``, and a count), checked in C loops (a file of
    cl100k's 100,000 merges loads 5-10 % faster than when each row was read on its own,
    unchecked); None when some row is not such a merge."""
    if set(map(type, rows)) - {list} or set(map(len, rows)) - {4}:
        return None
    columns = tuple(zip(*rows)) or ((), (), (), ())
    ids = list(chain.from_iterable(columns[:3]))
    if set(map(type, chain(ids, columns[3]))) - {int} or not (
            0 <= min(ids, default=0) and max(ids, default=0) < size and unused.isdisjoint(ids)
            and 0 <= min(columns[3], default=0) and max(columns[3], default=0) < 2 ** 63):
        return None
    return columns
