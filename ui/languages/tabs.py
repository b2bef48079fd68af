"""The Languages page's tabs, one function each: the premium bars, the heatmap of tokenizers
by languages, the premium per sentence, sentences side by side, the premium against vocabulary
size, the vocabulary each language uses, and the table.

Each takes the results table (``ui.languages.data.results_table``) and the control row's
:class:`~ui.languages.view.Choice`; widget keys start with ``lang_``.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from bpe_core.analysis import premium
from bpe_core.analysis.parallel import ParallelCorpus

from ..shared import spreadsheet
from ..shared.annotate import coloured_html
from ..shared.bidi import isolated
from ..shared.charts import chart_config
from ..shared.tokens import md_escape as md
from ..shared.wording import SYSTEM_RULE, WHITESPACE_WORDS, plural
from ..shared.slow_regex import attempt
from . import charts, data
from .view import Choice, fallback_kind, keep

TABS = [":material/bar_chart: Premium", ":material/grid_on: Tokenizers × languages",
        ":material/candlestick_chart: Per sentence", ":material/compare: Side by side",
        ":material/show_chart: Vocabulary size", ":material/category: Vocabulary use",
        ":material/table: Table"]
#: The open tab's key: only the open tab is drawn.
TAB_KEY = "lang_tab"
#: The shares of the page's width of the Vocabulary use tab's two charts.
USE_COLUMNS = (3 / 5, 2 / 5)
#: Tokens the Side by side tab draws of a sentence: a "sentence" may be a paragraph or a whole
#: file on one line, and 40,000 boxes (95,000 characters) took 10 s and 7.6 MB of HTML.
SIDE_TOKENS = 2_000


def _focus_rows(table: pd.DataFrame, choice: Choice) -> pd.DataFrame:
    return table[table.Tokenizer == choice.focus].sort_values("Premium", kind="stable")


def render(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    """The tabs, the open one drawn: only it (tabs rerun on change), since drawing all seven
    tabs' charts on every run cost a browser seconds, and the curve's tokenizers are trained
    for its tab alone."""
    drawers = (lambda: premium_tab(table, choice, source),
               lambda: heatmap_tab(table, choice, source),
               lambda: sentences_tab(choice, source, table),
               lambda: side_by_side_tab(choice, source, table),
               lambda: vocabulary_size_tab(choice, source),
               lambda: vocabulary_use_tab(choice, source),
               lambda: table_tab(table))
    for pane, draw in zip(st.tabs(TABS, key=TAB_KEY, on_change="rerun"), drawers):
        with pane:
            if pane.open:
                draw()


def _chart(where, figure, *, key: str) -> None:
    """Draw ``figure`` in ``where`` (``st`` or a column); its PNG is named after its title."""
    where.plotly_chart(figure, key=key, config=chart_config(figure))


def premium_tab(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    langs = dict(zip(source.codes, source.languages))
    base = source.language(choice.baseline).label
    n = len(choice.tokenizers)
    # Set again before the radio: its labels name the tokenizer in detail and how many there
    # are, and when they change Streamlit's radio showed no option chosen.
    keep("lang_bars_for", ["focus", "all"], "focus")
    if n > 1 and st.radio("Bars for", ["focus", "all"], horizontal=True, key="lang_bars_for",
                          persist_state="session",  # kept while the tab is closed
                          format_func=lambda o: md(choice.focus) if o == "focus"
                          else f"all {n} tokenizers") == "all":  # (its labels are Markdown)
        wide = _by_language(table, choice)
        _chart(st, charts.premium_groups(
            list(wide.index), langs, wide.to_dict(), baseline=base,
            title=f"Tokenization premium of {n} tokenizers (baseline {base})"),
            key="lang_bars_all")
        st.caption(f"Tokens each language needs with each tokenizer, divided by {md(base)}'s, for "
                   f"the same {plural(source.n_sentences, 'sentence')}; languages sorted by their "
                   "mean premium.")
        return
    rows = _focus_rows(table, choice)
    _chart(st, charts.premium_bars(
        list(rows.Code), langs, dict(zip(rows.Code, rows.Premium)), baseline=base,
        title=f"Tokenization premium with {choice.focus} (baseline {base})"), key="lang_bars")
    st.caption(f"Tokens each language needs with **{md(choice.focus)}**, divided by "
               f"{md(base)}'s, for the same {plural(source.n_sentences, 'sentence')}. Colours "
               "are scripts.")


def _by_language(table: pd.DataFrame, choice: Choice) -> pd.DataFrame:
    """The premiums with a row per language code, sorted by their mean over the tokenizers
    (ties in the corpus's order), and a column per tokenizer, in the order chosen."""
    # (dropna=False: a tokenizer with no premiums, its baseline spelled with no tokens, stays.)
    wide = table.pivot_table(index="Code", columns="Tokenizer", values="Premium",
                             sort=False, dropna=False)[list(choice.tokenizers)]
    return wide.loc[wide.mean(axis=1).sort_values(kind="stable").index]


def heatmap_tab(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    wide = _by_language(table, choice)
    base = source.language(choice.baseline).label
    figure = charts.premium_heatmap(
        [source.language(c).label for c in wide.index], list(wide.columns),
        wide.values.tolist(), baseline=base,
        title=f"Tokenization premium of {len(wide.columns)} "
              f"tokenizer{'s' * (len(wide.columns) != 1)} in {len(wide.index)} languages "
              f"(baseline {base})")
    _chart(st, figure, key="lang_heatmap")
    st.caption("Every language with every tokenizer; languages sorted by their mean premium.")


def sentences_tab(choice: Choice, source: ParallelCorpus, table: pd.DataFrame) -> None:
    counts = data.counts(choice.focus_tokenizer, source)
    per = premium.sentence_premiums(counts, baseline=choice.baseline)
    langs = dict(zip(source.codes, source.languages))
    base = source.language(choice.baseline).label
    _chart(st, charts.sentence_boxes(
        list(_focus_rows(table, choice).Code), langs, per, baseline=base,
        numbers=source.numbers,
        title=f"Premium per sentence with {choice.focus} (baseline {base})"), key="lang_boxes")
    st.caption("Each dot is one sentence: its tokens divided by the baseline sentence's. A wide "
               "box means the premium depends a lot on what is being said.")


def side_by_side_tab(choice: Choice, source: ParallelCorpus, table: pd.DataFrame) -> None:
    tok = choice.focus_tokenizer
    noun = fallback_kind(tok).noun  # what the tokens it counts as fallback are
    order = list(_focus_rows(table, choice).Code)
    picks = [choice.baseline] + [order[i] for i in (1, len(order) // 2, -1) if len(order) > 1]
    if st.session_state.get("lang_side_codes") != source.codes:  # another corpus: its picks,
        st.session_state.pop("lang_side_langs", None)  # not what is left of the last one's
        st.session_state.lang_side_codes = source.codes
    keep("lang_side_langs", list(source.codes), list(dict.fromkeys(picks)))
    keep("lang_side_sentence", list(range(source.n_sentences)), 0)
    base = source.sentences(choice.baseline)
    left, right = st.columns([2, 3])
    index = left.selectbox("Sentence", range(source.n_sentences), key="lang_side_sentence",
                           persist_state="session",  # kept while the tab is closed
                           format_func=lambda i: f"{source.first + i}. {base[i][:70]}")
    # (wrap: in a column the chosen chips would stay on one line, the last ones out of sight)
    codes = right.multiselect("Languages", list(source.codes), key="lang_side_langs",
                              persist_state="session",
                              format_func=lambda c: source.language(c).label, wrap=True)
    # The counts encoded these sentences already, within the limit; only the spans' own steps
    # (the normalizer's aligned path, each token's text) can still be stopped.
    base_tokens = len(tok.encode(base[index], split_special_tokens=True))
    for code in codes:
        sentence = source.sentences(code)[index]
        spans = attempt(tok.spans, sentence, split_special_tokens=True)
        if spans is None:  # a regex of the tokenizer's file was stopped after all: said here
            break
        fallback = premium.fallback_tokens(tok, [s.id for s in spans])
        # (A tokenizer that drops what it cannot spell may leave the baseline's sentence none.)
        ratio = f"{len(spans) / base_tokens:.2f}×" if base_tokens else "no premium"
        # (Isolated: a number after an Arabic name joined its run, '114 · العربية tokens'.)
        st.markdown(f"**{isolated(md(source.language(code).label))}** · "
                    f"{plural(len(spans), 'token')} · "
                    f"{ratio} · {plural(len(sentence), 'character')}"
                    + (f" · {md(plural(fallback, noun))}" if fallback else ""))
        st.html(coloured_html(tok, spans, sentence, window=range(min(len(spans), SIDE_TOKENS))))
        if len(spans) > SIDE_TOKENS:
            st.caption(f"The first {SIDE_TOKENS:,} of its {len(spans):,} tokens are drawn.")


def vocabulary_size_tab(choice: Choice, source: ParallelCorpus) -> None:
    tok = choice.focus_tokenizer
    n = len(tok.merges)
    ladder = premium.merge_count_ladder(n)
    # Keyed by the tokenizer, so another tokenizer starts from its own round counts (up to all
    # of its merges) instead of keeping the last one's.
    key, add_key = (f"lang_merge_counts_{tok.fingerprint()}",
                    f"lang_merge_add_{tok.fingerprint()}")
    step = max(1, (len(ladder) + 8) // 9)  # at most about nine points by default
    st.session_state.setdefault(key, sorted(set(ladder[::step] + ladder[-1:])))
    options = sorted(set(ladder) | set(st.session_state[key]))
    left, right = st.columns([4, 1], vertical_alignment="bottom")
    merge_counts = sorted(left.multiselect(
        "Merge counts", options, key=key, format_func=lambda k: f"{k:,}", wrap=True,
        help="Encode with only the first k merges (no retraining): the vocabulary training had "
             "at k. The round counts grow tenfold every three steps; add any other below."))
    right.number_input("Add a merge count", min_value=0, max_value=n, value=None, step=1,
                       key=add_key, placeholder=f"0 to {n:,}", on_change=_add_count,
                       args=(key, add_key))
    if not merge_counts:
        st.info("Pick at least one merge count.")
        return
    curve = data.curve(tok, source, choice.baseline, merge_counts)
    if curve is None:
        return  # encoded in the background, or stopped by a regex: said above
    langs = dict(zip(source.codes, source.languages))
    sizes = premium.vocabulary_sizes(tok, merge_counts)
    base = source.language(choice.baseline).label
    _chart(st, charts.curve_figure(
        list(source.codes), langs, curve, sizes, baseline=base,
        title=f"Premium against vocabulary size with {choice.focus} (baseline {base})"),
        key="lang_curve")
    start = ("a byte-level tokenizer spends a token per UTF-8 byte, so the premium is the "
             "ratio of bytes" if tok.unit == "byte" else "a character-level tokenizer spends a "
             f"token per character ({fallback_kind(tok).cost})")
    st.caption(f"**{md(choice.focus)}** at {plural(len(merge_counts), 'merge count')}. With no "
               f"merges {start}; watch which languages the merges then serve.")


def _add_count(key: str, add_key: str) -> None:
    """Number box callback: add the merge count typed to the chosen ones, and empty the box."""
    k = st.session_state[add_key]
    if k is not None:
        st.session_state[key] = sorted(set(st.session_state[key]) | {int(k)})
        st.session_state[add_key] = None


def vocabulary_use_tab(choice: Choice, source: ParallelCorpus) -> None:
    tok = choice.focus_tokenizer
    use = premium.vocabulary_use(data.counts(tok, source).used)
    order = sorted(source.codes, key=lambda c: -use[c][0])
    langs = dict(zip(source.codes, source.languages))
    left, right = st.columns(USE_COLUMNS)
    _chart(left, charts.vocabulary_use_figure(
        order, langs, use,
        title=f"Entries of {choice.focus}'s {tok.vocab_size:,} each language uses",
        share=USE_COLUMNS[0]), key="lang_vocab_use")
    # Every token's text, which a decoder's regex may be stopped on (said there).
    systems = attempt(data.vocabulary_systems, tok)
    if systems is not None:
        _chart(right, charts.vocabulary_systems_figure(
            systems, title=f"The vocabulary of {choice.focus} by writing system",
            share=USE_COLUMNS[1]), key="lang_vocab_scripts")
    st.caption(f"Writing systems as the Vocabulary page counts them. {SYSTEM_RULE}")


def table_csv(table: pd.DataFrame) -> bytes:
    """The results table as CSV for a spreadsheet: names come from uploads, and a language or
    tokenizer named '=...' would run as a formula (``ui/shared/spreadsheet.py``)."""
    return spreadsheet.as_csv(table, texts=["Tokenizer", "Language", "Code", "Script"])


def table_tab(table: pd.DataFrame) -> None:
    height = min(600, 35 * (len(table) + 1) + 3)  # every row up to 16, then scroll
    # Eleven columns are wider than the page: the table scrolls sideways, the tokenizer and
    # the language pinned at its left so that each row still says what it is.
    st.dataframe(table, hide_index=True, height=height, column_config={
        "Tokenizer": st.column_config.TextColumn(pinned=True),
        "Language": st.column_config.TextColumn(pinned=True),
        "Premium": st.column_config.NumberColumn(format="%.2f×"),
        "Chars/token": st.column_config.NumberColumn(format="%.2f"),
        "Bytes/token": st.column_config.NumberColumn(format="%.2f"),
        "Tokens/word": st.column_config.NumberColumn(
            format="%.2f", help=f"Tokens per word (words {WHITESPACE_WORDS.split}); empty "
                                "where words are not separated by spaces."),
        "Fallback share": st.column_config.NumberColumn(
            format="percent", help="Share of the tokens that stand for text the vocabulary "
                                   "cannot spell whole: [UNK], <0xNN> byte fallback, or (byte-"
                                   "level) a token holding only part of a character"),
    })
    st.download_button("Download CSV", table_csv(table),
                       file_name="tokenization-premium.csv", mime="text/csv",
                       icon=":material/download:", on_click="ignore", key="lang_download")
