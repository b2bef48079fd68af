"""The Vocabulary page's kit: the summary, the search, one token's story, writing systems,
longest tokens, charts and byte tokens (the comparison of two is ``ui.vocabulary.compare``).

The table they draw from is built once per tokenizer and corpus (``ui.vocabulary.tables``);
each rerun only filters it with pandas. The data side is ``ui.vocabulary.data``.
"""

from __future__ import annotations

import re
from functools import partial

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from bpe_core import Merge, Tokenizer
from bpe_core.analysis.vocabulary import VocabularySearchError, built_from

from ..shared import background, metrics
from ..shared.annotate import how_made, inline_code, md_literal
from ..shared.merge_tree import caption, recipe, tree_dot, why_no_tree
from ..shared.state import SessionCorpus
from ..shared.charts import chart_config, file_name, titled
from ..shared.columns import PAGE_PX, PICK_PX, fit_columns
from ..shared.tokens import NOTATION_HELP, md_escape
from ..shared.wording import SYSTEM_RULE, plural
from .data import (allocation_figure, byte_fallback_tokens, count_figure, counts_known,
                   default_token, frequencies_known, length_figure, longest, orders,
                   script_options, select, systems_table)
from . import export
from .tables import FREQUENCY_JOB

#: Rows the table sends to the browser at most: a model's 262,000 tokens are some 30 MB on
#: every rerun, and nobody scrolls through them; the search, filters and order reach the rest.
MAX_ROWS = 10_000
ROW_PX = 35  # the height of a row of st.dataframe's grid
#: The Writing systems tab: its table and chart side by side, the table's share as wide as it
#: needs in a 1280-px window (438 px: a writing system's name and five counts).
SYSTEMS, SYSTEMS_PX = (11, 9), 438
TOKEN_KEY = "vocab_token"  # the selected token's id (the number input's key)
TABLE_KEY = "vocab_table"
TAB_KEY = "vocab_tab"
#: Widgets keep their values while their tab is closed and while the user is on other pages.
KEEP = {"persist_state": "session"}
#: The page's tabs. Only the open one is drawn (tabs rerun on change), so a 200k-token
#: vocabulary costs one table or chart set per run.
TABS = (":material/search: Browse", ":material/translate: Writing systems",
        ":material/straighten: Longest tokens", ":material/bar_chart: Charts",
        ":material/broken_image: Byte tokens", ":material/compare_arrows: Compare two tokenizers")

_NUM = st.column_config.NumberColumn
_TEXT = st.column_config.TextColumn
COLUMNS = {
    "id": _NUM("id", width="small", format="%d"),
    "shown": _TEXT("token", help=NOTATION_HELP),
    "hex": _TEXT("bytes (hex)"),
    "n_bytes": _NUM("bytes", width="small", help="Length in bytes"),
    "chars": _NUM("chars", width="small", help="Length in characters (empty: not valid UTF-8)"),
    "kind": _TEXT("kind", width="small"),
    "rank": _NUM("rank", format="%d", help="The merge's rank: the order it was learned in (0 = "
                                           "first); empty for base symbols and special tokens"),
    "count": _NUM("pair count", format="localized",
                  help="How often the pair occurred in training when it was merged"),
    "frequency": _NUM("frequency", format="localized",
                      help="Occurrences when the active corpus is encoded"),
    "script": _TEXT("writing system", help="The Unicode script of most of its letters (spaces, "
                    "digits and punctuation aside); else digits, punctuation & symbols or "
                    "whitespace; partial UTF-8: part of a character; byte fallback: <0xNN>"),
}


# --- cached charts --------------------------------------------------------------------------


@st.cache_data(show_spinner="Drawing the charts…", max_entries=8)
def _figures(key: str, name: str, unit: str, _df: pd.DataFrame) -> tuple[go.Figure, go.Figure]:
    """The length and count charts of a vocabulary, titled with the tokenizer's ``name``;
    neither depends on the corpus, so ``key`` is the tokenizer's fingerprint alone."""
    return (titled(length_figure(_df, unit), f"Token lengths in {unit} of {name}"),
            titled(count_figure(_df), f"Pair count when learned against merge rank of {name}"))


