"""Byte-pair compression (Gage 1994) on the Train page: the ancestor of BPE, step by step."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.analysis.compress import Compression, compress, decompress, symbol_names
from bpe_core.analysis.compress import render as show

from ..shared import metrics, wording
from ..shared.columns import fitted_columns
from ..shared.state import SessionCorpus
from ..shared.tokens import md_escape, readable_token

TEXT = "train_gage_text"
TEXT_FOR = TEXT + "_for"  # the digest of the corpus the text was given for
#: Longer inputs are cut to this many bytes: each round recounts every pair.
MAX_BYTES = 50_000
#: Inputs up to this many bytes get the rewriting shown line by line.
STEPS_BYTES = 200
CLASSIC = "aaabdaaabac"


@st.cache_data(max_entries=8, show_spinner="Compressing…")
def _compress(data: bytes) -> Compression:
    return compress(data)


def default_text(corpus: SessionCorpus) -> str:
    """The corpus itself when it is short, else Gage's classic example."""
    text = corpus.text.strip()
    return text if 0 < len(text.encode("utf-8")) <= 2_000 else CLASSIC


def render(corpus: SessionCorpus) -> None:
    st.markdown(
        "Philip Gage's 1994 compressor is where BPE comes from: find the most frequent pair of "
        "adjacent bytes, replace it everywhere by a byte value the data does not use, write the "
        "replacement in a table, and repeat while some pair occurs at least twice and a byte "
        "value is unused. (Gage's own code waits for three occurrences: a pair replaced twice "
        "saves two bytes, what its table entry costs.) Tokenizers keep the idea but never run "
        "out of symbols: each merge adds a new token instead.")
    ss = st.session_state
    if ss.get(TEXT_FOR) != corpus.digest:
        ss[TEXT], ss[TEXT_FOR] = default_text(corpus), corpus.digest
    text = st.text_area("Text to compress (as UTF-8 bytes)", key=TEXT, height=100,
                        persist_state="session")
    data = text.encode("utf-8")
    if not data:
        st.info(f"Type some text to compress, for example {CLASSIC}.")
        return
    if len(data) > MAX_BYTES:
        st.warning(f"The text has {len(data):,} bytes; only the first {MAX_BYTES:,} are "
                   "compressed here, because every round recounts every pair.")
        data = data[:MAX_BYTES]
    result = _compress(data)
    names = symbol_names(result)
    cards = metrics.row()
    metrics.count(cards, "Original (bytes)", len(data))
    metrics.count(cards, "Compressed data (bytes)", len(result.data))
    cards.metric("Ratio", f"{result.ratio:.3g}", help="Compressed size / original size; lower "
                                                     "is better. The table is not counted.")
    metrics.count(cards, "Table entries", len(result.table))
    if not result.table:
        st.info("No pair of bytes occurs twice, so there is nothing to replace.")
        return
    if result.repeated:  # (a long text: the symbols ran out before the repeated pairs did)
        pair, count = result.repeated
        st.info(md_escape(
            f"It stopped with pairs still repeated ({_shown(bytes(pair), names)} occurs "
            f"{wording.times(count)}): all 256 byte values are in use, the text's own "
            f"{len(set(data))} and {len(result.table)} new symbols, so none is left to stand "
            f"for another pair."))
    # The table travels with the data: at two bytes a pair at least (Gage's own file also says
    # which byte values are codes), a short text often saves less than its table costs.
    whole = len(result.data) + 2 * len(result.table)
    metrics.count(cards, "With the table (bytes)", whole,
                  help="The compressed data and its table, at two bytes a pair (Gage's file "
                       "format also marks which byte values are codes: a little more).")
    if whole >= len(data):
        st.info(f"With its table, at two bytes a pair, the result takes {whole:,} bytes, no "
                f"fewer than the input's {len(data):,}: the pairs saved no more than the table "
                "costs. Byte-pair compression pays on longer texts, where each pair repeats "
                "many times.")
    if len(data) <= STEPS_BYTES:
        st.markdown("**Step by step**")
        st.code(steps_text(data, result, names), language=None, wrap_lines=True)
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown("**The replacement table**")
        table = _table(result, names)
        st.dataframe(table, hide_index=True, height=min(36 + 35 * len(result.table), 420),
                     column_config=fitted_columns(table, "stands for", "expands to"))
        st.caption("Each new symbol stands for a pair, which may hold earlier symbols: expanding "
                   "the table from the last entry back gives the original bytes. Counts include "
                   "overlapping pairs (aaa holds aa twice). Of pairs with the same count, the "
                   "one of the smallest byte values is replaced first, so a new symbol (FF, FE, "
                   "…) comes after the text's own bytes.")
    with right:
        st.markdown("**Compressed data**")
        st.code(_shown(result.data, names), language=None, wrap_lines=True)
        back = decompress(result.data, result.table) == data
        st.caption(("✓ Decompressing it with the table gives back the input exactly."
                    if back else "✗ Decompressing did not give back the input.")
                   + " The data alone cannot be expanded: the table must travel with it.")


def steps_text(data: bytes, result: Compression, names: dict[int, str]) -> str:
    """The rewriting, one line per replacement, with the replacement it made.

    >>> r = compress(b"aaabdaaabac")
    >>> print(steps_text(b"aaabdaaabac", r, symbol_names(r)))
    aaabdaaabac
    ZabdZabac      Z = aa
    ZYdZYac        Y = ab
    XdXac          X = ZY
    """
    lines = [_shown(data, {})] + [_shown(s, names) for s in result.steps]
    width = max(len(line) for line in lines) + 4
    notes = [""] + [f"{names[r.symbol]} = {_shown(bytes(r.pair), names)}" for r in result.table]
    return "\n".join((line.ljust(width) + note).rstrip() for line, note in zip(lines, notes))


def _shown(data: bytes, names: dict[int, str]) -> str:
    """Bytes as Gage's page shows them: symbols by name, other bytes in the notation of every
    page (a space ·, a newline ↵, a byte that is no character alone in hex).

    >>> _shown(b"\\xffa b\\n\\xe9", {255: "Z"})
    'Za·b↵<E9>'
    """
    return readable_token(show(data, names))


def _table(result: Compression, names: dict[int, str]) -> pd.DataFrame:
    rows = []
    for i, r in enumerate(result.table):
        expanded = decompress(bytes([r.symbol]), result.table[:i + 1])
        rows.append({"symbol": names[r.symbol], "byte": f"{r.symbol:02X}",
                     "stands for": _shown(bytes(r.pair), names),
                     "expands to": _shown(expanded, {}),
                     "count": r.count})
    return pd.DataFrame(rows)
