"""The live part of the Train page: progress, the merge log, the growth chart, the sample
passage and the user's own sentence re-segmented, and the step tables, all as of the step on
show (the controls are in ``controls``).

Everything below the buttons is a fragment: while playing, it reruns on a timer and each rerun
makes a batch of merges (the speed), so only that part of the page redraws, several times a
second, and the rest of the page stays usable.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Callable

import pandas as pd
import streamlit as st

import bpe_core

from ..shared import background, charts, wording
from ..shared.bidi import cell
from ..shared.columns import PICK_PX, fit_columns, fitted_columns
from ..shared.tokens import NOTATION_HELP, md_escape, readable_pair, readable_token, tokens_html
from . import controls, results, runs, tables
from . import jobs as train_jobs

#: The merge log shows at most this many of the newest merges (the CSV download has them all).
LOG_ROWS = 1_000
#: Pixels the merge log has in a 1280-px window (half the page): its columns fit in it.
LOG_ROOM = 390
SHOW_WS, TABLES, SENTENCE = "train_show_whitespace", "train_show_tables", "train_sentence"
LOG = "train_merge_log"  # the merge log's selection: a row picked lists its merge's ties
TABLES_JOB = "train_tables_job"  # session key: (run and step, its job), see work.job_for
#: The user's sentence is re-segmented at every update while playing: it stays short.
SENTENCE_CHARS = 1_000
_CHIP = ("display:inline-block;padding:0 6px;margin:0 2px;border-radius:4px;"
         "font-family:monospace;background:{bg}")


def begin(run: runs.Run, *, at: int | None = None) -> None:
    """Show a new run: paused at step ``at`` when given (a reloaded page); else a small corpus
    (a textbook example) waits at merge 0 to be stepped through, and a big one plays, to watch
    its vocabulary grow."""
    if at is not None:
        run.goal = min(at, run.last)
    runs.set_playing(at is None and not run.is_small())


def render(*, on_step: Callable[[int], object]) -> None:
    """Draw the current run (call only when there is one); ``on_step(k)`` is told the step on
    show whenever the live part redraws."""
    run = runs.current()
    # Where a long step's bar shows: drawn on every run, so that the elements below keep their
    # places (a stale copy of the live part would show beside the new one while it redraws).
    slot = st.empty()
    if run.goal is not None and not runs.playing():  # a button asked for another step
        _drive(run, slot)
    controls.render(run)
    st.fragment(run_every=runs.TICK_SECONDS if runs.playing() else None)(_live)(
        controls.edges(run), on_step)


def _drive(run: runs.Run, slot) -> None:
    """Go to the step a button asked for. Work that takes a while (a first report comes after
    ``runs.REPORT_SECONDS``) shows a bar in ``slot`` that moves while the merges are made; a
    quick step shows none."""

    def report(made: int, goal: int) -> None:
        slot.progress(min(made / max(goal, 1), 1.0), text=f"Making merges: {made:,} of {goal:,}…")

    run.drive(progress=report)
    slot.empty()


def _live(drawn: tuple[bool, bool, bool], on_step: Callable[[int], object]) -> None:
    """The run as of the step on show; ``drawn`` is what the buttons above were drawn for."""
    run = runs.current()
    if runs.playing():
        run.goal = run.at + controls.speed(run)
        run.drive(seconds=runs.BATCH_SECONDS)
        if run.at_end:
            runs.set_playing(False)
    if controls.edges(run) != drawn:
        st.rerun()  # the whole page: the buttons change, or the timer stops
    on_step(run.at)
    _progress(run)
    k = run.at
    st.html(_headline(run, k))
    left, right = st.columns(2, gap="medium")
    with left:
        _merge_log(run, k)
    with right:
        figure = charts.titled(charts.growth_figure(run.history(), step=k),
                               f"{run.corpus.name} in tokens, merge by merge", share=1 / 2)
        # Room for its legend's title and a second row: this column can be 390 px wide.
        figure.layout.margin.t += 2 * charts.TITLE_LINE_PX
        st.plotly_chart(figure, key="train_growth", config={"displayModeBar": False})
    _passage(run, k)
    _tables(run, k, runs.playing())
    if run.done:
        results.render(run)


def _tables(run: runs.Run, k: int, playing: bool) -> None:
    background.replaced(TABLES_JOB, (id(run), k))  # another step's or run's count stops
    if playing and not run.is_small():
        st.caption("The step tables of this big corpus appear when you pause.")
        return
    st.header("Step tables", anchor=False)
    words = len(run.trainer.word_counts)
    pieces = None if run.corpus.is_counts else run.settings["pretokenizer"]
    if words <= runs.HUGE_CORPUS_WORDS:
        counted = run.tables(k)
    elif st.toggle(f"Count the pairs of all {wording.count(words, pieces, distinct=True)} for "
                   "this step (takes a while)", key=TABLES):
        counted = _counted_in_worker(run, k)
    else:  # switched off: a count under way stops, and switching on again starts anew
        background.forget(TABLES_JOB)
        return
    if counted is not None:
        tables.render(counted, small=run.is_small(), pieces=wording.units(pieces))


def _counted_in_worker(run: runs.Run, k: int):
    """The tables of step ``k`` of a corpus of many words (trained in a worker too), counted in
    a worker: None, with its progress drawn, until they are."""
    counted = run.counted_tables(k)
    if counted is None:
        counted = background.outcome(TABLES_JOB, (id(run), k), "step tables", train_jobs.tables,
                                     run.trainer, k, what=f"Counting the pairs of step {k:,}")
        if counted is not None:
            run.keep_tables(k, counted)
    return counted


def _progress(run: runs.Run) -> None:
    at = run.at
    stage = "SuperBPE stage 1 · " if run.superbpe else ""
    if run.at_end:
        reason = runs.STOP_REASONS[run.trainer.stop_reason]
        if run.superbpe and run.trainer.stop_reason == "vocab_size":
            reason = "the vocabulary reached the transition point; stage 2 follows below"
        elif at == 0 and run.trainer.stop_reason == "vocab_size":  # the base alphabet alone
            size = run.vocab_size(0)
            reason = (f"the vocabulary size {size:,} is the base alphabet alone; choose a "
                      f"vocabulary size of {size + 1:,} or more to make merges")
        text = f"{stage}Done after {at:,} merge{'' if at == 1 else 's'}: {reason}."
    else:
        text = (f"{stage}Merge {at:,} of {run.last:,} · vocabulary "
                f"{run.vocab_size(at):,} tokens")
    st.progress(min(at / max(run.last, 1), 1.0), text=text)
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
    bar.progress(1.0, text=f"SuperBPE stage 2 · Done after {made:,} superword "
                           f"merge{'' if made == 1 else 's'}.")


def _chip(text: str, bg: str = "#e8eefc") -> str:
    return f'<span style="{_CHIP.format(bg=bg)}">{html.escape(readable_token(text))}</span>'


def _headline(run: runs.Run, k: int) -> str:
    """One sentence about the step shown: the merge that made it, or the one to come."""
    if k == 0:
        nxt = run.steps[0] if run.steps else None
        text = (f"<b>Before any merge</b>: every word is split into base symbols. The vocabulary "
                f"holds {html.escape(base_symbols(run.tokenizer()))}.")
        if nxt:
            text += (f" The first merge will join {_chip(nxt.left)} + {_chip(nxt.right)} "
                     f"({wording.times(nxt.count)}).")
        return f"<div style='font-size:1.05rem'>{text}</div>"
    s = run.steps[k - 1]
    ties = ""
    lost = [t for t in s.ties if not t.refused]  # (a refused pair of its count is no rival)
    if lost:
        named = ", ".join(f"{_chip(t.left)} + {_chip(t.right)}" for t in lost[:3])
        more = s.n_tied - len(s.ties) + len(lost) - min(3, len(lost))
        ties = f" — it beat {named}{f' and {more} more' if more else ''} on the tie rule"
    made = s.freq_delta.get(s.token_id, s.count)
    # A run such as aaa holds the pair a + a twice, but is merged once, from the left.
    overlap = (f", merged at {wording.plural(made, 'place')} (overlapping pairs each count, as "
               f"a + a twice in aaa, but are merged from the left)" if made < s.count else "")
    return (f"<div style='font-size:1.05rem'><b>Merge {k:,}</b> (rank {k - 1:,}): "
            f"{_chip(s.left)} + "
            f"{_chip(s.right)} → {_chip(s.token, '#c9f2d9')} (id {s.token_id}), a pair seen "
            f"{wording.times(s.count)}{overlap}{ties}.</div>")


def base_symbols(tok: bpe_core.Tokenizer) -> str:
    """What the vocabulary starts with, by kind, so that its size adds up for a learner who
    counts the corpus's characters ([UNK] and </w> are tokens too).

    >>> base_symbols(bpe_core.train("low lower", unit="char", pretokenizer="end-of-word",
    ...                             max_merges=0))
    '7 base symbols: 5 characters of the corpus, </w> (ends each word) and [UNK] (any other \
character)'
    >>> base_symbols(bpe_core.train("hi", unit="byte", max_merges=0, special_tokens=["<s>"]))
    '256 base symbols: 256 bytes; and 1 special token'
    """
    kinds = Counter(tok.kind(i) for i in range(tok.n_base))
    parts = [kinds["char"] and f"{wording.plural(kinds['char'], 'character')} of the corpus",
             kinds["byte"] and f"{kinds['byte']} {'fallback ' * bool(kinds['char'])}bytes",
             kinds["eow"] and "</w> (ends each word)",
             kinds["unk"] and "[UNK] (any other character)"]
    *first, last = [p for p in parts if p]
    listed = f"{', '.join(first)} and {last}" if first else last
    special = train_jobs.unmerged(tok) - tok.n_base  # (a special [UNK] is the base's)
    more = f"; and {wording.plural(special, 'special token')}" if special else ""
    return f"{wording.plural(tok.n_base, 'base symbol')}: {listed}{more}"


def _merge_log(run: runs.Run, k: int) -> None:
    st.markdown("**Merge log** (newest first)")
    log = run.merge_log(upto=k).iloc[::-1].head(LOG_ROWS)
    steps = [run.steps[rank] for rank in log["rank"]]
    # The ties are counted here and listed below for the row picked: listed in the row, they
    # were cut at 1280 px after a pair or two ("6: n + e, e + w, w +"), in half the page.
    frame = log.assign(**{"#": log["merge"]},
                       merge=[cell(readable_pair(a, b)) for a, b in zip(log.left, log.right)],
                       token=[cell(readable_token(t)) for t in log.token],
                       ties=pd.array([s.n_tied or None for s in steps], dtype="Int64"))
    shown = ["#", "merge", "token", "count", "ties"]
    config = {"#": st.column_config.NumberColumn(help="The merge's number; its rank, the order "
                                                      "an encoder applies it in, is one less"),
              **fitted_columns(frame, "merge", "token", labels={"token": "new token"}),
              "ties": st.column_config.NumberColumn(
                  help="How many other pairs had the same count and lost on the tie rule (or "
                       "are never merged): tick the row's box to list them")}
    picked = st.dataframe(frame[shown], hide_index=True, height=min(38 + 35 * max(k, 1), 320),
                          column_config=fit_columns(frame, config, room=LOG_ROOM - PICK_PX,
                                                    order=shown),
                          placeholder="", key=LOG, on_select="rerun", selection_mode="single-row")
    newest = f" (the newest {LOG_ROWS:,} shown)" if k > LOG_ROWS else ""
    tied = " Tick a row's box to list the pairs it tied with." if log["tied_pairs"].any() else ""
    st.caption(f"{k:,} merge{'s' * (k != 1)}{newest}; each line is left + right → new token, "
               f"with the pair's count.{tied}")
    rows = [r for r in picked.selection.rows if r < len(steps)]  # (from a longer log before)
    if rows:
        st.markdown(ties_line(steps[rows[0]]))


def ties_line(s: bpe_core.MergeStep) -> str:
    """What the merge ``s`` won its tie against, as Markdown.

    >>> ties = (bpe_core.TiedPair("n", "e", 5, 3), bpe_core.TiedPair("e", "w", 3, 9))
    >>> print(ties_line(bpe_core.MergeStep(8, "low", "e", "lowe", 1, 12, 3, 20, ties=ties,
    ...                                    n_tied=2)))
    **Merge 9** (low \\+ e) won a tie: 2 other pairs also had its count, 1, and lost on the tie \