@st.cache_data(show_spinner="Counting writing systems…", max_entries=8)
def _systems(key: str, name: str, log: bool, _df: pd.DataFrame) -> tuple[pd.DataFrame, go.Figure]:
    """Tokens per writing system, as a table and a chart titled with ``name``."""
    table = systems_table(_df)
    return table, titled(allocation_figure(table, log=log),
                         f"Vocabulary of {name} by writing system",
                         share=SYSTEMS[1] / sum(SYSTEMS))


# --- summary --------------------------------------------------------------------------------


def render_summary(tok: Tokenizer, df: pd.DataFrame, corpus: SessionCorpus) -> None:
    cards = metrics.row()
    unused = tok.vocab_size - len(df)
    metrics.count(cards, "Tokens", len(df), help=(
        f"The ids run from 0 to {tok.vocab_size - 1:,}, but {unused:,} of them "
        f"{'names' if unused == 1 else 'name'} no token "
        f"(tiktoken's n_vocab counts them; Hugging Face's get_vocab_size does not)")
        if unused else None)
    kinds = df["kind"].value_counts()
    base = int(kinds.reindex(["byte", "char", "unk", "eow"]).fillna(0).sum())
    metrics.count(cards, "Base symbols", base, help="Bytes or characters (byte fallback's "
                  "<0xNN> too), plus [UNK] or </w> where the tokenizer has them")
    made = len(tok.view.made_by)
    metrics.count(cards, "Merges learned", len(tok.merges), help=(
        f"They make {plural(made, 'token')}: the file lists several merges for some tokens, "
        "each a way to split it (a file converted from SentencePiece or tiktoken lists every "
        "split its merges allow)") if made < len(tok.merges) else None)
    added = int(kinds.get("added", 0))
    if added:
        cards.metric("Special + added", f"{int(kinds.get('special', 0)):,} + {added:,}",
                     help="Special tokens (markers such as <s>) and other added tokens: both "
                          "are found whole in the text before BPE runs")
    else:
        cards.metric("Special tokens", f"{int(kinds.get('special', 0)):,}")
    metrics.count(cards, "Not valid UTF-8", int((~df['utf8']).sum()),
                  help="Tokens holding part of a character; see the “Byte tokens” tab")
    unused = f"Tokens that never occur when “{md_literal(corpus.name)}” is encoded"
    if frequencies_known(df):
        metrics.count(cards, "Unused in corpus", int((df["frequency"] == 0).sum()), help=unused)
    else:
        cards.metric("Unused in corpus", "…", help=f"{unused}: {_not_yet()}.")


def _not_yet() -> str:
    """Why the frequencies are missing: a worker counts them, or its count stopped (said above,
    with a button to start it again)."""
    return "being counted" if background.pending(FREQUENCY_JOB) else "not counted (see above)"


# --- browsing -------------------------------------------------------------------------------


def _columns(df: pd.DataFrame, names) -> list[str]:
    """``names`` without the count column when the tokenizer recorded no counts (a file)."""
    return [c for c in names if c != "count" or counts_known(df)]


def _pick_row(ids: list[int]) -> None:
    """Table selection callback: make the clicked row's token the selected one."""
    rows = st.session_state[TABLE_KEY].selection.rows
    if rows:
        st.session_state[TOKEN_KEY] = ids[rows[0]]


#: How files spell a space or a newline inside a token (GPT-2's byte characters, SentencePiece's
#: marker), which the table shows as text: a search spelled so finds nothing.
_FILE_SPELLING = frozenset("ĠĊ▁")
#: A byte-fallback token as Llama's, Mistral's and Gemma's files write it.
_FALLBACK_SPELLING = re.compile(r"<0x[0-9A-Fa-f]{2}>")
FILE_SPELLING_HINT = ("Tokens are searched as the text they stand for, as the table shows them: "
                      "where a file writes `Ġthe` or `▁the`, search for ` the` or `·the` (a "
                      "newline, `Ċ` in GPT-2's files, is `↵`; a byte-fallback token, `<0x0A>` "
                      "in Llama's, is the byte it stands for: `↵`, or `<E4>` for part of a "
                      "character).")


