"""The Tokenize page's comparison: the same text under up to three more tokenizers, side by
side, with their counts, where they cut differently outlined and, if asked, each model's BOS/EOS.

Session keys used here start with ``tok_compare``.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer, TokenSpan
from bpe_core.spans import with_template

from ..shared import loaders, state
from ..shared.annotate import coloured_html, md_literal
from ..shared.sidebar import describe
from ..shared.wording import plural
from . import background
from .data import covering, outlines, text_counts
from .view import SCROLL_CSS, Options, Shown

#: Tokenizers shown side by side at most, the active one included.
MAX_COMPARE = 4
#: Session key of the last outlines drawn, with what they were found from (see _outlines).
OUTLINES_KEY = "tok_compare_outlines"


def compare_panel(tok: Tokenizer, opts: Options, shown: Shown) -> None:
    """The same text under up to three more tokenizers, side by side, with counts."""
    st.header("Compare tokenizers")
    others = [n for n in state.tokenizers() if n != tok.name]
    refs = [r for r in loaders.loadable_references() if r not in state.tokenizers()]
    ss = st.session_state
    asked = ss.get("tok_compare") or []
    if any(n not in others + refs for n in asked):  # a link's names this session lacks
        ss["tok_compare"] = [n for n in asked if n in others + refs][:MAX_COMPARE - 1]
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
        background.not_compared()
        st.caption("Pick tokenizers to see how differently they cut the same text.")
        return
    spans, window = shown.spans, shown.window
    chars = ((spans[window.start].start, spans[window.stop - 1].end)
             if len(window) < len(spans) else None)
    if chars:
        st.caption(f"Each column shows characters {chars[0]:,}–{chars[1]:,}, the page shown "
                   "above; the counts are for the whole text.")
    left, right = st.columns(2)
    specials = left.toggle(
        "Add each model's special tokens (BOS/EOS)", key="tok_compare_specials",
        help="The tokens a model's post-processor puts around the text it receives "
             "(add_special_tokens=True), such as Llama's <|begin_of_text|>. Tokenizers "
             "without a post-processor add none.")
    outline = right.toggle(
        "Outline where they cut differently", value=True, key="tok_compare_diff",
        help="In the first column, the tokens some other column lacks; in the others, the "
             "tokens the first lacks (a token is the same when it covers the same characters "
             "of the text).")
    failed = {}  # references that could not be fetched: why, in their column
    for name in choices:
        if name not in state.tokenizers():
            failed[name] = loaders.fetch_into_session(name, activate=False)
    for name in choices:  # a fetch may have let an older one go: a tab keeps a bounded number
        if not failed.get(name) and name not in state.tokenizers():
            failed[name] = (f"Let go to keep this tab within {state.MAX_TOKENIZERS} tokenizers; "
                            "train or load it again to compare it.")
    names = [name for name in choices if not failed.get(name)]
    # The active tokenizer's column is the tokens above (its merges slider applies): not encoded
    # again. The others use all their merges; a long text goes to a worker, beside the one above.
    encoded = background.compared([state.tokenizers()[n] for n in names], opts.text, opts.method)
    if encoded is not None and not shown.ready:
        st.caption("The other columns are ready; they show with the tokens above.")
    if encoded is None or not shown.ready:  # a worker's progress is drawn, here or above
        return
    by_name = dict(zip([tok.name, *names], [shown.stopped or shown.spans, *encoded]))
    compared = {name: failed.get(name) or _with_specials(state.tokenizers()[name], by_name[name],
                                                         opts.text, specials)
                for name in [tok.name, *choices]}
    marked = _outlines(compared, opts, specials) if outline else {}
    for k, (col, (name, found)) in enumerate(zip(st.columns(len(compared)), compared.items())):
        with col:
            compare_column(name, found, opts, chars=chars, marked=marked.get(k, set()),
                           first=tok.name)


def _outlines(compared: dict[str, list[TokenSpan] | str], opts: Options,
              specials: bool) -> dict[int, set[int]]:
    """:func:`~ui.tokenize.data.outlines` of the columns ``compared``, kept in the session while
    they stay the same: over 500,000 characters and four tokenizers they take most of a second,
    which a rerun for anything else (a page of the text, a colour) would spend again. A column
    is the same when its tokenizer's fingerprint (or its message), the text, the encoder, the
    active column's merges and the BOS/EOS toggle are."""
    tokenizers = state.tokenizers()
    columns = tuple(found if isinstance(found, str) else tokenizers[name].fingerprint()
                    for name, found in compared.items())
    key = (columns, opts.text, opts.method, opts.upto, specials)
    kept = st.session_state.get(OUTLINES_KEY)
    if kept is None or kept[0] != key:
        kept = st.session_state[OUTLINES_KEY] = (key, outlines(list(compared.values())))
    return kept[1]


def _with_specials(tok: Tokenizer, spans: list[TokenSpan] | str, text: str,
                   specials: bool) -> list[TokenSpan] | str:
    """``spans`` with the BOS/EOS ``tok``'s post-processor adds when ``specials`` is on, as
    ``tok.spans(text, add_special_tokens=True)`` gives them (without encoding again); a column's
    message (its regex was stopped) as it is."""
    if not specials or isinstance(spans, str):
        return spans
    return with_template(tok.post_processor, tok.view, spans, len(text))


def compare_column(name: str, found: list[TokenSpan] | str, opts: Options, *,
                   chars: tuple[int, int] | None, marked: set[int], first: str) -> None:
    st.markdown(f"**{md_literal(name)}**")
    if isinstance(found, str):  # it could not be fetched, or encode the text: why
        st.warning(found)
        return
    other = state.tokenizers()[name]
    c = text_counts(opts.text, found)
    st.caption(f"{describe(other)}  \n**{plural(c.tokens, 'token')}** · {c.chars_per_token:.2f} "
               f"chars/token · {c.bytes_per_token:.2f} bytes/token")
    window = covering(found, *chars) if chars else None
    other_name = "some other tokenizer" if name == first else first
    st.html(f'<style>{SCROLL_CSS}</style><div class="bpe-scroll">'
            + coloured_html(other, found, opts.text, show_whitespace=opts.show_whitespace,
                            colours=opts.colours, window=window, marked=marked,
                            marked_note=f"Outlined in red: {other_name} does not have this token")
            + "</div>")
    if marked:
        what = other_name if name == first else f"**{md_literal(first)}**"
        st.caption(f"Outlined in red: {plural(len(marked), 'token')} that {what} does not have.")
