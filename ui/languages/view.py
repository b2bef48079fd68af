"""The Languages page's drawing above its tabs: the corpus picker, the control row, the train
and load panels, the scoring note and the headline (the tabs are ``ui.languages.tabs``).

Widget keys start with ``lang_``; a stored choice that is no longer offered (a tokenizer or a
language that went away with a new upload) is replaced before its widget is drawn (:func:`keep`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import NamedTuple

import pandas as pd
import streamlit as st

import bpe_core
from bpe_core.analysis import parallel
from bpe_core.analysis.parallel import MAX_SENTENCES, ParallelCorpus

from ..shared import background, loaders, metrics, state, upload_limit, wording
from ..shared.bidi import isolated
from ..shared.clicks import once_per_click
from ..shared.tokens import md_escape as md
from ..shared.jobs import DONE, Reporter
from . import data, jobs

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
LOAD_KEY = "lang_load"
#: The active tokenizer when the page last drew (session key).
ACTIVE_SEEN = "lang_active_seen"


@dataclass(frozen=True)
class Choice:
    """What the control row picked."""

    tokenizers: dict[str, bpe_core.Tokenizer]
    baseline: str  # a language code
    focus: str  # the tokenizer the detailed tabs show

    @property
    def focus_tokenizer(self) -> bpe_core.Tokenizer:
        return self.tokenizers[self.focus]


def keep(key: str, options: list, default):
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
    title = (f"**Parallel corpus:** {source.name} — "
             f"{wording.plural(source.n_sentences, 'sentence')} in "
             f"{wording.plural(len(source.languages), 'language')} "
             f"({wording.plural(scripts, 'script')})")
    with st.expander(title, expanded=False, key="lang_corpus_box"):
        # A new key empties the uploader, so going back to the sample does not re-read the files.
        key = f"lang_upload_{st.session_state.get('lang_upload_round', 0)}"
        files = st.file_uploader("Upload a parallel corpus", type=["csv", "tsv", "txt"],
                                 accept_multiple_files=True, help=UPLOAD_HELP, key=key)
        st.caption(UPLOAD_HELP)
        upload_limit.note()
        read = upload_limit.over_limit([(f.name, f.size) for f in files or []],
                                       what="a parallel corpus")  # said before any file is read
        if files and not read:
            read = data.read_upload(tuple((f.name, f.getvalue()) for f in files))
        if source is not data.bundled_corpus():
            st.button("Back to the bundled sample", on_click=_back_to_sample, key="lang_back")
    if isinstance(read, str):  # outside the expander, so it shows even when that is closed
        st.error(f"{read} The page still measures {md(source.name)}.", icon=":material/error:")
    elif read is not None and read != source:
        data.use_corpus(read)
        st.rerun()
    if source.dropped:
        st.info(f"Measuring the first {MAX_SENTENCES:,} sentences of each language; "
                f"{source.dropped:,} more {'was' if source.dropped == 1 else 'were'} left out to "
                "keep the page quick.")
    if source.skipped:
        names = ", ".join(md(repr(label)) for label in source.skipped)
        st.info(f"Left out {names}: no letters in {'it' if len(source.skipped) == 1 else 'them'}"
                f" (numbers or ids, not sentences in a language).", icon=":material/info:")
    return source


@once_per_click
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
    keep("lang_tokenizers", names, [active] + [n for n in names if n != active][:3])
    # A tokenizer just loaded here, or just made active (in the sidebar, on Train), joins the
    # comparison, so the page shows what the sidebar names; one taken out stays out.
    for name in (loaders.just_loaded(LOAD_KEY), state.newly_active(ACTIVE_SEEN)):
        if name in names and name not in st.session_state.lang_tokenizers:
            st.session_state.lang_tokenizers = st.session_state.lang_tokenizers + [name]
    codes = list(source.codes)
    keep("lang_baseline", codes, "en" if "en" in codes else codes[0])
    left, mid, right = st.columns([5, 2, 3])
    # (wrap: in a column the chosen chips would stay on one line, the last ones out of sight)
    chosen = left.multiselect("Tokenizers to compare", names, key="lang_tokenizers", wrap=True,
                              help="This session's tokenizers (train or load more below, or "
                                   "on the other pages) and the reference encodings that could "
                                   "be fetched.")
    mid.selectbox("Baseline language", codes, key="lang_baseline",
                  format_func=lambda c: source.language(c).label,
                  help="Premiums are tokens divided by this language's tokens.")
    # An encoding this session loaded from its own file (cl100k_base.tiktoken) is no longer
    # missing, though it still cannot be fetched.
    missing = loaders.missing_references([n for n in data.REFERENCES if n not in session])
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
                    + (f"It learns from {_numbers(parts.train)} of each language; "
                       f"{_numbers(parts.held_out)} "
                       f"{'is' if parts.held_out.n_sentences == 1 else 'are'} held out to score it."
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


@once_per_click
def _train(source: ParallelCorpus) -> None:
    """The Train button: a small corpus trains now; a large one in a worker (``train_panel``
    follows it)."""
    sentences, size = data.balanced_sentences(source), int(st.session_state.lang_train_size)
    if sum(map(len, sentences)) < jobs.TRAIN_CHARACTERS:
        background.forget(TRAIN_JOB)  # a large corpus's training under way is replaced
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
    """Sentence numbers as a range: "sentences 25–32", or "sentence 7" for one."""
    first, last = part.numbers[0], part.numbers[-1]
    return f"sentences {first}–{last}" if last > first else f"sentence {first}"


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
    st.info(f"Every tokenizer is scored on the held-out {_numbers(scored)} "
            f"({scored.n_sentences} of {source.n_sentences}): {names} learned from "
            f"{_numbers(learned)}, so scoring it on "
            f"{'that one' if learned.n_sentences == 1 else 'those'} would flatter it.",
            icon=":material/rule:")


def headline(table: pd.DataFrame, choice: Choice, source: ParallelCorpus) -> None:
    """Four numbers for the tokenizer in detail: the dearest, the cheapest, the median, fallback."""
    rows = table[(table.Tokenizer == choice.focus) & (table.Code != choice.baseline)]
    if rows.empty:
        return
    base = source.language(choice.baseline).label
    if rows.Premium.isna().all():  # (measure's premium when the baseline has no tokens)
        st.warning(f"{md(choice.focus)} encodes {md(base)}'s sentences as 0 tokens (a tokenizer "
                   "with no unknown token and no byte fallback drops the characters it has no "
                   "token for), so no premium can be taken against them: pick another baseline "
                   "language.", icon=":material/warning:")
        return
    dear = rows.loc[rows.Premium.idxmax()]
    cheap = rows.loc[rows.Premium.idxmin()]
    worst = rows.loc[rows["Fallback share"].idxmax()]
    plain = {"delta_color": "off", "delta_arrow": "off"}  # the delta names a language
    cards = metrics.row()
    cards.metric("Most expensive", f"{dear.Premium:.2f}×", dear.Language, **plain,
                 help=f"{md(dear.Language)} needs {dear.Premium:.2f} times the tokens "
                      f"{md(base)} needs.")
    cards.metric("Cheapest", f"{cheap.Premium:.2f}×", cheap.Language, **plain)
    cards.metric("Median premium", f"{statistics.median(rows.Premium):.2f}×",
                 f"over {wording.plural(len(rows), 'language')}", **plain)
    if drops_characters(choice.focus_tokenizer):
        # No token stands for what it cannot spell: there is no share of such tokens to show.
        cards.metric("Unknown characters", "dropped", "no unknown token", **plain,
                     help=f"{md(choice.focus)} has no unknown token and no byte fallback.")
        st.warning(f"{md(choice.focus)} has no unknown token and no byte fallback: it drops "
                   "every character its vocabulary has no token for, and a dropped character "
                   "costs no token, so a language it cannot spell looks cheap here: see the "
                   f"cheapest, {md(cheap.Language)} at {cheap.Premium:.2f}×, side by side.",
                   icon=":material/warning:")
        return
    # With no fallback anywhere, no language is named: any would be picked at random.
    label, meaning = fallback_kind(choice.focus_tokenizer)[:2]
    cards.metric(label, f"{worst['Fallback share']:.0%}",
                 worst.Language if worst["Fallback share"] > 0 else "in no language", **plain,
                 help=f"The share of {md(choice.focus)}'s tokens that {meaning}, in the language "
                      f"where it is largest.")
    unknown = rows[rows["Fallback share"] >= UNKNOWN_WARNING]
    unk = unknown_token(choice.focus_tokenizer)
    if unk is not None and not unknown.empty:
        named = ", ".join(f"{isolated(md(r.Language))} {r['Fallback share']:.0%}" for _, r in
                          unknown.sort_values("Fallback share", ascending=False).head(4).iterrows())
        many = wording.plural(len(unknown), "language")
        more = ", …" if len(unknown) > 4 else ""
        st.warning(f"{md(choice.focus)} reads much of {many} as {md(unk)} ({named}{more}): a run "
                   f"of characters it does not know costs one token or a few, so their counts and "
                   f"premiums look cheap and say little about how well it reads them.",
                   icon=":material/help:")


#: From this share of unknown tokens in a language, the page warns that its premium says little.
UNKNOWN_WARNING = 0.1


def drops_characters(tok: bpe_core.Tokenizer) -> bool:
    """Does the tokenizer drop a character it has no token for, with nothing in its place (a
    model file with neither ``unk_token`` nor ``byte_fallback``; one trained here has
    ``[UNK]``)?"""
    return tok.unit != "byte" and not tok.model.byte_fallback and tok.model.unk_token is None


def unknown_token(tok: bpe_core.Tokenizer) -> str | None:
    """The token a tokenizer reads a character it lacks as, when it falls back on one (not on
    bytes): the file's own (``<unk>`` in the first GPT's), ``[UNK]`` in one trained here; None
    for one that spells such a character in bytes or drops it."""
    if tok.unit == "byte" or tok.model.byte_fallback:
        return None
    return tok.model.unk_token


class Fallback(NamedTuple):
    """What a tokenizer's fallback tokens are (premium.fallback_tokens counts them)."""

    label: str  #: the card's
    meaning: str  #: what its fallback tokens then are, in words
    noun: str  #: what one is called in a count
    cost: str  #: what a character its vocabulary lacks costs it


def fallback_kind(tok: bpe_core.Tokenizer) -> Fallback:
    """How ``tok`` spells a character its vocabulary lacks, in the page's words."""
    if tok.unit == "byte":
        return Fallback("Most partial characters", "hold only part of a character (the "
                        "vocabulary spells a character it has no token for in its bytes)",
                        "partial-character token", "a token per byte")
    if tok.model.byte_fallback:
        return Fallback("Most byte fallback", "are <0xNN> bytes (a character the vocabulary "
                        "lacks, spelled in its bytes)", "byte-fallback token",
                        "per byte for characters it lacks")
    if drops_characters(tok):
        return Fallback("Dropped characters", "stand for nothing: it drops the characters "
                        "its vocabulary lacks", "dropped character",
                        "none for characters it lacks: it drops them")
    unk = tok.model.unk_token
    return Fallback(f"Most {unk}", f"are {unk} (characters the vocabulary lacks)",
                    f"{unk} token", f"{md(unk)} for characters it lacks")
