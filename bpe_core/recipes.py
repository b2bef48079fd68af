"""Recipes: the pipeline a tokenizer trained here gets, by unit and pre-tokenizer.

Training works on ids (``vocab.Base``: bytes or characters, then one new id per merge); a
recipe turns the result into the one tokenizer shape, Hugging Face's pipeline:

* ``unit="byte"``: pre-tokenizer ``Split(regex)`` then ``ByteLevel`` (tokens are strings of
  GPT-2's byte characters, ``Ġthe``), decoder ``ByteLevel``;
* ``unit="char"``: pre-tokenizer ``Split(regex)``, tokens are the characters themselves,
  unknown ones become ``[UNK]`` (or their ``<0xNN>`` bytes with ``byte_fallback``), decoder
  ``Fuse``;
* ``pretokenizer="end-of-word"``: an ``EndOfWord`` step after those, and a decoder that turns
  the marker back into the space between words.

>>> from bpe_core.alphabet import char_base
>>> tok = build(char_base("hug"), [(3, 1, 5)], pattern=r"\\S+", preset="whitespace")
>>> tok.model.tokens, tok.encode("hug hum")
(('[UNK]', 'g', 'h', 'u', 'ug'), [2, 4, 2, 3, 0])
"""

from __future__ import annotations

from itertools import count
from operator import itemgetter
from typing import Iterable, Mapping, Sequence

from . import decoders, pre_tokenizers
from .added_vocabulary import AddedToken
from .alphabet import BYTE_CHARS, UNK, Base
from .end_of_word import MARKER, EndOfWord
from .merges import MergeList
from .models import BPE
from .tokenizer import Tokenizer


def unknown_token(base: Base) -> str | None:
    """The token of a character the base cannot spell: ``[UNK]`` for characters without byte
    fallback, else none."""
    return UNK if base.unit == "char" and not base.byte_fallback else None


def own_special_tokens(base: Base, special_tokens: Iterable[str]) -> list[str]:
    """The special tokens that take ids of their own: all but the base's unknown token, which
    it has already (``[UNK]`` given as a special token is that token, as in Hugging Face's
    trainers, not a second ``[UNK]``).

    >>> from bpe_core.alphabet import char_base
    >>> own_special_tokens(char_base("ab"), ["[UNK]", "<|end|>", "<|end|>"])
    ['<|end|>']
    """
    return [s for s in dict.fromkeys(special_tokens) if s != unknown_token(base)]


def base_strings(base: Base) -> list[str]:
    """The model's string for each base id."""
    out = []
    for data, kind in zip(base.tokens, base.kinds):
        if kind == "unk":
            out.append(UNK)
        elif kind == "eow":
            out.append(MARKER)
        elif kind == "byte" and base.unit == "byte":
            out.append(BYTE_CHARS[data[0]])
        elif kind == "byte":
            out.append(f"<0x{data[0]:02X}>")  # byte fallback
        else:
            out.append(data.decode("utf-8"))
    return out


def stages(base: Base, pattern: str) -> tuple:
    """``(pre_tokenizer, decoder)`` for a base alphabet and a pre-tokenizer regex."""
    split = pre_tokenizers.Split(pattern, behavior="Removed", invert=True)
    steps: list = [split]
    if base.unit == "byte":
        steps.append(pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False,
                                              use_regex=False))
        decoder = decoders.ByteLevel()
        if base.end_of_word:
            # The marker becomes a space (GPT-2's "Ġ") between words; the last one ends the text.
            decoder = decoders.Sequence([decoders.Replace(MARKER, BYTE_CHARS[32]),
                                         decoders.ByteLevel(), decoders.Strip(" ", 0, 1)])
    elif base.end_of_word:
        decoder = decoders.BPEDecoder(MARKER)
        if base.byte_fallback:
            decoder = decoders.Sequence([decoder, decoders.ByteFallback(), decoders.Fuse()])
    else:
        decoder = decoders.Fuse()
        if base.byte_fallback:
            decoder = decoders.Sequence([decoders.ByteFallback(), decoder])
    if base.end_of_word:
        steps.append(EndOfWord())
    pre = steps[0] if len(steps) == 1 else pre_tokenizers.Sequence(steps)
    return pre, decoder


def build(base: Base, pairs: Iterable[tuple[int, int, int]], *, pattern: str,
          preset: str | None, special_tokens: Iterable[str] | Mapping[str, int] = (),
          name: str = "bpe", stop_reason: str | None = None, config: dict | None = None,
          ignore_merges: bool = False, texts: Sequence[str] | None = None) -> Tokenizer:
    """A tokenizer from training's ids: ``pairs`` are ``(left, right, count)`` in merge order,
    merge ``r`` making id ``len(base) + r``; special tokens come after (or at the given ids).
    ``texts``: what each of those tokens stands for, when at hand (see ``BPE.texts``)."""
    tokens = base_strings(base)
    pairs = list(pairs)
    n = len(tokens)
    left, right, counts = (list(map(itemgetter(k), pairs)) for k in range(3))
    # Each token spelled in C loops (a rank file has 100,000 merges or more): extend appends
    # each token as it comes, so merge r finds the ids below n + r, and only those.
    if min(left, default=0) >= 0 and min(right, default=0) >= 0:
        try:
            tokens.extend(map(str.__add__, map(tokens.__getitem__, left),
                              map(tokens.__getitem__, right)))
        except IndexError:
            pass  # a merge of a token not made yet: named below
    if len(tokens) < n + len(pairs):
        late = next(r for r, (a, b) in enumerate(zip(left, right))
                    if min(a, b) < 0 or max(a, b) >= n + r)
        raise ValueError(f"merge {late + 1} (rank {late}) refers to token "
                         f"{max(left[late], right[late])}, which does not exist before it")
    shown = tuple(tokens)
    if texts is not None and len(texts) != len(shown):
        raise ValueError(f"{len(texts)} token texts for {len(shown)} tokens")
    merges = MergeList(left=left, right=right, result=range(n, n + len(pairs)), count=counts,
                       shown=shown)
    model = BPE(shown, merges, spelled=True, in_order=True,  # (each merge's parts made before)
                unk_token=unknown_token(base),
                byte_fallback=base.byte_fallback, ignore_merges=ignore_merges, texts=texts)
    if not isinstance(special_tokens, Mapping):
        own = dict(zip(own_special_tokens(base, special_tokens), count(len(tokens))))
        special_tokens = {s: own.get(s, model.vocab.get(s)) for s in dict.fromkeys(special_tokens)}
    elif any(i < len(tokens) for i in special_tokens.values()):
        raise ValueError("special token ids must come after the base symbols and merges")
    pre, decoder = stages(base, pattern)
    added = [AddedToken(s, i, special=True) for s, i in special_tokens.items()]
    return Tokenizer(model, pre_tokenizer=pre, decoder=decoder, added_tokens=added, name=name,
                     stop_reason=stop_reason,
                     config={"unit": base.unit, "pretokenizer": preset, "pattern": pattern,
                             **(config or {})})