rule: n \\+ e, e \\+ w.

    A pair the run never merges is no rival: the line says why it was not merged.

    >>> ties = (bpe_core.TiedPair("<0x4a", ">", 267, 260, refused="byte_names"),)
    >>> print(ties_line(bpe_core.MergeStep(5, ">", "x", ">x", 2, 260, 262, 268, ties=ties,
    ...                                    n_tied=1)))
    **Merge 6** (\\> \\+ x) had no rival: 1 other pair also had its count, 2; never merged, \
whatever its count: \\<0x4a \\+ \\> (refused: would be spelled as a byte token).
    """
    merge = f"**Merge {s.rank + 1:,}** ({md_escape(readable_pair(s.left, s.right))})"
    if not s.n_tied:
        return f"{merge} had no tie: no other pair had its count, {s.count:,}."
    lost = [t for t in s.ties if not t.refused]
    refused = [t for t in s.ties if t.refused]
    more = s.n_tied - len(s.ties)
    how = "won a tie" if lost or more else "had no rival"
    return (f"{merge} {how}: {wording.plural(s.n_tied, 'other pair')} also had its count, "
            f"{s.count:,}" + (f", and lost on the tie rule: {_pairs(lost)}" if lost else "")
            + (f", and {more:,} more not recorded" if more else "")
            + (f"; never merged, whatever its count: {_pairs(refused, why=True)}"
               if refused else "") + ".")


def _pairs(ties: list[bpe_core.TiedPair], *, why: bool = False) -> str:
    """The pairs, listed; with ``why``, each with the note of its refusal."""
    return ", ".join(md_escape(readable_pair(t.left, t.right))
                     + (f" ({tables.REFUSAL_NOTES[t.refused]})" if why else "") for t in ties)


def _passage(run: runs.Run, k: int) -> None:
    """The corpus passage and the user's own sentence, each cut by the first ``k`` merges."""
    st.header("A passage, re-segmented at this step", anchor=False)
    show_ws = st.toggle("Show whitespace (· space, → tab, ↵ newline)", value=True, key=SHOW_WS,
                        help=NOTATION_HELP)
    tok = run.tokenizer()
    left, right = st.columns([3, 2], gap="large")
    with left:
        _segmented(tok, run.passage, k, show_ws)
    with right:
        text = st.text_area("Your own sentence", key=SENTENCE, height=90, max_chars=SENTENCE_CHARS,
                            persist_state="session", placeholder="Type a sentence to follow too",
                            help="Re-segmented at every step beside the passage: see when the "
                                 "merges start to fit your words.")
        if text:
            _segmented(tok, text, k, show_ws)


