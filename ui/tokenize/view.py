"""The Tokenize page's sections: the text and its options, the coloured tokens with counts, the
merge tree of a picked token, and the same text under other tokenizers.

Session keys used here all start with ``tok_``; the text area's is ``tok_text``.
"""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from bpe_core import Tokenizer, TokenSpan

from ..shared import loaders, state
from ..shared.annotate import coloured_html, legend, md_literal
from ..shared.merge_tree import added_note, recipe, recipe_table, summary, tree_dot, why_no_tree
from ..shared.sidebar import describe
from ..shared.tokens import NOTATION_HELP
from ..shared.wording import WHITESPACE_WORDS
from . import browser
from .data import (TextCounts, choice_label, differences, merge_step_note, occurrences, text_counts,
                   token_table, url_params)
from .presets import presets

#: Longest text the page tokenizes; past it, the first this many characters are shown.
MAX_CHARS = 20_000
#: Tokenizers shown side by side at most, the active one included.
MAX_COMPARE = 4
DEFAULT_TEXT = "the lowest price is lower than the last one"
VIEWS = ("Coloured text", "Ids", "Table")
METHODS = {"rank": "Rank priority (tiktoken, Hugging Face)",
           "merge-order": "Replay merges in training order (textbook)",
           "longest-match": "Longest match first (greedy)"}
TEXT_KEY, PICK_KEY, CLICK_KEY = "tok_text", "tok_pick", "tok_clicked"


@dataclass(frozen=True)
class Options:
    text: str
    show_whitespace: bool
    upto: int | None  # merges used: None for all
    view: str
    method: str  # "rank", "merge-order" or "longest-match"


# --- the address bar -----------------------------------------------------------------------


def read_url() -> str | None:
    """Take the text and the tokenizer from the page address, once per session.

    Returns a message for the user when the address names a tokenizer this session lacks.
    """
    ss = st.session_state
    if ss.get("tok_url_read"):
        return None
    ss.tok_url_read = True
    params = st.query_params
    if "text" in params:
        ss[TEXT_KEY] = params["text"]
    name = params.get("tokenizer")
    if not name or name == ss.tokenizer:
        return None
    if name in state.tokenizers():
        state.set_active_tokenizer(name)
        return None
    if name in loaders.reference_names():
        return loaders.fetch_into_session(name)
    return (f"The link asks for the tokenizer {name!r}, which this session does not have; "
            f"showing {ss.tokenizer!r}. Train or load it, then pick it in the sidebar.")


def write_url(text: str, tokenizer: str) -> bool:
    """Put the text (when short) and tokenizer in the address; True if the text fit."""
    wanted = url_params(text, tokenizer)
    current = {k: st.query_params.get(k) for k in ("text", "tokenizer")}
    if current != {k: wanted.get(k) for k in current}:
        for k in ("text", "tokenizer"):
            if k in wanted:
                st.query_params[k] = wanted[k]
            elif k in st.query_params:
                del st.query_params[k]
    return "text" in wanted or not text


def share_note(text_fits: bool) -> None:
    if text_fits:
        st.caption("🔗 The address bar holds this text and tokenizer: copy it to share this view.")
    else:
        st.caption("🔗 The address bar holds the tokenizer; this text is too long to go in a "
                   "link, so share it another way.")


# --- input ---------------------------------------------------------------------------------


def _use_preset() -> None:
    name = st.session_state.get("tok_preset")
    if name:
        st.session_state[TEXT_KEY] = presets()[name]
        st.session_state.pop(PICK_KEY, None)


def _clicked(position: int) -> None:
    st.session_state[CLICK_KEY] = position


