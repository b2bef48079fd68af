"""SuperBPE's stage 2 on the Train page: the superwords learned past the transition point, with
a slider that replays them on the passage one merge at a time."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import bpe_core
from bpe_core.training.superbpe import MAX_WORDS

from ..shared import wording
from ..shared.columns import fitted_columns
from ..shared.bidi import cell
from ..shared.tokens import md_escape, readable_pair, readable_token, tokens_html
from . import runs

TOP_ROWS = 200


def render(run: runs.Run, tok: bpe_core.Tokenizer) -> None:
    """Stage 2 of a finished SuperBPE run: its merges and the passage before and after."""
    n1 = tok.config["stage1_merges"]
    stage2 = tok.merges[n1:]
    st.header("SuperBPE stage 2: superwords", anchor=False)
    transition, reached = run.settings["transition"], tok.vocab_size - len(stage2)
    stage1 = (f"ran to the transition point ({wording.plural(transition, 'token')}, "
              f"{wording.plural(n1, 'merge')})" if reached >= transition else
              f"stopped at {wording.plural(reached, 'token')} ({wording.plural(n1, 'merge')}), "
              f"short of the transition point of {transition:,}")
    if not stage2:  # (a table, a slider and a passage of no superwords would teach nothing)
        why = ("the transition point is the vocabulary size, so the tokenizer is ordinary BPE; "
               "set a lower transition to learn superwords"
               if reached >= run.settings["vocab_size"] else
               "no pair of its pieces occurs often enough (see below)")
        st.markdown(f"Above, ordinary BPE {stage1}. Stage 2 made no merges: {why}.")
        return
    st.markdown(
        f"Above, ordinary BPE {stage1}. "
        "Stage 2 went on over bigger pieces, words joined by single spaces, and made "
        f"{wording.plural(len(stage2), 'more merge')}: tokens may now span up to "
        f"{MAX_WORDS} words, though never a colon and the space after it (the paper's limits).")
    left, right = st.columns([2, 3], gap="medium")
    with left:
        rows = stage2[:TOP_ROWS]
        frame = pd.DataFrame({"#": [m.rank + 1 for m in rows],
                              "merge": [cell(readable_pair(m.left, m.right)) for m in rows],
                              "new token": [cell(readable_token(m.token)) for m in rows],
                              "count": [m.count for m in rows]})
        st.dataframe(frame, hide_index=True, height=320,
                     column_config=fitted_columns(frame, "merge", "new token"))
        more = f" (the first {TOP_ROWS} of {len(stage2):,})" if len(stage2) > TOP_ROWS else ""
        st.caption(f"Stage 2's merges in the order made{more}.")
    with right:
        # Merges are ranked stage 1 first, so the first n1 + k merges are the tokenizer as
        # stage 2 had it after k merges (the key changes with the run: a new range).
        k = st.slider("Stage-2 merges used", 0, len(stage2), len(stage2),
                      key=f"superbpe_step::{tok.name}::{n1}::{len(stage2)}",
                      help="Replay stage 2 on the passage: 0 is the segmentation at the "
                           "transition point, the right end uses every superword merge.")
        if k:
            m = stage2[k - 1]
            st.caption(f"Stage-2 merge {k:,} of {len(stage2):,}: "
                       f"{md_escape(readable_pair(m.left, m.right))} → "
                       f"{md_escape(readable_token(m.token))} (seen {wording.times(m.count)}).")
        spans = tok.spans(run.passage, upto=n1 + k)
        st.html(tokens_html(spans, run.passage))
        report = bpe_core.stage_report(tok, run.passage)
        st.caption(f"The passage: {wording.plural(len(spans), 'token')} after "
                   f"{wording.plural(k, 'stage-2 merge')}; "
                   f"{report.stage1_tokens:,} at the transition point and {report.tokens:,} with "
                   f"all of stage 2 ({report.stage1_bytes_per_token:.2f} → "
                   f"{report.bytes_per_token:.2f} bytes per token).")
