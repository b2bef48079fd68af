"""The Languages page's drawing: the corpus picker, the control row, and one function per tab.

Widget keys start with ``lang_``; a stored choice that is no longer offered (a tokenizer or a
language that went away with a new upload) is replaced before its widget is drawn.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

import pandas as pd
import streamlit as st

import bpe_core
from bpe_core.analysis import premium
from bpe_core.analysis import parallel
from bpe_core.analysis.parallel import MAX_SENTENCES, ParallelCorpus

from ..shared import background, loaders, state, upload_limit
from ..shared.annotate import coloured_html
from ..shared.charts import chart_config
from ..shared.tokens import md_escape as md
from ..shared.wording import WHITESPACE_WORDS
from ..shared.jobs import DONE, Reporter
from . import charts, data, jobs

INTRO = """
The same sentence costs a different number of tokens in each language. **Petrov et al. (2023)**
called the ratio the *tokenization premium*: the tokens a language needs for a set of parallel
sentences (FLORES-200), divided by the tokens English needs for the same ones. With GPT-4's
`cl100k_base`, Spanish costs about **1.55×**, Japanese **2.3×**, Hindi **4.8×** and Burmese
**11.7×**; with GPT-2 even Spanish costs about **2×**. A 3× premium means paying three times as
much per sentence, fitting a third as much into the context, and waiting three times as long.
Below, the premium is measured live, for your own tokenizers, on the same sentences.
"""
UPLOAD_HELP = (
    "Either one table (.csv or .tsv) with a column per language, the header naming each "
    "language by code (en) or name (English); or several .txt files, one per language, with "
    "sentence i on line i of each, named after their language (en.txt, hindi.txt, flores.fr.txt)."
)
TABS = [":material/bar_chart: Premium", ":material/grid_on: Tokenizers × languages",
        ":material/candlestick_chart: Per sentence", ":material/compare: Side by side",
        ":material/show_chart: Vocabulary size", ":material/category: Vocabulary use",
        ":material/table: Table"]
LOAD_KEY = "lang_load"


@dataclass(frozen=True)
class Choice:
    """What the control row picked."""

    tokenizers: dict[str, bpe_core.Tokenizer]
    baseline: str  # a language code
    focus: str  # the tokenizer the detailed tabs show

    @property
    def focus_tokenizer(self) -> bpe_core.Tokenizer:
        return self.tokenizers[self.focus]


def _keep(key: str, options: list, default):
    """Make the stored value of widget ``key`` one of ``options`` (or a list of them)."""
    value = st.session_state.get(key)
    if isinstance(default, list):
        value = [v for v in value if v in options] if isinstance(value, list) else default
    elif value not in options:
        value = default
    st.session_state[key] = value


def corpus_picker() -> ParallelCorpus:
    """The parallel corpus to measure: the bundled sample, or one uploaded here."""
    source = data.corpus()
    scripts = len({lang.script for lang in source.languages})
    title = (f"**Parallel corpus:** {source.name} — {source.n_sentences:,} sentences in "
             f"{len(source.languages)} languages ({scripts} scripts)")
    with st.expander(title, expanded=False, key="lang_corpus_box"):
        # A new key empties the uploader, so going back to the sample does not re-read the files.
        key = f"lang_upload_{st.session_state.get('lang_upload_round', 0)}"
        files = st.file_uploader("Upload a parallel corpus", type=["csv", "tsv", "txt"],
                                 accept_multiple_files=True, help=UPLOAD_HELP, key=key)
        st.caption(UPLOAD_HELP)
        upload_limit.note()
        read = upload_limit.too_big([(f.name, f.size) for f in files or []],
                                    what="a parallel corpus")  # said before any file is read
        if files and not read:
            read = data.read_upload(tuple((f.name, f.getvalue()) for f in files))
        if source is not data.bundled_corpus():
            st.button("Back to the bundled sample", on_click=_back_to_sample, key="lang_back")
    if isinstance(read, str):  # outside the expander, so it shows even when that is closed
        st.error(f"{read} The page still measures {source.name}.", icon=":material/error:")
    elif read is not None and read != source:
        data.use_corpus(read)
        st.rerun()
    if source.dropped:
        st.info(f"Measuring the first {MAX_SENTENCES:,} sentences of each language; "
                f"{source.dropped:,} more were left out to keep the page quick.")
    return source


def _back_to_sample() -> None:
    data.use_corpus(None)
    st.session_state.lang_upload_round = st.session_state.get("lang_upload_round", 0) + 1


def controls(source: ParallelCorpus) -> Choice | None:
    """The compact row: tokenizers to compare, the baseline language, the tokenizer in detail."""
    _take_trained(source)
    available = data.available_tokenizers()
    names = list(available)
    session = list(state.tokenizers())
    active = state.active_tokenizer().name
    _keep("lang_tokenizers", names, [active] + [n for n in names if n != active][:3])
    loaded = loaders.just_loaded(LOAD_KEY)
    if loaded in names and loaded not in st.session_state.lang_tokenizers:
        st.session_state.lang_tokenizers = st.session_state.lang_tokenizers + [loaded]
    codes = list(source.codes)
    _keep("lang_baseline", codes, "en" if "en" in codes else codes[0])
    left, mid, right = st.columns([5, 2, 3])
    chosen = left.multiselect("Tokenizers to compare", names, key="lang_tokenizers",
                              help="This session's tokenizers (train or load more below, or "
                                   "on the other pages) and the reference encodings that could "
                                   "be fetched.")
    mid.selectbox("Baseline language", codes, key="lang_baseline",
                  format_func=lambda c: source.language(c).label,
                  help="Premiums are tokens divided by this language's tokens.")
    missing = loaders.missing_references(data.REFERENCES)
    if missing:
        st.caption(missing)
    if not chosen:
        st.info("Pick at least one tokenizer to compare.")
        return None
    focus = st.session_state.get("lang_focus")
    if focus not in chosen or (focus in session and active in chosen):
        st.session_state.lang_focus = active if active in chosen else chosen[0]
    right.selectbox("Details for", chosen, key="lang_focus", on_change=_focus_changed,
                    help="The tokenizer the detailed tabs show; a session tokenizer picked here "
                         "also becomes the active one.")
    return Choice({n: available[n] for n in chosen}, st.session_state.lang_baseline,
                  st.session_state.lang_focus)


def _focus_changed() -> None:
    state.set_active_tokenizer(st.session_state.lang_focus)


#: Session keys: the size a large corpus's balanced tokenizer was asked for, and its job.
TRAIN_ASKED, TRAIN_JOB = "lang_train_asked", "lang_train_job"


def train_panel(source: ParallelCorpus) -> None:
    """One click: a byte-level tokenizer trained on every language of the corpus at once."""
    with st.expander("Train a balanced tokenizer on these sentences", icon=":material/balance:"):
        parts = parallel.split(source)
        st.markdown("Byte-level BPE with the GPT-2 pre-tokenizer, trained on all "
                    f"{len(source.languages)} languages together, so every script gets merges "
                    "of its own. Compare its premiums with a tokenizer trained on English alone. "
                    + (f"It learns from sentences {_numbers(parts.train)} of each language; "
                       f"sentences {_numbers(parts.held_out)} are held out to score it."
                       if parts.disjoint else "The corpus has one sentence, so it is trained "
                       "and scored on the same one."))
        size_col, button_col = st.columns([2, 1], vertical_alignment="bottom")
        size_col.number_input("Vocabulary size", min_value=300, max_value=20_000, value=2_000,
                              step=250, key="lang_train_size")
        button_col.button("Train", type="primary", on_click=_train, args=(source,),
                          width="stretch", key="lang_train")
        asked = st.session_state.get(TRAIN_ASKED)
        if asked and asked[0] == source.digest and background.outcome(
                TRAIN_JOB, asked, "languages-train", jobs.train_balanced,
                data.balanced_sentences(source), asked[1],
                what=f"Training a balanced tokenizer of {asked[1]:,} tokens") is not None:
            st.rerun()  # done just now: the comparison above takes it in (_take_trained)
        if "lang_trained" in st.session_state:
            st.success(f"Added **{md(st.session_state.lang_trained)}** to the session and to the "
                       "comparison.", icon=":material/check_circle:")


def load_panel() -> None:
    """Load a model's tokenizer file here; it joins the comparison (see :func:`controls`)."""
    with st.expander("Load a tokenizer: a model's tokenizer.json, a .tiktoken file…",
                     icon=":material/upload_file:"):
        loaders.load_panel(key=LOAD_KEY)