def render_browser(tok: Tokenizer, df: pd.DataFrame) -> None:
    """Search, filter and sort the table; clicking a row shows that token below."""
    left, right = st.columns([3, 2])
    query = left.text_input(
        "Search tokens", key="vocab_query", **KEEP,
        placeholder="e.g. ing, ·the, or ^\\p{Han} as a regex",
        help="Finds tokens containing the text. A leading space can be typed as a space or as ·.")
    # (wrap: in a column the chosen chips would stay on one line, the last ones out of sight)
    scripts = right.multiselect("Writing system", script_options(df), key="vocab_scripts",
                                **KEEP, placeholder="All writing systems", wrap=True)
    a, b, c = st.columns([1, 1, 2])
    use_regex = a.toggle("Regular expression", key="vocab_regex", **KEEP)
    ignore_case = b.toggle("Ignore case", key="vocab_case", **KEEP)
    offered = orders(df)
    if st.session_state.get("vocab_order") not in offered:  # kept from a tokenizer with counts
        st.session_state.vocab_order = offered[0]
    order = c.selectbox("Order", offered, key="vocab_order", **KEEP,
                        label_visibility="collapsed", format_func=lambda o: f"Order: {o}")
    try:
        view = select(df, query=query, use_regex=use_regex, ignore_case=ignore_case,
                      scripts=scripts, order=order)
    except VocabularySearchError as exc:
        st.error(md_literal(str(exc)))  # it quotes the query: '**x**(' is no bold x
        return
    if view.empty and not use_regex and (_FILE_SPELLING.intersection(query)
                                         or _FALLBACK_SPELLING.search(query)):
        st.info(FILE_SPELLING_HINT)
    listed = view.head(MAX_ROWS)
    if len(view) > MAX_ROWS:  # the grid sorts what it holds: a header would rank these alone
        more = (f"; the table lists the first {MAX_ROWS:,} in this order (search, filter or "
                "change the order to reach the others). Clicking a column header sorts only "
                f"these {MAX_ROWS:,}; the Order menu sorts all {len(view):,}. Click a row")
    else:
        more = ". Click a column header to sort, a row"
    st.caption(f"{len(view):,} of {len(df):,} tokens{more} to see how that token was built.")
    # Lengths in characters aside (Longest tokens lists them): all ten columns are too wide.
    ids, order = listed["id"].tolist(), _columns(df, [c for c in COLUMNS if c != "chars"])
    st.dataframe(listed, hide_index=True, height=420, column_order=order,
                 column_config=fit_columns(listed, COLUMNS, room=PAGE_PX - PICK_PX, order=order),
                 key=TABLE_KEY, on_select=partial(_pick_row, ids), selection_mode="single-row",
                 placeholder="—")
    _downloads(tok, view)


def _downloads(tok: Tokenizer, view: pd.DataFrame) -> None:
    """Every token the search finds (the table lists the first MAX_ROWS), made when clicked:
    the grid's own CSV holds only the rows listed, and spreadsheets ran its '==' as formulas."""
    def rows() -> pd.DataFrame:
        return export.downloaded(tok, view)

    stem, what = file_name(f"Vocabulary of {tok.name}"), plural(len(view), "token")
    common = dict(on_click="ignore", icon=":material/download:", width="stretch",
                  disabled=view.empty)
    left, right = st.columns(2)
    left.download_button(f"Download CSV ({what})", lambda: export.as_csv(rows()),
                         f"{stem}.csv", mime="text/csv", key="vocab_download_csv",
                         help=export.CSV_HELP, **common)
    right.download_button(f"Download JSON ({what})", lambda: export.as_json(rows()),
                          f"{stem}.json", mime="application/json", key="vocab_download_json",
                          help=export.JSON_HELP, **common)


