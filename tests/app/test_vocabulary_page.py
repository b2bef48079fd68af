"""The Vocabulary page, run headless with Streamlit's AppTest: table, search, a token, a diff."""

from __future__ import annotations

import base64
import json
import random
import string
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.analysis.vocabulary import diff, token_frequencies, vocabulary
from tests.app.holding import Hold
from tests.model_files import llama2_file, llama3_file
from ui.shared import merge_tree
from ui.shared.state import make_corpus
from ui.vocabulary import jobs as vocabulary_jobs
from ui.vocabulary.tables import FREQUENCY_JOB
from ui.vocabulary.view import FILE_SPELLING_HINT, ROW_PX, TAB_KEY, TABS, TOKEN_KEY

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "app_pages/vocabulary.py"
HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
CHAR = dict(unit="char", pretokenizer="whitespace", min_frequency=1)


def hug_tokenizer(merges: int = 5, name: str = "hug 5") -> bpe_core.Tokenizer:
    return bpe_core.train(HUG, max_merges=merges, name=name, **CHAR)


def open_page(*tokenizers: bpe_core.Tokenizer, corpus=None) -> AppTest:
    """The page in a new session; with ``tokenizers``, a session holding those (the first active)
    and a word-count corpus instead of the defaults."""
    at = AppTest.from_file(APP, default_timeout=120)
    if tokenizers:
        corpus = corpus or make_corpus("hug-pug counts", counts=HUG, source="sample")
        at.session_state["corpora"] = {corpus.name: corpus}
        at.session_state["corpus"] = corpus.name
        at.session_state["tokenizers"] = {t.name: t for t in tokenizers}
        at.session_state["tokenizer"] = tokenizers[0].name
    at.run()  # the entry script sets up a session, or keeps the one it finds
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def open_tab(at: AppTest, name: str) -> AppTest:
    """Switch to the tab whose label holds ``name``; only the open tab is drawn."""
    at.session_state[TAB_KEY] = next(t for t in TABS if name in t)
    at.run()
    assert not at.exception
    return at


def table(at: AppTest):
    """The vocabulary table of the Browse tab (the first with a ``script`` column)."""
    return next(d.value for d in at.dataframe if "script" in d.value.columns)


def active(at: AppTest) -> bpe_core.Tokenizer:
    return at.session_state["tokenizers"][at.session_state["tokenizer"]]


def search(at: AppTest, query: str) -> AppTest:
    at.text_input(key="vocab_query").input(query).run()
    assert not at.exception
    return at


def values(array) -> list:
    """A plotly array from a figure's JSON: a list, or numpy data packed as base64 ``bdata``."""
    if isinstance(array, dict):
        return np.frombuffer(base64.b64decode(array["bdata"]), dtype=array["dtype"]).tolist()
    return list(array)


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


# --- the table ------------------------------------------------------------------------------


def test_default_session_lists_every_token_with_its_frequency() -> None:
    at = open_page()
    tok = active(at)
    corpus = at.session_state["corpora"][at.session_state["corpus"]]
    df = table(at)
    assert len(df) == tok.vocab_size
    assert list(df["id"]) == list(range(tok.vocab_size))
    freq = token_frequencies(tok, corpus.training_input)
    assert dict(zip(df["id"], df["frequency"])) == {i: freq.get(i, 0) for i in df["id"]}
    merges = df[df["kind"] == "merge"]
    assert list(merges["rank"]) == [m.rank for m in tok.merges]
    assert list(merges["count"]) == [m.count for m in tok.merges]
    m = metrics(at)
    assert m["Tokens"] == f"{tok.vocab_size:,}"
    assert m["Merges learned"] == f"{len(tok.merges):,}"
    assert m["Unused in corpus"] == f"{sum(1 for i in df['id'] if not freq.get(i)):,}"
    assert FREQUENCY_JOB not in at.session_state  # the bundled corpus is counted inline


def test_ids_that_name_no_token_are_not_counted_as_tokens() -> None:
    """cl100k's special tokens leave 16 ids unused below them: the card counts what the table
    lists, and says why the vocabulary size is larger."""
    from bpe_core.formats import tiktoken_file

    trained = bpe_core.train("hug pug pun bun hugs", unit="byte", pretokenizer="gpt2",
                             max_merges=4, min_frequency=1)
    size = trained.vocab_size
    tok = tiktoken_file.loads(tiktoken_file.dumps(trained), pretokenizer="gpt2",
                              special_tokens={"<|end|>": size + 3}).renamed("gap")
    at = open_page(tok)
    assert tok.vocab_size == size + 4 and len(table(at)) == size + 1
    [card] = [m for m in at.metric if m.label == "Tokens"]
    assert card.value == f"{size + 1:,}"
    assert f"run from 0 to {size + 3:,}, but 3 of them name no token" in card.help


def test_the_tokens_card_counts_as_hugging_face_does_and_says_tiktoken_would_not() -> None:
    """The card's help names who counts the unused ids: tiktoken's n_vocab (the highest id + 1)
    does, Hugging Face's get_vocab_size does not (it once said both did)."""
    from tokenizers import Tokenizer, models

    hf = Tokenizer(models.BPE(vocab={"a": 0, "b": 1, "ab": 5}, merges=[("a", "b")]))
    tok = bpe_core.loads(hf.to_str()).renamed("ids 2 to 4 unused")
    [card] = [m for m in open_page(tok).metric if m.label == "Tokens"]
    assert card.value == str(hf.get_vocab_size()) == "3" and tok.vocab_size == 6
    assert card.help == ("The ids run from 0 to 5, but 3 of them name no token (tiktoken's "
                         "n_vocab counts them; Hugging Face's get_vocab_size does not)")


def test_one_of_a_kind_is_counted_in_the_singular_on_the_cards() -> None:
    # 'but 1 of them name no token', 'They make 1 tokens'
    from bpe_core.formats import tiktoken_file

    trained = bpe_core.train("hug pug", unit="byte", pretokenizer="gpt2", max_merges=2,
                             min_frequency=1)
    size = trained.vocab_size
    gap = tiktoken_file.loads(tiktoken_file.dumps(trained), pretokenizer="gpt2",
                              special_tokens={"<|end|>": size + 1}).renamed("one gap")
    [card] = [m for m in open_page(gap).metric if m.label == "Tokens"]
    assert f"run from 0 to {size + 1:,}, but 1 of them names no token (" in card.help
    # 'abc' split two ways, from 'ab' and 'bc' that no merge makes: two merges, one token
    twice = bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5}, [("a", "bc"), ("ab", "c")]),
        name="abc two ways")
    [card] = [m for m in open_page(twice).metric if m.label == "Merges learned"]
    assert card.value == "2" and card.help.startswith("They make 1 token: the file lists ")


