"""The Corpus page's kit: picking a corpus (sample, upload, paste) and drawing its statistics.

Heavy work is cached: an upload is inspected once per file, statistics are counted once per
(content digest, pre-tokenizer). A large upload is read, and a large corpus counted, by a worker
process (:mod:`ui.corpus.jobs`).
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from typing import Sequence

import pandas as pd
import streamlit as st

from bpe_core.analysis.stats import CorpusStats
from bpe_core.analysis.upload_text import MAX_DECOMPRESSED_BYTES
from bpe_core.analysis.word_counts import WordCountError, parse_word_counts
from bpe_core.presets import PRESETS

from ..shared import background, metrics, state, upload_limit, wording
from ..shared.charts import titled
from ..shared.columns import fit_columns, fitted_columns
from ..shared.samples import Sample, samples
from ..shared.tokens import md_escape, readable
from . import jobs
from .charts import COMMON_HINT, scripts_figure
from .data import counts_stats, inspect_upload, top_words_table
from .jobs import BACKGROUND_SIZE, PREVIEW_CHARS, UploadResult

#: Session keys: the reading job and what it reads ((file ids, text fields, typed name)), and
#: the counting job (see ``background.outcome``).
READ_JOB, READ_ASKED, STATS_JOB = "corpus_read_job", "corpus_read_asked", "corpus_stats_job"
#: Pixels the most frequent words' columns have in a 1280-px window (two fifths of the page,
#: less the rank column): a long word would push count and share out of sight.
WORDS_ROOM = 242
LONE_CR = re.compile(r"\r(?!\n)")
PREVIEW_KEY = "corpus_preview"  # the preview expander: open or shut


@st.cache_data(show_spinner=False, max_entries=64)
def inspect_cached(file_id: str, name: str, _data: bytes) -> tuple[list[str], str | None]:
    """:func:`inspect_upload`, once per uploaded file (the page reruns on every click)."""
    return inspect_upload(name, _data)


class _Bar:
    """A progress bar on the page, with the ``progress`` method of a job's reporter."""

    def __init__(self, doing: str):
        self._doing = doing
        self._bar = st.progress(0.0, text=f"{doing}…")

    def progress(self, fraction: float, message: str = "") -> None:
        self._bar.progress(fraction, text=f"{self._doing}: {message}")

    def empty(self) -> None:
        self._bar.empty()


def stats_of(corpus: state.SessionCorpus, pretokenizer: str) -> CorpusStats | None:
    """The statistics of ``corpus``'s text, kept for every session by (content digest,
    pre-tokenizer). Counted at once, with a progress bar, below :data:`BACKGROUND_SIZE`
    characters; above, by a worker (None while it counts, its progress drawn here)."""
    key = (corpus.digest, pretokenizer)
    background.replaced(STATS_JOB, key)
    store = background.kept("corpus stats", size=64)
    stats = store.get(key)
    if stats is not None:
        return stats
    many = wording.units(pretokenizer).many
    size = sum(len(d) for d in corpus.documents)
    if size < BACKGROUND_SIZE:
        bar = _Bar(f"Counting {many}")
        stats = jobs.count(corpus.documents, pretokenizer, report=bar)
        bar.empty()
    else:
        stats = background.outcome(STATS_JOB, key, "corpus-stats", jobs.count, corpus.documents,
                                   pretokenizer, what=f"Counting the {many} of {size:,} characters")
    if stats is not None:
        store.put(key, stats)
    return stats


# --- drawing --------------------------------------------------------------------------------

SOURCES = {"sample": "Bundled sample", "upload": "Upload files", "paste": "Paste text",
           "counts": "Type word counts"}
FORMATS_HELP = (
    "Plain text (.txt, .md); tables (.csv, .tsv, .jsonl, .parquet), where you pick the column "
    "that holds the text; or any of these gzip-compressed (corpus.txt.gz). Text must be UTF-8 "
    "(with or without a byte-order mark) or UTF-16."
)
GZIP_HINT = (f"A gzip-compressed copy (corpus.txt.gz) is smaller, and is unpacked here up to "
             f"{MAX_DECOMPRESSED_BYTES // 2**20:,} MB.")
#: The pre-tokenizers to count with, in the order and by the names of Train's box.
PRETOKENIZER_CHOICES = [p for p in wording.PRETOKENIZERS if p in PRESETS]
_NAMED = {p: f"“{name}”" for p, name in wording.PRETOKENIZERS.items()}
PRETOKENIZER_HELP = (
    "How the text is cut before counting, as a pre-tokenizer cuts it before BPE sees it. "
    f"{_NAMED['whitespace']} and {_NAMED['end-of-word']} split on spaces, tabs and newlines, "
    f"giving words; the others give pieces: {_NAMED['space-prefix']} keeps one leading space "
    f"on each word; {_NAMED['gpt2']}, {_NAMED['cl100k']} and {_NAMED['o200k']} also split off "
    "punctuation and digits, and keep newlines and runs of spaces as pieces of their own, as "
    f"OpenAI's tokenizers do; {_NAMED['none']} keeps each document as one piece. The Train "
    "page counts the pieces of the pre-tokenizer it trains with."
)