def _segmented(tok: bpe_core.Tokenizer, text: str, k: int, show_ws: bool) -> None:
    spans = tok.spans(text, upto=k)
    st.html(tokens_html(spans, text, show_whitespace=show_ws))
    st.caption(f"{wording.plural(len(spans), 'token')} for "
               f"{wording.plural(len(text), 'character')} "
               f"({per_token(spans, text)}). Each box is one token; hover it for its id and "
               "bytes.")


def per_token(spans: list[bpe_core.TokenSpan], text: str) -> str:
    """Bytes per token as the charts and the Result count them: the bytes of the characters
    the tokens cover, so without the whitespace a pre-tokenizer drops (which no token holds).

    >>> tok = bpe_core.train("low lower", unit="char", pretokenizer="end-of-word",
    ...                      max_merges=0, min_frequency=1)
    >>> per_token(tok.spans("low low"), "low low")  # l o w </w>, twice: 6 bytes, 8 tokens
    '0.75 bytes per token; the 1 space the pre-tokenizer drops is in no token'
    """
    covered = bytearray(len(text))
    for s in spans:
        covered[s.start:s.end] = b"\1" * (s.end - s.start)
    size = sum(len(c.encode("utf-8", "surrogatepass")) for c, k in zip(text, covered) if k)
    said = f"{size / max(len(spans), 1):.2f} bytes per token"
    dropped = [c for c, k in zip(text, covered) if not k]
    if dropped:
        what = ("space" if set(dropped) == {" "} else "whitespace character"
                if all(map(str.isspace, dropped)) else "character")
        said += (f"; the {wording.plural(len(dropped), what)} the pre-tokenizer drops "
                 f"{'is' if len(dropped) == 1 else 'are'} in no token")
    return said