def input_panel(tok: Tokenizer) -> Options:
    """The text area, the example picker and the options; returns what they say."""
    ss = st.session_state
    ss.setdefault(TEXT_KEY, DEFAULT_TEXT)
    st.selectbox("Example text", list(presets()), index=None, key="tok_preset",
                 placeholder="Pick an example, or type your own below…", on_change=_use_preset)
    text = st.text_area("Text", key=TEXT_KEY, height=200, persist_state="session",
                        help="The colouring follows as you type. Nothing you type is run or "
                             "interpreted: HTML, markdown and invisible characters show as text.")
    browser.attach(text_key=TEXT_KEY, key="tok_helper", on_pick=_clicked)
    if len(text) > MAX_CHARS:
        st.warning(f"This text has {len(text):,} characters; the page tokenizes the first "
                   f"{MAX_CHARS:,}. Whole documents belong on the Corpus page.")
        text = text[:MAX_CHARS]

    view = st.segmented_control("View", VIEWS, default=VIEWS[0], key="tok_view", required=True,
                                persist_state="session")
    show_ws = st.toggle("Show whitespace and invisible characters", value=True, key="tok_ws",
                        persist_state="session",
                        help=NOTATION_HELP)
    upto = None
    n = len(tok.merges)
    if n:
        k = st.slider("Merges used", 0, n, n, key=f"tok_upto::{tok.name}",
                      help="The segmentation as of merge k of this tokenizer: 0 shows the base "
                           "symbols, the right end uses every merge it learned.")
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
    return Options(text, show_ws, upto, view or VIEWS[0], method)


# --- output --------------------------------------------------------------------------------


def spans_of(tok: Tokenizer, opts: Options, *, method: str | None = None) -> list[TokenSpan]:
    """The text's tokens as the options ask (special tokens in the text count as special)."""
    return tok.spans(opts.text, upto=opts.upto,
                     method=method or opts.method)


def method_note(tok: Tokenizer, opts: Options, spans: list[TokenSpan]) -> set[int]:
    """Positions of the tokens that differ from rank priority, with a caption saying how many."""
    if opts.method == "rank" or not spans:
        return set()
    _, marked = differences(spans_of(tok, opts, method="rank"), spans)
    name = METHODS[opts.method].split(" (")[0].lower()
    if marked:
        note = (f"{name.capitalize()} gives {len(marked):,} token(s) that rank priority does "
                f"not (outlined in red).")
    else:
        note = f"{name.capitalize()} gives exactly the tokens of rank priority here."
    if tok.ignore_merges and opts.upto is None:
        note += (" Rank priority here first looks a piece up whole when it is a token "
                 "(ignore_merges); this encoder never does, and builds every piece from merges.")
    st.caption(note)
    return marked


def counts_row(counts: TextCounts) -> None:
    cols = st.columns(6)
    cols[0].metric("Tokens", f"{counts.tokens:,}")
    cols[1].metric("Characters", f"{counts.characters:,}")
    cols[2].metric("Bytes", f"{counts.bytes:,}", help="UTF-8 bytes")
    cols[3].metric("Words", f"{counts.words:,}", help=f"{WHITESPACE_WORDS.phrase.capitalize()}: "
                   "runs of characters between spaces, tabs and newlines.")
    cols[4].metric("Chars/token", f"{counts.chars_per_token:.2f}")
    cols[5].metric("Bytes/token", f"{counts.bytes_per_token:.2f}")


def output_panel(tok: Tokenizer, opts: Options) -> list[TokenSpan]:
    """Counts and the tokens in the chosen view; returns the spans."""
    spans = spans_of(tok, opts)
    counts_row(text_counts(opts.text, spans))
    if not spans:
        st.info("Type or paste some text on the left to see its tokens.")
        return spans
    marked = method_note(tok, opts, spans)
    if opts.view == "Table":
        st.dataframe(token_table(tok, spans, opts.text), hide_index=True, height=360,
                     column_config={"#": st.column_config.NumberColumn(width="small"),
                                    "id": st.column_config.NumberColumn(width="small")})
    else:
        label = "id" if opts.view == "Ids" else "text"
        html = coloured_html(tok, spans, opts.text, show_whitespace=opts.show_whitespace,
                             marked=marked, label=label)
        st.html(f'<div class="{browser.PICK_CLASS}">{html}</div>')
        styles = legend(tok, spans, opts.text)
        st.caption("Hover a token for its id, bytes and how it was learned; click one to see "
                   "its merge tree below. Neighbouring tokens never share a colour."
                   + (f"  \n{md_literal(styles)}." if styles else ""))
    return spans


