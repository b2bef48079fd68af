"""Saving and loading tokenizer files, whatever their format.

``load`` looks at the file itself, not only its name, to tell the formats apart.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .native import TokenizerFileError, from_dict, to_dict
from .tokenizer import Tokenizer

FORMATS = ("native",)


def save(tok: Tokenizer, path: str | os.PathLike, *, format: str = "native") -> None:
    """Write ``tok`` to ``path`` in ``format``."""
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")
    Path(path).write_text(json.dumps(to_dict(tok), ensure_ascii=False, indent=1) + "\n",
                          encoding="utf-8")


def load(path: str | os.PathLike) -> Tokenizer:
    """Read a tokenizer file; the format is detected from its content."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TokenizerFileError(f"cannot read {path}: {exc.strerror}") from None
    return loads(data, source=str(path))


def loads(data: bytes, *, source: str = "the file") -> Tokenizer:
    """Read a tokenizer from the bytes of a file (as an upload gives them)."""
    if not data.strip():
        raise TokenizerFileError(f"{source} is empty")
    try:
        obj = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TokenizerFileError(f"{source} is not a tokenizer file this version reads (not JSON: "
                                 f"{exc}); expected a BPE Playground .json file") from None
    return from_dict(obj, source=source)