def _train(source: ParallelCorpus) -> None:
    """The Train button: a small corpus trains now; a large one in a worker (``train_panel``
    follows it)."""
    sentences, size = data.balanced_sentences(source), int(st.session_state.lang_train_size)
    if sum(map(len, sentences)) < jobs.TRAIN_CHARACTERS:
        with st.spinner("Training…"):
            tok = jobs.train_balanced(sentences, size, report=Reporter(None))
        _compare(data.add_balanced(tok, source))
        return
    background.forget(TRAIN_JOB)  # the same size again trains again
    st.session_state[TRAIN_ASKED] = (source.digest, size)


def _take_trained(source: ParallelCorpus) -> None:
    """(Before the widgets are drawn.) A balanced tokenizer a worker has trained on ``source``
    joins the session and the comparison."""
    asked, held = st.session_state.get(TRAIN_ASKED), st.session_state.get(TRAIN_JOB)
    if asked and asked[0] == source.digest and held and held[0] == asked and (
            held[1].state == DONE):
        del st.session_state[TRAIN_ASKED]
        background.forget(TRAIN_JOB)
        _compare(data.add_balanced(held[1].result, source))


def _compare(name: str) -> None:
    """Put the tokenizer ``name``, just trained, in the comparison and in detail."""
    chosen = [n for n in st.session_state.get("lang_tokenizers", []) if n != name]
    st.session_state.lang_tokenizers = chosen + [name]
    st.session_state.lang_focus = name
    st.session_state.lang_trained = name