def test_search_ug_lists_exactly_the_tokens_containing_ug() -> None:
    tok = hug_tokenizer()
    at = search(open_page(tok), "ug")
    expected = [tok.display(i) for i in range(tok.vocab_size) if "ug" in tok.display(i)]
    assert expected == ["ug", "hug", "pug"]
    assert list(table(at)["token"]) == expected
    assert any(c.value.startswith(f"3 of {tok.vocab_size} tokens.") for c in at.caption)


def test_a_cut_table_says_its_headers_sort_only_the_rows_it_lists(monkeypatch) -> None:
    # The grid sorts the rows it was sent: with Gemma 3's 262,145 tokens, clicking "frequency"
    # ranked ids 0 to 9,999 alone, while the caption invited it as the way to sort.
    from ui.vocabulary import view

    monkeypatch.setattr(view, "MAX_ROWS", 4)
    tok = hug_tokenizer()
    at = open_page(tok)
    assert list(table(at)["id"]) == [0, 1, 2, 3]
    assert f"{tok.vocab_size} of {tok.vocab_size} tokens; the table lists the first 4 in this " \
           "order (search, filter or change the order to reach the others). Clicking a column " \
           f"header sorts only these 4; the Order menu sorts all {tok.vocab_size}. Click a row " \
           "to see how that token was built." in [c.value for c in at.caption]
    search(at, "ug")
    assert "3 of 13 tokens. Click a column header to sort, a row to see how that token was " \
           "built." in [c.value for c in at.caption]


def test_a_search_spelled_as_files_spell_spaces_says_how_to_search() -> None:
    # Hugging Face's .tokens and the files write " the" as "Ġthe" (byte-level) or "▁the"
    # (SentencePiece); the table shows and searches the text the token stands for.
    tok = bpe_core.train("the cat and the hat and the bat " * 20, max_merges=30, name="bytes",
                         min_frequency=1)
    at = search(open_page(tok), "Ġthe")
    assert list(table(at)["token"]) == [] and [i.value for i in at.info] == [FILE_SPELLING_HINT]
    assert list(table(search(at, "·the"))["token"]) == [" the"] and not at.info
    at.toggle(key="vocab_regex").set_value(True).run()  # a pattern may mean the letter itself
    assert not at.info and list(table(search(at, "▁t"))["token"]) == []


def test_a_search_for_a_byte_fallback_token_as_its_file_writes_it_says_how_to_search(
        tmp_path) -> None:
    # Llama 2's file writes the newline byte as '<0x0A>'; the table shows it as '↵', and a
    # search for '<0x0A>' said only '0 of 32,000 tokens'.
    tok = model_file_tokenizer(llama2_file(), "llama2-like", tmp_path)
    at = search(open_page(tok), "<0x0A>")
    assert list(table(at)["id"]) == [] and [i.value for i in at.info] == [FILE_SPELLING_HINT]
    assert "`<0x0A>` in Llama's, is the byte it stands for: `↵`" in FILE_SPELLING_HINT
    newline = tok.model.vocab["<0x0A>"]
    assert newline in set(table(search(at, "↵"))["id"]) and not at.info


def test_regex_search_and_a_bad_pattern() -> None:
    at = open_page(hug_tokenizer())
    at.toggle(key="vocab_regex").set_value(True).run()
    assert list(table(search(at, "^[pb]u"))["token"]) == ["pun", "pug"]
    search(at, "(ug")
    assert [e.value.replace("\\", "") for e in at.error] == [
        '"(ug" is not a valid regular expression: missing ) at position 3. Fix the pattern, or '
        "turn regular expressions off to search for the text as typed."]
    # The message quotes the pattern as typed: unescaped, '$x$' was maths and '**u**' bold.
    search(at, "$x$**u**(")
    assert at.error[0].value.startswith(r'"\$x\$\*\*u\*\*\(" is not a valid regular expression')
    assert not any("script" in d.value.columns for d in at.dataframe)
    at.toggle(key="vocab_regex").set_value(False).run()  # the same text, searched as typed
    assert not at.error and list(table(at)["token"]) == []


def test_a_pasted_page_of_brackets_is_a_bad_pattern_not_a_crash() -> None:
    # The regex module reads nested groups by recursing: 10,000 "(" raised a RecursionError,
    # a traceback; and a message quoting the whole pattern filled the page.
    at = open_page(hug_tokenizer(3, "three"), hug_tokenizer())
    for tab, suffix in (("Browse", ""), ("Compare", "_diff")):
        open_tab(at, tab).toggle(key=f"vocab{suffix}_regex").set_value(True).run()
        at.text_input(key=f"vocab{suffix}_query").input("(" * 10_000).run()
        assert not at.exception
        [error] = [e.value.replace("\\", "") for e in at.error]
        assert error == (f'"{"(" * 80}… (10,000 characters)" is not a valid regular expression: '
                         "its groups nest too deeply to be read. Fix the pattern, or turn "
                         "regular expressions off to search for the text as typed.")


def test_filter_by_script_and_sort() -> None:
    tok = bpe_core.train("мир мир мир peace peace 和平 和平", min_frequency=2, name="three scripts",
                         unit="char", pretokenizer="whitespace")
    corpus = make_corpus("three", documents=["мир мир мир peace peace 和平 和平"])
    at = open_page(tok, corpus=corpus)
    assert set(at.multiselect(key="vocab_scripts").options) >= {"Cyrillic", "Latin", "Han"}
    at.multiselect(key="vocab_scripts").set_value(["Cyrillic"]).run()
    df = table(at)
    assert set(df["script"]) == {"Cyrillic"}
    assert set(df["token"]) == {r.token for r in vocabulary(tok)
                                if r.script == "Cyrillic"}
    assert {"м", "и", "р", "мир"} <= set(df["token"])
    at.multiselect(key="vocab_scripts").set_value([]).run()
    at.selectbox(key="vocab_order").set_value("most frequent in the corpus").run()
    df = table(at)
    assert list(df["frequency"]) == sorted(df["frequency"], reverse=True)
    assert df["token"].iloc[0] == "мир"  # three times, more than any other token


# --- one token ------------------------------------------------------------------------------


