"""Decoders: how token strings turn back into text (Hugging Face's last stage).

``decode_chain(tokens)`` rewrites the list of token strings as Hugging Face's does, step by
step; ``decode(tokens)`` joins the result. :func:`token_bytes` shows one token on its own.

>>> llama2 = Sequence([Replace("▁", " "), ByteFallback(), Fuse(), Strip(" ", 1, 0)])
>>> llama2.decode(["▁Hello", "▁w", "<0xC3>", "<0xB6>", "rld"])
'Hello wörld'
>>> ByteLevel().decode(["Hello", "Ġw", "Ã¶", "rld"])
'Hello wörld'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import regex

from .alphabet import spelled_bytes
from .checked import checked, option, stage, stages
from .oniguruma import match_spans, pattern_from_dict, pattern_to_dict, replaced
from .presets import needs_limit, time_limit, too_slow
from .unicode16 import as_unicode, holds_changed

SUPPORTED = "ByteLevel, Metaspace, ByteFallback, Fuse, Strip, Replace, BPEDecoder and Sequence"


class _Decoder:
    def decode(self, tokens: list[str]) -> str:
        return "".join(self.decode_chain(list(tokens)))


def _byte_level_bytes(token: str) -> bytes:
    """A token of GPT-2 byte characters as its bytes (one outside the table: its UTF-8)."""
    data = spelled_bytes(token)
    return token.encode("utf-8") if data is None else data


@dataclass(frozen=True)
class ByteLevel(_Decoder):
    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        data = b"".join(map(_byte_level_bytes, tokens))
        return [data.decode("utf-8", errors="replace")]

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


@dataclass(frozen=True)
class Metaspace(_Decoder):
    """The replacement character back to a space; in the first token it is dropped (it was
    put there), unless the prepend scheme is "never"."""

    replacement: str = "▁"
    prepend_scheme: str = "always"
    split_: bool = True

    def decode_chain(self, tokens: list[str]) -> list[str]:
        rep = self.replacement
        return [t.replace(rep, "" if k == 0 and self.prepend_scheme != "never" else " ")
                for k, t in enumerate(tokens)]

    def to_dict(self) -> dict:
        return {"type": "Metaspace", "replacement": self.replacement,
                "prepend_scheme": self.prepend_scheme, "split": self.split_}


# What Rust's u8::from_str_radix(_, 16) reads in a six-byte token: two hex digits, or a plus
# sign and one (Python's int() would also take " A", "٣٤" or "a_").
_FALLBACK = re.compile(r"<0x([0-9A-Fa-f]{2}|\+[0-9A-Fa-f])>")


def fallback_byte(token: str) -> int | None:
    """The byte a byte-fallback token ``<0xNN>`` stands for, else None, read as Hugging Face
    reads it.

    >>> [fallback_byte(t) for t in ("<0xE4>", "<0xe4>", "<0x+A>", "<0x A>", "<0x٣٤>", "<0xE4")]
    [228, 228, 10, None, None, None]
    """
    m = _FALLBACK.fullmatch(token)
    return None if m is None else int(m.group(1), 16)


def reads_as_byte(data: bytes) -> bool:
    """Whether a token of these UTF-8 bytes is read as a byte-fallback token, which training
    with byte fallback never makes of characters (it would decode as that byte).

    >>> reads_as_byte(b"<0x4a>"), reads_as_byte(b"<0x4a"), reads_as_byte(b"<0xZZ>")
    (True, False, False)
    """
    return len(data) == 6 and fallback_byte(data.decode("utf-8", "replace")) is not None


@dataclass(frozen=True)
class ByteFallback(_Decoder):
    """Runs of ``<0xNN>`` tokens become their text when it is valid UTF-8, else one U+FFFD per
    byte (Hugging Face's rule, not Python's)."""

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out: list[str] = []
        run = bytearray()
        for t in [*tokens, None]:
            b = None if t is None else fallback_byte(t)
            if b is not None:
                run.append(b)
                continue
            if run:
                try:
                    out.append(run.decode("utf-8"))
                except UnicodeDecodeError:
                    out += ["\ufffd"] * len(run)
                run = bytearray()
            if t is not None:
                out.append(t)
        return out

    def to_dict(self) -> dict:
        return {"type": "ByteFallback"}


@dataclass(frozen=True)
class Fuse(_Decoder):
    def decode_chain(self, tokens: list[str]) -> list[str]:
        return ["".join(tokens)]

    def to_dict(self) -> dict:
        return {"type": "Fuse"}


@dataclass(frozen=True)
class Strip(_Decoder):
    """Up to ``start`` leading and ``stop`` trailing ``content`` characters off each token."""

    content: str = " "
    start: int = 0
    stop: int = 0

    def decode_chain(self, tokens: list[str]) -> list[str]:
        out = []
        for t in tokens:
            lo = 0
            while lo < min(self.start, len(t)) and t[lo] == self.content:
                lo += 1
            hi, k = len(t), 0
            while k < self.stop and hi > 0 and t[hi - 1] == self.content:
                hi, k = hi - 1, k + 1
            out.append(t[lo:max(lo, hi)])
        return out

    def to_dict(self) -> dict:
        return {"type": "Strip", "content": self.content, "start": self.start, "stop": self.stop}


@dataclass(frozen=True)
class Replace(_Decoder):
    """Every match of ``pattern`` (a string, or a regex when ``regex``) in a token becomes
    ``content``."""

    pattern: str
    content: str
    regex: bool = False

    def decode_chain(self, tokens: list[str]) -> list[str]:
        if not self.regex:
            return [t.replace(self.pattern, self.content) for t in tokens]
        # Tokens holding a character that Oniguruma's Unicode 16 classes otherwise are matched
        # by the pattern as Oniguruma reads it (see unicode16.py).
        compiled = regex.compile(as_unicode(self.pattern) if holds_changed("".join(tokens))
                                 else self.pattern)
        # A regex from a file runs within a time limit on each token (see presets.needs_limit).
        bounded = needs_limit(self.pattern)
        return [self._replaced(compiled, t, bounded) for t in tokens]

    def _replaced(self, compiled, token: str, bounded: bool) -> str:
        # Matches as Hugging Face finds them (empty ones too), and none in an empty token.
        if not token:
            return token
        try:
            found = match_spans(compiled, token, time_limit(len(token)) if bounded else None)
        except TimeoutError:
            raise too_slow(self.pattern, token, stage="decoder") from None
        return replaced(token, found, self.content)

    def to_dict(self) -> dict:
        return {"type": "Replace", "pattern": pattern_to_dict(self.pattern, not self.regex),
                "content": self.content}


@dataclass(frozen=True)
class BPEDecoder(_Decoder):
    """The end-of-word ``suffix`` becomes a space, and nothing at the end of the last token."""

    suffix: str = "</w>"

    def decode_chain(self, tokens: list[str]) -> list[str]:
        last = len(tokens) - 1
        return [t.replace(self.suffix, "" if k == last else " ") for k, t in enumerate(tokens)]

    def to_dict(self) -> dict:
        return {"type": "BPEDecoder", "suffix": self.suffix}


@dataclass(frozen=True)
class Sequence(_Decoder):
    decoders: tuple

    def __init__(self, decoders):
        object.__setattr__(self, "decoders", tuple(decoders))

    def decode_chain(self, tokens: list[str]) -> list[str]:
        for d in self.decoders:
            tokens = d.decode_chain(tokens)
        return tokens

    def to_dict(self) -> dict:
        return {"type": "Sequence", "decoders": [d.to_dict() for d in self.decoders]}


def token_bytes(decoder, token: str) -> bytes:
    """The bytes one token stands for in running text, to show it on its own: only the
    per-token steps of the decoder apply (the byte mappings, Replace, Metaspace's space), up to
    the first step that joins tokens (Fuse, Strip and ByteLevel's join act on the whole text).

    >>> llama2 = Sequence([Replace("▁", " "), ByteFallback(), Fuse(), Strip(" ", 1, 0)])
    >>> token_bytes(llama2, "▁the"), token_bytes(llama2, "<0xE4>"), token_bytes(ByteLevel(), "ĠÃ©")
    (b' the', b'\\xe4', b' \\xc3\\xa9')
    """
    return tokens_bytes(decoder, [token])[0]


def tokens_bytes(decoder, tokens: list[str]) -> list[bytes]:
    """:func:`token_bytes` of many tokens, each step run over all of them: a whole vocabulary
    (Gemma 3's 262,000 tokens) at once, for the Vocabulary page."""
    done: dict[int, bytes] = {}  # the byte-fallback tokens: their byte, whatever comes after
    steps = list(decoder.decoders) if isinstance(decoder, Sequence) else [decoder]
    out = None
    for step in steps:
        if isinstance(step, ByteLevel):
            out = list(map(_byte_level_bytes, tokens))
            break
        if isinstance(step, ByteFallback):
            for k, t in enumerate(tokens):
                if t.startswith("<0x") and k not in done:
                    b = fallback_byte(t)
                    if b is not None:
                        done[k] = bytes([b])
        elif isinstance(step, Metaspace):
            tokens = [t.replace(step.replacement, " ") for t in tokens]
        elif isinstance(step, (Replace, BPEDecoder)):
            tokens = step.decode_chain([*tokens, ""])[:-1]  # (none of them the last one)
        elif isinstance(step, Sequence):
            out = tokens_bytes(step, tokens)
            break
        else:  # Fuse, Strip: they act on the joined text
            break
    if out is None:
        out = [t.encode("utf-8") for t in tokens]
    for k, data in done.items():
        out[k] = data
    return out


def from_dict(d: dict | None) -> Any:
    """The decoder a ``tokenizer.json`` describes (None for none), its fields checked."""
    return None if d is None else checked(_from_dict(stage(d, "the decoder")))


def _from_dict(d: dict) -> Any:
    kind = d.get("type")
    if kind == "ByteLevel":
        return ByteLevel(option(d, "add_prefix_space", True), option(d, "trim_offsets", True),
                         option(d, "use_regex", True))
    if kind == "Metaspace":
        scheme = d.get("prepend_scheme")
        if scheme is None:
            scheme = "always" if d.get("add_prefix_space", True) else "never"
        return Metaspace(d.get("replacement", "▁"), scheme, option(d, "split", True))
    if kind in ("ByteFallback", "Fuse"):
        return ByteFallback() if kind == "ByteFallback" else Fuse()
    if kind == "Strip":
        return Strip(d["content"], option(d, "start", 0), option(d, "stop", 0))
    if kind == "Replace":
        pattern, literal = pattern_from_dict(d["pattern"], where="the Replace decoder")
        return Replace(pattern, d["content"], not literal)
    if kind == "BPEDecoder":
        return BPEDecoder(d.get("suffix", "</w>"))
    if kind == "Sequence":
        return Sequence(list(map(from_dict, stages(d, "decoders", "decoder"))))
    raise ValueError(f"the {kind} decoder is not supported; bpe_core reads {SUPPORTED}")
