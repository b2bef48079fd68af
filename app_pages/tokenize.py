"""Tokenize: paste text and see it cut into coloured tokens, with ids, counts and merge trees."""

import streamlit as st

from ui.shared import loaders, state
from ui.tokenize import address, chat, compare, view

st.title("Tokenize", anchor=False)
st.markdown(
    "Type or paste any text and see how the active tokenizer cuts it into **tokens**, the units a "
    "language model reads. Each coloured box is one token; hover it for its id and bytes, click "
    "it to see which merges built it. Slide back through the merges to watch the text fall apart "
    "into its base symbols (bytes or characters), or put other tokenizers beside it.")

notice = address.read_url()
if notice:
    st.info(notice)
tok = state.active_tokenizer()

left, right = st.columns([2, 3], gap="large")
with left:
    opts = view.input_panel(tok)
    with st.expander("Load a tokenizer", icon=":material/upload_file:"):
        loaders.load_panel(key="tok_load")
with right:
    st.markdown(f"**{view.md_literal(tok.name)}** — change it in the sidebar.")
    shown = view.output_panel(tok, opts)
    view.explain_panel(tok, shown)

st.divider()
compare.compare_panel(tok, opts, shown)
st.divider()
chat.chat_panel(tok, show_whitespace=opts.show_whitespace, colours=opts.colours)
address.share_panel(address.write_url(address.shown(tok.name, opts.upto)))
