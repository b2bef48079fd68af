"""A regex of a tokenizer's file (a Split pre-tokenizer, a normalizer's or a decoder's Replace)
runs within a time limit (``bpe_core.presets.needs_limit``); past it, encoding stops with a
``bpe_core.PatternError`` saying which pattern took too long and how to fix it. A worker's job
then fails and ``background.outcome`` shows why; where a page encodes inline, :func:`attempt`
shows the same sentence and the page goes on drawing the rest::

    spans = attempt(tok.spans, text)  # None once the sentence is shown
"""

from __future__ import annotations

from typing import Any, Callable, TypeVar

import streamlit as st

from bpe_core import PatternError

from .tokens import md_escape

T = TypeVar("T")


def sentence(exc: PatternError) -> str:
    r"""The error as Markdown that shows its text as it is (a pattern holds ``*``, ``$``...),
    with a capital letter to begin.

    >>> print(sentence(PatternError("the regex '(a+)+$' took too long")))
    The regex '\(a\+\)\+\$' took too long
    """
    text = str(exc)
    return md_escape(text[:1].upper() + text[1:])


def show(exc: PatternError) -> str:
    """Show the sentence saying why a tokenizer's regex stopped, where the page is drawing;
    that sentence (for the places that say it again, such as a comparison's column)."""
    said = sentence(exc)
    st.error(said, icon=":material/error:")
    return said


def attempt(fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T | None:
    """``fn(*args, **kwargs)``, or None when a tokenizer's regex stopped it: the sentence saying
    why is then shown where the call is drawn."""
    try:
        return fn(*args, **kwargs)
    except PatternError as exc:
        show(exc)
        return None
