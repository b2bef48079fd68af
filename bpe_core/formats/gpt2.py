"""GPT-2's two files: ``vocab.json`` (token -> id) and ``merges.txt`` (one merge per line), as
OpenAI released them (``encoder.json`` + ``vocab.bpe``) and as Hugging Face still reads them.
They hold byte-level BPE only, and no pre-tokenizer: the GPT-2 regex is assumed unless told.

>>> from bpe_core import train
>>> tok = train("hug pug pun bun hugs", unit="byte", max_merges=2, min_frequency=1)
>>> vocab, merges = gpt2_files(tok)
>>> merges.decode().splitlines()
['#version: 0.2', 'u g', 'h ug']
>>> from_gpt2(vocab, merges).encode("hugs") == tok.encode("hugs")
True
"""

from __future__ import annotations

import json

from .. import models
from ..added_vocabulary import AddedToken
from ..alphabet import byte_base
from ..json_text import loads as json_loads
from ..presets import resolve
from ..recipes import stages
from ..tokenizer import Tokenizer
from .errors import FormatCannotHold, TokenizerFileError, wide_encoding
from .hf import other_formats
from .tiktoken_file import refuse_normalizer


def gpt2_files(tok: Tokenizer) -> tuple[bytes, bytes]:
    """GPT-2's ``(vocab.json, merges.txt)`` for a byte-level ``tok`` (the regex is not stored)."""
    if not tok.view.byte_level or tok.view.marker is not None:
        raise FormatCannotHold("GPT-2 vocab.json/merges.txt files hold byte-level BPE only",
                               f"; save this tokenizer in the {other_formats(tok)} format.")
    refuse_normalizer(tok, "GPT-2 vocab.json/merges.txt files")
    if tok.model.continuing_subword_prefix:  # (read back as a plain BPE model, a piece's
        # inner bytes would be their own tokens, not their "##" ones)
        raise FormatCannotHold(f"GPT-2 vocab.json/merges.txt files keep no "
                               f"continuing_subword_prefix "
                               f"({tok.model.continuing_subword_prefix!r} here)",
                               f"; save this tokenizer in the {other_formats(tok)} format")
    _refuse_ignore_merges(tok)
    d = tok.model.to_dict()
    vocab = dict(d["vocab"])
    first = 256 + len(d["merges"])  # where from_gpt2 starts reading tokens as special ones
    for t in tok.added_tokens:
        if t.id < first:
            raise FormatCannotHold(f"GPT-2 files read only the ids after the merges' ({first} "
                                   f"on) as special tokens, and the added token {t.content!r} "
                                   f"has id {t.id}",
                                   f": save this tokenizer in the {other_formats(tok)} format")
        # They are read back as plain special tokens: a non-special one would then be skipped
        # by decode, and lstrip, rstrip or single_word would no longer take spaces or words.
        kept = [o for o in ("lstrip", "rstrip", "single_word") if getattr(t, o)]
        if kept or not t.special:
            what = f"has {' and '.join(kept)} set" if kept else "is not special"
            raise FormatCannotHold(f"GPT-2 files hold plain special tokens only; the added "
                                   f"token {t.content!r} {what}, which they cannot keep",
                                   f": save this tokenizer in the {other_formats(tok)} format")
        # vocab.json maps each spelling to one id: an added token spelled as another byte-level
        # token ("a", "é", "Ġ") or a merge's token would be lost, and read back as that token.
        if vocab.setdefault(t.content, t.id) != t.id:
            raise FormatCannotHold(
                f"GPT-2 files cannot hold the added token {t.content!r} (id {t.id}): vocab.json "
                f"spells token {vocab[t.content]} the same way, so it would read back as that "
                f"token", "; save this tokenizer in the native format, or train it without that "
                          "token")
    merges = "".join(f"{a} {b}\n" for a, b in d["merges"])
    return (json.dumps(vocab, ensure_ascii=False).encode("utf-8"),
            ("#version: 0.2\n" + merges).encode("utf-8"))


def _refuse_ignore_merges(tok: Tokenizer) -> None:
    """Raise ValueError if ``tok``'s ignore_merges (a piece that is a token is that token)
    changes an encoding: GPT-2 files keep no such option, and are read back merging every
    piece. It does when some token is not what its own bytes merge into (Llama 3 has many)."""
    model, added = tok.model, {t.id for t in tok.added_tokens}
    if not model.ignore_merges:
        return
    for text, i in model.vocab.items():
        merged = [] if i in added else model.merge(model.symbols(text))
        if merged and merged != [i]:
            parts = " + ".join(repr(tok.display(j)) for j in merged)
            raise FormatCannotHold(
                f"GPT-2 vocab.json/merges.txt files keep no ignore_merges, and without it token "
                f"{i} ({tok.display(i)!r}) would be {parts} (its merges alone)",
                f"; save this tokenizer in the {other_formats(tok)} format")


def from_gpt2(vocab: bytes, merges: bytes, *, pretokenizer: str = "gpt2",
              source: str = "the files", name: str = "gpt2") -> Tokenizer:
    """A Tokenizer from GPT-2's ``vocab.json`` (or ``encoder.json``) and ``merges.txt`` (or
    ``vocab.bpe``). Vocabulary entries after the merges' tokens (``<|endoftext|>``) are special
    tokens.
    """
    texts = []
    for data, what in ((vocab, "vocab.json"), (merges, "merges.txt")):
        wide = wide_encoding(data)
        if wide:  # UTF-32's NUL bytes are UTF-8 too: its merges were not pairs
            raise TokenizerFileError(f"{source}: the {what} is {wide} text, not "
                                     f"UTF-8 (GPT-2's files are): save it as UTF-8 and load it "
                                     f"again")
        try:
            texts.append(data.decode("utf-8-sig"))
        except UnicodeDecodeError as exc:  # (Python's words would name a codec, not the file)
            raise TokenizerFileError(
                f"{source}: the {what} is not UTF-8 text (byte 0x{data[exc.start]:02x} at byte "
                f"offset {exc.start}); GPT-2's files are UTF-8: save it as UTF-8 and load it again"
            ) from None
    try:
        table = json_loads(texts[0])
    except json.JSONDecodeError as exc:
        raise TokenizerFileError(f"{source}: not a GPT-2 vocab.json and merges.txt: the "
                                 f"vocab.json is not valid JSON ({exc})") from None
    lines = texts[1].splitlines()
    if not isinstance(table, dict) or not all(isinstance(i, int) for i in table.values()):
        raise TokenizerFileError(f"{source}: vocab.json must map token strings to integer ids")
    preset, pattern = resolve(pretokenizer)
    try:
        pairs = models.pairs([line for line in lines if line])
        made = {a + b for a, b in pairs}
        last = 256 + len(pairs)
        specials = {t: i for t, i in table.items() if i >= last and t not in made}
        model = models.BPE.from_vocab({t: i for t, i in table.items() if t not in specials},
                                      pairs)
    except ValueError as exc:
        raise TokenizerFileError(f"{source}: {exc}") from None
    pre, decoder = stages(byte_base(), pattern)
    return Tokenizer(model, pre_tokenizer=pre, decoder=decoder,
                     added_tokens=[AddedToken(s, i, special=True) for s, i in specials.items()],
                     name=name, config={"unit": "byte", "pretokenizer": preset, "pattern": pattern})
