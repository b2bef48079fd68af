"""BPE Playground: the entry point. Sets up the page, the session and the navigation.

Run with ``streamlit run app.py``.
"""

from pathlib import Path

import streamlit as st

from ui.shared import sidebar, state

# A picture of our own, not an emoji (a blank box where no emoji font is installed) nor a
# Material icon (which the browser would fetch from Google's servers for the tab).
ICON = str(Path(__file__).parent / "assets" / "favicon.png")
st.set_page_config(page_title="BPE Playground", page_icon=ICON, layout="wide",
                   menu_items={"About": "BPE Playground: watch byte-pair encoding learn a "
                                        "vocabulary, merge by merge."})
state.init()

pages = [
    st.Page("app_pages/corpus.py", title="Corpus", icon=":material/menu_book:", default=True),
    st.Page("app_pages/train.py", title="Train", icon=":material/model_training:"),
    st.Page("app_pages/tokenize.py", title="Tokenize", icon=":material/text_fields:"),
    st.Page("app_pages/languages.py", title="Languages", icon=":material/translate:"),
    st.Page("app_pages/vocabulary.py", title="Vocabulary", icon=":material/dictionary:"),
]
nav = st.navigation(pages)
sidebar.render()
before = state.snapshot()
nav.run()
if state.snapshot() != before:
    st.rerun()  # the page changed the active corpus or tokenizer: draw the sidebar again with it
