"""The Tokenize page's helpers, without a browser: counts, table, tooltips, differences, the
shareable URL, the merge tree drawing, the example texts and reading uploaded tokenizers."""

from __future__ import annotations

import json
import re

import pytest

import bpe_core
from ui.shared import annotate, bidi, loaders, merge_tree, tokens as colour
from ui.tokenize import data as tokenize_data, presets as tokenize_presets
from ui.tokenize.data import (Shared, differences, from_url, readable, text_counts, token_table,
                               url_params)


@pytest.fixture(scope="module")
def tok() -> bpe_core.Tokenizer:
    text = "the lowest price is lower than the last one; newest and widest " * 20 + "你好 你们"
    return bpe_core.train(text, unit="byte", pretokenizer="gpt2", max_merges=40, min_frequency=2)


def test_counts_cover_tokens_characters_bytes_and_words(tok) -> None:
    text = "the lowest 你好"
    spans = tok.spans(text)
    c = text_counts(text, spans)
    assert (c.tokens, c.characters, c.bytes, c.words) == (len(tok.encode(text)), 13, 17, 3)
    assert c.chars_per_token == pytest.approx(13 / c.tokens)
    assert c.bytes_per_token == pytest.approx(17 / c.tokens)
    assert text_counts("", []).chars_per_token == 0.0


def test_table_has_one_row_per_token_with_ids_bytes_and_spans(tok) -> None:
    text = "the lowest,你"
    spans = tok.spans(text)
    table = token_table(tok, spans, text)
    assert list(table["id"]) == tok.encode(text)
    assert list(table["characters"]) == [f"{s.start}–{s.end}" for s in spans]
    assert "".join(bytes.fromhex(h).decode("latin-1") for h in table["bytes"]).encode(
        "latin-1") == text.encode()
    # A token holding part of 你 shows its bytes, never a bare replacement character.
    partial = [row for row in table.itertuples() if row.token.startswith("<")]
    assert partial and all("\ufffd" not in t for t in table["token"])
    assert re.fullmatch(r"<[0-9A-F]{2}( [0-9A-F]{2})*>", partial[0].token)
    merged = tok.merges[0]
    row = table[table["id"] == merged.token_id]
    if len(row):
        assert row["how it was made"].iloc[0].startswith(
            f"merge {merged.rank + 1} (rank {merged.rank}):")


def test_tooltip_gives_rank_and_pair_count_of_learned_tokens(tok) -> None:
    m = tok.merges[3]
    tip = annotate.tooltip(tok, m.token_id)
    assert "merge 4 (rank 3): " in tip and f"seen {m.count:,} times" in tip
    assert annotate.tooltip(tok, ord("t")) == "base byte"


def test_readable_names_invisible_and_control_characters() -> None:
    assert readable("a\u200bb\u202ec\x07 \n") == "a⟨ZWSP⟩b⟨U+202E⟩c⟨BEL⟩·↵"
    assert readable("a b", whitespace=False) == "a b"


def test_differences_are_tokens_the_other_segmentation_lacks(tok) -> None:
    text = "the lowest price"
    full, none = tok.spans(text), tok.spans(text, upto=0)
    only_full, only_none = differences(full, none)
    # Every merged token is a difference; single bytes that both have are not.
    assert only_full == {i for i, s in enumerate(full) if len(s.bytes) > 1}
    assert len(only_none) == sum(len(s.bytes) for s in full if len(s.bytes) > 1)
    assert differences(full, full) == (set(), set())