def test_merge_tree_of_the_selected_token_matches_bpe_core() -> None:
    tok = hug_tokenizer()
    at = open_page(tok)
    hug_id = next(i for i in range(tok.vocab_size) if tok.display(i) == "hug")
    at.number_input(key=TOKEN_KEY).set_value(hug_id).run()
    [chart] = at.get("graphviz_chart")
    tree = tok.merge_tree(hug_id)
    assert chart.proto.spec == merge_tree.tree_dot(tree)
    [steps] = [d.value for d in at.dataframe if list(d.value.columns)[:2] == ["rank", "id"]
               and "hug" in set(d.value["token"])]
    assert list(steps["rank"]) == [0, 2]
    assert list(zip(steps["left"], steps["right"], steps["token"])) == [("u", "g", "ug"),
                                                                         ("h", "ug", "hug")]



def test_a_file_listing_several_merges_for_a_token_says_what_they_make() -> None:
    # Llama 3's file lists 280,147 merges for 127,744 tokens, Llama 2's 58,980 for 28,446: here
    # 'abc' twice, as 'a' + 'bc' (rank 0, 'bc' made at 3) and as 'ab' + 'c', which merging takes.
    tok = bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        [("a", "bc"), ("a", "b"), ("ab", "c"), ("b", "c")]), name="abc listed twice")
    at = open_page(tok)
    [card] = [m for m in at.metric if m.label == "Merges learned"]
    assert card.value == "4" and card.help.startswith("They make 3 tokens: the file lists ")
    at.number_input(key=TOKEN_KEY).set_value(5).run()
    assert at.get("graphviz_chart")[0].proto.spec == merge_tree.tree_dot(tok.merge_tree(5))
    assert any(c.value.startswith("The file lists 2 merges that make 'abc'") for c in at.caption)
    at.number_input(key=TOKEN_KEY).set_value(0).run()  # 'a': in 'a' + 'bc' and 'a' + 'b'
    at.toggle(key="vocab_recursive").set_value(True).run()
    assert any(c.value.startswith("2 tokens use `a` directly or through the tokens built from "
                                  "it (3 merges: the file lists several for some of them).")
               for c in at.caption)
    [card] = [m for m in open_page(hug_tokenizer()).metric if m.label == "Merges learned"]
    assert not card.help  # one merge per token: nothing to say

def test_the_selected_token_says_1_occurrence_not_1_occurrences() -> None:
    tok = hug_tokenizer()
    corpus = make_corpus("one hug", counts={"hug": 1, "pug": 2}, source="sample")
    at = open_page(tok, corpus=corpus)
    ids = {tok.display(i): i for i in range(tok.vocab_size)}
    for token, said in (("hug", "1 occurrence in"), ("pug", "2 occurrences in"),
                        ("pun", "0 occurrences in")):
        at.number_input(key=TOKEN_KEY).set_value(ids[token]).run()
        assert any(f" · {said} the active corpus" in c.value for c in at.caption), token


def test_the_merge_in_a_tokens_line_is_text_not_markdown() -> None:
    # The line under a token quoted its merge raw: '$a' + '$' drew maths, '**b' + '**' bold.
    from ui.shared.tokens import md_escape

    text = "$a$ $a$ $a$ **b** **b** **b**"
    tok = bpe_core.train(text, unit="char", pretokenizer="whitespace", min_frequency=1,
                         name="markdown")
    at = open_page(tok, corpus=make_corpus("markdown", documents=[text]))
    ids = {m.token: m.token_id for m in tok.merges}
    for token, hex_, merge in (("$a$", "24 61 24", "merge 3 (rank 2): '$a' + '$'"),
                               ("**b**", "2A 2A 62 2A 2A", "merge 5 (rank 4): '**b' + '**'")):
        at.number_input(key=TOKEN_KEY).set_value(ids[token]).run()
        [line] = [c.value for c in at.caption if c.value.startswith("id ")]
        assert line == (f"id {ids[token]} · bytes {hex_} · script Latin · {md_escape(merge)}, "
                        "pair seen 3× when learned · 3 occurrences in the active corpus")
        assert "\\$a" in line or "\\*\\*b" in line


def test_tokens_built_from_the_selected_token_one_level_or_recursively() -> None:
    tok = hug_tokenizer()
    at = open_page(tok)
    u = next(i for i in range(tok.vocab_size) if tok.display(i) == "u")
    at.number_input(key=TOKEN_KEY).set_value(u).run()
    assert not at.get("graphviz_chart")  # a base symbol has no tree, and the page says why
    assert any("'u' is a base character" in c.value and "no merge tree" in c.value
               for c in at.caption)

    def built() -> list[str]:  # the last such table: a token's own merges come first
        return [list(d.value["token"]) for d in at.dataframe
                if list(d.value.columns)[:2] == ["rank", "id"]][-1]

    assert built() == ["ug", "un"]
    assert any("2 tokens use `u` directly" in c.value for c in at.caption)
    un = next(i for i in range(tok.vocab_size) if tok.display(i) == "un")
    at.number_input(key=TOKEN_KEY).set_value(un).run()
    assert built() == ["pun"]  # one token: its merge, not "their merge"
    assert "1 token uses `un` directly, as the left or right part of its merge." in [
        c.value for c in at.caption]
    at.number_input(key=TOKEN_KEY).set_value(u).run()
    at.toggle(key="vocab_recursive").set_value(True).run()
    assert built() == ["ug", "un", "hug", "pun", "pug"]
    assert any("5 tokens use `u` directly or through the tokens built from it." in c.value
               for c in at.caption)
    # A token no merge uses: it read '0 tokens use `pun` directly or through ...'.
    pun = next(i for i in range(tok.vocab_size) if tok.display(i) == "pun")
    at.number_input(key=TOKEN_KEY).set_value(pun).run()
    assert "No merge uses `pun` as its left or right part." in [c.value for c in at.caption]
    assert not any(c.value.startswith("0 tokens") for c in at.caption)


def test_the_tokens_built_from_a_token_fill_a_table_as_tall_as_their_rows(monkeypatch) -> None:
    # One token made from 'un' sat on top of a 300-px grid of 7 empty rows.
    import streamlit as st

    heights = {}
    draw = st.dataframe

    def recording(data, *args, **kwargs):
        if list(getattr(data, "columns", []))[:2] == ["rank", "id"]:
            heights[tuple(data["token"])] = kwargs.get("height")
        return draw(data, *args, **kwargs)

    monkeypatch.setattr(st, "dataframe", recording)
    tok = hug_tokenizer()
    at = open_page(tok)
    for token in ("un", "u"):
        at.number_input(key=TOKEN_KEY).set_value(
            next(i for i in range(tok.vocab_size) if tok.display(i) == token)).run()
    assert heights[("pun",)] == 2 * ROW_PX + 3  # its header and one row
    assert heights[("ug", "un")] == 3 * ROW_PX + 3


