"""The live part of the Train page: controls, progress, the merge log, the growth chart, the
sample passage re-segmented, the step tables and the replay slider.

Everything below the controls is a fragment: while playing, it reruns on a timer and each rerun
makes a batch of merges (the speed), so only that part of the page redraws, several times a
second, and the rest of the page stays usable.
"""

from __future__ import annotations

import html

import streamlit as st

from ..shared import charts, wording
from ..shared.tokens import (NOTATION_HELP, fitted_columns, readable_pair, readable_token,
                             tokens_html)
from . import results, runs, tables

SPEEDS = (1, 2, 5, 10, 20, 50, 100, 200, 500)
#: The merge log shows at most this many of the newest merges (the CSV download has them all).
LOG_ROWS = 1_000
# Widget keys. The speed and replay widgets get a fresh key per run (and the slider per newest
# step), so their defaults apply without writing widget values from code inside the fragment.
SPEED, REPLAY, SHOW_WS, TABLES = ("train_speed", "train_replay", "train_show_whitespace",
                                  "train_show_tables")
_CHIP = ("display:inline-block;padding:0 6px;margin:0 2px;border-radius:4px;"
         "font-family:monospace;background:{bg}")


def default_speed(run: runs.Run) -> int:
    return 1 if run.is_small() else 10


def begin(run: runs.Run) -> None:
    """Start playing a new run."""
    runs.set_playing(True)


def render() -> None:
    """Draw the current run (call only when there is one).

    The controls sit outside the fragment: a click on them reruns the whole page, which starts
    or stops the fragment's timer.
    """
    playing = runs.playing()
    _controls(runs.current(), playing)
    st.fragment(run_every=runs.TICK_SECONDS if playing else None)(_live)()


def _speed_key(run: runs.Run) -> str:
    return f"{SPEED}_{id(run)}"  # a key per run, so each run starts at its own default


def _live() -> None:
    run = runs.current()
    playing = runs.playing()
    if playing:
        run.advance(st.session_state.get(_speed_key(run)) or default_speed(run),
                    seconds=runs.BATCH_SECONDS)
        if run.done:
            runs.set_playing(False)
            st.rerun()  # the whole page: stop the timer
    _progress(run)
    k = _replay(run, playing)
    st.html(_headline(run, k))
    left, right = st.columns([2, 3], gap="medium")
    with left:
        _merge_log(run, k)
    with right:
        st.plotly_chart(charts.growth_figure(run.history(), step=k), key="train_growth",
                        config={"displayModeBar": False})
    _passage(run, k)
    _tables(run, k, playing)
    if run.done:
        results.render(run)


def _tables(run: runs.Run, k: int, playing: bool) -> None:
    if playing and not run.is_small():
        st.caption("The step tables of this big corpus appear when you pause.")
        return
    st.subheader("Step tables", anchor=False)
    words = len(run.trainer.word_counts)
    pieces = None if run.corpus.is_counts else run.settings["pretokenizer"]
    if words > runs.HUGE_CORPUS_WORDS and not st.toggle(
            f"Count the pairs of all {wording.count(words, pieces, distinct=True)} for this "
            "step (takes a while)", key=TABLES):
        return
    tables.render(run.tables(k), small=run.is_small(), pieces=wording.units(pieces))


def _play(on: bool) -> None:
    runs.set_playing(on)


def _step() -> None:
    runs.set_playing(False)
    runs.current().advance(1)


def _finish() -> None:
    runs.set_playing(False)
    run = runs.current()
    bar = st.progress(0.0, text="Making the remaining merges…")
    run.finish(lambda made, target: bar.progress(
        min(made / max(target, 1), 1.0), text=f"Making the remaining merges: {made:,} of "
                                              f"{target:,}…"))
    bar.empty()  # drawn from a callback, it would stay on top of the page


def _controls(run: runs.Run, playing: bool) -> None:
    """The play / pause, step and finish buttons and the speed (merges per update)."""
    c1, c2, c3, c4 = st.columns([1, 1, 1, 3], vertical_alignment="bottom")
    c1.button("Pause" if playing else "Play", on_click=_play, args=(not playing,),
              disabled=run.done,
              icon=":material/pause:" if playing else ":material/play_arrow:", type="primary",
              width="stretch", key="train_play")
    c2.button("Step", on_click=_step, disabled=run.done, icon=":material/skip_next:",
              width="stretch", key="train_step", help="Make one merge.")
    c3.button("Finish", on_click=_finish, disabled=run.done, icon=":material/fast_forward:",
              width="stretch", key="train_finish", help="Make all remaining merges at once.")
    c4.select_slider("Speed (merges per update)", SPEEDS, value=default_speed(run),
                     key=_speed_key(run))


def _progress(run: runs.Run) -> None:
    shown, target = run.shown, max(run.target, 1)
    stage = "SuperBPE stage 1 · " if run.superbpe else ""
    if run.done:
        reason = runs.STOP_REASONS[run.trainer.stop_reason]
        if run.superbpe and run.trainer.stop_reason == "vocab_size":
            reason = "the vocabulary reached the transition point; stage 2 follows below"
        text = f"{stage}Done after {shown:,} merges: {reason}."
    else:
        text = (f"{stage}Merge {shown:,} of {run.target:,} · vocabulary "
                f"{run.vocab_size(shown):,} tokens")
    st.progress(1.0 if run.done else min(shown / target, 1.0), text=text)
    if run.superbpe and run.done:
        _stage2(run)