# --- the merge tree ------------------------------------------------------------------------


def explain_panel(tok: Tokenizer, spans: list[TokenSpan], text: str) -> None:
    """Pick a token (here or by clicking it) and draw how it was built from its merges."""
    st.subheader("How a token was built", anchor=False)
    if not spans:
        st.caption("No tokens yet.")
        return
    seen = occurrences(spans)
    ss = st.session_state
    clicked = ss.pop(CLICK_KEY, None)
    if clicked is not None and clicked < len(spans):
        ss[PICK_KEY] = spans[clicked].id
    if ss.get(PICK_KEY) not in seen:
        ss[PICK_KEY] = max(seen, key=lambda i: (len(tok.token_bytes(i)), -seen[i][0]))
    token_id = st.selectbox(
        "Token", list(seen), key=PICK_KEY,
        format_func=lambda i: choice_label(tok, i),
        help="The text's distinct tokens, in order of first appearance. Or click a token above.")
    first, count = seen[token_id]
    span = spans[first]
    st.markdown(f"id **{token_id}** · bytes `{span.bytes.hex(' ').upper() or '—'}` · "
                f"{count:,} time{'s' * (count != 1)} in the text, first at characters "
                f"{span.start}–{span.end}")
    tree = tok.merge_tree(token_id)
    if tree.rank is None:
        st.caption(why_no_tree(tok, token_id))
        return
    note = added_note(tok, token_id)
    st.caption(f"{note} {summary(tree)}" if note else summary(tree))
    st.graphviz_chart(tree_dot(tree))
    st.dataframe(recipe_table(recipe(tree)), hide_index=True)


# --- comparing tokenizers ------------------------------------------------------------------


def compare_panel(tok: Tokenizer, opts: Options) -> None:
    """The same text under up to three more tokenizers, side by side, with counts."""
    st.subheader("Compare tokenizers")
    others = [n for n in state.tokenizers() if n != tok.name]
    refs = [r for r in loaders.loadable_references() if r not in state.tokenizers()]
    if not others + refs:
        st.caption("This session has one tokenizer. Train another on the Train page, or load "
                   "one above, to see how differently two tokenizers cut the same text.")
        return
    choices = st.multiselect(
        "Compare with", others + refs, key="tok_compare", max_selections=MAX_COMPARE - 1,
        format_func=lambda n: f"{loaders.reference_title(n)} (downloads)" if n in refs else n,
        placeholder="Pick up to three more tokenizers…",
        help="This session's trained and loaded tokenizers; references download when picked.")
    if not choices:
        st.caption("Pick tokenizers to see how differently they cut the same text.")
        return
    cols = st.columns(len(choices) + 1)
    for col, name in zip(cols, [tok.name] + choices):
        with col:
            compare_column(name, opts, upto=opts.upto if name == tok.name else None)


def compare_column(name: str, opts: Options, *, upto: int | None) -> None:
    st.markdown(f"**{md_literal(name)}**")
    other = state.tokenizers().get(name)
    if other is None:
        message = loaders.fetch_into_session(name, activate=False)
        if message:
            st.warning(message)
            return
        other = state.tokenizers()[name]
    spans = other.spans(opts.text, upto=upto, method=opts.method)
    c = text_counts(opts.text, spans)
    st.caption(f"{describe(other)}  \n**{c.tokens:,} tokens** · {c.chars_per_token:.2f} "
               f"chars/token · {c.bytes_per_token:.2f} bytes/token")
    st.html(coloured_html(other, spans, opts.text, show_whitespace=opts.show_whitespace))