# --- where the corpus comes from ------------------------------------------------------------


def render_source() -> None:
    """The corpus picker: a bundled sample, uploaded files or pasted text."""
    source = st.radio("Where the corpus comes from", list(SOURCES), format_func=SOURCES.get,
                      horizontal=True, key="corpus_source", persist_state="session")
    {"sample": _sample_panel, "upload": _upload_panel, "paste": _paste_panel,
     "counts": _counts_panel}[source]()


def _sample_panel() -> None:
    catalogue = samples()
    active = state.active_corpus()
    # The picker shows the active corpus when it is a sample, and nothing when it is not.
    st.session_state.corpus_sample = active.sample.id if active.sample else None
    choice = st.selectbox("Sample", list(catalogue), format_func=lambda i: catalogue[i].title,
                          key="corpus_sample", placeholder="Choose a sample…",
                          on_change=_use_sample, width=520)
    if choice is None:
        st.caption("The active corpus is not a bundled sample; choose one to switch to it.")
        return
    sample = catalogue[choice]
    st.markdown(sample.description)
    st.caption(" · ".join(filter(None, [f"Language: {sample.language}", f"Script: {sample.script}",
                                        _suggestion(sample)])))


def _use_sample() -> None:
    if st.session_state.corpus_sample is not None:
        state.set_corpus(state.sample_corpus(st.session_state.corpus_sample))


def _suggestion(sample: Sample) -> str:
    """The manifest's suggested training settings in words, the pre-tokenizer named as on the
    Train page: "char-level, pre-tokenizer “Words ending in </w>”, 5 merges"."""
    s = sample.suggested
    parts = [f"{s['unit']}-level" if s.get("unit") else "",
             f"pre-tokenizer {_NAMED[s['pretokenizer']]}" if s.get("pretokenizer") else "",
             f"vocabulary size {s['vocab_size']:,}" if s.get("vocab_size") else "",
             f"{s['max_merges']} merges" if s.get("max_merges") else ""]
    parts = [p for p in parts if p]
    return f"Try training with: {', '.join(parts)}" if parts else ""


def _upload_panel() -> None:
    files = st.file_uploader("Corpus files (several at once are fine)", accept_multiple_files=True,
                             key="corpus_files", help=FORMATS_HELP)
    st.caption(FORMATS_HELP)
    upload_limit.note()
    refused = upload_limit.over_limit([(file.name, file.size) for file in files or []],
                                      hint=GZIP_HINT)
    if refused:  # said before any file is read
        st.error(refused, icon=":material/block:")
        return
    if not files:  # a large upload may have been read meanwhile (see _finish_read)
        _finish_read((), [], (), 0)
        report = st.session_state.get("corpus_upload_report")
        # Read while the page was away: said while that corpus is the active one.
        if report and report[0] == () and state.active_corpus().name == report[1]:
            _show_report(*report[1:])
        return
    chosen = []  # (uploaded file, text field or None)
    names = [file.name for file in files]
    for place, file in enumerate(files, start=1):
        fields, problem = inspect_cached(file.file_id, file.name, file.getvalue())
        if problem:
            st.error(md_escape(problem), icon=":material/block:")
            continue
        field = None
        if fields:
            # Two files of one name: each picker says which it is.
            which = f" (file {place})" if names.count(file.name) > 1 else ""
            field = st.selectbox(f"Text column of {md_escape(file.name)}{which}", fields,
                                 key=f"corpus_field_{file.file_id}", width=520,
                                 help="The most likely text column comes first.")
        chosen.append((file, field))
    if not chosen:
        return
    typed = st.text_input("Corpus name", key="corpus_upload_name",
                          placeholder=_name_for([file.name for file, _ in chosen])).strip()
    ids = tuple(file.file_id for file, _ in chosen)
    files = [(file.name, file.getvalue()) for file, _ in chosen]
    fields = tuple(field for _, field in chosen)
    size = sum(file.size for file, _ in chosen)
    if st.button("Load as the active corpus", type="primary", key="corpus_upload_load"):
        if size < BACKGROUND_SIZE:
            bar = st.progress(0.0, text="Reading…")
            result = jobs.read_uploads(files, fields=fields,
                                       progress=lambda fraction, text: bar.progress(fraction,
                                                                                    text=text))
            bar.empty()
            _use_upload(ids, typed, result)
        else:  # read by a worker, below
            background.forget(READ_JOB)
            st.session_state[READ_ASKED] = (ids, fields, typed)
    _finish_read(ids, files, fields, size)
    report = st.session_state.get("corpus_upload_report")
    if report and report[0] == ids:  # the report is about the files shown now
        _show_report(*report[1:])