def test_a_wide_merge_tree_is_drawn_to_the_levels_that_fit() -> None:
    # 128 letters made by doubling (Llama 3 has such a token of 128 spaces): 128 leaves side
    # by side were a strip too thin to read, its name 128 letters long in every sentence.
    tok = bpe_core.train("a" * 256, max_merges=8, name="doubling", unit="char",
                         pretokenizer="none", min_frequency=1)
    at = open_page(tok)
    at.number_input(key=TOKEN_KEY).set_value(8).run()  # 'a' * 128
    spec = at.get("graphviz_chart")[0].proto.spec
    # Sixteen boxes of 8 letters side by side are wider than a row may be: eight of 16 are
    assert spec.count("dashed") == 8 and spec.count("[label") == 15  # drawn, shut
    assert "aaaaaaaaaaaaaaa… (128 characters)" in spec and "a" * 33 not in spec
    assert any("Only its top 3 levels are drawn open: a dashed box is a merge whose parts are not "
               "drawn (the table lists every merge)." in c.value.replace("\\", "")
               for c in at.caption)  # (Markdown escapes taken out)


def test_a_merge_tree_thousands_of_merges_deep_is_shown() -> None:
    # One piece of random letters, every pair seen once: each merge adds a letter to the last
    # token, a chain past Python's recursion (the page stopped with RecursionError).
    rng = random.Random(1)
    text = "".join(rng.choice(string.ascii_lowercase) for _ in range(3000))
    tok = bpe_core.train(text, max_merges=2999, name="chain", unit="char", pretokenizer="none",
                         min_frequency=1)
    at = open_page(tok)
    at.number_input(key=TOKEN_KEY).set_value(tok.vocab_size - 1).run()
    assert not at.exception and at.get("graphviz_chart")
    shown = [c.value.replace("\\", "") for c in at.caption]  # Markdown escapes taken out
    assert any("3,000 base symbols joined by 2,061 merges, 1,746 levels deep." in c
               and "Only its top 9 levels are drawn open" in c for c in shown)


def test_another_tokenizer_resets_the_selected_token() -> None:
    big, small = hug_tokenizer(5, "five"), hug_tokenizer(1, "one")
    at = open_page(big, small)
    at.number_input(key=TOKEN_KEY).set_value(big.vocab_size - 1).run()
    at.session_state["tokenizer"] = "one"
    at.run()
    assert not at.exception
    assert at.number_input(key=TOKEN_KEY).value == small.vocab_size - 1  # its only merge, "ug"
    assert len(table(at)) == small.vocab_size


# --- charts, fragments and the diff ---------------------------------------------------------


def test_charts_count_the_vocabulary() -> None:
    tok = hug_tokenizer()
    at = open_tab(open_page(tok), "Writing systems")
    assert not any("shown" in d.value.columns for d in at.dataframe)  # Browse is not drawn
    [alloc] = [json.loads(c.proto.spec)["data"] for c in at.get("plotly_chart")]
    assert sum(sum(t["x"]) for t in alloc) == tok.vocab_size
    at = open_tab(at, "Charts")
    charts = {c.proto.id.rsplit("-", 1)[-1]: json.loads(c.proto.spec)
              for c in at.get("plotly_chart")}
    counts = charts["vocab_counts"]["data"][0]
    assert values(counts["x"]) == [m.rank for m in tok.merges]
    assert values(counts["y"]) == [m.count for m in tok.merges]
    assert charts["vocab_counts"]["layout"]["yaxis"]["type"] == "log"
    # A rank, as the axis says: the first merge is rank 0 ("merge 1" on the Train page).
    assert counts["hovertemplate"].startswith("rank %{x:,}: ")
    [note] = [c.value for c in at.caption if "counts fall with rank" in c.value]
    assert note.endswith("so counts fall with rank: late merges serve rarer and rarer text.")


def test_the_count_chart_says_superbpes_stage_2_counts_afresh() -> None:
    """Counts fall with rank within a stage only: stage 2 starts high again (here 10 after 5)."""
    text = "the cat sat on the mat\nthe dog sat on the log\n" * 5
    tok = bpe_core.train_superbpe(text, 275, transition=270)
    counts = [m.count for m in tok.merges]
    assert counts[13:15] == [5, 10]  # the last of stage 1, the first of stage 2
    at = open_tab(open_page(tok), "Charts")
    assert [c.value for c in at.caption if "counts fall with rank" in c.value] == [
        "Each merge joins the most frequent pair left, so counts fall with rank: late merges "
        "serve rarer and rarer text, in each stage of SuperBPE. Stage 2, from rank 14 on, "
        "counts the pairs of its superword pieces afresh, so its counts start high again."]


def test_byte_fragments_are_listed_apart() -> None:
    tok = bpe_core.train("的的的 的的", unit="byte", pretokenizer="none", max_merges=2,
                         min_frequency=1, name="han bytes")
    # In the corpus 的 is one token, and 是 (E6 98 AF), never seen in training, three bytes.
    at = open_page(tok, corpus=make_corpus("han", documents=["的 的 是"]))
    browse = table(at)
    [fragments] = [d.value for d in open_tab(at, "Byte tokens").dataframe]
    assert sorted(fragments["id"]) == list(range(0x80, 0x100)) + [256]
    assert list(fragments["token"])[:4] == ["<98>", "<AF>", "<E6>", "<80>"]  # most frequent first
    assert list(fragments["frequency"])[:4] == [1, 1, 1, 0]
    assert "的" in set(browse["token"])  # the whole character reads as itself


def test_diff_of_two_tokenizers_gives_the_exact_sets() -> None:
    three, five = hug_tokenizer(3, "three merges"), hug_tokenizer(5, "five merges")
    at = open_tab(open_page(three, five), "Compare")
    assert at.selectbox(key="vocab_diff_a").value == "three merges"
    assert at.selectbox(key="vocab_diff_b").value == "five merges"
    m = metrics(at)
    assert (m["Only in A"], m["Only in B"], m["Shared"]) == ("0", "2", "11")
    only_b, shared = [d.value for d in at.dataframe if "bytes" in d.value.columns]
    assert [i.value for i in at.info] == ["Every token of A is also in B."]
    assert list(zip(only_b["token"], only_b["id_b"], only_b["rank_b"])) == [("pun", 11, 3),
                                                                            ("pug", 12, 4)]
    assert list(shared["token"]) == [three.display(i) for i in range(three.vocab_size)]
    assert list(shared["rank_a"].dropna()) == list(shared["rank_b"].dropna()) == [0, 1, 2]


