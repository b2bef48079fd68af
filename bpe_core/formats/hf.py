"""Hugging Face's ``tokenizer.json`` (BPE models).

A ``tokenizer.json`` is the pipeline written out, stage by stage; each stage module reads and
writes its own part, so any BPE model's file loads with exactly the ids of ``tokenizers``:

>>> from bpe_core import train
>>> tok = train("hug pug pun bun hugs", unit="byte", pretokenizer="gpt2", max_merges=2,
...             min_frequency=1)
>>> d = to_dict(tok)
>>> d["model"]["merges"], d["model"]["vocab"]["Ġ"], d["pre_tokenizer"]["type"]
([['u', 'g'], ['h', 'ug']], 32, 'Sequence')
>>> from_dict(d).encode("hugs") == tok.encode("hugs")
True

The playground's end-of-word symbol (``</w>`` as a symbol of its own) has no Hugging Face step;
a character-level tokenizer with it is written with a normalizer that puts a marker character
after every word, which reads back as the same ids.
"""

from __future__ import annotations

import json
from typing import Any, Mapping

from .. import decoders, models, normalizers, post_processors, pre_tokenizers
from ..added_vocabulary import added_tokens, as_hugging_face_reads
from ..checked import shown
from ..end_of_word import EndOfWord
from ..identity import flatten
from ..oniguruma import convert_pattern
from ..presets import PRESETS
from ..tokenizer import Tokenizer
from .errors import FormatCannotHold, TokenizerFileError

_WORD_END = r"(?<=\S)(?!\S)"  # where the end-of-word normalizer puts the marker: after each word


def _preset_name(tok_pre) -> str | None:
    """The preset a ``Split`` regex (read back from a file) stands for, if any."""
    for stage in flatten(tok_pre):
        if isinstance(stage, pre_tokenizers.Split):
            return next((name for name, p in PRESETS.items() if p == stage.pattern), None)
    return None


# -- writing ----------------------------------------------------------------------------------

def other_formats(tok: Tokenizer) -> str:
    """The formats to save ``tok`` in when another cannot hold it: "native or Hugging Face", or
    "native" alone when a ``tokenizer.json`` cannot hold it either (byte-level with ``</w>``).

    >>> from bpe_core import train
    >>> other_formats(train("low lower", unit="byte", pretokenizer="end-of-word", max_merges=1))
    'native'
    """
    try:
        to_dict(tok)
    except ValueError:
        return "native"
    return "native or Hugging Face"


def to_dict(tok: Tokenizer) -> dict[str, Any]:
    """The ``tokenizer.json`` content for ``tok`` (raises ValueError when HF cannot express it)."""
    normalizer, pre = tok.normalizer, tok.pre_tokenizer
    steps = list(flatten(pre))
    eow = [s for s in steps if isinstance(s, EndOfWord)]
    if eow:
        if tok.view.byte_level:
            raise FormatCannotHold("Hugging Face byte-level BPE has no end-of-word symbol",
                                   "; save this tokenizer in the native format, or train it "
                                   "with unit='char'")
        if tok.model.byte_fallback:
            raise FormatCannotHold("Hugging Face files cannot combine byte fallback with </w>",
                                   "; save this tokenizer in the native format")
        if normalizer is not None:
            raise FormatCannotHold("this tokenizer's normalizer leaves no room for the "
                                   "end-of-word marker", "; save it in the native format")
        marker = eow[0].marker
        # A marker in the text itself becomes U+FFFD, as EndOfWord does; then one after each word.
        normalizer = normalizers.Sequence([normalizers.Replace(marker, "\ufffd"),
                                           normalizers.Replace(_WORD_END, marker, regex=True)])
        kept = [s for s in steps if not isinstance(s, EndOfWord)]
        pre = kept[0] if len(kept) == 1 else pre_tokenizers.Sequence(kept)

    def part(component):
        return None if component is None else component.to_dict()

    # Hugging Face gives added tokens ids of its own as it reads them: they must be these.
    read = {t.content: t.id for t in as_hugging_face_reads(tok.added_tokens, tok.model.vocab)}
    for token in tok.added_tokens:
        if read[token.content] != token.id:
            raise FormatCannotHold(
                f"Hugging Face would read the added token {token.content!r} (id {token.id}) as "
                f"id {read[token.content]}" + (
                    f", the id of the vocabulary's token {token.content!r}"
                    if token.content in tok.model.vocab else ""),
                "; save this tokenizer in the native format, or train it without that token")
    out = {
        # (kept as read: bpe_core's encode neither truncates nor pads; the pages say so)
        "version": "1.0", "truncation": tok.config.get("truncation"),
        "padding": tok.config.get("padding"),
        "added_tokens": [t.to_dict() for t in tok.added_tokens],
        "normalizer": part(normalizer), "pre_tokenizer": part(pre),
        "post_processor": part(tok.post_processor), "decoder": part(tok.decoder),
        "model": tok.model.to_dict(),
    }
    _refuse_python_regexes(out)
    return out


def _limits(d: Mapping[str, Any]) -> dict:
    """The file's ``truncation`` and ``padding``, those it sets, kept in ``config``: what Hugging
    Face's ``encode`` then does to the ids (cut them at ``max_length``, pad them), which
    ``Tokenizer.encode`` never does (a playground shows every token)."""
    limits = {k: d[k] for k in ("truncation", "padding") if d.get(k) is not None}
    for key, value in limits.items():
        if not isinstance(value, Mapping):
            raise ValueError(f"the {key} must be an object or null, not {shown(value)}")
    at = limits.get("truncation", {}).get("max_length")
    if not (at is None or isinstance(at, int) and not isinstance(at, bool) and at >= 0):
        raise ValueError(f"the truncation's max_length must be a whole number, not {shown(at)}")
    return {k: dict(v) for k, v in limits.items()}


def _refuse_python_regexes(d: Any) -> None:
    """Raise the reason a regex cannot be written for Hugging Face (Oniguruma), if one can't."""
    if isinstance(d, dict):
        if "PythonRegex" in d:
            convert_pattern(d["PythonRegex"], to_onig=True)  # raises, saying what to change
        for v in d.values():
            _refuse_python_regexes(v)
    elif isinstance(d, list):
        for v in d:
            _refuse_python_regexes(v)


def dumps(tok: Tokenizer) -> bytes:
    """``tokenizer.json`` bytes for ``tok``."""
    return json.dumps(to_dict(tok), ensure_ascii=False, indent=1).encode("utf-8") + b"\n"


# -- reading ----------------------------------------------------------------------------------

def from_dict(d: Mapping[str, Any], *, source: str = "the file", name: str = "hf") -> Tokenizer:
    """A Tokenizer from the content of a Hugging Face ``tokenizer.json`` (a BPE model)."""
    try:
        if not isinstance(d, Mapping) or not isinstance(d.get("model"), Mapping):
            raise ValueError("it has no model")
        model = models.from_dict(d["model"])
        pre = pre_tokenizers.from_dict(d.get("pre_tokenizer"))
        added = as_hugging_face_reads(added_tokens(d.get("added_tokens"), skip_empty=True),
                                      model.vocab)
        tok = Tokenizer(model, normalizers.from_dict(d.get("normalizer")), pre,
                        decoders.from_dict(d.get("decoder")), added,
                        post_processors.from_dict(d.get("post_processor")), name=name,
                        config={"pretokenizer": _preset_name(pre), **_limits(d)})
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TokenizerFileError(f"{source} cannot be read as a Hugging Face BPE tokenizer: "
                                 f"{what}") from None
    return tok
