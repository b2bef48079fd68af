"""Base symbols (the vocabulary before any merge) and how tokens are shown.

Every token is a byte string plus, for the "end-of-word" pre-tokenizer, a flag saying that it
ends with the ``</w>`` marker. Byte-level BPE has 256 base symbols, ids 0-255 being the byte values;
character BPE has the characters seen in training:

>>> base = char_base("hug", end_of_word=False)
>>> [base.display(i) for i in range(len(base))]
['[UNK]', 'g', 'h', 'u']
>>> show_bytes("你".encode()[:2])
'<E4 BD>'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

END_OF_WORD = "</w>"
UNK = "[UNK]"

# GPT-2's byte <-> character table: printable Latin-1 bytes stand for themselves, the other 68
# bytes take the characters from U+0100 on, in byte order.
_PRINTABLE = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
BYTE_CHARS = [""] * 256
for _i, _b in enumerate(sorted(set(range(256)) - set(_PRINTABLE))):
    BYTE_CHARS[_b] = chr(0x100 + _i)
for _b in _PRINTABLE:
    BYTE_CHARS[_b] = chr(_b)
CHAR_BYTES = {c: b for b, c in enumerate(BYTE_CHARS)}
_BYTE_CHAR_SET = frozenset(CHAR_BYTES)
_TO_LATIN1 = {ord(c): b for c, b in CHAR_BYTES.items()}


def spelled_bytes(chars: str) -> bytes | None:
    """The bytes a string of GPT-2's byte characters stands for (None if it holds another
    character).

    >>> spelled_bytes("Ġhé"), spelled_bytes("ä¸Ń"), spelled_bytes("中")
    (b' h\xe9', b'\xe4\xb8\xad', None)
    """
    if not _BYTE_CHAR_SET.issuperset(chars):
        return None
    # Each byte character becomes the Latin-1 character of its value, which Latin-1 spells.
    return chars.translate(_TO_LATIN1).encode("latin-1")


def show_bytes(data: bytes) -> str:
    """Readable text for a token's bytes; runs of bytes that are not valid UTF-8 become hex.

    >>> show_bytes(b" re")
    ' re'
    >>> show_bytes(b"a\\xe4\\xbd")
    'a<E4 BD>'
    """
    out: list[str] = []
    while data:
        try:
            out.append(data.decode("utf-8"))
            break
        except UnicodeDecodeError as exc:
            out.append(data[: exc.start].decode("utf-8"))
            # Gather the whole run of undecodable bytes into one <..> group.
            end = exc.end
            while end < len(data):
                try:
                    data[end:end + 4].decode("utf-8")
                    break
                except UnicodeDecodeError as nxt:
                    if nxt.start != 0:
                        break
                    end += nxt.end
            out.append("<" + " ".join(f"{b:02X}" for b in data[exc.start:end]) + ">")
            data = data[end:]
    return "".join(out)


def token_display(data: bytes, ends_word: bool = False) -> str:
    """Display text of a merged token from its whole byte string (never from its parts' texts,
    which would show "的" built from byte pieces as ``<E7><9A 84>``), then ``</w>`` if it ends a
    word.

    >>> token_display("的".encode()), token_display(b"est", True)
    ('的', 'est</w>')
    """
    return show_bytes(data) + (END_OF_WORD if ends_word else "")


@dataclass(frozen=True)
class Base:
    """The base alphabet: ids ``0 .. len(base)-1`` and how a piece of text maps onto them."""

    unit: str  # "byte" or "char"
    tokens: tuple[bytes, ...]  # the bytes of each base symbol (b"" for [UNK] and </w>)
    kinds: tuple[str, ...]  # "byte", "char", "unk" or "eow", per base symbol
    end_of_word: bool = False
    byte_fallback: bool = False
    char_ids: dict[str, int] = field(default_factory=dict, compare=False, repr=False)

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def eow_id(self) -> int | None:
        return len(self.tokens) - 1 if self.end_of_word else None

    @property
    def chars(self) -> list[str]:
        """The alphabet of a char-unit base, in id order."""
        return list(self.char_ids)

    @property
    def byte_ids(self) -> bytes | None:
        """Byte value -> id table for a byte base whose ids are not the byte values (GPT-2's)."""
        if self.unit != "byte" or all(t == bytes([i]) for i, t in enumerate(self.tokens[:256])):
            return None
        table = bytearray(256)
        for i, t in enumerate(self.tokens[:256]):
            table[t[0]] = i
        return bytes(table)

    def symbols(self, piece: str) -> list[int]:
        """Base ids for one piece (plus ``</w>`` when the pre-tokenizer marks word ends)."""
        if self.unit == "byte":
            data = piece.encode("utf-8")
            table = self.__dict__.get("_table", False)
            if table is False:  # computed once: frozen dataclass, so set it behind the scenes
                table = self.byte_ids
                object.__setattr__(self, "_table", table)
            ids = list(data.translate(table) if table else data)
        else:
            ids = list(map(self.char_ids.get, piece))  # every character known: in C
            if None in ids:
                ids = self._char_symbols(piece)
        if self.end_of_word:
            ids.append(len(self.tokens) - 1)
        return ids

    def _char_symbols(self, piece: str) -> list[int]:
        """Char-unit ids of a piece holding characters outside the alphabet."""
        ids: list[int] = []
        get = self.char_ids.get
        for ch in piece:
            i = get(ch)
            if i is not None:
                ids.append(i)
            elif self.byte_fallback:  # ids 0-255 are the byte tokens
                ids.extend(ch.encode("utf-8"))
            else:
                ids.append(0)  # [UNK]
        return ids

    def display(self, i: int) -> str:
        kind = self.kinds[i]
        if kind == "unk":
            return UNK
        if kind == "eow":
            return END_OF_WORD
        return show_bytes(self.tokens[i])


def byte_base(*, end_of_word: bool = False, order: Iterable[int] | None = None) -> Base:
    """256 byte symbols, then ``</w>`` when asked for.

    The id of a byte is its value, unless ``order`` lists the byte value of each id (GPT-2's
    vocabulary, for one, starts with the printable bytes: id 0 is ``!``).
    """
    values = list(range(256)) if order is None else list(order)
    if sorted(values) != list(range(256)):
        raise ValueError("a byte order must list each of the 256 byte values once")
    tokens = tuple(bytes([b]) for b in values)
    kinds = ("byte",) * 256
    if end_of_word:
        tokens, kinds = tokens + (b"",), kinds + ("eow",)
    return Base("byte", tokens, kinds, end_of_word=end_of_word)


def char_base(chars: Iterable[str], *, end_of_word: bool = False, byte_fallback: bool = False) -> Base:
    """``[UNK]`` (or the 256 fallback bytes), the characters sorted by code point, then ``</w>``."""
    if byte_fallback:
        tokens, kinds = [bytes([b]) for b in range(256)], ["byte"] * 256
    else:
        tokens, kinds = [b""], ["unk"]
    char_ids: dict[str, int] = {}
    for ch in sorted(set(chars)):
        char_ids[ch] = len(tokens)
        tokens.append(ch.encode("utf-8"))
        kinds.append("char")
    if end_of_word:
        tokens.append(b"")
        kinds.append("eow")
    return Base("char", tuple(tokens), tuple(kinds), end_of_word=end_of_word,
                byte_fallback=byte_fallback, char_ids=char_ids)


def base_for(words: Iterable[str], *, unit: str, end_of_word: bool, byte_fallback: bool) -> Base:
    """The base alphabet training starts from: the 256 bytes, or the characters of ``words``."""
    if unit == "byte":
        return byte_base(end_of_word=end_of_word)
    chars: set[str] = set()
    for w in words:
        chars.update(w)
    return char_base(chars, end_of_word=end_of_word, byte_fallback=byte_fallback)
