"""The Tokenize page's address: a link holds the text, the tokenizer and every view option, so
it opens exactly what its sender saw (see :class:`ui.tokenize.data.Shared`).

The address is read once per session, before the page's widgets are drawn, into their session
keys; after every run the page writes what it shows back into it.
"""

from __future__ import annotations

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.formats.hub import in_cache

from ..shared import catalogue, loaders, state
from ..shared.annotate import md_literal
from ..shared.tokens import md_escape
from . import browser
from .data import Shared, from_url, url_params

TEXT_KEY = "tok_text"
#: Session key of each option a link sets, by its name in the address.
KEYS = {"view": "tok_view", "whitespace": "tok_ws", "encoder": "tok_method",
        "colours": "tok_colours", "limit": "tok_limit", "compare": "tok_compare"}
#: The view's name in the address -> its label on the page.
VIEWS = {"text": "Coloured text", "ids": "Ids", "table": "Table"}


#: The merges a link asked for, with its tokenizer's name, until that tokenizer's slider is
#: drawn (it may be loaded only then).
LINK_MERGES = "tok_url_merges"


def merges_key(tok: Tokenizer) -> str:
    """The session key of ``tok``'s merges slider, by its name and its contents: another
    tokenizer kept under the same name later (the first let go, or trained anew) starts at
    every merge, not at the position the first was left at. A link's merges go to the
    tokenizer it names."""
    ss = st.session_state
    key = f"tok_upto::{tok.name}::{tok.fingerprint()}"
    asked = ss.get(LINK_MERGES)
    if asked and asked[0] == tok.name:
        ss[key] = asked[1]
        del ss[LINK_MERGES]
    return key


def read_url() -> str | None:
    """Take the text, the tokenizer and the view options from the address, once per session.

    Returns a message for the user when the address names a tokenizer this session lacks.
    """
    ss = st.session_state
    if ss.get("tok_url_read"):
        return None
    ss.tok_url_read = True
    params = {k: st.query_params.get_all(k) for k in st.query_params}
    if "text" in params:
        ss[TEXT_KEY] = params["text"][-1]
    options = from_url(params)
    for name, key in KEYS.items():
        if name in options:
            value = options[name]
            ss[key] = (VIEWS[value] if name == "view" else list(value) if name == "compare"
                       else value)
    name = params.get("tokenizer", [None])[-1]
    if "merges" in options:  # checked against the tokenizer's merges when the slider is drawn
        ss[LINK_MERGES] = name or ss.tokenizer, options["merges"]
    if not name or name == ss.tokenizer:
        return None
    if name in state.tokenizers():
        state.set_active_tokenizer(name)
        return None
    if name in loaders.reference_names():
        return loaders.fetch_into_session(name)
    if in_cache(name):  # a Hub model the sender loaded, on this machine: offline, at once
        refused = catalogue.load_into_session(name)[1]
        return refused and md_literal(refused)
    # Markdown, with the link's text shown as it is: '[x](https://…)' is no link of ours.
    return (f"The link asks for the tokenizer {md_escape(repr(name))}, which this session does "
            f"not have; showing {md_escape(repr(ss.tokenizer))}. Train or load it, then pick it "
            f"in the sidebar.")


def shown(tokenizer: str, merges: int | None) -> Shared:
    """What the page shows now, from its widgets' session keys."""
    ss = st.session_state
    view = next((k for k, v in VIEWS.items() if v == ss.get("tok_view")), "text")
    return Shared(ss.get(TEXT_KEY, ""), tokenizer, view=view, whitespace=ss.get("tok_ws", True),
                  merges=merges, encoder=ss.get("tok_method", "rank"),
                  colours=ss.get("tok_colours", "alternate"), limit=ss.get("tok_limit"),
                  compare=tuple(ss.get("tok_compare") or ()))


def write_url(view: Shared) -> bool:
    """Put ``view`` in the address; True if its text fit (or there is none)."""
    wanted = {k: v if isinstance(v, list) else [v] for k, v in url_params(view).items()}
    if {k: st.query_params.get_all(k) for k in st.query_params} != wanted:
        st.query_params.from_dict(wanted)
    return "text" in wanted or not view.text


def share_panel(text_fits: bool) -> None:
    """The copy-link button, and what a link holds."""
    left, right = st.columns([1, 5], vertical_alignment="center")
    with left:
        browser.copy_link_button(key="tok_copy_link")
    with right:
        if text_fits:
            st.caption("The link holds this text, the tokenizer and the view options: it opens "
                       "this view as you see it.")
        else:
            st.caption("The link holds the tokenizer and the view options; this text is too "
                       "long to go in a link, so share it another way.")
