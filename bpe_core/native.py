"""The playground's own file format: versioned JSON with everything needed to rebuild a tokenizer,
including the merge history with counts.

>>> from bpe_core import train
>>> tok = train("aaabdaaabac", unit="byte", pretokenizer="none", max_merges=1)
>>> d = to_dict(tok)
>>> d["format"], d["version"], d["merges"]
('bpe-playground', 1, [[97, 97, 4]])
>>> from_dict(d).encode("aaab") == tok.encode("aaab")
True
"""

from __future__ import annotations

from .pretokenize import PRESETS
from .tokenizer import Tokenizer
from .vocab import byte_base, char_base

FORMAT = "bpe-playground"
VERSION = 1


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: malformed, foreign or from a newer version."""


def to_dict(tok: Tokenizer) -> dict:
    base = tok.base
    byte_order = [t[0] for t in base.tokens[:256]] if base.unit == "byte" else None
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": tok.name,
        "unit": base.unit,
        "pretokenizer": tok.pretokenizer,
        "pattern": tok.pattern,
        "end_of_word": base.end_of_word,
        "byte_fallback": base.byte_fallback,
        "byte_order": None if byte_order == list(range(256)) else byte_order,
        "alphabet": base.chars if base.unit == "char" else None,
        "merges": [[m.left_id, m.right_id, m.count] for m in tok.merges],
        "special_tokens": tok.special_tokens,
        "stop_reason": tok.stop_reason,
        "config": tok.config,
        "ignore_merges": tok.ignore_merges,
    }


def from_dict(d: dict, *, source: str = "the file") -> Tokenizer:
    if not isinstance(d, dict) or d.get("format") != FORMAT:
        raise TokenizerFileError(f"{source} is not a BPE Playground tokenizer (no "
                                 f'"format": "{FORMAT}" field)')
    if d.get("version") != VERSION:
        raise TokenizerFileError(f"{source} has format version {d.get('version')!r}; this "
                                 f"version of bpe_core reads version {VERSION}. Upgrade bpe_core.")
    try:
        unit, eow = d["unit"], bool(d["end_of_word"])
        if unit == "byte":
            base = byte_base(end_of_word=eow, order=d.get("byte_order"))
        elif unit == "char":
            base = char_base(d["alphabet"], end_of_word=eow, byte_fallback=bool(d["byte_fallback"]))
            if base.chars != list(d["alphabet"]):
                raise ValueError("the alphabet must list distinct characters in code-point order")
        else:
            raise ValueError(f"unknown unit {unit!r}")
        preset = d.get("pretokenizer")
        pattern = d["pattern"]
        if preset is not None and PRESETS.get(preset) != pattern:
            raise ValueError(f"pre-tokenizer {preset!r} does not match its pattern")
        specials = d.get("special_tokens") or {}
        if not isinstance(specials, dict):
            raise ValueError("special_tokens must map token text to id")
        pairs = [(int(a), int(b), int(c)) for a, b, c in d["merges"]]
        return Tokenizer.from_pairs(base, pairs, pattern=pattern, pretokenizer=preset,
                                    special_tokens={str(k): int(v) for k, v in specials.items()},
                                    name=str(d.get("name") or "bpe"),
                                    stop_reason=d.get("stop_reason"), config=d.get("config") or {},
                                    ignore_merges=bool(d.get("ignore_merges", False)))
    except (KeyError, TypeError, ValueError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TokenizerFileError(f"{source} is a malformed BPE Playground tokenizer: {what}") from None