def test_one_tokenizer_says_how_to_get_another() -> None:
    at = open_tab(open_page(hug_tokenizer()), "Compare")
    assert any("This session has one tokenizer" in i.value for i in at.info)


@pytest.mark.parametrize("text", ["<script>alert(1)</script> **bold** [x](y)",
                                  "abc\u202eevil\u200b zero\u200dwidth"])
def test_hostile_tokens_render_as_text(text: str) -> None:
    tok = bpe_core.train(text, unit="char", pretokenizer="whitespace", min_frequency=1,
                         name="**name** <b>")
    at = open_page(tok, corpus=make_corpus("hostile", documents=[text]))
    shown = set(table(at)["shown"])
    assert not any(c in t for t in shown for c in "\u202e\u200b\u200d")
    assert "**name** <b>" not in at.markdown[0].value  # escaped, not bold markup


def test_a_loaded_tokenizer_can_be_compared(tmp_path) -> None:
    bpe_core.save(hug_tokenizer(2, "two merges"), tmp_path / "two.json")
    at = open_tab(open_page(hug_tokenizer(5, "five merges")), "Compare")
    at.file_uploader(key="vocab_load_native_0").upload(
        "two.json", (tmp_path / "two.json").read_bytes(), "application/json").run()
    at.button(key="vocab_load_load").click().run()
    assert not at.exception
    assert at.session_state["tokenizer"] == "two merges"  # loading makes it the active one: A
    assert (at.selectbox(key="vocab_diff_a").value, at.selectbox(key="vocab_diff_b").value) == (
        "two merges", "five merges")
    m = metrics(at)
    assert (m["Only in A"], m["Only in B"], m["Shared"]) == ("0", "3", "10")


def test_the_search_survives_a_visit_to_another_tab() -> None:
    at = search(open_page(hug_tokenizer()), "ug")
    open_tab(at, "Charts")
    open_tab(at, "Browse")
    assert at.text_input(key="vocab_query").value == "ug"
    assert list(table(at)["token"]) == ["ug", "hug", "pug"]


@pytest.mark.parametrize("tok", [
    bpe_core.train(HUG, max_merges=0, name="no merges", **CHAR),
    bpe_core.train("low lower newest widest", unit="char", pretokenizer="end-of-word",
                   min_frequency=1, max_merges=5, name="end of word"),
    bpe_core.train("ab ab <|end|> ab", unit="byte", pretokenizer="gpt2", min_frequency=1,
                   max_merges=2, special_tokens=["<|end|>"], name="with a special token"),
], ids=lambda t: t.name)
def test_every_tab_renders_for_odd_tokenizers(tok) -> None:
    at = open_page(tok)
    assert len(table(at)) == tok.vocab_size
    assert at.number_input(key=TOKEN_KEY).value in set(table(at)["id"])
    for name in ("Writing systems", "Longest", "Charts", "Byte tokens", "Compare", "Browse"):
        open_tab(at, name)


def test_picking_b_as_a_moves_b_to_another_tokenizer() -> None:
    at = open_tab(open_page(hug_tokenizer(3, "three"), hug_tokenizer(5, "five"),
                            hug_tokenizer(4, "four")), "Compare")
    assert at.selectbox(key="vocab_diff_b").value == "five"
    at.selectbox(key="vocab_diff_a").set_value("five").run()
    assert not at.exception
    assert at.selectbox(key="vocab_diff_b").options == ["three", "four"]
    assert at.selectbox(key="vocab_diff_b").value in {"three", "four"}
    m = metrics(at)
    expected = diff(at.session_state["tokenizers"]["five"],
                                        at.session_state["tokenizers"][
                                            at.selectbox(key="vocab_diff_b").value])
    assert m["Only in A"] == str(len(expected.only_a))


# --- what a rank file cannot know, and the charts' titles ------------------------------------


def rank_file_tokenizer() -> bpe_core.Tokenizer:
    """A tokenizer read from tiktoken-style ranks: the merges' order, not their counts."""
    from bpe_core.formats.tiktoken_file import from_ranks

    trained = bpe_core.train("hug pug pun bun hugs " * 20, unit="byte", pretokenizer="gpt2",
                             max_merges=8, min_frequency=1)
    ranks = {trained.token_bytes(i): i for i in trained.ids()}
    return from_ranks(ranks, pretokenizer="gpt2", name="ranks")


def test_a_rank_file_shows_counts_as_unknown_and_hides_the_count_chart() -> None:
    tok = rank_file_tokenizer()
    at = open_page(tok)
    assert table(at)["count"].isna().all()  # unknown, not 0 (and the column is not shown)
    assert "highest pair count" not in at.selectbox(key="vocab_order").options
    merged = tok.merges[0].token_id
    at.number_input(key=TOKEN_KEY).set_value(merged).run()
    [caption] = [c.value for c in at.caption if c.value.startswith(f"id {merged} ")]
    assert "pair count when learned unknown (the file records none)" in caption
    assert "seen 0" not in caption and "0×" not in caption
    at = open_tab(at, "Charts")
    keys = [c.proto.id.rsplit("-", 1)[-1] for c in at.get("plotly_chart")]
    assert keys == ["vocab_lengths"]  # no count chart
    [info] = [i.value for i in at.info]
    assert info.startswith("No chart of counts when learned: this tokenizer's file records "
                           "the order of its merges but not how often")


def test_charts_are_titled_named_and_the_scripts_chart_has_a_log_scale() -> None:
    tok = hug_tokenizer()
    at = open_tab(open_page(tok), "Charts")
    protos = {c.proto.id.rsplit("-", 1)[-1]: c.proto for c in at.get("plotly_chart")}
    at = open_tab(at, "Writing systems")
    protos.update({c.proto.id.rsplit("-", 1)[-1]: c.proto for c in at.get("plotly_chart")})
    shown = {k: (json.loads(p.spec)["layout"]["title"]["text"],
                 json.loads(p.config)["toImageButtonOptions"]["filename"])
             for k, p in protos.items()}
    assert shown == {
        "vocab_lengths": ("Token lengths in bytes of hug 5", "token-lengths-in-bytes-of-hug-5"),
        # (wrapped for the chart's 9/20 of the page, beside the table's 11/20)
        "vocab_scripts_chart": ("Vocabulary of hug 5 by writing<br>system",
                                "vocabulary-of-hug-5-by-writing-system"),
        "vocab_counts": ("Pair count when learned against merge rank of hug 5",
                         "pair-count-when-learned-against-merge-rank-of-hug-5")}
    assert json.loads(protos["vocab_scripts_chart"].spec)["layout"]["xaxis"].get("type") in (
        None, "linear")
    at.toggle(key="vocab_scripts_log").set_value(True).run()
    [alloc] = [c.proto for c in at.get("plotly_chart")
               if c.proto.id.endswith("-vocab_scripts_chart")]
    assert json.loads(alloc.spec)["layout"]["xaxis"]["type"] == "log"