def test_url_holds_the_text_only_when_short() -> None:
    assert url_params(Shared("héllo", "gpt2")) == {"tokenizer": "gpt2", "text": "héllo"}
    limit = tokenize_data.MAX_URL_BYTES
    assert "text" in url_params(Shared("a" * limit, "t"))
    assert "text" not in url_params(Shared("é" * (limit // 2 + 1), "t"))  # in UTF-8 bytes
    assert url_params(Shared("", "t")) == {"tokenizer": "t"}


def test_a_link_holds_every_view_option_and_reads_back_the_same() -> None:
    shown = Shared("low lower", "gpt2", view="table", whitespace=False, merges=7,
                   encoder="merge-order", colours="id", limit=300, compare=("cl100k_base", "x y"))
    params = url_params(shown)
    assert params == {"tokenizer": "gpt2", "text": "low lower", "view": "table",
                      "whitespace": "off", "merges": "7", "encoder": "merge-order",
                      "colours": "id", "limit": "300", "compare": ["cl100k_base", "x y"]}
    back = from_url({k: v if isinstance(v, list) else [v] for k, v in params.items()})
    assert Shared("low lower", "gpt2", **back) == shown
    # A mangled link opens anyway: what is not a valid value is left out.
    assert from_url({"view": ["<script>"], "merges": ["-3"], "limit": ["0"],
                     "encoder": ["eval"], "whitespace": ["maybe"]}) == {}


def test_long_texts_are_drawn_a_page_at_a_time(tok) -> None:
    text = "the lowest price is lower " * 400
    spans = tok.spans(text)
    windows = tokenize_data.pages(len(spans), 500)
    assert [len(w) for w in windows[:-1]] == [500] * (len(windows) - 1)
    assert sum(map(len, windows)) == len(spans) and windows[-1].stop == len(spans)
    page = colour.tokens_html(spans, text, window=windows[1])
    assert re.findall(r'data-i="(\d+)"', page) == [str(k) for k in windows[1]]
    # The colours, the framed token and the faded ones are those of the whole text.
    whole = colour.tokens_html(spans, text)
    box = re.compile(r'<span class="t [^"]*" [^>]*data-i="\d+">')
    assert box.findall(page) == box.findall(whole)[500:1000]
    marked = colour.tokens_html(spans, text, window=windows[1], chosen=600, over=700)
    assert re.findall(r'class="t [^"]*\bon\b[^"]*"[^>]*data-i="(\d+)"', marked) == ["600"]
    faded = re.findall(r'class="t [^"]*\bov\b[^"]*"[^>]*data-i="(\d+)"', marked)
    assert faded == [str(k) for k in range(700, 1000)]
    # Another tokenizer's share of the same characters.
    chars = spans[500].start, spans[999].end
    other = bpe_core.train(text, unit="byte", max_merges=3, min_frequency=1).spans(text)
    part = tokenize_data.covering(other, *chars)
    assert other[part.start].start == chars[0] and other[part.stop - 1].end <= chars[1]


def test_colour_by_id_gives_a_token_the_same_colour_in_any_text(tok) -> None:
    def colours(text: str) -> dict[int, set[str]]:
        spans = tok.spans(text)
        found = re.findall(r'class="t (h\d+)[^"]*" title="id (\d+) ', colour.tokens_html(
            spans, text, colours="id"))
        out: dict[int, set[str]] = {}
        for hue, token_id in found:
            out.setdefault(int(token_id), set()).add(hue)
        return out

    a, b = colours("the lowest price the lowest"), colours("lower than the last one, the lowest")
    assert all(len(h) == 1 for h in a.values())  # repeats share their colour
    shared = set(a) & set(b)
    assert len(shared) >= 2 and all(a[i] == b[i] for i in shared)
    assert len(set().union(*a.values(), *b.values())) > 3


def test_budget_and_id_lists(tok) -> None:
    text = "the lowest price is lower"
    spans = tok.spans(text)
    python, plain = tokenize_data.id_lists(spans)
    assert json.loads(python) == [s.id for s in spans] == [int(i) for i in plain.split(" ")]
    note = tokenize_data.budget_note(text, spans, 3)
    assert note.startswith(f"{len(spans)} tokens: {len(spans) - 3} over the budget of 3.")
    assert f"character {spans[3].start}, before {readable(text[spans[3].start:][:20])!r}" in note
    assert tokenize_data.budget_note(text, spans, 100).endswith(
        f"{100 - len(spans)} left of the budget of 100.")


def test_markdown_in_names_is_shown_literally() -> None:
    assert annotate.md_literal("[x](javascript:alert(1))") == (
        r"\[x\]\(javascript\:alert\(1\)\)")


# --- the merge tree --------------------------------------------------------------------------


def test_merge_tree_dot_has_one_node_per_tree_node_and_the_recipe_in_rank_order(tok) -> None:
    token_id = max(range(tok.n_base, tok.n_base + len(tok.merges)),
                   key=lambda i: len(tok.merge_tree(i).leaves()))
    tree = tok.merge_tree(token_id)
    dot = merge_tree.tree_dot(tree)
    nodes = re.findall(r"^\s+(t[lr]*) \[label=", dot, flags=re.M)

    def size(t):
        return 1 if t.rank is None else 1 + size(t.left) + size(t.right)

    assert len(nodes) == size(tree) and len(set(nodes)) == len(nodes)
    assert dot.count("->") == size(tree) - 1
    steps = merge_tree.recipe(tree)
    assert [s.rank for s in steps] == sorted({s.rank for s in steps})
    assert steps[-1].rank == tree.rank and steps[-1].token == tree.token
    for s in steps:
        m = tok.merges[s.rank]
        assert (s.left, s.right, s.token, s.count) == (m.left, m.right, m.token, m.count)
    assert merge_tree.depth(tree) >= 2


def test_a_merge_that_completes_a_character_shows_the_character() -> None:
    tok = bpe_core.train("你好 你们 你好 你们 " * 5, unit="byte", pretokenizer="gpt2",
                         max_merges=3, min_frequency=2)
    whole = tok.encode("你")
    assert len(whole) == 1
    tree = tok.merge_tree(whole[0])
    dot = merge_tree.tree_dot(tree)
    assert dot.count('label="你\\nrank ') == 1 and 'label="<A0>"' in dot
    assert tokenize_data.choice_label(tok, whole[0]) == f"你 (id {whole[0]})"


def test_merge_tree_labels_cannot_break_out_of_dot_strings() -> None:
    tree = bpe_core.MergeTree(3, 'a"\\', 0, 2, bpe_core.MergeTree(1, 'a"'),
                              bpe_core.MergeTree(2, "\\"))
    dot = merge_tree.tree_dot(tree)
    assert 'label="a\\"\\\\\\nrank 0 · seen 2×"' in dot
    assert 'label="a\\""' in dot and 'label="\\\\"' in dot


# --- example texts ---------------------------------------------------------------------------


def test_examples_include_textbook_sentences_languages_code_numbers_emoji_and_hostile_text() -> None:
    texts = tokenize_presets.presets()
    assert texts["Textbook: NLP sentence"] == "Natural language processing is interesting"
    langs = texts["Many languages, one sentence"]
    assert "Chinese: " in langs and "Arabic: " in langs and len(langs.splitlines()) >= 8
    assert "def " in texts["Code (Python)"]
    hostile = texts["Tricky: HTML, markdown, invisible characters"]
    assert "<script>" in hostile and "\u200b" in hostile and "\u202e" in hostile


# --- the colouring extensions the page uses ---------------------------------------------------


def test_boxes_carry_their_position_details_and_difference_marks(tok) -> None:
    text = "the lowest"
    spans = tok.spans(text)
    html = colour.tokens_html(spans, text, details=[f"d{k}" for k in range(len(spans))],
                              marked={1})
    assert re.findall(r'data-i="(\d+)"', html) == [str(k) for k in range(len(spans))]
    assert f"\nd{len(spans) - 1}\"" in html
    assert len(re.findall(r'class="t[^"]* d"', html)) == 1
    ids = colour.tokens_html(spans, text, label="id")
    assert re.findall(r'data-i="\d+">(\d+)</span>', ids) == [str(s.id) for s in spans]


# --- loading tokenizer files -----------------------------------------------------------------


TEXT = "the newest price, 你好! 123"


def test_a_native_file_loads_and_encodes_like_the_original(tok, tmp_path) -> None:
    path = tmp_path / "mine.json"
    bpe_core.save(tok, path)
    loaded = loaders.read_upload("native", [("mine.json", path.read_bytes())])
    assert loaded.name == tok.name
    assert loaded.encode(TEXT) == tok.encode(TEXT)
    named = loaders.read_upload("native", [("mine.json", path.read_bytes())], name="Mine")
    assert named.name == "Mine"


def test_hugging_face_tiktoken_and_gpt2_files_load(tok) -> None:
    from bpe_core.formats import dumps
    from bpe_core.formats.gpt2 import gpt2_files

    hf = loaders.read_upload("hf", [("tokenizer.json", dumps(tok, format="hf"))])
    assert hf.encode(TEXT) == tok.encode(TEXT)
    rank_file = dumps(tok, format="tiktoken")
    tk = loaders.read_upload("tiktoken", [("mine.tiktoken", rank_file)], pattern="gpt2")
    assert tk.encode(TEXT) == tok.encode(TEXT)
    # The pattern matters: cl100k cuts digits and spaces differently from gpt2.
    other = loaders.read_upload("tiktoken", [("mine.tiktoken", rank_file)], pattern="cl100k")
    assert other.config["pattern"] != tk.config["pattern"]
    vocab, merges = gpt2_files(tok)
    g2 = loaders.read_upload("gpt2", [("vocab.json", vocab), ("merges.txt", merges)],
                             pattern="gpt2")
    assert g2.encode(TEXT) == tok.encode(TEXT)


@pytest.mark.parametrize("fmt, files, says", [
    ("native", [("bad.json", b"")], "is empty"),
    ("native", [("bad.json", b"\x89PNG\r\n\x1a\n\x00\x00\xff")], "binary"),
    # Text in another encoding, which was called binary data too:
    ("native", [("t.json", '{"a": "é"}'.encode("utf-16"))], "is UTF-16 text: save it as UTF-8"),
    ("native", [("t.json", '{"a": "é"}'.encode("latin-1"))],
     r"is not UTF-8 text \(byte 0xe9 at byte offset 7\): save it as UTF-8"),
    ("native", [("bad.json", b"{not json")], "not valid JSON"),
    ("native", [("deep.json", b"[" * 100_000 + b"]" * 100_000)],
     r"nested more than [\d,]+ levels deep, the most that can be read: line 1 column"),
    ("native", [("bad.json", json.dumps({"format": "something else"}).encode())],
     "not a BPE Playground tokenizer"),
    ("tiktoken", [("bad.tiktoken", b"not base64!! 0\n")], "not a tokenizer file"),
    ("tiktoken", [("bad.tiktoken", b"@@@@ 0\n")], "bad.tiktoken"),
    ("gpt2", [("vocab.json", b"{}")], "needs 2 file"),
])
def test_malformed_files_raise_a_clear_error(fmt, files, says) -> None:
    with pytest.raises(bpe_core.TokenizerFileError, match=says) as info:
        loaders.read_upload(fmt, files, pattern="gpt2")
    assert files[0][0] in str(info.value) or "file" in str(info.value)


def test_a_json_file_given_as_a_rank_file_says_to_load_it_as_what_it_is(tok) -> None:
    # The page passes the pre-tokenizer picked for the rank file; the message said to drop
    # "pretokenizer=", an argument the user never saw.
    with pytest.raises(ValueError, match=r"^t\.txt is a JSON tokenizer file, which stores its own "
                                         r"pre-tokenizer: load it as one"):
        loaders.read_upload("tiktoken", [("t.txt", bpe_core.dumps(tok, format="hf"))],
                            pattern="cl100k")


def test_references_are_offered_by_name() -> None:
    assert loaders.reference_names() == ("gpt2", "r50k_base", "p50k_base", "cl100k_base",
                                         "o200k_base", "o200k_harmony")
    assert loaders.reference_title("o200k_base") == ("o200k_base — GPT-4o, GPT-4.1, o1, o3 and "
                                                     "o4-mini")


def test_split_characters_are_named_in_the_tooltip(tok) -> None:
    text = "a\u200bb"
    spans = tok.spans(text)
    parts = [s for s in spans if s.partial]
    assert parts  # the zero-width space (E2 80 8B) is split into bytes by this tokenizer
    assert all(annotate.details(tok, s, text).endswith(
        "part of '⟨ZWSP⟩' (U+200B, 3 bytes)") for s in parts)


def test_the_character_split_is_named_not_the_whole_one_beside_it() -> None:
    tok = bpe_core.train(" \U0001f3f3 \U0001f3f3 \U0001f3f3 ab", unit="byte",
                         pretokenizer="gpt2", max_merges=2, min_frequency=1)
    text = " \U0001f3f3"
    first = tok.spans(text)[0]
    assert first.bytes == b" \xf0\x9f"  # the space whole, and the emoji's first two bytes
    assert annotate.details(tok, first, text).endswith("; part of '🏳' (U+1F3F3, 4 bytes)")


def test_step_note_names_the_last_merge_used_and_the_next(tok) -> None:
    note = tokenize_data.merge_step_note
    m0, m1, m2 = tok.merges[:3]
    assert note(tok, 0).startswith("No merges") and f"merge 1 (rank 0): {m0.left!r}" in note(
        tok, 0)
    assert note(tok, 1).startswith(f"The first merge only, merge 1 (rank 0): {m0.left!r}")
    assert note(tok, 2).startswith("Merges 1–2 (ranks 0–1), ")
    assert f"the last being merge 2 (rank 1): {m1.left!r} + {m1.right!r}" in note(tok, 2)
    assert f"next would be merge 3 (rank 2): {readable(m2.left)!r}" in note(tok, 2)  # · a space
    assert note(tok, len(tok.merges)).startswith(f"All {len(tok.merges)} merges")
    one = bpe_core.train("abab", unit="char", pretokenizer="none", max_merges=1, min_frequency=1)
    assert note(one, 1) == "The one merge, merge 1 (rank 0): 'a' + 'b' → 'ab'."


def test_step_note_of_a_superbpe_tokenizer_says_where_its_superwords_begin() -> None:
    # The slider's note named merges alone: a user could not tell which of them join words.
    tok = bpe_core.train_superbpe("the cat sat on the mat. the cat sat. " * 30, vocab_size=300,
                                  transition=280)
    first, n = tok.config["stage1_merges"], len(tok.merges)
    assert (first, n) == (12, 17)
    stages = (" SuperBPE: merges 1–12 are stage 1 (inside words), 13–17 stage 2 (superwords "
              "across spaces), {} of them in use here.")
    note = tokenize_data.merge_step_note
    assert note(tok, 3).endswith(stages.format(0)) and note(tok, 14).endswith(stages.format(2))
    assert note(tok, n).endswith(stages.format(5)) and note(tok, 0).endswith(stages.format(0))
    assert "SuperBPE" not in note(bpe_core.train("the cat sat", max_merges=3, min_frequency=1), 2)


def test_hebrew_tokens_quoted_in_a_sentence_keep_its_order() -> None:
    # "merge 3 (rank 2): 'של' + 'ו'" was drawn "'ו' + 'של'": the quotes and the plus between two
    # Hebrew tokens took their direction. Each quoted token is now a first-strong isolate, its
    # end-of-word marker a left-to-right one inside.
    tok = bpe_core.train("שלום עולם שלום", unit="char", pretokenizer="end-of-word",
                         max_merges=4, min_frequency=1)
    fsi, lri, pdi = "\u2068", "\u2066", "\u2069"
    last = tok.merges[3]
    assert annotate.how_made(tok, last.token_id) == (
        f"merge 4 (rank 3): '{fsi}שלו{pdi}' + '{fsi}ם{lri}</w>{pdi}{pdi}'")
    assert tokenize_data.merge_step_note(tok, 4) == (
        f"All 4 merges, the last being merge 4 (rank 3): '{fsi}שלו{pdi}' + "
        f"'{fsi}ם{lri}</w>{pdi}{pdi}' → '{fsi}שלום{lri}</w>{pdi}{pdi}'.")
    assert bidi.quoted("low</w>") == "'low</w>'"  # no right-to-left letters: as it was


def test_each_line_takes_its_text_direction_and_other_direction_boxes_form_runs(tok) -> None:
    text = "مرحبا بالعالم\nHello مرحبا world\n\nשלום 2024"
    html = colour.tokens_html(tok.spans(text), text)
    lines = re.findall(r'<div class="ln" dir="(\w+)">(.*?)</div>', html)
    assert [d for d, _ in lines] == ["rtl", "ltr", "ltr", "rtl"]  # the empty line keeps "ltr"
    # The whole line is right-to-left already; the two bytes of each Arabic letter (the
    # tokenizer knows no Arabic) read left to right in a run of their own, as hex is read.
    byte_runs = re.findall(r'<span class="run bytes" dir="ltr">((?:<span class="t[^>]*>[^<]*'
                           r'</span>){2})</span>', lines[0][1])
    assert len(byte_runs) == len("مرحبابالعالم") and 'dir="rtl"' not in lines[0][1]
    # In the mixed line the Arabic word is a right-to-left run between the English boxes.
    mixed = re.sub(r'<span class="t[^>]*>(.*?)</span>', r"[\1]", re.sub(
        r'<span class="m">([^<]*)</span>', r"\1", lines[1][1]))
    before, run, after = re.fullmatch(r'(.*)<span class="run" dir="rtl">(.*)</span>(.*)',
                                      mixed).groups()
    plain = str.maketrans("", "", "[]")
    assert (before.translate(plain), after.translate(plain)) == ("Hello·", "·world↵")
    assert run.count("[") == len("مرحبا".encode())  # a box per byte: it knows no Arabic
    # Digits in a right-to-left line read left to right, in a run of their own.
    assert re.search(r'<span class="run" dir="ltr">(<span class="t[^>]*>[^<]*\d[^<]*</span>)+'
                     r'</span>$', lines[3][1]), lines[3][1]


def test_boxes_are_ordered_as_the_bidi_algorithm_orders_their_text() -> None:
    def runs(text: str) -> str:  # a box per character; its runs as <ltr>...</>, <rtl>...</>
        spans = [bpe_core.TokenSpan(i, c, c.encode(), i, i + 1) for i, c in enumerate(text)]
        line = re.search(r'<div class="ln" dir="rtl">(.*?)</div>',
                         colour.tokens_html(spans, text, show_whitespace=False))[1]
        line = re.sub(r'<span class="t[^>]*>([^<]*)</span>', r"\1", line)
        return re.sub(r'<span class="run" dir="(\w+)">', r"<\1>", line).replace("</span>", "</>")
    # Numbers apart in right-to-left text are runs apart (UAX #9 shows "34 12" from the left),
    # a currency or percent sign joins its number, brackets take the direction around them.
    assert runs("שלום 12 34") == "שלום <ltr>12</> <ltr>34</>"
    assert runs("שלום 5% $3") == "שלום <ltr>5%</> <ltr>$3</>"
    assert runs("שלום (abc) d") == "שלום (<ltr>abc</>) <ltr>d</>"


def test_boxes_carry_the_characters_they_cover_as_a_browser_counts_them(tok) -> None:
    text = "a😀 low"
    spans = tok.spans(text)
    found = [(int(s), int(e)) for s, e in re.findall(r'data-s="(\d+)" data-e="(\d+)"',
                                                      colour.tokens_html(spans, text))]
    at16 = colour.utf16_offsets(text)
    assert found == [(at16[s.start], at16[s.end]) for s in spans]
    assert at16[-1] == len(text.encode("utf-16-le")) // 2 == len(text) + 1


@pytest.mark.parametrize("content, says", [
    ({"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, "is a Jupyter notebook"),
    ({"tokenizer_class": "LlamaTokenizerFast", "model_max_length": 8192, "bos_token": "<s>"},
     "is a tokenizer_config.json .*upload the tokenizer.json from the same folder"),
    ({"bos_token": "<s>", "eos_token": "</s>"}, "is a special_tokens_map.json"),
    ({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "vocab_size": 32000},
     "is a model's config.json"),
    ({"a": 0, "b": 1}, "is a vocabulary of 2 tokens with ids and no merges"),
    ([{"text": "hi"}, {"text": "yo"}], "is a JSON list of 2 items"),
    ({"model": {"type": "WordPiece", "vocab": {"a": 0}}}, "the model is WordPiece, not BPE"),
    ({"model": {"type": "Unigram", "vocab": [["a", 0.0]]}}, "the model is Unigram, not BPE"),
    ({"title": "x", "year": 2024}, "is a JSON object with the keys 'title', 'year'"),
])
def test_an_upload_that_is_not_a_tokenizer_is_named(content, says) -> None:
    with pytest.raises(bpe_core.TokenizerFileError, match=says) as info:
        loaders.read_upload("native", [("upload.json", json.dumps(content).encode())])
    assert str(info.value).startswith("upload.json ")


def test_tokenizers_loaded_twice_get_names_that_tell_them_apart(tok) -> None:
    def upload(name: str, t: bpe_core.Tokenizer) -> bpe_core.Tokenizer:
        return loaders.read_upload("hf", [(name, bpe_core.dumps(t, format="hf"))])

    small = bpe_core.train("hug pug pun bun", unit="byte", max_merges=2, min_frequency=1)
    assert upload("llama3-tokenizer.json", tok).name == "llama3"
    assert upload("Llama-3.1-8B.json", tok).name == "Llama-3.1-8B"
    a, b = upload("tokenizer.json", tok), upload("tokenizer.json", small)
    assert a.name == f"tokenizer.json ({tok.vocab_size:,} tokens, byte-level, gpt2)" != b.name
    assert upload("tokenizer (1).json", tok).name.startswith("tokenizer (1).json (")  # browser's
    taken = {"m": a.renamed("m")}
    again = upload("m.json", tok)
    assert loaders.distinct_name(again, taken) == "m"  # the same file again: the same name
    other = upload("m.json", small)
    assert loaders.distinct_name(other, taken) == f"m ({small.vocab_size} tokens)"
    taken[f"m ({small.vocab_size} tokens)"] = upload("x.json", bpe_core.train(
        "hug pug", unit="byte", max_merges=2, min_frequency=1))
    assert loaders.distinct_name(other, taken) == f"m ({small.vocab_size} tokens, gpt2)"
    taken[f"m ({small.vocab_size} tokens, gpt2)"] = taken[f"m ({small.vocab_size} tokens)"]
    assert loaders.distinct_name(other, taken) == f"m ({small.vocab_size} tokens, gpt2) (2)"


def test_a_merge_of_missing_tokens_names_them_in_the_load_message():
    from tokenizers import Tokenizer as HFTokenizer, models as hf_models

    data = json.loads(HFTokenizer(hf_models.BPE(vocab={"a": 0, "b": 1, "ab": 2},
                                                merges=[("a", "b")])).to_str())
    data["model"]["merges"] = [["x", "y"]]
    with pytest.raises(bpe_core.TokenizerFileError) as caught:
        loaders.read_upload("hf", [("tokenizer.json", json.dumps(data).encode())])
    message = str(caught.value)  # what the load panel shows after "Could not load …:"
    assert "merge 1 (rank 0: 'x' + 'y')" in message and "'x', 'y' and 'xy'" in message
    assert "not in the vocabulary" in message and "None" not in message


def test_a_file_whose_unk_token_its_vocab_lacks_is_refused_as_it_loads() -> None:
    # bpe_core loads it, as tokenizers does, and fails on the first character that needs
    # "<unk>": the Tokenize, Languages and Vocabulary pages then crashed on their sample text.
    from tokenizers import Tokenizer as HFTokenizer, models
    data = HFTokenizer(models.BPE({"a": 0, "b": 1}, [], unk_token="<unk>")).to_str().encode()
    assert bpe_core.loads(data).encode("ab") == [0, 1]
    with pytest.raises(bpe_core.TokenizerFileError, match=(
            r"^its unk_token '<unk>' is not in its vocab: Hugging Face's tokenizers fails on the "
            r"first character it has no token for, as every page here would; add '<unk>' to the "
            r"vocab, or set unk_token to null \(such characters are then dropped\)$")):
        loaders.read_upload("native", [("unk.json", data)])


@pytest.mark.parametrize("file_name", ["bos.json", "tokenizer.json"])
def test_a_file_whose_template_adds_an_id_its_vocab_lacks_is_refused_as_it_loads(file_name):
    # bpe_core encodes it as tokenizers does, but the token cannot be shown: "bos.json" loaded
    # and Tokenize's comparison with special tokens crashed ("token id 99999 is not in this
    # vocabulary"); "tokenizer.json" was refused with that message, which named no stage.
    from tests.model_files import hf, llama2_file
    d = json.loads(llama2_file())
    d["post_processor"]["special_tokens"]["<s>"]["ids"] = [99999]
    data = json.dumps(d).encode()
    ours, theirs = bpe_core.loads(data), hf(data)
    assert ours.encode("hi", add_special_tokens=True) == theirs.encode("hi").ids == [
        99999, *ours.encode("hi")]
    with pytest.raises(bpe_core.TokenizerFileError, match=(
            f"^its post-processor puts the token id 99,999 around a text, and its vocabulary has "
            f"no such id \\(its ids go up to {ours.vocab_size - 1}\\): no page here could show "
            f"that token; give the post-processor's special token its id in the vocab$")):
        loaders.read_upload("hf", [(file_name, data)])


@pytest.mark.parametrize("file", ["llama2_file", "llama3_file", "nfkc_file"])
@pytest.mark.parametrize("room, direction", [(-2, "right"), (-1, "left"), (0, "right"),
                                             (1, "right"), (-99, "right")])
def test_the_truncation_note_gives_the_counts_of_hugging_faces_encode(file, room, direction):
    # With a BOS template the note said nothing where a max_length of the text's own length
    # cut one of its tokens, said "keeps only the first 5 of these 21" where 4 and the BOS are
    # kept, and "pads them with 1 more token" where the BOS already made up the length.
    import tests.model_files
    from bpe_core.post_processors import around
    theirs = tests.model_files.hf(getattr(tests.model_files, file)())
    text = "Hello wörld, this is a test"
    ours = bpe_core.loads(theirs.to_str().encode())
    ids, added = ours.encode(text), len(around(ours.post_processor, []))
    at = max(0, len(ids) + room)
    theirs.enable_truncation(at, direction=direction)
    theirs.enable_padding(length=len(ids) + 1, pad_token="<pad>")
    want = theirs.encode(text)  # (add_special_tokens=True, as encode() has it)
    ours = bpe_core.loads(theirs.to_str().encode())
    note = tokenize_data.limits_note(ours.config, len(ids), added) or ""
    kept = re.search(r"keeps only the (first|last) ([\d,]+) of these", note)
    text_ids = [i for i, special in zip(want.ids, want.special_tokens_mask) if not special]
    if kept:
        k = int(kept[2].replace(",", ""))
        assert text_ids == (ids[:k] if kept[1] == "first" else ids[-k:])
    else:
        assert text_ids == ([] if "keeps none of these" in note else ids), note
    padded = re.search(r"pads them with ([\d,]+) more tokens? \('<pad>'\) to ([\d,]+)", note)
    n_pads = want.attention_mask.count(0)
    assert (int(padded[1]), int(padded[2])) == (n_pads, len(want.ids)) if padded else not n_pads
