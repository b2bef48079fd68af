"""Every regex field of the pages, given a catastrophic pattern, answers with one clear sentence
and the page goes on: the vocabulary search and the diff's search, training with a custom
pre-tokenizer, and a loaded tokenizer.json whose Split, normalizer Replace or decoder Replace
blows up, on the Tokenize, Vocabulary and Languages pages. (The Train page's preview:
``test_train_page``.)

``(?:a|aa)+$`` on ``"a" * 46 + "!"`` takes minutes without a limit; the limit is set to 0.2 s
here, so each test waits a fraction of a second for it (AppTest runs the app in this process).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.formats import loads
from tests.app.test_languages_page import open_page as open_languages, open_tab as languages_tab
from tests.app.test_languages_page import table as languages_table
from tests.app.test_languages_page import upload
from tests.app.test_loaded_models_page import load
from tests.app.test_tokenize_page import APP, metric, open_page as open_tokenize, type_text
from tests.app.test_vocabulary_page import open_page as open_vocabulary, open_tab, search
from tests.model_files import CATASTROPHIC, catastrophic_file
from ui.shared.state import make_corpus

TEXT = "a" * 46 + "!"
#: What a stopped pattern says, Markdown's escapes taken out (the pattern as Python reads it).
STOPPED = ("The {stage} regex “(?:a|aa)+(?m:$)” took more than 0.2 s on 47 characters and was "
           "stopped")


@pytest.fixture(autouse=True)
def short_limit(monkeypatch):
    monkeypatch.setattr(bpe_core.presets, "REGEX_SECONDS", 0.2)


def errors(at: AppTest) -> list[str]:
    return [e.value.replace("\\", "") for e in at.error]


def long_words(merges: int, name: str) -> bpe_core.Tokenizer:
    """A tokenizer with the token "a" * 46 + "!" (from 40 merges on), on which the pattern
    blows up when it searches the vocabulary."""
    return bpe_core.train({TEXT: 5, "hug": 3}, max_merges=merges, name=name, unit="char",
                          pretokenizer="whitespace", min_frequency=1)


def test_the_vocabulary_search_stops_with_a_sentence_and_recovers():
    tok = long_words(40, "long")
    assert TEXT in [tok.display(i) for i in range(tok.vocab_size)]
    at = open_vocabulary(tok)
    at.toggle(key="vocab_regex").set_value(True).run()
    search(at, CATASTROPHIC)
    assert not at.exception
    assert errors(at) == [
        f'"{CATASTROPHIC}" took too long and was stopped: a pattern that nests repetitions, '
        "such as (a+)+, can take time that doubles with each character. Write it without the "
        "nesting, or turn regular expressions off."]
    search(at, "^h")  # the page goes on
    assert not at.error and any(c.value.startswith("3 of 17 tokens") for c in at.caption)


def test_the_diff_search_stops_with_a_sentence():
    at = open_tab(open_vocabulary(long_words(40, "long"), long_words(5, "short")), "Compare")
    at.toggle(key="vocab_diff_regex").set_value(True).run()
    at.text_input(key="vocab_diff_query").set_value(CATASTROPHIC).run()
    assert not at.exception
    [error] = errors(at)
    assert error.startswith(f'"{CATASTROPHIC}" took too long and was stopped: a pattern that')
    assert any(m.label == "Only in A" for m in at.metric)  # the rest of the tab is drawn


@pytest.mark.parametrize("stage, what", [("split", "pre-tokenizer"), ("replace", "normalizer"),
                                         ("decoder", "decoder")])
def test_a_loaded_file_with_a_catastrophic_regex_stops_on_vocabulary(stage, what):
    # The first two meet the long run in the corpus, the decoder in a token of the vocabulary.
    tok = loads(catastrophic_file(stage), source=f"{stage}.json")
    corpus = make_corpus("a run of a", documents=[TEXT], source="paste")
    at = open_vocabulary(tok, corpus=corpus)
    assert not at.exception
    assert [e.split(". A pattern")[0] for e in errors(at)] == [STOPPED.format(stage=what)]


@pytest.mark.parametrize("stage, what", [("split", "pre-tokenizer"), ("replace", "normalizer")])
def test_a_loaded_file_with_a_catastrophic_regex_stops_on_tokenize(stage, what):
    at = open_tokenize()
    default = at.session_state["tokenizer"]
    load(at, catastrophic_file(stage))
    type_text(at, "aa! hi")  # fine on short text
    assert metric(at, "Tokens") == "6" and not at.error
    type_text(at, TEXT)
    assert not at.exception
    assert [e.split(". A pattern")[0] for e in errors(at)] == [STOPPED.format(stage=what)]
    assert "nests repetitions" in errors(at)[0]
    # The rest of the page is drawn: the comparison shows the sentence in the file's column,
    # and the other tokenizer's tokens in its own.
    at.multiselect(key="tok_compare").set_value([default]).run()
    assert not at.exception
    assert [w.value.replace("\\", "").split(". A pattern")[0] for w in at.warning] == [
        STOPPED.format(stage=what)]
    assert sum('class="bpe-scroll"' in h.proto.body for h in at.get("html")) == 1
    type_text(at, "aa! hi")
    assert not at.error and metric(at, "Tokens") == "6"
    # The other way round: the file's column is the one compared, the active tokenizer's fine.
    loaded = at.session_state["tokenizer"]
    at.sidebar.selectbox(key="sidebar_tokenizer").set_value(default).run()
    at.multiselect(key="tok_compare").set_value([loaded]).run()
    type_text(at, TEXT)
    assert not at.exception and not at.error
    assert [w.value.replace("\\", "").split(". A pattern")[0] for w in at.warning] == [
        STOPPED.format(stage=what)]
    assert sum('class="bpe-scroll"' in h.proto.body for h in at.get("html")) == 1  # its column
    assert metric(at, "Tokens") == f"{len(at.session_state['tokenizers'][default].encode(TEXT)):,}"


def test_a_loaded_file_with_a_catastrophic_split_stops_on_languages():
    at = open_languages()
    name = load(at, catastrophic_file("split"), key="lang_load")
    assert name in at.multiselect(key="lang_tokenizers").value
    csv = f"en,de\n{TEXT},Guten Morgen.\nThe shop opens at nine.,Der Laden öffnet um neun.\n"
    upload(at, [("two.csv", csv.encode(), "text/csv")])
    assert not at.exception
    assert [e.split(". A pattern")[0] for e in errors(at)] == [
        STOPPED.format(stage="pre-tokenizer")]
    assert not at.dataframe  # no table of half the tokenizers
    # Without that tokenizer, the same corpus is measured.
    others = [n for n in at.multiselect(key="lang_tokenizers").value if n != name]
    at.multiselect(key="lang_tokenizers").set_value(others).run()
    assert not at.exception and not at.error
    assert list(languages_table(at).Code) == ["en", "de"] * len(others)


def test_training_on_a_corpus_where_the_custom_regex_blows_up_stops_with_a_sentence():
    # The preview's line (the first) is fine; the pattern meets the long run in training only.
    at = AppTest.from_file(APP, default_timeout=180)
    at.run()
    corpus = make_corpus("a run of a", documents=[f"aa!\n{TEXT}"], source="paste")
    at.session_state["corpora"] = {**at.session_state["corpora"], corpus.name: corpus}
    at.session_state["corpus"] = corpus.name
    at.switch_page("app_pages/train.py").run()
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value(CATASTROPHIC).run()
    assert not at.error and not at.button(key="train_start").disabled
    at.button(key="train_start").click().run()
    assert not at.exception
    assert [e.split(". A pattern")[0] for e in errors(at)] == [
        "Training cannot start: the pre-tokenizer regex “(?:a|aa)+$” took more than 0.2 s on "
        f"{len(corpus.text):,} characters and was stopped"]


def test_a_custom_regex_that_does_not_compile_is_quoted_literally():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/train.py").run()
    at.selectbox(key="train_pretokenizer").set_value("custom").run()
    at.text_input(key="train_regex").set_value(r"(\w+$|x$").run()
    [error] = at.error
    # Escaped for Markdown: unescaped, the text between the two $ signs was drawn as maths.
    assert "$" not in error.value.replace("\\$", "") and "\\w" in error.value
    assert error.value.replace("\\", "").startswith("The custom pre-tokenizer regex does not work")


def test_a_decoder_stopped_on_a_token_leaves_the_rest_of_languages_drawn():
    # The corpus never meets the long token; the vocabulary-use tab reads every token's text.
    at = open_languages()
    at.selectbox(key="lang_load_format").set_value("hf").run()
    at.file_uploader(key="lang_load_hf_0").upload(
        "tokenizer.json", catastrophic_file("decoder"), "application/json").run()
    at.button(key="lang_load_load").click().run()
    assert not at.exception
    assert at.selectbox(key="lang_focus").value == at.session_state["tokenizer"]
    languages_tab(at, "Vocabulary use")
    assert [e.split(". A pattern")[0] for e in errors(at)] == [STOPPED.format(stage="decoder")]
    assert "Tokenizer" in languages_table(at).columns  # the other tabs are drawn