def test_the_writing_systems_rule_names_the_private_use_row_it_makes() -> None:
    # A font's icon (U+E000) is no punctuation: the rule under the table says where it goes.
    tok = bpe_core.train("\ue000\ue000 ab ab", unit="char", pretokenizer="whitespace",
                         max_merges=2, min_frequency=1)
    at = open_page(tok)
    assert "Private use & unassigned" in at.multiselect(key="vocab_scripts").options
    at = open_tab(at, "Writing systems")
    assert any("private-use and unassigned characters (a font's icons) count as one more "
               "script, private use & unassigned." in c.value for c in at.caption)


def test_a_script_has_the_same_colour_here_and_on_the_languages_page() -> None:
    from tests.app.test_languages_page import chart as languages_chart
    from tests.app.test_languages_page import open_page as open_languages

    tok = bpe_core.train({"привет": 5, "hello": 5, "こんにちは": 5}, unit="char",
                         pretokenizer="whitespace", max_merges=4, min_frequency=1, name="three")
    at = open_tab(open_page(tok), "Writing systems")
    [alloc] = [json.loads(c.proto.spec) for c in at.get("plotly_chart")
               if c.proto.id.endswith("-vocab_scripts_chart")]
    here = dict(zip(alloc["data"][1]["y"], alloc["data"][1]["marker"]["color"]))
    there = {t["name"]: t["marker"]["color"]
             for t in languages_chart(open_languages(), "lang_bars")["data"]}
    for script in ("Cyrillic", "Latin"):
        assert here[script] == there[script]
    assert here["Hiragana"] != here["Latin"]


# --- writing systems, longest tokens, byte tokens, a searchable diff -------------------------


def model_file_tokenizer(data: bytes, name: str, tmp_path) -> bpe_core.Tokenizer:
    path = tmp_path / f"{name}.json"
    path.write_bytes(data)
    return bpe_core.load(path).renamed(name)


def frame_with(at: AppTest, column: str):
    return next(d.value for d in at.dataframe if column in d.value.columns)


def test_writing_systems_table_and_chart_count_every_token(tmp_path) -> None:
    tok = model_file_tokenizer(llama2_file(), "llama2-like", tmp_path)
    at = open_tab(open_page(tok), "Writing systems")
    systems = frame_with(at, "writing system")
    expected = Counter(r.script for r in vocabulary(tok))
    assert dict(zip(systems["writing system"], systems["tokens"])) == expected
    assert systems["writing system"].iloc[0] == "Latin"
    assert list(systems["writing system"])[-2:] == ["Byte fallback", "Special & added"]
    # Shares in per cent, shown to three significant digits: a handful of tokens in a large
    # vocabulary is not rounded to "0 %" (Bengali, 6 of Llama 3's 128,256, is 0.00468 %).
    n = sum(expected.values())
    assert list(systems["share"]) == pytest.approx([100 * c / n for c in systems["tokens"]])
    [grid] = [d for d in at.dataframe if "writing system" in d.value.columns]
    share = next(c for c in json.loads(grid.proto.columns).values() if c.get("label") == "share")
    assert share["type_config"]["format"] == "%.3g %%"
    [chart] = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    totals = Counter()
    for trace in chart["data"]:
        totals.update(dict(zip(trace["y"], trace["x"])))
    assert totals == expected
    assert chart["data"][1]["y"][-1] == "Latin"  # the table's first row is the chart's top bar
    assert any("for the Unicode script most of its letters belong to" in c.value
               for c in at.caption)


def test_longest_tokens_in_characters_and_bytes() -> None:
    tok = bpe_core.train({"привет": 9, "hello": 8, "日本語": 7}, unit="byte", pretokenizer="gpt2",
                         min_frequency=1, name="three words")
    at = open_tab(open_page(tok), "Longest")

    def order() -> list[str]:
        return list(frame_with(at, "chars")["shown"])

    shown = order()
    assert shown[0] == "привет" and list(frame_with(at, "chars")["chars"])[0] == 6
    assert shown.index("hello") < shown.index("日本語")  # 5 characters, then 3
    assert list(frame_with(at, "chars")["chars"]) == sorted(frame_with(at, "chars")["chars"],
                                                          reverse=True)
    at.segmented_control(key="vocab_longest_unit").set_value("bytes").run()
    shown = order()
    assert shown[0] == "привет" and list(frame_with(at, "chars")["n_bytes"])[0] == 12
    assert shown.index("日本語") < shown.index("hello")  # 9 bytes, then 5
    at.multiselect(key="vocab_longest_systems").set_value(["Han"]).run()
    assert list(frame_with(at, "chars")["shown"])[:1] == ["日本語"]
    assert set(frame_with(at, "chars")["script"]) == {"Han"}
    at.number_input(key="vocab_longest_n").set_value(1).run()
    assert len(frame_with(at, "chars")) == 1
    assert ("The longest token in bytes, learned or base (special and added tokens left out: they "
            "are written by hand). Longest first, then by id.") in [c.value for c in at.caption]


def test_byte_tokens_of_a_fallback_model_and_of_a_byte_level_one(tmp_path) -> None:
    llama2 = model_file_tokenizer(llama2_file(), "llama2-like", tmp_path)
    at = open_tab(open_page(llama2), "Byte tokens")
    fallback = frame_with(at, "raw")
    assert list(fallback["raw"]) == [f"<0x{b:02X}>" for b in range(256)]
    assert any(c.value.startswith("256 byte-fallback tokens, written <0x00> to <0xFF>")
               for c in at.caption)
    llama3 = model_file_tokenizer(llama3_file(), "llama3-like", tmp_path)
    at = open_tab(open_page(llama3), "Byte tokens")
    assert not any("raw" in d.value.columns for d in at.dataframe)
    assert any("this is byte-level BPE, so each of the 256 bytes is a base token" in c.value
               for c in at.caption)


