"""The upload limit, named beside every place a file is uploaded.

Streamlit refuses a file over ``server.maxUploadSize`` in the browser, before sending it: the
file's name turns red with its size, and nothing says why. The limit and where to change it are
therefore said beside each uploader, before the user tries.
"""

from __future__ import annotations

import streamlit as st


def limit_mb() -> int:
    """The largest file, in MB, that the server accepts (``.streamlit/config.toml``)."""
    return int(st.get_option("server.maxUploadSize"))


def limit_note() -> str:
    """One sentence naming the limit and how to raise it.

    >>> "maxUploadSize" in limit_note()
    True
    """
    return (f"Up to {limit_mb():,} MB per file: a larger file shows in red with its size and is "
            "not uploaded. To allow more, raise `maxUploadSize` under `[server]` in "
            "`.streamlit/config.toml` and restart the app.")


def note() -> None:
    """Draw :func:`limit_note` (under an uploader)."""
    st.caption(limit_note())
