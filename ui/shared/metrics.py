"""Metric cards: rows of them that wrap, and counts in a compact figure that fits a narrow card
with the exact one on hover.

A card cuts a long figure short ("1,234,5…"); Streamlit's own compact format shows 1.2M instead,
and the card's help, shown on hovering its label, gives the exact count.

>>> exact_help(1_234_567, "Tokens in the corpus.")
'Tokens in the corpus. Exactly 1,234,567.'
>>> exact_help(42, None) is None
True
"""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

#: Below this a figure fits a card written out ("999,999"), so it is shown exactly; from it on
#: the card shows it compact ("1.2M") with the exact value on hover.
COMPACT_FROM = 1_000_000


def exact_help(n: int, help: str | None) -> str | None:
    """``help`` with the exact value of ``n`` added when the card may shorten it."""
    if n < COMPACT_FROM:
        return help
    return f"{help} Exactly {n:,}." if help else f"Exactly {n:,}."


def count(where: DeltaGenerator, label: str, n: int, *, help: str | None = None,
          **options) -> None:
    """A metric card for the count ``n`` in ``where`` (a column, say)."""
    n = int(n)
    if n < COMPACT_FROM:
        where.metric(label, f"{n:,}", help=help, **options)
    else:
        where.metric(label, n, format="compact", help=exact_help(n, help), **options)


def row() -> DeltaGenerator:
    """A row for metric cards (``cards = metrics.row(); cards.metric(...)``), each as wide as
    its label and figure or wider; cards that do not fit go on the next line. Columns of equal
    shares cut labels and figures short in a narrow window ("Distinct wo…", "227,…")."""
    return st.container(horizontal=True)
