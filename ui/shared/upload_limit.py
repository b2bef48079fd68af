"""The upload limit, named beside every place a file is uploaded, and checked before a file is
read.

Streamlit refuses a file over ``server.maxUploadSize`` in the browser, before sending it: the
file's name turns red with its size, and nothing says why. The limit and where to change it are
therefore said beside each uploader, before the user tries. The same limit is what one corpus
may have, whether it comes in one file or several loaded together (each of which the browser
lets through on its own): :func:`over_limit` says so before any of them is read.
"""

from __future__ import annotations

from typing import Sequence

import streamlit as st

from bpe_core.formats.size import over

from .annotate import md_literal

#: Where the limit is changed, said with every refusal that the limit decides.
RAISE = ("To allow more, raise `maxUploadSize` under `[server]` in `.streamlit/config.toml` and "
         "restart the app.")


def limit_mb() -> int:
    """The largest file, in MB, that the server accepts (``.streamlit/config.toml``)."""
    return int(st.get_option("server.maxUploadSize"))


def limit_note() -> str:
    """One sentence naming the limit and how to raise it.

    >>> "maxUploadSize" in limit_note()
    True
    """
    return (f"Up to {limit_mb():,} MB per file: a larger file shows in red with its size and is "
            f"not uploaded. {RAISE}")


def note() -> None:
    """Draw :func:`limit_note` (under an uploader)."""
    st.caption(limit_note())


def over_limit(files: Sequence[tuple[str, int]], *, what: str = "a corpus",
               hint: str = "") -> str | None:
    """Why the ``(name, size in bytes)`` files of one corpus are refused before they are read:
    one of them, or all of them together, is over the upload limit (Markdown, the names shown
    as they are); None when they are not.
    ``hint`` says how else a big file could come (said after a file too big on its own).

    >>> print(over_limit([("a.txt", 150 * 2**20), ("b.txt", 90 * 2**20)]))  # doctest: +ELLIPSIS
    Together, these 2 files are 240.0 MB, more than the 200 MB a corpus may have here. Load ...
    """
    limit = limit_mb() * 2**20
    for name, size in files:
        refused = over(f"{md_literal(name)} is", size, limit=limit, what=what)
        if refused:
            return " ".join(filter(None, [f"{refused}.", "Load a part of it.", hint, RAISE]))
    refused = over(f"Together, these {len(files)} files are", sum(size for _, size in files),
                   limit=limit, what=what)
    return refused and (f"{refused}. Load fewer at once (each file can be a corpus of its own). "
                        f"{RAISE}")
