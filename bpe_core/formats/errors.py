"""The one error every reader of a tokenizer file raises, and the text it cannot read."""

from __future__ import annotations

import codecs
import re


class TokenizerFileError(ValueError):
    """A tokenizer file that cannot be read: malformed, foreign or from a newer version. The
    message names the file and says what to change."""


class FormatCannotHold(ValueError):
    """A format that cannot hold this tokenizer, raised as it is saved: ``reason`` says why,
    and the message goes on with ``remedy``, this library's words for what to do (an app that
    offers the formats under names of its own says it in its words).

    >>> e = FormatCannotHold("GPT-2 files hold byte-level BPE only",
    ...                      "; save it in the native or Hugging Face format")
    >>> str(e), e.reason
    ('GPT-2 files hold byte-level BPE only; save it in the native or Hugging Face format', \
'GPT-2 files hold byte-level BPE only')
    """

    def __init__(self, reason: str, remedy: str):
        self.reason = reason
        super().__init__(reason + remedy)


#: Byte-order marks, UTF-32's first: its little-endian one begins with UTF-16's.
_BOMS = ((b"\xff\xfe\0\0", "UTF-32"), (b"\0\0\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"),
         (b"\xfe\xff", "UTF-16"))
#: A tokenizer file begins with an ASCII character ("{", a base64 letter), which these
#: encodings write as this many NUL bytes around it, with no byte-order mark (RFC 4627, 3).
_ASCII_FIRST = ((re.compile(rb"[^\0]\0\0\0"), "UTF-32", "utf-32-le"),
                (re.compile(rb"\0\0\0[^\0]"), "UTF-32", "utf-32-be"),
                (re.compile(rb"[^\0]\0[^\0]\0"), "UTF-16", "utf-16-le"),
                (re.compile(rb"\0[^\0]\0[^\0]"), "UTF-16", "utf-16-be"))


def wide_encoding(data: bytes) -> str | None:
    """The name of the encoding of UTF-16 or UTF-32 text (with a byte-order mark, or none before
    an ASCII character), else None: NUL bytes in another pattern are binary data.

    >>> [wide_encoding('{"a": 1}'.encode(c)) for c in ("utf-16-be", "utf-32", "utf-8")]
    ['UTF-16', 'UTF-32', None]
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    for first, name, codec in _ASCII_FIRST:
        if first.match(data):
            try:  # final=False: the sample may end inside a surrogate pair
                codecs.getincrementaldecoder(codec)().decode(data[:4096], final=False)
            except UnicodeDecodeError:
                continue  # NUL bytes where text has none: an image, an archive
            return name
    return None
