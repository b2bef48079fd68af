"""The app's theme (.streamlit/config.toml) read as a low-vision user's eyes would: every text
colour Streamlit derives from it reaches WCAG AA's 4.5:1 on the backgrounds it sits on."""

from __future__ import annotations

import tomllib
from pathlib import Path

from tests.test_notation import contrast, css_colour

THEME = tomllib.loads((Path(__file__).parents[1] / ".streamlit" / "config.toml")
                      .read_text(encoding="utf-8"))["theme"]


def test_captions_are_readable_on_the_page_and_in_the_sidebar():
    # st.caption is the text colour at 60% opacity (Streamlit's fadedText60): with #1c2331 it
    # gave 4.25:1 on the page and 4.12:1 in the sidebar, where the corpus and tokenizer are said.
    text = css_colour(THEME["textColor"])
    for background in (THEME["backgroundColor"], THEME["secondaryBackgroundColor"]):
        under = css_colour(background)
        caption = tuple(0.6 * t + 0.4 * u for t, u in zip(text, under))
        assert contrast(caption, under) >= 4.5, background


def test_the_selected_option_and_links_in_the_primary_colour_are_readable():
    # A segmented control's selected option ("Coloured text", "Train a BPE tokenizer") is the
    # primary colour on a 10% tint of it: #2f6fdb gave 4.17:1 there, and 4.36:1 on the sidebar.
    from ui.shared.tokens import ACCENT
    primary = css_colour(THEME["primaryColor"])
    white = css_colour(THEME["backgroundColor"])
    tint = tuple(0.1 * p + 0.9 * w for p, w in zip(primary, white))
    for under in (tint, white, css_colour(THEME["secondaryBackgroundColor"])):
        assert contrast(primary, under) >= 4.5, under
    assert ACCENT == THEME["primaryColor"]  # the token marks and charts draw in it too


def test_inline_code_in_a_caption_is_readable():
    # A caption's inline code (the upload limit's `maxUploadSize` and `.streamlit/config.toml`
    # under an uploader) is drawn at the caption's 60% opacity, its box too: Streamlit's own
    # code colour, a dark green, gave 3:1 there.
    code = css_colour(THEME.get("codeTextColor", "#0c5a44"))  # (Streamlit's, if not set)
    box = css_colour(THEME.get("codeBackgroundColor", "#f9fafc"))
    for background in (THEME["backgroundColor"], THEME["secondaryBackgroundColor"]):
        under = css_colour(background)
        faded = [tuple(0.6 * c + 0.4 * u for c, u in zip(colour, under)) for colour in (code, box)]
        assert contrast(*faded) >= 4.5, background