def _numbers(part: ParallelCorpus) -> str:
    """Sentence numbers as a range: "25–32", or "7" for one."""
    first, last = part.numbers[0], part.numbers[-1]
    return f"{first}–{last}" if last > first else f"{first}"


def scoring_note(source: ParallelCorpus, scored: ParallelCorpus, choice: Choice) -> None:
    """Say which sentences the page scores on when a tokenizer in the comparison was trained on
    this corpus here: the held-out ones, which none of them learned from."""
    trained = data.trained_here(source, choice.tokenizers)
    if not trained:
        return
    names = ", ".join(f"**{md(n)}**" for n in trained)
    if scored.n_sentences == source.n_sentences:
        st.info(f"{names} was trained on the page's only sentence, and is scored on it too.",
                icon=":material/info:")
        return
    learned = parallel.split(source).train
    st.info(f"Every tokenizer is scored on the held-out sentences {_numbers(scored)} "
            f"({scored.n_sentences} of {source.n_sentences}): {names} learned from sentences "
            f"{_numbers(learned)}, so scoring it on those would flatter it.",
            icon=":material/rule:")


def headline(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    """Four numbers for the tokenizer in detail: the dearest, the cheapest, the median, fallback."""
    rows = table[(table.Tokenizer == choice.focus) & (table.Code != choice.baseline)]
    if rows.empty:
        return
    dear = rows.loc[rows.Premium.idxmax()]
    cheap = rows.loc[rows.Premium.idxmin()]
    worst = rows.loc[rows["Fallback share"].idxmax()]
    base = source.language(choice.baseline).label
    plain = {"delta_color": "off", "delta_arrow": "off"}  # the delta names a language
    cols = st.columns(4)
    cols[0].metric("Most expensive", f"{dear.Premium:.2f}×", dear.Language, **plain,
                   help=f"{dear.Language} needs {dear.Premium:.2f} times the tokens {base} needs.")
    cols[1].metric("Cheapest", f"{cheap.Premium:.2f}×", cheap.Language, **plain)
    cols[2].metric("Median premium", f"{statistics.median(rows.Premium):.2f}×",
                   f"over {len(rows)} languages", **plain)
    cols[3].metric("Most byte fallback", f"{worst['Fallback share']:.0%}", worst.Language, **plain,
                   help="Share of tokens that are [UNK] or hold only part of a character.")


def _focus_rows(table: pd.DataFrame, choice: Choice) -> pd.DataFrame:
    return table[table.Tokenizer == choice.focus].sort_values("Premium", kind="stable")


def _chart(where, figure, *, key: str) -> None:
    """Draw ``figure`` in ``where`` (``st`` or a column); its PNG is named after its title."""
    where.plotly_chart(figure, key=key, config=chart_config(figure))


def premium_tab(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    langs = dict(zip(source.codes, source.languages))
    base = source.language(choice.baseline).label
    n = len(choice.tokenizers)
    if n > 1 and st.radio("Bars for", ["focus", "all"], horizontal=True, key="lang_bars_for",
                          format_func=lambda o: choice.focus if o == "focus"
                          else f"all {n} tokenizers") == "all":
        wide = table.pivot_table(index="Code", columns="Tokenizer", values="Premium",
                                 sort=False)[list(choice.tokenizers)]
        order = list(wide.mean(axis=1).sort_values(kind="stable").index)
        _chart(st, charts.premium_groups(
            order, langs, wide.to_dict(), baseline=base,
            title=f"Tokenization premium of {n} tokenizers (baseline {base})"),
            key="lang_bars_all")
        st.caption(f"Tokens each language needs with each tokenizer, divided by {base}'s, for "
                   f"the same {source.n_sentences} sentences; languages sorted by their mean "
                   "premium.")
        return
    rows = _focus_rows(table, choice)
    _chart(st, charts.premium_bars(
        list(rows.Code), langs, dict(zip(rows.Code, rows.Premium)), baseline=base,
        title=f"Tokenization premium with {choice.focus} (baseline {base})"), key="lang_bars")
    st.caption(f"Tokens each language needs with **{md(choice.focus)}**, divided by "
               f"{base}'s, for the same {source.n_sentences} sentences. Colours are scripts.")


def heatmap_tab(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    wide = table.pivot_table(index="Language", columns="Tokenizer", values="Premium", sort=False)
    wide = wide[list(choice.tokenizers)].loc[wide.mean(axis=1).sort_values().index]
    base = source.language(choice.baseline).label
    figure = charts.premium_heatmap(
        list(wide.index), list(wide.columns), wide.values.tolist(), baseline=base,
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
    order = list(_focus_rows(table, choice).Code)
    picks = [choice.baseline] + [order[i] for i in (1, len(order) // 2, -1) if len(order) > 1]
    _keep("lang_side_langs", list(source.codes), list(dict.fromkeys(picks)))
    _keep("lang_side_sentence", list(range(source.n_sentences)), 0)
    base = source.sentences(choice.baseline)
    left, right = st.columns([2, 3])
    index = left.selectbox("Sentence", range(source.n_sentences), key="lang_side_sentence",
                           format_func=lambda i: f"{source.first + i}. {base[i][:70]}")
    codes = right.multiselect("Languages", list(source.codes), key="lang_side_langs",
                              format_func=lambda c: source.language(c).label)
    base_tokens = len(tok.encode(base[index], split_special_tokens=True))
    for code in codes:
        sentence = source.sentences(code)[index]
        spans = tok.spans(sentence, split_special_tokens=True)
        fallback = premium.fallback_tokens(tok, [s.id for s in spans])
        st.markdown(f"**{md(source.language(code).label)}** · {len(spans)} tokens · "
                    f"{len(spans) / base_tokens:.2f}× · {len(sentence)} characters"
                    + (f" · {fallback} byte-fallback" if fallback else ""))
        st.html(coloured_html(tok, spans, sentence))


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
        "Merge counts", options, key=key, format_func=lambda k: f"{k:,}",
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
        return  # encoded in the background: its progress is drawn above
    langs = dict(zip(source.codes, source.languages))
    sizes = [tok.n_base + k for k in merge_counts]
    base = source.language(choice.baseline).label
    _chart(st, charts.curve_figure(
        list(source.codes), langs, curve, sizes, baseline=base,
        title=f"Premium against vocabulary size with {choice.focus} (baseline {base})"),
        key="lang_curve")
    start = ("a byte-level tokenizer spends a token per UTF-8 byte, so the premium is the "
             "ratio of bytes" if tok.unit == "byte" else "a character-level tokenizer spends a "
             "token per character (per byte for characters it lacks)")
    st.caption(f"**{md(choice.focus)}** at {len(merge_counts)} merge counts. With no merges "
               f"{start}; watch which languages the merges then serve.")


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
    left, right = st.columns([3, 2])
    _chart(left, charts.vocabulary_use_figure(
        order, langs, use,
        title=f"Entries of {choice.focus}'s {tok.vocab_size:,} each language uses"),
        key="lang_vocab_use")
    _chart(right, charts.vocabulary_scripts_figure(
        data.vocabulary_scripts(tok), title=f"The vocabulary of {choice.focus} by script"),
        key="lang_vocab_scripts")
    st.caption("Byte fragments are entries that hold only part of a character; Common is "
               "spaces, digits and punctuation.")


def table_tab(table: pd.DataFrame) -> None:
    height = min(600, 35 * (len(table) + 1) + 3)  # every row up to 16, then scroll
    st.dataframe(table, hide_index=True, height=height, column_config={
        "Premium": st.column_config.NumberColumn(format="%.2f×"),
        "Chars/token": st.column_config.NumberColumn(format="%.2f"),
        "Bytes/token": st.column_config.NumberColumn(format="%.2f"),
        "Tokens/word": st.column_config.NumberColumn(
            format="%.2f", help=f"Tokens per word (words {WHITESPACE_WORDS.split}); empty "
                                "where words are not separated by spaces."),
        "Fallback share": st.column_config.NumberColumn(format="percent"),
    })
    st.download_button("Download CSV", table.to_csv(index=False).encode("utf-8"),
                       file_name="tokenization-premium.csv", mime="text/csv", icon=":material/download:",
                       on_click="ignore", key="lang_download")
