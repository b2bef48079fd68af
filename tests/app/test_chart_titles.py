"""Every chart says what it shows in a title of its own: a screen reader reads the figure's
title first, where a chart without one was only its tick labels ("Latin Common 0 5k 10k")."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from tests.app.test_headings import open_page


def titles(at: AppTest) -> list[str]:
    """The title of each Plotly chart on the page, in order (its lines joined)."""
    return [json.loads(c.proto.spec)["layout"].get("title", {}).get("text", "").replace("<br>", " ")
            for c in at.get("plotly_chart")]


def test_the_corpus_scripts_chart_is_titled_with_the_corpus():
    assert titles(open_page("corpus")) == [
        "Characters of English essays (default) by writing system"]


def test_the_train_charts_are_titled_with_the_corpus_and_the_tokenizer():
    at = open_page("train")
    at.button(key="train_start").click().run()
    growth = "hug / pug / pun / bun / hugs (word counts) in tokens, merge by merge"
    assert titles(at) == [growth]
    at.button(key="train_finish").click().run()
    assert not at.exception
    assert titles(at) == [
        growth, "Token lengths in characters of hug-pug · char · whitespace · 3 merges"]
