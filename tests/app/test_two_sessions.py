"""Two sessions of one server: two AppTests in one process share what ``st.cache_resource``
keeps (the default tokenizer, a tokenizer file read once), as two browser tabs do. What one
session names or loads stays in that session."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

import bpe_core
from tests.app.test_languages_page import table as languages_table
from tests.model_files import nul_files
from ui.shared import loaders

APP = str(Path(__file__).resolve().parents[2] / "app.py")
DEFAULT = "English byte-level 1k"


def open_tokenize() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("app_pages/tokenize.py").run()
    assert not at.exception
    return at


def load(at: AppTest, data: bytes, *, name: str = "") -> AppTest:
    at.file_uploader(key="tok_load_native_0").upload("hugs.json", data, "application/json").run()
    at.text_input(key="tok_load_name").set_value(name)
    at.button(key="tok_load_load").click().run()
    assert not at.exception
    return at


def view(at: AppTest) -> tuple[list[str], str, list[str]]:
    """What a session shows of its tokenizers: their names (in state and in the sidebar's
    picker), and the active one."""
    held = at.session_state["tokenizers"]
    assert all(tok.name == name for name, tok in held.items())  # each object knows its name
    return list(held), at.session_state["tokenizer"], at.sidebar.selectbox(
        key="sidebar_tokenizer").options


def test_naming_a_shared_tokenizer_in_one_session_leaves_another_sessions_view_unchanged(
        tmp_path):
    tok = bpe_core.train("hug pug pun bun hugs " * 5, unit="char", pretokenizer="whitespace",
                         max_merges=3, min_frequency=1, name="hugs")
    bpe_core.save(tok, tmp_path / "hugs.json")
    data = (tmp_path / "hugs.json").read_bytes()
    a, b = open_tokenize(), open_tokenize()
    default = a.session_state["tokenizers"][DEFAULT]
    assert b.session_state["tokenizers"][DEFAULT] is default  # one object, trained once
    before = view(b)
    assert before == ([DEFAULT], DEFAULT, [DEFAULT])

    load(a, data, name="Alice's hugs")  # A names the file it loads
    assert view(a) == ([DEFAULT, "Alice's hugs"], "Alice's hugs", [DEFAULT, "Alice's hugs"])
    shared = loaders.read_cached("native", [("hugs.json", data)])  # what every session reads
    assert shared.name == "hugs" and a.session_state["tokenizers"]["Alice's hugs"] is not shared
    assert view(b.run()) == before  # B sees nothing of it
    assert default.name == DEFAULT

    load(b, data)  # B loads the same file, unnamed: it gets the file's own name, not A's
    assert view(b) == ([DEFAULT, "hugs"], "hugs", [DEFAULT, "hugs"])
    a_tok = a.session_state["tokenizers"]["Alice's hugs"]
    b_tok = b.session_state["tokenizers"]["hugs"]
    assert a_tok.fingerprint() == b_tok.fingerprint() == tok.fingerprint()
    assert view(a.run())[0] == [DEFAULT, "Alice's hugs"]  # and A keeps its own name
    assert shared.name == "hugs" and default.name == DEFAULT


def measured(at: AppTest, name: str, data: bytes) -> dict[str, tuple[int, int]]:
    """Upload ``data`` as a parallel corpus on the Languages page: language -> (sentences,
    tokens) of the default tokenizer, as the results table gives them."""
    at.switch_page("app_pages/languages.py").run()
    uploader = next(u for u in at.get("file_uploader") if u.key.startswith("lang_upload"))
    uploader.set_value((name, data, "text/tab-separated-values")).run()
    assert not at.exception and not at.error
    df = languages_table(at)
    return {row.Language: (row.Sentences, row.Tokens) for row in df.itertuples()
            if row.Tokenizer == DEFAULT}


def test_a_corpus_another_session_measured_does_not_stand_in_for_a_different_one():
    # The measurements are kept for every session by the corpus's digest, which hashed each
    # sentence with a \x01 after it: one sentence 'a\x01b' hashed as the two sentences 'a'
    # and 'b', and B was shown A's counts (2 tokens a language, not its own 3).
    a, b = open_tokenize(), open_tokenize()
    assert measured(a, "two.tsv", b"en\tfr\na\tc\nb\td\n") == {
        "English": (2, 2), "French \u2014 fran\u00e7ais": (2, 2)}
    tok = b.session_state["tokenizers"][DEFAULT]
    assert [len(tok.encode(s)) for s in ("a\x01b", "c\x01d")] == [3, 3]
    assert measured(b, "one.tsv", b"en\tfr\na\x01b\tc\x01d\n") == {
        "English": (1, 3), "French \u2014 fran\u00e7ais": (1, 3)}


def test_a_vocabulary_another_session_listed_does_not_stand_in_for_a_different_one():
    # The Vocabulary page keeps each table for every session by the tokenizer's fingerprint,
    # which hashed the tokens joined by NUL: 'a\x00' + 'b' and 'a' + '\x00b' hashed alike, and
    # B, loading the second file after A had listed the first, was shown A's tokens.
    tables = []
    for data in nul_files():
        at = open_tokenize()
        load(at, data, name="nul")
        at.switch_page("app_pages/vocabulary.py").run()
        assert not at.exception
        table = next(d.value for d in at.dataframe if "script" in d.value.columns)
        tables.append(table["token"].tolist())
    assert tables == [["a\x00", "b", "a\x00b"], ["a", "\x00b", "a\x00b"]]