def test_the_diff_is_searchable_and_has_writing_systems_side_by_side(tmp_path) -> None:
    llama2 = model_file_tokenizer(llama2_file(), "llama2-like", tmp_path)
    llama3 = model_file_tokenizer(llama3_file(), "llama3-like", tmp_path)
    at = open_tab(open_page(llama2, llama3), "Compare")
    d = diff(llama2, llama3)
    m = metrics(at)
    assert (m["Only in A"], m["Only in B"], m["Shared"]) == tuple(
        f"{len(x):,}" for x in (d.only_a, d.only_b, d.shared))
    systems = frame_with(at, "only in B")
    assert systems["shared"].sum() == len(d.shared)
    assert systems["A"].sum() == len(d.shared) + len(d.only_a)
    at.text_input(key="vocab_diff_query").input("·th").run()
    only_a, only_b, shared = [x.value for x in at.dataframe if "token" in x.value.columns
                              and "writing system" not in x.value.columns]
    for rows, entries in ((only_a, d.only_a), (only_b, d.only_b), (shared, d.shared)):
        assert list(rows["text"]) == [e.token for e in entries if " th" in e.token]
    assert len(shared) > 0 and set(shared["script"]) == {"Latin"}
    at.toggle(key="vocab_diff_regex").set_value(True).run()
    at.text_input(key="vocab_diff_query").input("(th").run()
    assert at.error[0].value.startswith(r'"\(th" is not a valid regular expression')


def test_the_diff_search_can_ignore_case_as_the_browse_search_does() -> None:
    words = {"Hug": 10, "hug": 8, "HUG": 6}
    a = bpe_core.train(words, max_merges=5, name="a", **CHAR)  # ug Hug hug UG HUG
    b = bpe_core.train({"pun": 5}, max_merges=1, name="b", **CHAR)
    at = open_tab(open_page(a, b), "Compare")
    at.text_input(key="vocab_diff_query").input("hug").run()
    only_a = next(x.value for x in at.dataframe if "id_a" in x.value.columns
                  and "id_b" not in x.value.columns)
    assert list(only_a["text"]) == ["hug"]
    at.toggle(key="vocab_diff_case").set_value(True).run()
    only_a = next(x.value for x in at.dataframe if "id_a" in x.value.columns
                  and "id_b" not in x.value.columns)
    assert sorted(only_a["text"]) == ["HUG", "Hug", "hug"]


def test_long_diff_lists_are_cut_and_say_so(monkeypatch) -> None:
    from ui.vocabulary import compare

    monkeypatch.setattr(compare, "MAX_ROWS", 4)
    at = open_tab(open_page(hug_tokenizer(3, "three"), hug_tokenizer(5, "five")), "Compare")
    [shared] = [x.value for x in at.dataframe if "id_b" in x.value.columns
                and "id_a" in x.value.columns]
    assert list(shared["id_a"]) == [0, 1, 2, 3]  # the first four of the eleven shared tokens
    assert "11 of 11 tokens; the first 4 are listed (search to reach the others)." in [
        c.value for c in at.caption]
    at.text_input(key="vocab_diff_query").input("ug").run()
    [shared] = [x.value for x in at.dataframe if "id_b" in x.value.columns
                and "id_a" in x.value.columns]
    assert list(shared["text"]) == ["ug", "hug"]
    assert "2 of 11 tokens." in [c.value for c in at.caption]


def made_up_documents(n: int, *, seed: int = 3) -> list[str]:
    """``n`` documents of 20 words each, drawn from 40,000 made-up ones."""
    rng = random.Random(seed)
    words = ["".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(2, 9)))
             for _ in range(40_000)]
    return [" ".join(rng.choices(words, k=20)) for _ in range(n)]


def test_a_large_corpus_is_counted_in_a_worker_while_the_table_shows_and_kept_for_everyone():
    docs = made_up_documents(11_000)  # 1.2 million characters
    assert sum(map(len, docs)) >= vocabulary_jobs.BACKGROUND_CHARS
    tok = bpe_core.train(docs[:200], max_merges=40, name="made-up", **CHAR)
    corpus = make_corpus("made-up words", documents=docs)
    hold = Hold("vocabulary-frequencies")
    at = open_page(tok, corpus=corpus)
    hold.held()
    what = f"Counting the tokens of {sum(map(len, docs)):,} characters"
    assert any(p.proto.text.startswith(f"{what} in the background…") for p in at.get("progress"))
    # Meanwhile the page is the vocabulary, its frequencies to come.
    df = table(at)
    assert len(df) == tok.vocab_size and df["frequency"].isna().all()
    assert metrics(at)["Unused in corpus"] == "…"
    assert any("occurrences being counted in the active corpus" in c.value for c in at.caption)
    for tab in TABS[1:] + TABS[:1]:  # every tab draws without the frequencies
        open_tab(at, tab)
    hold.cancel(at)
    assert [i.value for i in at.info] == [f"{what} was cancelled."]
    assert len(table(at)) == tok.vocab_size
    assert any("occurrences not counted (see above) in the active corpus" in c.value
               for c in at.caption)  # no longer "being counted"
    at.button(key=f"{FREQUENCY_JOB}_again").click().run()
    _, job = at.session_state[FREQUENCY_JOB]
    assert job.wait(timeout=60) == "done"
    at.run()
    freq = token_frequencies(tok, docs)
    assert job.result == freq
    df = table(at)
    assert dict(zip(df["id"], df["frequency"])) == {i: freq.get(i, 0) for i in df["id"]}
    assert metrics(at)["Unused in corpus"] == f"{sum(1 for i in df['id'] if not freq.get(i)):,}"
    # Another session with the same tokenizer and corpus finds them counted.
    other = open_page(tok, corpus=make_corpus("the same words", documents=docs))
    assert FREQUENCY_JOB not in other.session_state
    assert table(other)["frequency"].equals(df["frequency"])


@pytest.mark.parametrize("module", ["ui.vocabulary.jobs", "ui.tokenize.jobs"])
def test_a_job_module_loads_only_the_engine(module):
    code = f"import sys, {module}; print(sorted({{'streamlit', 'pandas'}} & set(sys.modules)))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True, cwd=Path(__file__).resolve().parents[2])
    assert loaded.stdout.strip() == "[]"


