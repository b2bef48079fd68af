"""The largest tokenizer file the readers take in, checked before a file is read: an upload, a
model downloaded from the Hugging Face Hub, or the files beside it.

>>> too_big("tokenizer.json", 33 * 2**20) is None
True
>>> print(too_big("model.json", 150 * 2**20))  # doctest: +ELLIPSIS
model.json is 150.0 MB, more than the 100 MB a tokenizer file may have here (the largest ...
"""

from __future__ import annotations

#: The largest tokenizer file read, in bytes: three times the largest real one (Gemma 3's
#: tokenizer.json, 33 MB, 262k tokens and 515k merges, which takes 1.4 s to read). A larger
#: file is refused before it is parsed: reading holds several times its size in memory, for
#: every session of the app's server to share.
MAX_TOKENIZER_BYTES = 100 * 2**20


def too_big(name: str, size: int) -> str | None:
    """Why a tokenizer file of ``size`` bytes is refused, before it is read; None if it is not."""
    if size <= MAX_TOKENIZER_BYTES:
        return None
    return (f"{name} is {size / 2**20:,.1f} MB, more than the {MAX_TOKENIZER_BYTES / 2**20:,.0f}"
            " MB a tokenizer file may have here (the largest real one, Gemma 3's "
            "tokenizer.json, is 33 MB). Is it the model's weights rather than its tokenizer?")
