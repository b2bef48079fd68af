"""The Tokenize page's sections: the text and its options, the coloured tokens with counts, and
the merge tree of a picked token (the same text under other tokenizers is ``ui.tokenize.compare``).

Session keys used here all start with ``tok_``; the text area's is ``tok_text``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from bpe_core import PatternError, Tokenizer, TokenSpan
from bpe_core.post_processors import around

from ..shared import metrics, slow_regex
from ..shared.annotate import coloured_html, legend, md_literal
from ..shared.background import pending
from ..shared.merge_tree import caption, recipe, recipe_table, tree_dot, why_no_tree
from ..shared.columns import fit_columns
from ..shared.tokens import NOTATION_HELP, md_escape
from ..shared.wording import WHITESPACE_WORDS, plural
from . import background, browser
from .address import TEXT_KEY, VIEWS, merges_key
from .data import (TextCounts, budget_note, choice_label, differences, id_lists, limits_note,
                   merge_step_note, occurrences, pages, text_counts, token_table)
from .presets import presets

#: Longest text the page tokenizes; past it, the first this many characters are shown.
MAX_CHARS = 500_000
#: Tokens drawn at once; a longer text is shown a page of this many tokens at a time.
PAGE_TOKENS = 5_000
#: The box the tokens scroll in: a long text keeps the page's length, not its own.
SCROLL_CSS = ".bpe-scroll{max-height:26rem;overflow:auto;padding-right:4px}"
#: Past this many merges the slider is too coarse to pick one merge: a number box goes with it.
SLIDER_MERGES = 500
#: Pixels the token table has in a 1280-px window (the right of the page): its columns fit.
TABLE_ROOM = 456
TABLE_COLUMNS = {"characters": st.column_config.TextColumn(
    "chars", help="The characters of the text it covers: from–to, counted from 0, the end left "
                  "out")}
BOX = "::box"  # suffix of the number box's key beside a merges slider
DEFAULT_TEXT = "the lowest price is lower than the last one"
COLOURS = {"alternate": "Neighbours apart", "id": "By token id"}
METHODS = {"rank": "Rank priority (tiktoken, Hugging Face)",
           "merge-order": "Replay merges in training order (textbook)",
           "longest-match": "Longest match first (greedy)"}
#: The tooltip line of a box another encoder outlines: the outline alone is lost on a screen reader.
RANK_NOTE = "Outlined in red: rank priority does not give this token"
PICK_KEY, CLICK_KEY, CHOSEN_KEY, PAGE_KEY = "tok_pick", "tok_clicked", "tok_chosen", "tok_page"
JUMP_KEY = "tok_jump"  # set when a token is picked in the list: show the page of its box


@dataclass(frozen=True)
class Options:
    text: str
    show_whitespace: bool
    upto: int | None  # merges used: None for all
    view: str
    method: str  # "rank", "merge-order" or "longest-match"
    colours: str  # "alternate" or "id"
    limit: int | None  # the token budget


# --- input ---------------------------------------------------------------------------------


def _use_preset() -> None:
    name = st.session_state.get("tok_preset")
    if name:
        st.session_state[TEXT_KEY] = presets()[name]
        st.session_state.pop(PICK_KEY, None)


def _clicked(position: int) -> None:
    st.session_state[CLICK_KEY] = position


def _picked_in_list() -> None:
    st.session_state[JUMP_KEY] = True


def input_panel(tok: Tokenizer) -> Options:
    """The text area, the example picker and the options; returns what they say."""
    ss = st.session_state
    ss.setdefault(TEXT_KEY, DEFAULT_TEXT)
    # (A placeholder short enough for the narrow column: a longer one was cut short.)
    st.selectbox("Example text", list(presets()), index=None, key="tok_preset",
                 placeholder="Pick an example…", on_change=_use_preset)
    text = st.text_area("Text", key=TEXT_KEY, height=200, persist_state="session",
                        help="The colouring follows as you type. Nothing you type is run or "
                             "interpreted: HTML, markdown and invisible characters show as text. "
                             "Select characters here to mark their tokens. Lines end as the "
                             "browser gives a text box's lines: a pasted Windows line end "
                             "(`\\r\\n`) as a newline alone (`\\n`).")
    browser.attach(text_key=TEXT_KEY, key="tok_helper", on_pick=_clicked)
    if len(text) > MAX_CHARS:
        st.warning(f"This text has {len(text):,} characters; the page tokenizes the first "
                   f"{MAX_CHARS:,}. Whole documents belong on the Corpus page.")
        text = text[:MAX_CHARS]

    view = st.segmented_control("View", list(VIEWS.values()), default="Coloured text",
                                key="tok_view", required=True, persist_state="session")
    # (A short label: a toggle's stays on one line, cut short in a narrow column.)
    show_ws = st.toggle("Show whitespace", value=True, key="tok_ws", persist_state="session",
                        help=f"Whitespace and invisible characters drawn as marks. {NOTATION_HELP}")
    colours = st.radio("Colours", list(COLOURS), key="tok_colours", format_func=COLOURS.get,
                       horizontal=True, persist_state="session",
                       help="Neighbours apart: two tokens side by side never share a colour. "
                            "By token id: a token has the same colour wherever it appears, in "
                            "any text, so repeats stand out (neighbours may then share one).")
    upto = None
    n = len(tok.merges)
    if n:
        key = merges_key(tok)
        if ss.get(key, n) > n:  # a link may ask for more merges than this tokenizer has
            ss[key] = n
        # Every merge at first; set here, not as the slider's default, which Streamlit would
        # warn about once the number box below or a link has set it.
        ss.setdefault(key, n)
        k = st.slider("Merges used", 0, n, key=key, on_change=_sync, args=(key, key + BOX),
                      help="The segmentation as of merge k of this tokenizer: 0 shows the base "
                           "symbols, the right end uses every merge it learned.")
        if n > SLIDER_MERGES:  # a pixel of the slider is hundreds of merges: type the exact one
            ss[key + BOX] = k
            st.number_input("Exact number of merges", 0, n, step=1, key=key + BOX,
                            on_change=_sync, args=(key + BOX, key))
        upto = None if k == n else k
        st.caption(merge_step_note(tok, k))
    method = st.radio("Encoder", list(METHODS), key="tok_method", format_func=METHODS.get,
                      persist_state="session",
                      help="How the learned merges are applied to new text. Rank priority is "
                           "what tiktoken and Hugging Face do; replaying the merges in training "
                           "order gives the same tokens for a tokenizer trained here (a file "
                           "converted from SentencePiece may differ); longest match is a "
                           "different algorithm that some tutorials describe. Differences are "
                           "outlined in red.")
    limit = st.number_input("Token budget", min_value=1, value=None, step=100, key="tok_limit",
                            placeholder="No budget", persist_state="session",
                            help="A limit such as a model's context window: the page counts the "
                                 "text against it and fades the tokens past it.")
    return Options(text, show_ws, upto, view or "Coloured text", method, colours,
                   int(limit) if limit else None)


def _sync(source: str, target: str) -> None:
    """Keep a merges slider and its number box on the same value, whichever the user moved."""
    st.session_state[target] = st.session_state[source]


# --- output --------------------------------------------------------------------------------


def method_note(tok: Tokenizer, opts: Options, spans: list[TokenSpan],
                rank: list[TokenSpan] | None) -> set[int]:
    """Positions of the tokens that differ from rank priority's (``rank``), with a caption
    saying how many."""
    if opts.method == "rank" or not spans:
        return set()
    _, marked = differences(rank, spans)
    name = METHODS[opts.method].split(" (")[0].lower()
    if marked:
        note = (f"{name.capitalize()} gives {plural(len(marked), 'token')} that rank priority "
                "does not (outlined in red).")
    else:
        note = f"{name.capitalize()} gives exactly the tokens of rank priority here."
    if tok.ignore_merges and opts.upto is None:
        note += (" Rank priority here first looks a piece up whole when it is a token "
                 "(ignore_merges); this encoder never does, and builds every piece from merges.")
    st.caption(note)
    return marked


def counts_row(counts: TextCounts) -> None:
    cards = metrics.row()
    cards.metric("Tokens", f"{counts.tokens:,}")
    cards.metric("Characters", f"{counts.characters:,}")
    cards.metric("Bytes", f"{counts.bytes:,}", help="UTF-8 bytes")
    cards.metric("Words", f"{counts.words:,}", help=f"{WHITESPACE_WORDS.phrase.capitalize()}: "
                 "runs of characters between spaces, tabs and newlines.")
    cards.metric("Chars/token", f"{counts.chars_per_token:.2f}")
    cards.metric("Bytes/token", f"{counts.bytes_per_token:.2f}")


def budget(spans: list[TokenSpan], opts: Options) -> int | None:
    """The token budget's bar and note; returns the first position past it, if any is."""
    if opts.limit is None:
        return None
    paged = len(spans) > PAGE_TOKENS  # then say on which page the budget ends
    note = budget_note(opts.text, spans, opts.limit,
                       page=opts.limit // PAGE_TOKENS + 1 if paged else None)
    st.progress(min(1.0, len(spans) / opts.limit), text=note)
    return opts.limit if len(spans) > opts.limit else None


def page_window(spans: list[TokenSpan]) -> range:
    """The positions drawn: all of a short text, one page of a long one (picked here)."""
    windows = pages(len(spans), PAGE_TOKENS)
    ss = st.session_state
    if len(windows) == 1:
        return windows[0]
    if ss.get(PAGE_KEY, 0) >= len(windows):
        ss[PAGE_KEY] = 0
    k = st.selectbox(
        "Page", range(len(windows)), key=PAGE_KEY,
        format_func=lambda i: (f"Tokens {windows[i].start + 1:,}–{windows[i].stop:,} "
                               f"(characters {spans[windows[i].start].start:,}–"
                               f"{spans[windows[i].stop - 1].end:,})"),
        help=f"A long text is drawn {PAGE_TOKENS:,} tokens at a time, so the page stays quick.")
    return windows[k]


def default_pick(tok: Tokenizer, seen: dict[int, tuple[int, int]]) -> None:
    """Pick the text's longest token (the first of the longest) when the picked one is not in
    it (``seen``: its ``occurrences``): here, before the boxes are drawn, so that the box the
    details call framed is."""
    if st.session_state.get(PICK_KEY) not in seen:
        st.session_state[PICK_KEY] = max(seen, key=lambda i: (len(tok.token_bytes(i)),
                                                              -seen[i][0]))


def chosen_position(tok: Tokenizer, spans: list[TokenSpan],
                    seen: dict[int, tuple[int, int]]) -> int | None:
    """The position of the picked token's box to frame: the one clicked, else the first
    occurrence of the token picked in the list, whose page is then shown."""
    ss = st.session_state
    clicked = ss.pop(CLICK_KEY, None)
    if clicked is not None and clicked < len(spans):
        ss[CHOSEN_KEY], ss[PICK_KEY] = clicked, spans[clicked].id
    default_pick(tok, seen)
    chosen, picked = ss.get(CHOSEN_KEY), ss.get(PICK_KEY)
    if chosen is not None and chosen < len(spans) and spans[chosen].id == picked:
        return chosen
    chosen = seen[picked][0]
    if ss.pop(JUMP_KEY, False):  # picked in the list just now
        ss[PAGE_KEY] = chosen // PAGE_TOKENS
    return chosen


@dataclass(frozen=True)
class Shown:
    """What the output shows: the text's tokens, the position of the framed one, and the
    positions drawn (the page of a long text); not ``ready`` while a worker tokenizes it;
    ``stopped``, the sentence shown instead, when the text was not tokenized (a regex of the
    tokenizer's file was stopped, or the worker failed or was cancelled)."""

    spans: list[TokenSpan]
    chosen: int | None
    window: range
    ready: bool = True
    stopped: str | None = None
    seen: dict[int, tuple[int, int]] = field(default_factory=dict)  # the spans' occurrences


#: What the active tokenizer's column of a comparison says when the text above was not tokenized
#: (its worker failed or was cancelled, or the tab had too many tasks to start it).
NOT_TOKENIZED = ("Not tokenized: the work above stopped (see why there, with a button to start "
                 "it again).")


def output_panel(tok: Tokenizer, opts: Options) -> Shown:
    """Counts and the tokens in the chosen view (a long text's once a worker has them)."""
    try:
        found = background.spans(tok, opts.text, opts.upto, opts.method)
    except PatternError as exc:
        return Shown([], None, range(0), stopped=slow_regex.show(exc))
    if found is None:
        if pending(background.JOB):  # a worker tokenizes it: its progress is drawn here
            return Shown([], None, range(0), ready=False)
        return Shown([], None, range(0), stopped=NOT_TOKENIZED)
    spans, rank = found
    counts_row(text_counts(opts.text, spans))
    limits = limits_note(tok.config, len(spans), len(around(tok.post_processor, [])))
    if limits:  # (a file saved after enable_truncation or enable_padding was called)
        st.info(md_escape(limits), icon=":material/content_cut:")
    if not spans:
        st.info(f"The tokenizer makes no tokens of these {plural(len(opts.text), 'character')}: "
                "its normalizer or pre-tokenizer drops them all (BERT's, as the first GPT has "
                "them, drop whitespace and control characters)." if opts.text else
                "Type or paste some text on the left to see its tokens.")
        return Shown(spans, None, range(0))
    over = budget(spans, opts)
    marked = method_note(tok, opts, spans, rank)
    seen = occurrences(spans)  # (a Python loop over every token: made once a run)
    chosen = chosen_position(tok, spans, seen)
    window = page_window(spans)
    if opts.view == "Table":
        table = token_table(tok, spans, opts.text, window=window)
        st.dataframe(table, hide_index=True, height=360,
                     column_config=fit_columns(table, TABLE_COLUMNS, room=TABLE_ROOM))
    else:
        label = "id" if opts.view == "Ids" else "text"
        html = coloured_html(tok, spans, opts.text, show_whitespace=opts.show_whitespace,
                             marked=marked, marked_note=RANK_NOTE, label=label,
                             colours=opts.colours, window=window,
                             chosen=chosen, over=over, pickable=True)
        st.html(f"<style>{SCROLL_CSS}</style>"
                f'<div class="{browser.PICK_CLASS} bpe-scroll">{html}</div>')
        styles = legend(tok, spans, opts.text, window=window)
        st.caption("Hover a token to see its characters in the text, or select characters to "
                   "mark their tokens; click a token (or Tab to the tokens, move with the "
                   "arrow keys and press Enter) to see its merge tree below."
                   + (" Neighbouring tokens never share a colour." if opts.colours == "alternate"
                      else " A token has the same colour wherever it appears.")
                   + (f"  \n{md_literal(styles)}." if styles else ""))
    id_list(spans)
    return Shown(spans, chosen, window, seen=seen)


def id_list(spans: list[TokenSpan]) -> None:
    """The ids to copy, as a Python list and as plain numbers (drawn only when opened)."""
    box = st.expander("Token ids to copy", icon=":material/content_copy:", key="tok_ids",
                      on_change="rerun")
    if box.open:
        python, plain = id_lists(spans)
        with box:
            st.caption("As a Python list:")
            st.code(python, language="python", wrap_lines=True, height=120)
            st.caption("Plain, separated by spaces:")
            st.code(plain, language=None, wrap_lines=True, height=120)


# --- the merge tree ------------------------------------------------------------------------


def explain_panel(tok: Tokenizer, shown: Shown) -> None:
    """Pick a token (here or by clicking it) and draw how it was built from its merges."""
    st.header("How a token was built", anchor=False)
    spans, chosen = shown.spans, shown.chosen
    if not spans:
        st.caption("No tokens yet.")
        return
    seen = shown.seen
    token_id = st.selectbox(
        "Token", list(seen), key=PICK_KEY,
        format_func=lambda i: choice_label(tok, i), on_change=_picked_in_list,
        help="The text's distinct tokens, in order of first appearance. Or click a token above.")
    first, count = seen[token_id]
    at = chosen if chosen is not None and spans[chosen].id == token_id else first
    span = spans[at]
    # Its place counted from 1, as the Page picker counts ("Tokens 1–5,000"): "#9" was the
    # tenth box, while a "#" in a merge tree is a rank, counted from 0.
    st.markdown(f"id **{token_id}** · bytes `{span.bytes.hex(' ').upper() or '—'}` · "
                f"{count:,} time{'s' * (count != 1)} in the text; framed above: token "
                f"{at + 1:,} of {len(spans):,}, characters {span.start:,}–{span.end:,}")
    tree = tok.merge_tree(token_id)
    if tree.rank is None:
        st.caption(md_escape(why_no_tree(tok, token_id)))
        return
    st.caption(md_escape(caption(tok, token_id, tree)))
    st.graphviz_chart(tree_dot(tree))
    st.dataframe(recipe_table(recipe(tree)), hide_index=True)
