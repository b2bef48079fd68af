"""Saving and loading tokenizer files, whatever their format.

``load`` looks at the file itself, not its name, to tell the formats apart:

* ``native``: the playground's own JSON (merges with their counts, the pre-tokenizer, settings);
* ``hf``: a Hugging Face ``tokenizer.json`` with a BPE model;
* ``tiktoken``: a ``.tiktoken`` rank file, which stores no pre-tokenizer: pass
  ``pretokenizer="cl100k"`` (or "o200k", "gpt2", a regex). OpenAI's own files are recognised;
* ``gpt2``: GPT-2's ``vocab.json`` + ``merges.txt`` pair (``encoder.json`` + ``vocab.bpe`` in
  OpenAI's release): load the vocab file and the merges file is found beside it.

>>> import tempfile, pathlib
>>> from bpe_core import train
>>> tok = train("hug pug pun bun hugs", unit="byte", max_merges=3, min_frequency=1)
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> for fmt, name in [("native", "t.json"), ("hf", "tokenizer.json"), ("tiktoken", "t.tiktoken"),
...                   ("gpt2", "vocab.json")]:
...     save(tok, folder / name, format=fmt)
...     print(fmt, load(folder / name, pretokenizer="gpt2" if fmt == "tiktoken" else None
...                     ).encode("hugs") == tok.encode("hugs"))
native True
hf True
tiktoken True
gpt2 True
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Mapping

from ..gc_pause import gc_paused
from ..json_text import loads as json_loads
from ..tokenizer import Tokenizer
from . import gpt2, hf, native, tiktoken_file
from .errors import TokenizerFileError, wide_encoding
from .foreign import what_json
from .openai import identify

FORMATS = ("native", "hf", "tiktoken", "gpt2")


def dumps(tok: Tokenizer, *, format: str = "native") -> bytes:
    """The file for ``tok`` in a one-file ``format`` ("native", "hf" or "tiktoken"), as bytes."""
    if format == "native":
        return json.dumps(native.to_dict(tok), ensure_ascii=False, indent=1).encode("utf-8") + b"\n"
    if format == "hf":
        return hf.dumps(tok)
    if format == "tiktoken":
        return tiktoken_file.dumps(tok)
    if format == "gpt2":
        raise ValueError("the gpt2 format is two files; use save(), or gpt2.gpt2_files() for bytes")
    raise ValueError(f"unknown format {format!r}; choose one of {', '.join(FORMATS)}")


def save(tok: Tokenizer, path: str | os.PathLike, *, format: str = "native") -> None:
    """Write ``tok`` to ``path`` in ``format``; "gpt2" writes ``merges.txt`` beside the vocab.

    A ``.tiktoken`` or GPT-2 file keeps no pre-tokenizer: remember which one to load it with.
    """
    path = Path(path)
    if format == "gpt2":
        vocab, merges = gpt2.gpt2_files(tok)
        path.write_bytes(vocab)
        merges_candidates(path)[0].write_bytes(merges)
    else:
        path.write_bytes(dumps(tok, format=format))


def merges_candidates(vocab_path: Path) -> list[Path]:
    """Where a vocab file's merges live: ``x-vocab.json`` -> ``x-merges.txt``, ``encoder.json``
    -> ``vocab.bpe`` (OpenAI's names), else ``merges.txt`` in the same folder."""
    name = vocab_path.name
    names = [name[:-len("vocab.json")] + "merges.txt"] if name.endswith("vocab.json") else []
    names += ["vocab.bpe"] if name == "encoder.json" else []
    return [vocab_path.with_name(n) for n in dict.fromkeys(names + ["merges.txt"])]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise TokenizerFileError(f"cannot read {path}: {exc.strerror}") from None


def _path(path: object, function: str) -> Path:
    """``path`` as a Path; anything else (None, a file's bytes, parsed JSON) gets a TypeError
    that says what ``function`` takes, not pathlib's "expected str, bytes or os.PathLike".

    >>> _path({"model": {}}, "load")
    Traceback (most recent call last):
    TypeError: load takes a file's path (a str or pathlib.Path), not dict: for a tokenizer \
already parsed from JSON, call loads(json.dumps(it))
    """
    if isinstance(path, (str, os.PathLike)):
        return Path(path)
    fix = {bytes: ": for a file's contents, call loads(data)",
           dict: ": for a tokenizer already parsed from JSON, call loads(json.dumps(it))"}
    raise TypeError(f"{function} takes a file's path (a str or pathlib.Path), not "
                    f"{type(path).__name__}{fix.get(type(path), '')}")


def load(path: str | os.PathLike, *, pretokenizer: str | None = None) -> Tokenizer:
    """Read a tokenizer file in any of :data:`FORMATS`; the format is detected from its content.

    ``pretokenizer`` is for the formats that store none (``.tiktoken``, GPT-2 files). Like every
    reader here, it returns the tokenizer prepared for encoding (``Tokenizer.prepare``).
    """
    path = _path(path, "load")
    data = _read(path)
    with gc_paused(kept=True):  # millions of objects, none in a cycle: see gc_pause.py
        tok = _read_prepared(data, str(path), pretokenizer, merges_beside=True)
    if tok is not None:
        return tok
    found = [p for p in merges_candidates(path) if p.is_file()]
    if not found:
        raise TokenizerFileError(
            f"{path} is a GPT-2 vocab.json; its merges file is needed too. Put it beside "
            f"it as {merges_candidates(path)[0].name}, or call load_gpt2(vocab, merges)")
    return load_gpt2(path, found[0], pretokenizer=pretokenizer)


def load_gpt2(vocab_path: str | os.PathLike, merges_path: str | os.PathLike, *,
              pretokenizer: str | None = None) -> Tokenizer:
    """Read GPT-2's ``vocab.json`` and ``merges.txt``; the pre-tokenizer defaults to "gpt2"."""
    vocab_path, merges_path = _path(vocab_path, "load_gpt2"), _path(merges_path, "load_gpt2")
    vocab, merges = _read(vocab_path), _read(merges_path)
    with gc_paused(kept=True):
        return gpt2.from_gpt2(vocab, merges, pretokenizer=pretokenizer or "gpt2",
                              source=f"{vocab_path} + {merges_path.name}",
                              name=_stem(vocab_path.name)).prepare()


def loads(data: bytes | str, *, source: str = "the file",
          pretokenizer: str | None = None) -> Tokenizer:
    """Read a tokenizer from the bytes of one file (as an upload gives them, with its name), or
    from its text (as ``tokenizers``' ``Tokenizer.to_str()`` gives a ``tokenizer.json``)."""
    if isinstance(data, str):  # else "'str' object has no attribute 'decode'"
        data = data.encode("utf-8")
    elif not isinstance(data, (bytes, bytearray)):  # else "'NoneType' has no attribute 'strip'"
        fix = {dict: ": for a tokenizer already parsed from JSON, give json.dumps(it)"}.get(
            type(data), ": to read a file, call load(path)" if isinstance(data, os.PathLike)
            else "")
        raise TypeError(f"loads takes a file's contents (bytes or str), not "
                        f"{type(data).__name__}{fix}")
    with gc_paused(kept=True):
        return _read_prepared(data, source, pretokenizer)


def _read_prepared(data: bytes, source: str, pretokenizer: str | None, *,
                   merges_beside: bool = False) -> Tokenizer | None:
    """The tokenizer in ``data``, prepared; None for GPT-2's vocab.json when its merges file
    is to be looked for beside it (``merges_beside``).

    A function of its own so that the parsed JSON is let go as it returns, inside the readers'
    ``gc_paused``: the collection as that ends then walks only what the tokenizer keeps, not
    the file's half a million merge lists as well (Gemma 3: 0.14 s -> 0.06 s)."""
    kind, obj = _sniff(data, source)
    if kind == "gpt2-vocab" and merges_beside:
        return None
    return _from_sniffed(data, kind, obj, source, pretokenizer).prepare()


def _from_sniffed(data: bytes, kind: str, obj: object, source: str,
                  pretokenizer: str | None) -> Tokenizer:
    if kind == "gpt2-vocab":
        raise TokenizerFileError(f"{source} is a GPT-2 vocab.json; its merges.txt is needed "
                                 f"too: give both files together")
    if kind == "tiktoken":
        ref = identify(data)
        if not pretokenizer and ref is None:  # "" too: it names no pre-tokenizer
            raise TokenizerFileError(
                f"{source} is a tiktoken rank file, which does not say how to pre-tokenize; "
                f"pass pretokenizer= 'cl100k', 'o200k' or 'gpt2' (or the regex it was made with)")
        return tiktoken_file.loads(
            data, pretokenizer=pretokenizer or ref.pretokenizer, source=source,
            special_tokens=ref.special_tokens if ref else None,
            name=ref.name if ref else _stem(source))
    if pretokenizer is not None:
        # (Read by a user who picked the wrong format too, who never wrote "pretokenizer=".)
        raise ValueError(f"{source} is a JSON tokenizer file, which stores its own pre-tokenizer: "
                         f"load it as one, with no pre-tokenizer given (that is for .tiktoken and "
                         f"GPT-2 files)")
    found = what_json(obj)
    if found:
        raise TokenizerFileError(f"{source} is {found}")
    if kind == "hf":
        return hf.from_dict(obj, source=source, name=_stem(source))
    return native.from_dict(obj, source=source)


def loads_files(files: Mapping[str, bytes], *, pretokenizer: str | None = None) -> Tokenizer:
    """Read uploaded files (name -> bytes): one tokenizer file, or GPT-2's vocab + merges pair."""
    if len(files) == 1:
        (name, data), = files.items()
        return loads(data, source=name, pretokenizer=pretokenizer)
    for name, data in files.items():
        _refuse_wide(data, name)  # else taken for a merges.txt, as not JSON
    kinds = {name: _sniff(data, name)[0] if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{"
             else "text"
             for name, data in files.items()}
    vocab = [n for n, k in kinds.items() if k == "gpt2-vocab"]
    merges = [n for n, k in kinds.items() if k == "text"]
    if len(files) != 2 or len(vocab) != 1 or len(merges) != 1:
        raise TokenizerFileError("give one tokenizer file, or GPT-2's vocab.json and merges.txt "
                                 f"together (got {', '.join(files) or 'no files'})")
    with gc_paused(kept=True):
        return gpt2.from_gpt2(files[vocab[0]], files[merges[0]],
                              pretokenizer=pretokenizer or "gpt2",
                              source=f"{vocab[0]} + {merges[0]}", name=_stem(vocab[0])).prepare()


def _stem(source: str) -> str:
    """A file's name without its extensions: ``Llama-3.1-8B.tiktoken`` -> ``Llama-3.1-8B``."""
    name = Path(source).name
    while Path(name).suffix.lower() in (".json", ".tiktoken", ".txt", ".bpe", ".model"):
        name = Path(name).stem
    return name or "tokenizer"


def _refuse_wide(data: bytes, source: str) -> None:
    """Refuse UTF-16 or UTF-32 text, as ``tokenizers`` does ("stream did not contain valid
    UTF-8"), before it is decoded: ASCII in them is UTF-8 too, with NUL bytes between."""
    wide = wide_encoding(data)
    if wide:
        raise TokenizerFileError(f"{source} is {wide} text: save it as UTF-8 and load it again")


def _not_utf8(data: bytes, offset: int, source: str, expected: str) -> str:
    """Why ``data``, which is no UTF-8 from byte ``offset``, cannot be read: text in another
    encoding (which a tokenizer file must not be: they are UTF-8), or binary data.

    >>> _not_utf8("{'é'".encode("latin-1"), 2, "t.json", "…")
    't.json is not UTF-8 text (byte 0xe9 at byte offset 2): save it as UTF-8 and load it again'
    """
    if b"\0" in data[:4096]:  # UTF-8 text never holds NUL; images and archives do
        return f"{source} is binary data (not JSON, not text); {expected}"
    return (f"{source} is not UTF-8 text (byte 0x{data[offset]:02x} at byte offset {offset}): "
            f"save it as UTF-8 and load it again")


#: A token as a rank file writes it: base64, padded to a multiple of 4 characters ("aGVsbG8=").
_BASE64 = re.compile(r"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")


def _sniff(data: bytes, source: str) -> tuple[str, object]:
    """``(kind, parsed JSON or None)``; kind is "native", "hf", "gpt2-vocab" or "tiktoken"."""
    expected = ("expected a BPE Playground .json, a Hugging Face tokenizer.json, a .tiktoken "
                "rank file, or GPT-2's vocab.json with merges.txt")
    if not data.strip():
        raise TokenizerFileError(f"{source} is empty")
    _refuse_wide(data, source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TokenizerFileError(_not_utf8(data, exc.start, source, expected)) from None
    if text.lstrip().startswith(("{", "[")):
        try:
            obj = json_loads(text)
        except json.JSONDecodeError as exc:
            raise TokenizerFileError(f"{source} is not valid JSON ({exc}); {expected}") from None
        if (isinstance(obj, dict) and "format" not in obj and len(obj) >= 256
                and all(isinstance(v, int) for v in obj.values())):
            return "gpt2-vocab", obj  # at least the 256 byte tokens, each with an id
        if isinstance(obj, dict) and "model" in obj and "format" not in obj:
            return "hf", obj
        return "native", obj  # native.from_dict says what is wrong with other JSON
    first = text.lstrip().split("\n", 1)[0].split()
    # "base64 rank", or a base64 token and one more field: parse() points at bad lines.
    if len(first) >= 2 and first[1].isdigit() or len(first) == 2 and _BASE64.fullmatch(first[0]):
        return "tiktoken", None
    if text.startswith("#version"):
        raise TokenizerFileError(f"{source} is a GPT-2 merges.txt; load its vocab.json (with this "
                                 f"file beside it) or give both files together")
    raise TokenizerFileError(f"{source} is not a tokenizer file this version reads (not JSON, "
                             f"not a rank file); {expected}")