def _finish_read(ids: tuple[str, ...], files: list, fields: tuple, size: int) -> None:
    """Follow the large upload being read by a worker for the files shown (``ids``), and make
    it the active corpus once read. With no files shown (the uploader forgets them when the user
    goes to another page meanwhile) the read asked for goes on all the same: the worker has the
    files, and its report is kept for the empty uploader (``ids`` ())."""
    asked, held = st.session_state.get(READ_ASKED), st.session_state.get(READ_JOB)
    if not asked or (asked[0] != ids and (ids or held is None or held[0] != asked)):
        return
    what = (f"Reading {len(files)} file{'s' * (len(files) > 1)} ({size / 2**20:,.1f} MB)"
            if files else f"Reading {len(asked[0])} uploaded file{'s' * (len(asked[0]) > 1)}")
    result = background.outcome(READ_JOB, asked, "corpus-read", jobs.read, files, fields,
                                what=what)
    if result is not None:
        del st.session_state[READ_ASKED]
        background.forget(READ_JOB)
        _use_upload(ids, asked[2], result)


def _use_upload(ids: tuple[str, ...], typed: str, result: UploadResult) -> None:
    """Make what was read the active corpus, and keep the report of it for the page to show."""
    name = typed or _name_for(result.loaded or ["upload"])
    if result.documents:
        state.set_corpus(state.make_corpus(name, documents=result.documents, source="upload"))
    st.session_state.corpus_upload_report = (ids, name, result.loaded, result.errors)


def _name_for(file_names: Sequence[str]) -> str:
    """A corpus name from file names: ``reviews.csv.gz`` -> ``reviews``; several: ``a + 2 more``."""
    stem = PurePosixPath(file_names[0]).name.split(".")[0] or file_names[0]
    return stem if len(file_names) == 1 else f"{stem} + {len(file_names) - 1} more"


def _show_report(name: str, loaded: Sequence[str], errors: Sequence[tuple[str, str]]) -> None:
    if loaded:
        files = ", ".join(md_escape(f) for f in loaded)
        st.success(f"Loaded **{md_escape(name)}** from {files}. It is now the active corpus.",
                   icon=":material/check_circle:")
    for _, message in errors:
        st.error(md_escape(message), icon=":material/block:")
    if not loaded:
        st.warning(f"Nothing was loaded: the active corpus is still "
                   f"**{md_escape(state.active_corpus().name)}**.")


def _paste_panel() -> None:
    text = st.text_area("Your text", key="corpus_paste_text", height=180,
                        placeholder="Paste or type anything: a paragraph, a poem, code, "
                                    "several languages…")
    name = st.text_input("Corpus name", key="corpus_paste_name",
                         placeholder="Pasted text").strip() or "Pasted text"
    if st.button("Use this text as the corpus", type="primary", key="corpus_paste_use"):
        if text.strip():
            state.set_corpus(state.make_corpus(name, documents=[text], source="paste"))
        else:
            st.warning("The text box is empty: paste or type some text first.")
    active = state.active_corpus()
    if active.source == "paste" and active.documents == (text,):
        st.success(f"This text is the active corpus, **{md_escape(active.name)}**.",
                   icon=":material/check_circle:")


def _counts_panel() -> None:
    """A word-frequency table typed by hand, the form textbooks and courses give."""
    text = st.text_area("Words and how often each occurs", key="corpus_counts_text", height=140,
                        placeholder="hug 10, pug 5, pun 12, bun 4, hugs 5",
                        help="A word and its count per entry, entries separated by commas or new "
                             "lines; word: count and tab-separated columns work too.")
    name = st.text_input("Corpus name", key="corpus_counts_name",
                         placeholder="Word counts").strip() or "Word counts"
    clicked = st.button("Use these word counts as the corpus", type="primary",
                        key="corpus_counts_use")
    if not (clicked or text.strip()):
        return
    try:
        counts = parse_word_counts(text)
    except WordCountError as exc:
        st.error(md_escape(str(exc)), icon=":material/block:")
        return
    if clicked:
        state.set_corpus(state.make_corpus(name, counts=counts, source="counts"))
    active = state.active_corpus()
    if active.source == "counts" and active.counts == counts:
        these, them = ((f"These {len(counts):,} words are", "them") if len(counts) > 1
                       else ("This word is", "it"))
        st.success(f"{these} the active corpus, **{md_escape(active.name)}**: train on {them} "
                   "on the Train page, where each step can be followed by hand.",
                   icon=":material/check_circle:")