def render_browse(tok: Tokenizer, df: pd.DataFrame) -> None:
    """The Browse tab: the table, then the selected token up close."""
    render_browser(tok, df)
    render_token(tok, df)


# --- one token ------------------------------------------------------------------------------


def render_token(tok: Tokenizer, df: pd.DataFrame) -> None:
    """The selected token: facts, its merge tree, and the tokens built from it."""
    ids = set(df["id"])
    if st.session_state.get(TOKEN_KEY) not in ids:  # first visit, or another tokenizer
        st.session_state[TOKEN_KEY] = default_token(tok)
    st.header("A token up close")
    token_id = st.number_input("Token id", min_value=0, max_value=int(df["id"].max()), step=1,
                               key=TOKEN_KEY, **KEEP, width=240,
                               help="Or click a row of the table above.")
    if token_id not in ids:
        st.warning(f"There is no token {token_id} in this vocabulary; its special tokens leave "
                   "gaps between ids.")
        return
    row = df.loc[df["id"] == token_id].iloc[0]
    rank = f" · {md_escape(how_made(tok, token_id))}"  # ('**b' + '**' was bold)
    if pd.notna(row["count"]):
        rank += f", pair seen {row['count']:,}× when learned"
    elif pd.notna(row["rank"]):  # a file made elsewhere: the order of merges, not their counts
        rank += ", pair count when learned unknown (the file records none)"
    st.markdown(f"### {inline_code(row['shown'])}")
    seen = (plural(int(row["frequency"]), "occurrence") if pd.notna(row["frequency"])
            else f"occurrences {_not_yet()}")
    st.caption(f"id {token_id} · bytes {row['hex'] or '—'} · script {row['script']}{rank} · "
               f"{seen} in the active corpus")
    shown = df.set_index("id")["shown"]
    tree_col, uses_col = st.columns(2)
    with tree_col:
        _merge_tree(tok, token_id, shown)
    with uses_col:
        _built_from(tok, token_id, shown)


def _merges_frame(merges: list[Merge], shown: pd.Series) -> pd.DataFrame:
    """Merges as a table of readable tokens (looked up in the table, not rebuilt); the count
    column only when the tokenizer recorded counts."""
    df = pd.DataFrame({
        "rank": [m.rank for m in merges], "id": [m.token_id for m in merges],
        "token": shown.loc[[m.token_id for m in merges]].to_list(),
        "left": shown.loc[[m.left_id for m in merges]].to_list(),
        "right": shown.loc[[m.right_id for m in merges]].to_list(),
        "count": [m.count for m in merges]})
    return df if df["count"].any() else df.drop(columns="count")


def _merge_tree(tok: Tokenizer, token_id: int, shown: pd.Series) -> None:
    st.markdown("**How it was built**")
    tree = tok.merge_tree(token_id)
    if tree.rank is None:
        st.caption(md_escape(why_no_tree(tok, token_id)))
        return
    steps = recipe(tree)
    st.caption(md_escape(caption(tok, token_id, tree)))
    st.graphviz_chart(tree_dot(tree))
    with st.expander(f"The {len(steps)} merge{'s' * (len(steps) != 1)} in training order"):
        st.dataframe(_merges_frame([tok.merges[s.rank] for s in steps], shown), hide_index=True)


def _built_from(tok: Tokenizer, token_id: int, shown: pd.Series) -> None:
    st.markdown("**Tokens built from it**")
    recursive = st.toggle("Follow recursively", key="vocab_recursive", **KEEP,
                          help="Off: merges that use it directly as their left or right part. "
                               "On: also the merges that use the tokens those make, and so on.")
    merges = built_from(tok, token_id, recursive=recursive)
    # Tokens, not merges: a file converted from SentencePiece lists several merges for a token
    # (Llama 2: 18,450 merges build 8,609 tokens from 'a').
    made = len({m.token_id for m in merges})
    how = ("directly or through the tokens built from it" if recursive else
           f"directly, as the left or right part of {'its' if made == 1 else 'their'} merge")
    listed = (f" ({len(merges):,} merges: the file lists several for some of them)"
              if made < len(merges) else "")
    if not made:  # ('0 tokens use it directly, as the left or right part of their merge')
        st.caption(f"No merge uses {inline_code(shown[token_id])} as its left or right part.")
    else:
        st.caption(f"{plural(made, 'token')} {'uses' if made == 1 else 'use'} "
                   f"{inline_code(shown[token_id])} {how}{listed}.")
    if merges:
        # As tall as its rows, up to 8: one merge in a 300-px grid had 7 empty rows under it.
        st.dataframe(_merges_frame(merges, shown), hide_index=True,
                     height=min(ROW_PX * (len(merges) + 1) + 3, 300))