def _stage2(run: runs.Run) -> None:
    """SuperBPE's stage 2 runs here, under its own bar, once stage 1 is done."""
    bar = st.progress(0.0, text="SuperBPE stage 2 · reading the corpus as superword pieces…")

    def report(phase: str, done: int, total: int) -> None:
        text = (f"SuperBPE stage 2 · reading the corpus as superword pieces: {done:,} of "
                f"{total:,}" if phase == "read" else
                f"SuperBPE stage 2 · Merge {done:,} of {total:,} (superwords)")
        bar.progress(min(done / max(total, 1), 1.0), text=text)

    try:
        run.run_stage2(report)
    except ValueError:  # the results below say why
        bar.progress(0.0, text="SuperBPE stage 2 cannot run with these settings.")
        return
    tok = run.result()
    made = len(tok.merges) - tok.config["stage1_merges"]
    bar.progress(1.0, text=f"SuperBPE stage 2 · Done after {made:,} superword merges.")


def _replay(run: runs.Run, playing: bool) -> int:
    """The step to show: the newest while playing, else the replay slider's."""
    if run.shown == 0:
        return 0
    # A new key whenever merges arrive, so the slider jumps to the newest state.
    k = st.slider("Replay: show the state after this many merges", 0, run.shown, run.shown,
                  key=f"{REPLAY}_{id(run)}_{run.shown}", disabled=playing,
                  help="Drag back to see the segmentation, the tables and the chart as of any "
                       "earlier merge.")
    return run.shown if playing else k


def _chip(text: str, bg: str = "#e8eefc") -> str:
    return f'<span style="{_CHIP.format(bg=bg)}">{html.escape(readable_token(text))}</span>'


def _headline(run: runs.Run, k: int) -> str:
    """One sentence about the step shown: the merge that made it, or the one to come."""
    if k == 0:
        nxt = run.steps[0] if run.steps else None
        text = "<b>Before any merge</b>: every word is split into base symbols."
        if nxt:
            text += (f" The first merge will join {_chip(nxt.left)} + {_chip(nxt.right)} "
                     f"({nxt.count:,} times).")
        return f"<div style='font-size:1.05rem'>{text}</div>"
    s = run.steps[k - 1]
    ties = ""
    if s.n_tied:
        named = ", ".join(f"{_chip(t.left)} + {_chip(t.right)}" for t in s.ties[:3])
        more = f" and {s.n_tied - min(3, len(s.ties))} more" if s.n_tied > 3 else ""
        ties = f" — it beat {named}{more} on the tie rule"
    return (f"<div style='font-size:1.05rem'><b>Merge {k:,}</b>: {_chip(s.left)} + "
            f"{_chip(s.right)} → {_chip(s.token, '#c9f2d9')} (id {s.token_id}), a pair seen "
            f"{s.count:,} times{ties}.</div>")


def _merge_log(run: runs.Run, k: int) -> None:
    st.markdown("**Merge log** (newest first)")
    log = run.merge_log(upto=k).iloc[::-1].head(LOG_ROWS)
    steps = [run.steps[rank - 1] for rank in log["rank"]]
    frame = log.assign(merge=[readable_pair(a, b) for a, b in zip(log.left, log.right)],
                       token=[readable_token(t) for t in log.token],
                       ties=[f"{s.n_tied}: " + ", ".join(readable_pair(t.left, t.right)
                                                         for t in s.ties) if s.n_tied else ""
                             for s in steps])
    st.dataframe(frame[["rank", "merge", "token", "count", "ties"]], hide_index=True,
                 height=min(38 + 35 * max(k, 1), 320),
                 column_config={"rank": st.column_config.NumberColumn("#", width="small"),
                                **fitted_columns(frame, "merge", "token",
                                                 labels={"token": "new token"}),
                                "ties": st.column_config.TextColumn(
                                    "tied pairs", help="How many pairs had the same count, and "
                                                       "which (up to 10)")})
    newest = f" (the newest {LOG_ROWS:,} shown)" if k > LOG_ROWS else ""
    st.caption(f"{k:,} merges{newest}; each line is left + right → new token, with the pair's "
               "count.")


def _passage(run: runs.Run, k: int) -> None:
    st.subheader("A passage, re-segmented at this step", anchor=False)
    tok = run.tokenizer()
    spans = tok.spans(run.passage, upto=k)
    show_ws = st.toggle("Show whitespace (· space, → tab, ↵ newline)", value=True, key=SHOW_WS,
                        help=NOTATION_HELP)
    st.html(tokens_html(spans, run.passage, show_whitespace=show_ws))
    n_bytes = len(run.passage.encode("utf-8"))
    st.caption(f"{len(spans):,} tokens for {len(run.passage):,} characters "
               f"({n_bytes / max(len(spans), 1):.2f} bytes per token). Each box is one token; "
               "hover it for its id and bytes.")
