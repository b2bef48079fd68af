"""The vocabulary as rows: search, scripts, byte fragments, tokens built from a token, diffs."""

from __future__ import annotations

import dataclasses

import pytest

import bpe_core
from bpe_core.analysis import vocabulary as engine
from bpe_core.analysis.vocabulary import (VocabularySearchError, built_from, diff, matches,
                                          not_utf8, vocabulary)
from bpe_core.analysis.writing_systems import PARTIAL, SPECIAL
from tests.model_files import nul_files
from ui.vocabulary.data import (allocation_figure, count_figure, default_token, diff_frame,
                                length_figure, script_options, select, systems_table,
                                vocabulary_frame, with_frequencies)

HUG = {"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}
CHAR = dict(unit="char", pretokenizer="whitespace", min_frequency=1)


@pytest.fixture(scope="module")
def hug():
    """The Hugging Face course corpus, five merges: ug, un, hug, pun, pug."""
    tok = bpe_core.train(HUG, max_merges=5, **CHAR)
    assert [m.token for m in tok.merges] == ["ug", "un", "hug", "pun", "pug"]
    return tok


def ids_of(tok, *tokens):
    return [next(i for i in tok.ids() if tok.display(i) == t) for t in tokens]


# --- rows -----------------------------------------------------------------------------------


def test_one_row_per_token_with_exact_fields(hug):
    rows = vocabulary(hug)
    assert len(rows) == hug.vocab_size == 8 + 5  # [UNK], b g h n p s u, and five merges
    assert [r.id for r in rows] == list(range(hug.vocab_size))
    ug = rows[ids_of(hug, "ug")[0]]
    assert (ug.token, ug.hex, ug.n_bytes, ug.chars, ug.kind, ug.rank, ug.count, ug.script,
            ug.utf8) == ("ug", "75 67", 2, 2, "merge", 0, 20, "Latin", True)
    unk = rows[0]
    assert (unk.token, unk.kind, unk.rank, unk.count, unk.script) == ("[UNK]", "unk", None, None,
                                                                      SPECIAL)
    assert (unk.hex, unk.n_bytes, unk.chars) == ("", None, None)  # any text: no length


def test_special_tokens_are_rows_too():
    tok = bpe_core.train("ab ab ab", unit="byte", pretokenizer="none", max_merges=1,
                         min_frequency=1, special_tokens=["<|end|>"])
    rows = vocabulary(tok)
    assert len(rows) == tok.vocab_size == 256 + 1 + 1
    assert (rows[-1].id, rows[-1].token, rows[-1].kind, rows[-1].script) == (257, "<|end|>",
                                                                             "special", SPECIAL)


def test_a_character_built_from_byte_merges_reads_as_itself():
    tok = bpe_core.train("的的的 的的", unit="byte", pretokenizer="none", max_merges=2,
                         min_frequency=1)
    rows = vocabulary(tok)
    first, whole = rows[256], rows[257]  # E7 9A, then E7 9A 84
    assert (first.token, first.chars, first.script, first.utf8) == ("<E7 9A>", None, PARTIAL, False)
    assert (whole.token, whole.hex, whole.chars, whole.script, whole.utf8) == (
        "的", "E7 9A 84", 1, "Han", True)
    fragments = not_utf8(rows)
    assert [r.id for r in fragments] == list(range(0x80, 0x100)) + [256]


def test_end_of_word_tokens_show_the_marker():
    tok = bpe_core.train("low lower newest widest", unit="char", pretokenizer="end-of-word",
                         min_frequency=1, max_merges=5)
    shown = {r.token for r in vocabulary(tok)}
    assert {"lo", "low", "es", "est", "est</w>", "</w>"} <= shown
    eow = vocabulary(tok)[next(i for i in tok.ids() if tok.kind(i) == "eow")]
    assert (eow.token, eow.kind, eow.script, eow.n_bytes) == ("</w>", "eow", SPECIAL, 0)


def test_scripts_of_a_multilingual_vocabulary():
    tok = bpe_core.train("мир мир мир peace peace 和平 和平", unit="char", pretokenizer="whitespace",
                         min_frequency=2)
    by_token = {r.token: r.script for r in vocabulary(tok)}
    assert by_token["мир"] == "Cyrillic"
    assert by_token["peace"] == "Latin"
    assert by_token["和平"] == "Han"


# --- search ---------------------------------------------------------------------------------


def test_substring_search_finds_exactly_the_tokens_containing_it(hug):
    rows = vocabulary(hug)
    hits = [r.token for r, hit in zip(rows, matches([r.token for r in rows], "ug")) if hit]
    assert hits == ["ug", "hug", "pug"]
    assert hits == [r.token for r in rows if "ug" in r.token]


def test_regex_and_case():
    texts = ["hug", "Hug", "pun", "bun", " the"]
    assert matches(texts, "^[pb]un$", use_regex=True) == [False, False, True, True, False]
    assert matches(texts, "HU", ignore_case=True) == [True, True, False, False, False]
    assert matches(texts, "HU") == [False] * 5
    assert matches(texts, r"^\s", use_regex=True) == [False, False, False, False, True]
    assert matches(texts, "") == [True] * 5


def test_an_invalid_regex_is_a_clear_error():
    with pytest.raises(VocabularySearchError, match=r'"\[ab" is not a valid regular expression'):
        matches(["x"], "[ab", use_regex=True)
    assert matches(["[ab"], "[ab") == [True]  # the same text, searched as typed


def test_select_filters_by_query_script_and_sorts():
    tok = bpe_core.train("мир мир мир peace peace 和平 和平", unit="char", pretokenizer="whitespace",
                         min_frequency=2)
    df = vocabulary_frame(tok)
    assert len(df) == tok.vocab_size
    cyrillic = select(df, scripts=["Cyrillic"])
    assert set(cyrillic["token"]) == {r.token for r in vocabulary(tok) if r.script == "Cyrillic"}
    assert "Cyrillic" in script_options(df)
    freq = engine.token_frequencies(tok, "мир peace peace")
    table = with_frequencies(df, freq)
    assert dict(zip(table["id"], table["frequency"])) == {i: freq.get(i, 0) for i in df["id"]}
    ordered = select(table, order="most frequent in the corpus")
    assert list(ordered["frequency"]) == sorted(table["frequency"], reverse=True)
    longest = select(table, order="longest (bytes)")
    assert list(longest["n_bytes"].dropna()) == sorted(table["n_bytes"].dropna(), reverse=True)
    assert longest["n_bytes"].isna().sum() == 1 and longest.iloc[-1]["kind"] == "unk"  # last


def test_select_finds_a_leading_space_typed_either_way():
    tok = bpe_core.train("the the the then", unit="byte", pretokenizer="gpt2", max_merges=4,
                         min_frequency=1)
    df = vocabulary_frame(tok)
    with_space = set(select(df, query=" th")["token"])
    assert with_space == set(select(df, query="·th")["token"]) == {" th", " the", " then"} & set(
        df["token"])
    assert with_space  # the corpus has " the" (leading space) three times


def test_a_hebrew_word_ending_in_the_marker_is_shown_isolated_and_found_typed_or_copied():
    # The table's canvas drew "שלום</w>" as "<w/>שלום": the marker now sits in a left-to-right
    # isolate in the cell, and a search finds the token typed plainly or pasted from the cell.
    tok = bpe_core.train("שלום עולם שלום", unit="char", pretokenizer="end-of-word",
                         max_merges=4, min_frequency=1)
    df = vocabulary_frame(tok)
    shown = dict(zip(df["token"], df["shown"]))
    assert shown["שלום</w>"] == "שלום\u2066</w>\u2069"
    assert shown["ם</w>"] == "ם\u2066</w>\u2069"
    assert shown["</w>"] == "</w>"  # no right-to-left letter: as it was
    for query in ("ם</w>", shown["ם</w>"]):
        assert list(select(df, query=query)["token"]) == ["ם</w>", "שלום</w>"]


# --- tokens built from a token --------------------------------------------------------------


def test_built_from_one_level_and_recursive(hug):
    u, ug, n = ids_of(hug, "u", "ug", "n")
    assert [m.token for m in built_from(hug, u)] == ["ug", "un"]
    assert [m.token for m in built_from(hug, u, recursive=True)] == ["ug", "un", "hug", "pun",
                                                                     "pug"]
    assert [m.token for m in built_from(hug, ug)] == ["hug", "pug"]
    assert [m.token for m in built_from(hug, n)] == ["un"]
    assert [m.token for m in built_from(hug, n, recursive=True)] == ["un", "pun"]
    assert built_from(hug, ids_of(hug, "hug")[0]) == []
    with pytest.raises(ValueError, match="not in this vocabulary"):
        built_from(hug, 999)


# --- diff -----------------------------------------------------------------------------------


def test_diff_of_two_trainings_gives_the_exact_sets(hug):
    fewer = bpe_core.train(HUG, max_merges=3, **CHAR)
    d = diff(fewer, hug)
    assert d.only_a == ()
    assert [(e.token, e.id_b, e.rank_b) for e in d.only_b] == [("pun", 11, 3), ("pug", 12, 4)]
    assert [e.token for e in d.shared] == [hug.display(i) for i in range(11)]
    hug_entry = next(e for e in d.shared if e.token == "hug")
    assert (hug_entry.id_a, hug_entry.rank_a, hug_entry.id_b, hug_entry.rank_b) == (10, 2, 10, 2)


def test_diff_matches_tokens_by_bytes_not_ids():
    a = bpe_core.train({"ab": 5, "cd": 3}, **CHAR)  # alphabet a b c d
    b = bpe_core.train({"cd": 5, "xy": 3}, **CHAR)  # alphabet c d x y
    d = diff(a, b)
    assert sorted(e.token for e in d.only_a) == ["a", "ab", "b"]
    assert sorted(e.token for e in d.only_b) == ["x", "xy", "y"]
    shared = {e.token: (e.id_a, e.id_b, e.rank_a, e.rank_b) for e in d.shared}
    assert shared == {"[UNK]": (0, 0, None, None), "c": (3, 1, None, None),
                      "d": (4, 2, None, None), "cd": (6, 5, 1, 0)}
    frame = diff_frame(d.shared)
    assert list(frame.columns) == ["token", "text", "bytes", "id_a", "rank_a", "id_b", "rank_b"]
    only_b = diff_frame(d.only_b, side="b", scripts={i: f"s{i}" for i in b.ids()})
    assert list(only_b.columns) == ["token", "text", "bytes", "script", "id_b", "rank_b"]
    assert dict(zip(only_b["text"], only_b["script"])) == {
        t: f"s{i}" for t, i in (("x", 3), ("y", 4), ("xy", 6))}


def test_diff_keeps_word_final_tokens_apart():
    a = bpe_core.train("est est est", unit="char", pretokenizer="end-of-word", min_frequency=1)
    b = bpe_core.train("est est est", unit="char", pretokenizer="whitespace", min_frequency=1)
    d = diff(a, b)
    assert "est</w>" in {e.token for e in d.only_a}
    assert "est" in {e.token for e in d.only_b} | {e.token for e in d.shared}
    assert "est</w>" not in {e.token for e in d.shared}


# --- identity and the default token ---------------------------------------------------------


def test_fingerprint_follows_content_not_name(hug):
    same = bpe_core.train(HUG, max_merges=5, name="another name", **CHAR)
    assert same.fingerprint() == hug.fingerprint()
    assert bpe_core.train(HUG, max_merges=4, **CHAR).fingerprint() != hug.fingerprint()
    assert bpe_core.train(HUG, max_merges=5, unit="byte", pretokenizer="whitespace",
                          min_frequency=1).fingerprint() != hug.fingerprint()
    # Everything that changes an encoding changes it, ignore_merges included.
    byte = bpe_core.train(HUG, max_merges=5, unit="byte", min_frequency=1)
    looked_up = dataclasses.replace(byte, model=dataclasses.replace(byte.model, ignore_merges=True))
    assert looked_up.fingerprint() != byte.fingerprint()
    # A NUL in a token is not a separator: 'a\x00' + 'b' and 'a' + '\x00b' are two vocabularies.
    first, second = (bpe_core.loads(f.decode()) for f in nul_files())
    assert first.display(0) != second.display(0) and first.fingerprint() != second.fingerprint()


def test_default_token_is_the_most_used_merge_made_from_a_merge(hug):
    # hug, pun and pug are made from a merge; none is used later, so the latest wins the tie.
    assert hug.display(default_token(hug)) == "pug"
    tok = bpe_core.train({"hug": 10, "hugs": 8, "hugged": 6}, max_merges=4, **CHAR)
    assert [m.token for m in tok.merges][:3] == ["hu", "hug", "hugs"]
    assert tok.display(default_token(tok)) == "hug"  # used by hugs (and hugg)


# --- figures --------------------------------------------------------------------------------


def test_figures_count_every_token(hug):
    df = vocabulary_frame(hug)
    lengths = length_figure(df, "bytes")
    assert {t.name: dict(zip(t.x, t.y)) for t in lengths.data} == {
        "base": {1: 7}, "learned": {2: 2, 3: 3}}  # [UNK] stands for any text: no length
    alloc = allocation_figure(systems_table(df))
    assert sum(sum(t.x) for t in alloc.data) == hug.vocab_size
    counts = count_figure(df)
    assert list(counts.data[0].x) == [0, 1, 2, 3, 4]
    assert list(counts.data[0].y) == [m.count for m in hug.merges]
    assert counts.layout.yaxis.type == "log"


def test_html_and_templates_in_tokens_and_names_show_as_typed_in_charts():
    # Plotly reads <b>, <br> and <a href> in a chart's text as markup, and %{...} in a hover
    # template as a value: a token "<br" (any vocabulary learned from web pages) broke its
    # hover line, and a language named "<i>x</i>" was drawn in italics as "x".
    from bpe_core.analysis.parallel import Language
    from ui.languages import charts as lang_charts
    tok = bpe_core.train("<br> <br> <br> <i>a</i> <i>a</i> 50%{y}", unit="char",
                         pretokenizer="whitespace", min_frequency=1, max_merges=3)
    df = vocabulary_frame(tok)
    assert list(df[df["kind"] == "merge"]["shown"]) == ["i>", "<b", "<br"]
    assert list(count_figure(df).data[0].text) == ["i&gt;", "&lt;b", "&lt;br"]
    hostile = Language("<i>x</i>", "<i>x</i>", "Latin", True)
    langs = {"en": Language("en", "English", "Latin", True), "zz": hostile}
    fig = lang_charts.premium_bars(["en", "zz"], langs, {"en": 1.0, "zz": 2.0},
                                   baseline="50%{y} \u202e", title="t")
    assert list(fig.data[0].x) == ["English", "&lt;i&gt;x&lt;/i&gt;"]
    assert fig.data[0].hovertemplate == ("<b>%{x}</b>: %{y:.2f}× the tokens of 50&#37;{y} "
                                         "⟨U+202E⟩<br>Latin script<extra></extra>")
    heat = lang_charts.premium_heatmap(["<b>A</b>"], ["<a href='https://e.example'>t</a>"],
                                       [[1.5]], baseline="B", title="t")
    assert (list(heat.data[0].x), list(heat.data[0].y)) == (
        ["&lt;a href='https://e.example'&gt;t&lt;/a&gt;"], ["&lt;b&gt;A&lt;/b&gt;"])
    groups = lang_charts.premium_groups(["en"], langs, {"<br>": {"en": 1.0}}, baseline="B",
                                        title="t")
    assert groups.data[0].name == "&lt;br&gt;"
