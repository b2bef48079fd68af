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

from .. import decoders, normalizers, post_processors, pre_tokenizers, recipes
from ..added_vocabulary import AddedToken
from ..alphabet import byte_base, char_base
from ..merges import MergeList
from ..models import BPE
from ..presets import PRESETS
from ..tokenizer import Tokenizer
from .errors import TokenizerFileError

FORMAT = "bpe-playground"
VERSION = 2
_MODEL_OPTIONS = ("unk_token", "fuse_unk", "byte_fallback", "continuing_subword_prefix",
                  "end_of_word_suffix", "ignore_merges")


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
    tokens = tuple(m["tokens"])
    rows = [(int(a), int(b), int(t), int(c)) for a, b, t, c in m["merges"]]
    if any(not (0 <= x < len(tokens)) or tokens[x] is None for r in rows for x in r[:3]):
        raise ValueError("a merge names an id that is not in the vocabulary")
    merges = MergeList(left=[r[0] for r in rows], right=[r[1] for r in rows],
                       result=[r[2] for r in rows], count=[r[3] for r in rows], shown=tokens)
    model = BPE(tokens, merges, **{k: m.get(k) for k in _MODEL_OPTIONS})
    return Tokenizer(model, normalizers.from_dict(d.get("normalizer")),
                     pre_tokenizers.from_dict(d.get("pre_tokenizer")),
                     decoders.from_dict(d.get("decoder")),
                     [AddedToken.from_dict(t) for t in d.get("added_tokens") or []],
                     post_processors.from_dict(d.get("post_processor")),
                     name=str(d.get("name") or "bpe"), stop_reason=d.get("stop_reason"),
                     config=d.get("config") or {})


def _version1(d: dict) -> Tokenizer:
    unit, eow = d["unit"], bool(d["end_of_word"])
    if unit == "byte":
        base = byte_base(end_of_word=eow, order=d.get("byte_order"))
    elif unit == "char":
        base = char_base(d["alphabet"], end_of_word=eow, byte_fallback=bool(d["byte_fallback"]))
        if base.chars != list(d["alphabet"]):
            raise ValueError("the alphabet must list distinct characters in code-point order")
    else:
        raise ValueError(f"unknown unit {unit!r}")
    preset, pattern = d.get("pretokenizer"), d["pattern"]
    if preset is not None and PRESETS.get(preset) != pattern:
        raise ValueError(f"pre-tokenizer {preset!r} does not match its pattern")
    specials = d.get("special_tokens") or {}
    if not isinstance(specials, dict):
        raise ValueError("special_tokens must map token text to id")
    return recipes.build(base, [(int(a), int(b), int(c)) for a, b, c in d["merges"]],
                         pattern=pattern, preset=preset,
                         special_tokens={str(k): int(v) for k, v in specials.items()},
                         name=str(d.get("name") or "bpe"), stop_reason=d.get("stop_reason"),
                         config=d.get("config") or {},
                         ignore_merges=bool(d.get("ignore_merges", False)))