def test_one_byte_token_is_counted_in_the_singular(tmp_path) -> None:
    # A character model whose only byte-fallback token is <0xC3>: one fragment, one byte token.
    d = {"version": "1.0", "added_tokens": [], "normalizer": None, "pre_tokenizer": None,
         "post_processor": None, "decoder": {"type": "ByteFallback"},
         "model": {"type": "BPE", "dropout": None, "unk_token": None, "byte_fallback": True,
                   "continuing_subword_prefix": None, "end_of_word_suffix": None,
                   "fuse_unk": False, "ignore_merges": False,
                   "vocab": {"a": 0, "b": 1, "ab": 2, "<0xC3>": 3}, "merges": [["a", "b"]]}}
    at = open_tab(open_page(model_file_tokenizer(json.dumps(d).encode(), "one byte", tmp_path)),
                  "Byte tokens")
    captions = [c.value for c in at.caption]
    assert any(c.startswith("1 byte-fallback token, written <0x00> to <0xFF>") for c in captions)
    assert any(c.startswith("1 token holds part of a multi-byte character, so it means nothing "
                            "alone: it decodes only next to") for c in captions)


def test_a_small_corpus_stops_the_count_of_a_large_one_under_way():
    from tests.test_jobs import gone

    docs = made_up_documents(11_000, seed=4)  # 1.2 million characters, not counted before
    tok = bpe_core.train(docs[:200], max_merges=40, name="made-up", **CHAR)
    hold = Hold("vocabulary-frequencies")
    at = open_page(tok, corpus=make_corpus("made-up words", documents=docs))
    job = hold.held()
    small = make_corpus("a few of them", documents=docs[:100])  # counted at once
    at.session_state["corpora"] = {**at.session_state["corpora"], small.name: small}
    at.session_state["corpus"] = small.name
    at.run()
    assert not at.exception
    assert job.state == "cancelled" and gone(hold.pid, within=1.0)
    assert FREQUENCY_JOB not in at.session_state
    assert not table(at)["frequency"].isna().any()


def test_a_token_named_in_markdown_is_named_as_it_is_under_its_merge_tree():
    # A token's own text went raw into the caption that says why it has no tree: a special
    # token "$x$ **b**" showed as maths and bold, not as the token it is.
    tok = bpe_core.train(HUG, max_merges=2, name="marked", special_tokens=["$x$ **b**"], **CHAR)
    at = open_page(tok)
    at.number_input(key=TOKEN_KEY).set_value(tok.special_tokens["$x$ **b**"]).run()
    assert not at.exception
    said = [c.value for c in at.caption if "is a special token" in c.value]
    assert said == [r"'\$x\$·\*\*b\*\*' is a special token\: a marker put in the vocabulary "
                    r"whole and found in the text before BPE runs\. No merge builds it, so it "
                    r"has no merge tree\."]


def test_the_downloads_hold_every_token_found_with_its_file_spelling_and_safe_cells(
        monkeypatch, tmp_path) -> None:
    # The grid's own CSV held only the rows it lists (Gemma 3: 10,000 of 262,145), in the
    # notation ('·the'), and a spreadsheet ran a token '==' or '-1' as a formula.
    from ui.vocabulary import export, view
    from ui.vocabulary.data import select, vocabulary_frame, with_frequencies

    monkeypatch.setattr(view, "MAX_ROWS", 2)
    tok = bpe_core.train("== -1 @x == -1", unit="char", pretokenizer="whitespace",
                         max_merges=3, min_frequency=1, name="code")
    at = open_page(tok, corpus=make_corpus("code", documents=["== =="]))

    def buttons() -> list[tuple[str, bool]]:
        return [(b.proto.label, b.proto.disabled) for b in at.get("download_button")]

    assert len(table(at)) == 2 and buttons() == [("Download CSV (9 tokens)", False),
                                                 ("Download JSON (9 tokens)", False)]
    search(at, "@")
    assert buttons() == [("Download CSV (2 tokens)", False), ("Download JSON (2 tokens)", False)]
    search(at, "no such token")
    assert buttons() == [("Download CSV (0 tokens)", True), ("Download JSON (0 tokens)", True)]
    # What they hold: every row found, in the page's order, as the page's callables make it.
    df = with_frequencies(vocabulary_frame(tok), Counter(tok.encode("== ==")))
    found = select(df, order="highest pair count")
    data = export.as_csv(export.downloaded(tok, found))
    assert data.startswith("\ufeffid,".encode("utf-8"))  # the mark by which Excel reads UTF-8
    lines = data.decode("utf-8-sig").splitlines()
    assert lines[:4] == [
        "id,in the file,token,bytes (hex),bytes,chars,kind,rank,pair count,writing system,"
        "frequency", "6,'==,'==,3D 3D,2,2,merge,0,2,Punctuation & symbols,2",
        "7,'-1,'-1,2D 31,2,2,merge,1,2,Punctuation & symbols,0",
        "8,'@x,'@x,40 78,2,2,merge,2,1,Latin,0"]
    assert [int(line.split(",")[0]) for line in lines[1:]] == found["id"].tolist()
    assert len(lines) == 1 + tok.vocab_size
    # Base symbols alone still have the pair count column, empty: it follows the tokenizer.
    [header, minus] = export.as_csv(export.downloaded(tok, select(df, query="-", order="id")
                                                      .head(1))).decode("utf-8-sig").splitlines()
    assert (header, minus) == (lines[0], "1,'-,'-,2D,1,1,char,,,Punctuation & symbols,0")
    # A model file: each token as the file writes it, and the text it stands for, exactly.
    llama = model_file_tokenizer(llama2_file(), "llama2-like", tmp_path)
    rows = json.loads(export.as_json(export.downloaded(
        llama, with_frequencies(vocabulary_frame(llama), None))))
    newline = next(r for r in rows if r["in the file"] == "<0x0A>")
    assert (newline["id"], newline["token"], newline["bytes (hex)"], newline["kind"]) == (
        llama.model.vocab["<0x0A>"], "\n", "0A", "byte")
    assert "frequency" not in newline and "pair count" not in newline  # unknown: left out
    assert [r["id"] for r in rows] == llama.ids()


def test_tokenizer_a_follows_the_tokenizer_made_active_in_the_sidebar() -> None:
    # A stayed 'three' when the sidebar made 'four' active, under the page's cards for 'four'.
    at = open_tab(open_page(hug_tokenizer(3, "three"), hug_tokenizer(5, "five"),
                            hug_tokenizer(4, "four")), "Compare")
    at.sidebar.selectbox(key="sidebar_tokenizer").set_value("four").run()
    assert not at.exception
    assert at.selectbox(key="vocab_diff_a").value == "four"
    assert at.selectbox(key="vocab_diff_b").value == "five"
    m = metrics(at)
    assert (m["Tokens"], m["Only in A"], m["Only in B"], m["Shared"]) == ("12", "0", "1", "12")
    # Picked by hand, A stays as picked.
    at.selectbox(key="vocab_diff_a").set_value("five").run()
    at.run()
    assert at.selectbox(key="vocab_diff_a").value == "five"