# --- charts and fragments -------------------------------------------------------------------


def render_systems(tok: Tokenizer, df: pd.DataFrame) -> None:
    """How many tokens the vocabulary spends on each writing system: a table and a chart."""
    log = st.toggle("Log scale", key="vocab_scripts_log", **KEEP,
                    help="Shows a writing system with a few tokens beside one with thousands.")
    table, figure = _systems(tok.fingerprint(), tok.name, log, df)
    left, right = st.columns(SYSTEMS)  # (the chart's title is wrapped for its share)
    # As tall as the chart beside it (up to every row), so the two read row for bar.
    height = min(ROW_PX * (len(table) + 1) + 3, max(figure.layout.height, 8 * ROW_PX))
    config = {"tokens": _NUM("tokens", format="localized"),
              # Per cent to three significant digits: a script of 6 tokens in 128,256 reads
              # 0.00468 %, where the "percent" format rounded it to 0 %.
              "share": _NUM("share", format="%.3g %%",
                            help="Of the whole vocabulary, in per cent"),
              "base": _NUM("base", format="localized", help="Bytes or characters no merge makes"),
              "learned": _NUM("learned", format="localized", help="Made by a merge"),
              "added": _NUM("added", format="localized", help="Special and added tokens")}
    left.dataframe(table, hide_index=True, key="vocab_systems_table", height=height,
                   column_config=fit_columns(table, config, room=SYSTEMS_PX))
    right.plotly_chart(figure, key="vocab_scripts_chart", config=chart_config(figure))
    st.caption(f"{SYSTEM_RULE} In the chart, pale: base symbols, solid: learned, hatched: added.")


def render_longest(tok: Tokenizer, df: pd.DataFrame) -> None:
    """The longest tokens, in characters or bytes, of every writing system or of some."""
    left, middle, right = st.columns([1, 1, 2])
    unit = left.segmented_control("Length in", ["characters", "bytes"], default="characters",
                                  required=True, key="vocab_longest_unit", **KEEP)
    n = middle.number_input("How many", min_value=1, max_value=1000, value=50, step=10,
                            key="vocab_longest_n", **KEEP)
    systems = right.multiselect("Writing system", script_options(df), key="vocab_longest_systems",
                                **KEEP, placeholder="All writing systems", wrap=True)
    rows = longest(df, n=int(n), unit=unit, systems=systems)
    if rows.empty:
        st.info("No token to list: special and added tokens are left out, and pieces of a "
                "character (partial UTF-8, byte fallback) have a length in bytes only.")
        return
    listed = "longest token" if len(rows) == 1 else f"{len(rows):,} longest tokens"
    st.caption(f"The {listed} in {unit}, learned or base (special and added tokens left out: "
               "they are written by hand). Longest first, then by id.")
    order = _columns(df, ["id", "shown", "chars", "n_bytes", "script", "kind", "rank", "count",
                          "frequency"])
    st.dataframe(rows, hide_index=True, height=420, placeholder="—", key="vocab_longest_table",
                 column_config=fit_columns(rows, COLUMNS, room=PAGE_PX, order=order),
                 column_order=order)