# --- statistics -----------------------------------------------------------------------------


def render_stats(corpus: state.SessionCorpus) -> None:
    """The numbers, the most frequent words, the scripts chart and a preview of ``corpus``."""
    st.header(f"What is in “{md_escape(corpus.name)}”")
    if corpus.is_counts:
        st.caption("A word-count corpus: each word comes with how often it occurs, so there is "
                   "no running text to split, and no pre-tokenizer to choose.")
        stats, pretokenizer = counts_stats(corpus.counts), None
        background.replaced(STATS_JOB, None)  # a text corpus's count under way stops
    else:
        pretokenizer = st.selectbox("Split the text into words with the pre-tokenizer",
                                    PRETOKENIZER_CHOICES, format_func=wording.PRETOKENIZERS.get,
                                    index=PRETOKENIZER_CHOICES.index("whitespace"),
                                    key="corpus_pretokenizer", persist_state="session",
                                    help=PRETOKENIZER_HELP, width=320)
        stats = stats_of(corpus, pretokenizer)
        if stats is None:
            return  # counted in the background: its progress is drawn above
    pieces = wording.units(pretokenizer)
    _metrics(stats, corpus, pieces)
    words, scripts = st.columns([2, 3], gap="large")
    with words:
        st.markdown(f"**Most frequent {pieces.many}** ({pieces.split})")
        if stats.top_words:
            table = top_words_table(stats, pieces=pieces)
            st.dataframe(table, height=min(738, 38 + 35 * len(stats.top_words)),
                         column_config=fit_columns(table, fitted_columns(table, pieces.one),
                                                   room=WORDS_ROOM))
        else:
            st.caption(f"No {pieces.many}: the corpus holds only whitespace.")
    with scripts:
        st.markdown("**Writing systems** (Unicode scripts, in characters)")
        if stats.scripts:
            # Titled as every chart is: the figure's own words for a screen reader.
            figure = titled(scripts_figure(stats.scripts),
                            f"Characters of {corpus.name} by writing system", share=3 / 5)
            st.plotly_chart(figure, config={"displayModeBar": False})
            if "Common" in stats.scripts:
                st.caption(f"“Common” covers {COMMON_HINT}, shared by all scripts.")
    if corpus.is_counts:
        with st.expander("Word counts", expanded=True):
            table = pd.DataFrame({"word": [readable(w) for w in corpus.counts],
                                  "count": list(corpus.counts.values())})
            st.dataframe(table, hide_index=True, column_config=fitted_columns(table, "word"))
    else:
        # (Shorter than the cut, the preview is the whole corpus.)
        part = ("the whole corpus" if len(stats.preview) < PREVIEW_CHARS
                else f"the first {PREVIEW_CHARS:,} characters")
        # Drawn only when opened (it reruns the page): a closed expander's code block still
        # cost a fresh page load its highlighter, about 2 s of JavaScript on a slow machine.
        preview = st.expander(f"Preview ({part})", key=PREVIEW_KEY, on_change="rerun")
        if preview.open:
            # Bidi overrides and control characters as markers: raw, an override would
            # reverse the rest of the preview. A lone carriage return (an old Mac file's line
            # end) is drawn as nothing by the browser, running its lines together: a line break.
            preview.code(LONE_CR.sub("\n", readable(stats.preview, whitespace=False)),
                         language=None, wrap_lines=True)


def _metrics(stats: CorpusStats, corpus: state.SessionCorpus, pieces: wording.Units) -> None:
    shown = [("Bytes", stats.bytes, "Size in UTF-8: what a byte-level tokenizer starts from."),
             ("Characters", stats.characters, "Unicode code points.")]
    if not corpus.is_counts:
        shown.append(("Lines", stats.lines, "Lines of text, across all documents."))
    shown += [(pieces.title, stats.words, f"Every occurrence of every {pieces.one}: "
               f"{pieces.phrase}."),
              (f"Distinct {pieces.many}", stats.unique_words,
               f"How big a vocabulary of whole {pieces.many} would have to be.")]
    cards = metrics.row()
    for label, value, help_text in shown:
        metrics.count(cards, label, value, help=help_text, border=True)
    notes = [f"Counted in **{pieces.phrase}**."]
    if stats.characters:
        notes.append(f"A character takes **{stats.bytes / stats.characters:.2f} bytes** on average "
                     f"(about 1 in English, 2 in Russian or Greek, 2.5 in Hindi, 3 in Chinese).")
    if stats.unique_words:
        notes.append(f"A {pieces.one} occurs **{stats.words / stats.unique_words:,.1f} times** "
                     "on average.")
    if not corpus.is_counts:
        notes.append(f"{wording.documents(len(corpus.documents))} (a file, a row of a table or a "
                     "line of a .jsonl file is one document).")
    st.caption(" ".join(notes))
