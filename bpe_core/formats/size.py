"""The largest tokenizer file the readers take in, checked before a file is read: an upload, a
model downloaded from the Hugging Face Hub, or the files beside it; and the sentence that
refuses a file by its size.

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
    refused = over(f"{name} is", size, limit=MAX_TOKENIZER_BYTES, what="a tokenizer file")
    return refused and (f"{refused} (the largest real one, Gemma 3's tokenizer.json, is "
                        "33 MB). Is it the model's weights rather than its tokenizer?")


def over(subject: str, size: int, *, limit: int, what: str) -> str | None:
    """That ``subject`` (a file's name and its verb) is ``size`` bytes, more than the ``limit``
    bytes ``what`` may have (a clause, for the caller to end); None when it is not. Every
    refusal by size words it so: a tokenizer file's here, a corpus's in the app.

    >>> print(over("big.txt is", 3 * 2**20 // 2, limit=2**20, what="a corpus"))
    big.txt is 1.5 MB, more than the 1 MB a corpus may have here
    >>> over("small.txt is", 2**20, limit=2**20, what="a corpus") is None
    True
    """
    if size <= limit:
        return None
    return (f"{subject} {size / 2**20:,.1f} MB, more than the {limit / 2**20:,.0f} MB {what} "
            "may have here")
