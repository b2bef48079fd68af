"""What a tokenizer is: its pipeline in one line, and a digest of everything in it.

Both read only the stages, so they work on any tokenizer, trained or loaded:

>>> from bpe_core import train
>>> tok = train("hug", unit="byte", max_merges=0)
>>> describe(tok.normalizer, tok.pre_tokenizer, tok.model, tok.decoder, tok.post_processor,
...          preset="gpt2")
'pre-tokenizer Split(gpt2) + ByteLevel → BPE → decoder ByteLevel'
>>> len(fingerprint(tok.normalizer, tok.pre_tokenizer, tok.model, tok.decoder,
...                 tok.post_processor, tok.added_tokens))
32
"""

from __future__ import annotations

import hashlib
from array import array
from typing import Iterable, Iterator

from .added_vocabulary import AddedToken
from .models import BPE

#: The attribute that holds a Sequence's parts, per stage.
_PARTS = ("normalizers", "pretokenizers", "decoders", "processors")


def flatten(component) -> Iterator:
    """The components of a stage, (possibly nested) Sequences opened, in order; none for None.
    A component made as a Sequence of others (BertPreTokenizer) stays whole, as its file
    names it.

    >>> from bpe_core import pre_tokenizers as P
    >>> [type(s).__name__ for s in flatten(P.Sequence([P.Digits(), P.Sequence([P.Whitespace()])]))]
    ['Digits', 'Whitespace']
    >>> [type(s).__name__ for s in flatten(P.Sequence([P.BertPreTokenizer()]))]
    ['BertPreTokenizer']
    """
    if component is None:
        return
    inner = next((getattr(component, a) for a in _PARTS if hasattr(component, a)), None
                 ) if type(component).__name__ == "Sequence" else None
    if inner is None:
        yield component
    else:
        for c in inner:
            yield from flatten(c)


def _names(component, preset: str | None = None) -> str:
    """``Split(gpt2) + ByteLevel``: a stage's type names, Sequences flattened."""
    return " + ".join(f"{name}({preset})" if preset and name == "Split" else name
                      for name in (type(c).__name__ for c in flatten(component)))


def describe(normalizer, pre_tokenizer, model: BPE, decoder, post_processor, *,
             preset: str | None = None) -> str:
    """The pipeline in one line, stage by stage (``preset`` names a Split's regex)."""
    options = [("byte fallback", model.byte_fallback), ("ignore_merges", model.ignore_merges)]
    stages = [("normalizer", normalizer, None), ("pre-tokenizer", pre_tokenizer, preset),
              ("model", model, None), ("decoder", decoder, None),
              ("post-processor", post_processor, None)]
    out = []
    for label, stage, named in stages:
        if stage is model:
            out.append("BPE" + "".join(f", {o}" for o, on in options if on))
        elif stage is not None:
            out.append(f"{label} {_names(stage, named)}")
    return " → ".join(out)


def fingerprint(normalizer, pre_tokenizer, model: BPE, decoder, post_processor,
                added_tokens: Iterable[AddedToken]) -> str:
    """A digest of everything that changes an encoding or what the pages show of it: every
    stage with its options, the vocabulary, the merges and their counts, the added tokens.
    Equal for two tokenizers built alike, so it keys caches."""
    h = hashlib.blake2b(digest_size=16)
    for part in (normalizer, pre_tokenizer, decoder, post_processor):
        h.update(repr(None if part is None else part.to_dict()).encode())
    h.update(repr([t.to_dict() for t in added_tokens]).encode())
    h.update(repr((model.unk_token, model.fuse_unk, model.byte_fallback,
                   model.continuing_subword_prefix, model.end_of_word_suffix,
                   model.ignore_merges)).encode())
    # Each token's length, then the tokens joined: no separator can be told from a token's own
    # characters (the vocabularies 'a\x00', 'b' and 'a', '\x00b' once hashed alike, and shared
    # the pages' tables). An id with no token has length -1.
    tokens = model.tokens
    h.update(array("q", [-1 if t is None else len(t) for t in tokens]).tobytes())
    h.update("".join(t for t in tokens if t is not None).encode("utf-8", "surrogatepass"))
    for column in (model.merges.left, model.merges.right, model.merges.result, model.merges.count):
        h.update(column.tobytes())
    return h.hexdigest()