def render_charts(tok: Tokenizer, df: pd.DataFrame) -> None:
    unit = st.segmented_control("Token length in", ["bytes", "characters"], default="bytes",
                                required=True, key="vocab_length_unit", **KEEP)
    lengths, counts = _figures(tok.fingerprint(), tok.name, unit, df)
    st.plotly_chart(lengths, key="vocab_lengths", config=chart_config(lengths))
    if not counts_known(df):
        st.info("No chart of counts when learned: this tokenizer's file records the order of "
                "its merges but not how often each pair occurred in training (tokenizer.json "
                "and .tiktoken files keep no counts).", icon=":material/visibility_off:")
        return
    st.plotly_chart(counts, key="vocab_counts", config=chart_config(counts))
    st.caption(counts_note(tok))


def counts_note(tok: Tokenizer) -> str:
    """What the chart of counts when learned shows: falling counts, in each stage of SuperBPE,
    whose stage 2 counts its bigger pieces afresh and starts high again."""
    note = ("Each merge joins the most frequent pair left, so counts fall with rank: late "
            "merges serve rarer and rarer text.")
    if tok.config.get("method") != "superbpe":
        return note
    first = tok.config["stage1_merges"]
    return (f"{note.removesuffix('.')}, in each stage of SuperBPE. Stage 2, from rank {first:,} "
            "on, counts the pairs of its superword pieces afresh, so its counts start high "
            "again.")


def render_bytes(tok: Tokenizer, df: pd.DataFrame) -> None:
    """Byte-fallback tokens (or why there are none), then tokens that are part of a character."""
    st.markdown("**Byte fallback**")
    fallback = byte_fallback_tokens(df)
    if not fallback.empty:
        missing = sorted(set(range(256)) - {bytes.fromhex(h)[0] for h in fallback["hex"]})
        lacking = (f" It lacks {len(missing)}: "
                   + ", ".join(f"<0x{b:02X}>" for b in missing[:16])
                   + (" …" if len(missing) > 16 else "") + "." if missing else "")
        st.caption(f"{plural(len(fallback), 'byte-fallback token')}, written <0x00> to <0xFF> in "
                   "the file: a character the vocabulary lacks is spelled as its UTF-8 bytes, one "
                   f"token each, instead of becoming unknown.{lacking}")
        listed = fallback.assign(raw=[tok.view.raw(i) for i in fallback["id"]])
        order = ["id", "raw", "shown", "hex", "frequency"]
        st.dataframe(listed, hide_index=True, height=280, placeholder="—",
                     key="vocab_fallback_table", column_order=order,
                     column_config=fit_columns(listed, {**COLUMNS, "raw": _TEXT("in the file")},
                                               room=PAGE_PX, order=order))
    elif tok.unit == "byte":
        st.caption("None, and none needed: this is byte-level BPE, so each of the 256 bytes is "
                   "a base token and any text can be spelled; no character is ever unknown.")
    else:
        st.caption("None: this model has no byte fallback, so a character its vocabulary lacks "
                   "becomes the unknown token (or is dropped when it has none).")
    st.markdown("**Partial UTF-8: pieces of a character**")
    fragments = select(df[~df["utf8"]], order="most frequent in the corpus")
    if fragments.empty:
        st.info("Every token here is valid UTF-8 on its own: the vocabulary never splits a "
                "character (typical of character-level BPE without byte fallback).")
        return
    one = len(fragments) == 1
    st.caption(f"{plural(len(fragments), 'token')} {'holds' if one else 'hold'} part of a "
               f"multi-byte character, so {'it means' if one else 'they mean'} nothing alone: "
               f"{'it decodes' if one else 'they decode'} only next to the tokens that complete "
               "the character "
               "(é is the bytes C3 A9; C3 alone is a fragment). "
               + ("Byte-level BPE has them by design. " if tok.unit == "byte" else
                  "Here they are byte-fallback tokens for the bytes 0x80 to 0xFF. ")
               + "Most frequent in the active corpus first.")
    order = _columns(df, ["id", "shown", "hex", "n_bytes", "kind", "rank", "count", "frequency"])
    st.dataframe(fragments, hide_index=True, height=360, placeholder="—", column_order=order,
                 column_config=fit_columns(fragments, COLUMNS, room=PAGE_PX, order=order))
