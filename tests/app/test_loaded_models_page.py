"""The pages with a model's tokenizer.json loaded through them, run headless with AppTest: the
files have the shapes of Llama 2 (normalizer, byte fallback), Llama 3 (ids out of merge order,
ignore_merges, a BOS template), an NFKC model and a model without byte fallback; the
``tokenizers`` library says which ids are right."""

from __future__ import annotations

import html as html_lib
import io
import json
import re
import zipfile

import pytest
from streamlit.testing.v1 import AppTest

import bpe_core
from bpe_core.alphabet import BYTE_CHARS
from bpe_core.analysis.premium import count_tokens
from tests.app.test_languages_page import open_page as open_languages
from tests.app.test_languages_page import table as languages_table
from tests.app.test_tokenize_page import active, metric, open_page, token_html, type_text
from tests.app.test_train_page import click, open_train, run_of
from tests.app.test_train_teaching import open_link
from tests.app.test_vocabulary_page import open_page as open_vocabulary
from tests.model_files import (char_bpe_file, hf, llama2_file, llama2_no_fallback_file,
                               llama3_file, nfkc_file)
from ui.shared import merge_tree
from ui.shared.annotate import md_literal
from ui.tokenize.chat import upload_key
from ui.tokenize.data import differences
from ui.train import results as training_results
from ui.shared.samples import parallel_sample
from ui.vocabulary import view as vocabulary_view
from ui.vocabulary.view import TAB_KEY, TABS, TOKEN_KEY

BOX = re.compile(r'<span class="(t [^"]*)" title="([^"]*)" (?:role="button" [^>]*)?'
                 r'data-s="\d+" data-e="\d+" data-i="\d+">'
                 r'((?:[^<]|<span class="m">[^<]*</span>|<bdi dir="ltr">[^<]*</bdi>)*)</span>')


def load(at: AppTest, data: bytes, *, key: str = "tok_load",
         file_name: str = "tokenizer.json") -> str:
    """Upload ``data`` as a Hugging Face tokenizer.json in the load panel ``key``; its name."""
    at.selectbox(key=f"{key}_format").set_value("hf").run()
    at.file_uploader(key=f"{key}_hf_0").upload(file_name, data, "application/json").run()
    at.button(key=f"{key}_load").click().run()
    assert not at.exception and not at.error
    return at.session_state["tokenizer"]


def shown_boxes(at: AppTest) -> list[tuple[str, str, str]]:
    """(classes, tooltip, text shown) of every token box of the main output."""
    return [(cls, html_lib.unescape(tip), html_lib.unescape(re.sub(r"<[^>]+>", "", body)))
            for cls, tip, body in BOX.findall(token_html(at))]


def ids_shown(at: AppTest) -> list[int]:
    at.button_group(key="tok_view").set_value("Ids").run()
    ids = [int(i) for i in re.findall(r'data-i="\d+">(\d+)</span>', token_html(at))]
    at.button_group(key="tok_view").set_value("Coloured text").run()
    return ids


def captions(at: AppTest) -> str:
    """Every caption, Markdown escapes taken out."""
    return "\n".join(c.value for c in at.caption).replace("\\", "")


def use_merges(at: AppTest, k: int) -> AppTest:
    """Slide the merge slider to ``k`` (found afresh: an element of an older run is stale)."""
    next(s for s in at.slider if s.key.startswith("tok_upto")).set_value(k).run()
    assert not at.exception
    return at


def pick(at: AppTest, token_id: int) -> AppTest:
    at.selectbox(key="tok_pick").set_value(token_id).run()
    assert not at.exception
    return at


def test_a_llama2_file_shows_prefix_space_byte_fallback_special_and_trees() -> None:
    at = open_page()
    data = llama2_file()
    name = load(at, data)
    assert name.startswith("tokenizer.json (")  # the file's name is every model's: hints too
    assert any(name in s.value.replace("\\", "") for s in at.success)
    tok = active(at)
    text = "Hello wörld 😀 <s> x"
    type_text(at, text)
    assert ids_shown(at) == hf(data).encode(text, add_special_tokens=False).ids
    boxes = shown_boxes(at)
    assert len(boxes) == int(metric(at, "Tokens"))
    cls, tip, label = boxes[0]
    assert "nz" in cls and label.startswith("·H") and "the text has 'H" in tip  # ▁ prepended
    fallback = [b for b in boxes if " pb" in b[0]]
    assert [b[2] for b in fallback] == ["<F0>", "<9F>", "<98>", "<80>"]
    assert all("byte fallback; part of '😀'" in b[1] for b in fallback)
    [special] = [b for b in boxes if " sp" in b[0]]
    assert special[2] == "<s>" and "special token" in special[1]
    assert "blue frame: a special token" in captions(at).lower()

    merged = next(s.id for s in tok.spans(text) if tok.merge_for(s.id))
    [chart] = pick(at, merged).get("graphviz_chart")
    assert chart.proto.spec == merge_tree.tree_dot(tok.merge_tree(merged))
    assert "the file records no pair counts" in captions(at)
    for token_id, says in ((tok.special_tokens["<s>"], "is a special token"),
                           (tok.model.vocab["<0xF0>"], "is a byte-fallback token")):
        pick(at, token_id)
        assert not at.get("graphviz_chart")
        assert merge_tree.why_no_tree(tok, token_id) in captions(at) and says in captions(at)


def test_the_space_llama2_puts_before_a_tab_is_not_said_to_be_the_tab_read_as_a_space() -> None:
    # Llama 2 reads "\tx" as '▁', '\t', 'x', the '▁' covering the tab (as tokenizers' offsets
    # say): its tooltip said "the text has '→', the model reads '·'", as if the tab had been
    # turned into a space, though the next box is the tab itself.
    at = open_page()
    data = llama2_file()
    load(at, data)
    type_text(at, "\tx")
    assert hf(data).encode("\tx", add_special_tokens=False).tokens == ["▁", "\t", "x"]
    assert [(label, tip.splitlines()[1:]) for _, tip, label in shown_boxes(at)] == [
        ("·", ["rewritten before BPE: the tokenizer puts '·' before '→', which the text has "
               "without it", "base character"]),
        ("→", ["base character"]), ("x", ["base character"])]


def test_a_budget_that_ends_between_the_bytes_of_a_character_says_it_cuts_the_character() -> None:
    # Llama 2 spells '😀' in four byte-fallback tokens; a budget of 5 keeps two of them. The note
    # said the budget ends 'before '😀·ok'', as if the emoji were wholly past it.
    at = open_page()
    data = llama2_file()
    load(at, data)
    type_text(at, "Hi 😀 ok")
    assert hf(data).encode("Hi 😀 ok", add_special_tokens=False).tokens[3:7] == [
        "<0xF0>", "<0x9F>", "<0x98>", "<0x80>"]
    at.number_input(key="tok_limit").set_value(5).run()
    assert at.get("progress")[0].proto.text == (
        "10 tokens: 5 over the budget of 5. The budget ends inside character 3, '😀', some of "
        "whose bytes are past it; the faded tokens are past it.")


def test_a_llama3_file_with_ids_out_of_merge_order_slides_and_encodes_three_ways() -> None:
    at = open_page()
    data = llama3_file()
    load(at, data)
    tok = active(at)
    assert not tok.merges.is_canonical(tok.n_base)
    text = "The lowest price, 12345 naïve"
    type_text(at, text)
    assert ids_shown(at) == hf(data).encode(text, add_special_tokens=False).ids
    use_merges(at, 0)
    # No merges: one token per byte, each the file's own id for that byte's character.
    vocab = hf(data).get_vocab()
    assert ids_shown(at) == [vocab[BYTE_CHARS[b]] for b in text.encode()]
    assert "(ignore_merges) needs the full vocabulary" in captions(at)
    use_merges(at, 40)
    ids = ids_shown(at)
    assert ids == tok.encode(text, upto=40)
    assert all(tok.merge_for(i) is None or tok.merge_for(i).rank < 40 for i in ids)
    use_merges(at, len(tok.merges))

    at.radio(key="tok_method").set_value("merge-order").run()
    assert ids_shown(at) == hf(data).encode(text, add_special_tokens=False).ids
    assert "exactly the tokens of rank priority" in captions(at)
    assert "looks a piece up whole when it is a token (ignore_merges)" in captions(at)
    at.radio(key="tok_method").set_value("longest-match").run()
    assert ids_shown(at) == tok.encode(text, method="longest-match")
    assert not at.exception


def test_nfkc_and_unknown_characters_are_shown_as_the_model_reads_them() -> None:
    at = open_page()
    load(at, nfkc_file())
    type_text(at, "ﬁne")
    rewritten = [b for b in shown_boxes(at) if " nz" in b[0]]
    assert rewritten and "".join(b[2] for b in rewritten).startswith("fi")
    assert all("the text has 'ﬁ" in b[1] for b in rewritten)
    load(at, llama2_no_fallback_file())
    type_text(at, "a ½")
    [unknown] = [b for b in shown_boxes(at) if " uk" in b[0]]
    assert unknown[2] == "<unk>" and "cannot spell '½'" in unknown[1]
    assert "unknown token" in captions(at)


def test_bytes_of_a_character_the_normalizer_composed_name_the_character_the_model_reads() -> None:
    # NFKC reads the half-width 'ｶﾞ' as 'ガ' (E3 82 AC), which this vocabulary spells in bytes:
    # the tooltips said '<E3 82>' was part of 'ﾞ' and '<AC>' part of 'ｶ', characters whose
    # bytes (EF BE 9E, EF BD B6) neither token holds. So with jamo that NFC composes (Qwen).
    at = open_page()
    data = nfkc_file()
    load(at, data)
    type_text(at, "aｶﾞ")
    assert ids_shown(at) == hf(data).encode("aｶﾞ", add_special_tokens=False).ids
    parts = [(label, tip.splitlines()[-1]) for cls, tip, label in shown_boxes(at) if " pb" in cls]
    assert parts == [
        ("<E3 82>", "merge 8 (rank 7): '<E3>' + '<82>'; part of 'ガ' (U+30AC, 3 bytes), which "
                    "the text has as 'ｶﾞ', rewritten before BPE"),
        ("<AC>", "base byte; part of 'ガ' (U+30AC, 3 bytes), which the text has as 'ｶﾞ', "
                 "rewritten before BPE")]


def test_an_unknown_letter_is_named_as_the_model_looked_it_up_after_lowercasing() -> None:
    # The first GPT's shape lowercases, and its vocabulary has no "q": the tooltip said the
    # vocabulary cannot spell "Q", which the model never looked up.
    at = open_page()
    load(at, char_bpe_file())
    type_text(at, "Quiz")
    unknown = [b for b in shown_boxes(at) if " uk" in b[0]]
    assert unknown[0][2] == "<unk>"
    assert ("unknown: the text has 'Q', rewritten before BPE as 'q', which the vocabulary "
            "cannot spell, so the model reads only <unk>") in unknown[0][1]


def test_sennrichs_bpe_as_the_first_gpt_wrote_it_loads_and_shows_its_end_of_word_marks() -> None:
    # tokenizers' CharBPETokenizer: BERT's normalizer and pre-tokenizer, which bpe_core refused
    # ("the BertPreTokenizer pre-tokenizer is not supported").
    at = open_page()
    data = char_bpe_file()
    name = load(at, data)
    assert name.startswith("tokenizer.json (") and "BertNormalizer" in name
    tok = active(at)
    text = "The Lowest, newest 中文!"
    type_text(at, text)
    assert ids_shown(at) == hf(data).encode(text).ids
    boxes = shown_boxes(at)
    assert [b[2] for b in boxes[:3]] == ["the</w>", "lowest</w>", ",</w>"]
    assert "the text has 'The', the model reads 'the</w>'" in boxes[0][1]  # lowercased
    assert [b[2] for b in boxes[-3:]] == ["中</w>", "文</w>", "!</w>"]  # each a word of its own
    assert ("Pipeline: normalizer BertNormalizer + Lowercase → pre-tokenizer BertPreTokenizer → "
            "BPE → decoder BPEDecoder") in captions(at)
    lowest = tok.model.vocab["lowest</w>"]
    [chart] = pick(at, lowest).get("graphviz_chart")
    assert chart.proto.spec == merge_tree.tree_dot(tok.merge_tree(lowest))
    assert "lowest</w>" in chart.proto.spec.replace("\\", "")


def test_text_the_tokenizer_drops_whole_is_not_said_to_be_missing() -> None:
    # BERT's normalizer and pre-tokenizer (the first GPT's) leave no token of spaces, a tab or a
    # newline: the page said 'Type or paste some text on the left', though the text was there.
    at = open_page()
    data = char_bpe_file()
    load(at, data)
    type_text(at, "   \n\t ")
    assert hf(data).encode("   \n\t ").ids == []
    assert metric(at, "Tokens") == "0" and metric(at, "Characters") == "6"
    assert [i.value for i in at.info] == [
        "The tokenizer makes no tokens of these 6 characters: its normalizer or pre-tokenizer "
        "drops them all (BERT's, as the first GPT has them, drop whitespace and control "
        "characters)."]
    type_text(at, "")
    assert [i.value for i in at.info] == ["Type or paste some text on the left to see its tokens."]


def test_an_end_of_word_tokenizer_downloaded_from_train_loads_back_with_the_same_ids() -> None:
    at = click(click(open_train("low-lower"), "train_start"), "train_finish")
    trained = run_of(at).tokenizer()
    name, data = training_results.tokenizer_file(trained, "hf", "low")  # the download's bytes
    at.switch_page("app_pages/tokenize.py").run()
    load(at, data, file_name=name)
    text = "low lower newest widest lowest"
    type_text(at, text)
    assert ids_shown(at) == trained.encode(text) == hf(data).encode(text).ids
    boxes = shown_boxes(at)
    assert [b[2] for b in boxes[:3]] == ["low", "</w>", "low"]
    # The file's offsets put each </w> on its word's last character, as tokenizers' do: the
    # boxes called it unknown ("the vocabulary cannot spell 'w', so the model reads only </w>").
    assert [b for b in boxes if " uk" in b[0] or "unknown" in b[1]] == []
    assert "unknown token" not in captions(at)


@pytest.mark.parametrize("fmt", ["tiktoken", "gpt2"])
def test_a_leading_space_file_downloaded_from_train_loads_back_with_the_same_ids(fmt) -> None:
    # A .tiktoken file (and a GPT-2 pair) stores no pre-tokenizer, and the loader offered only
    # GPT-2's and GPT-4's, which cut "new." in two: "renew. new." came back as 7 tokens, not 4.
    at = open_link(corpus_text="new. new. renew. renew. new.", unit="byte",
                   pretokenizer="space-prefix", stop_by="max_merges", max_merges="6",
                   min_frequency="1", step="6")
    trained = run_of(at).tokenizer()
    [download] = [b for b in at.get("download_button")
                  if b.proto.id and f"train_download_{fmt}" in b.proto.id]
    assert "pre-tokenizer “Leading-space words”" in download.proto.help
    name, data = training_results.tokenizer_file(trained, fmt, "new")  # the download's bytes
    files = zipfile.ZipFile(io.BytesIO(data)) if fmt == "gpt2" else None
    at.switch_page("app_pages/tokenize.py").run()
    at.selectbox(key="tok_load_format").set_value(fmt).run()
    given = ([(n, files.read(n)) for n in ("vocab.json", "merges.txt")] if files
             else [(name, data)])
    for i, (file_name, got) in enumerate(given):
        at.file_uploader(key=f"tok_load_{fmt}_{i}").upload(file_name, got).run()
    # Named as on Train and Corpus (it was "GPT-2", "Whitespace words (spaces dropped)", ...).
    assert at.selectbox(key=f"tok_load_{fmt}_pattern").options == [
        "GPT-2 regex", "GPT-4 regex (cl100k)", "GPT-4o regex (o200k)", "Leading-space words",
        "Whitespace words", "None (whole text)", "Custom regex…"]
    at.selectbox(key=f"tok_load_{fmt}_pattern").set_value("space-prefix").run()
    at.button(key="tok_load_load").click().run()
    assert not at.exception and not at.error
    type_text(at, "renew. new.")
    assert ids_shown(at) == trained.encode("renew. new.") == [114, 101, 258, 259]


def test_a_custom_regex_file_loads_with_the_regex_typed_in_the_loader() -> None:
    trained = bpe_core.train("ab cd xab " * 4, unit="byte", pretokenizer=r" ?(a)(b)|(\p{L})+|\s+",
                             max_merges=4, min_frequency=1)
    # The download's help gives the regex as code, its leading space kept visible.
    assert training_results.format_help(trained, "tiktoken").endswith(
        r"“Custom regex…” and the regex ` ?(a)(b)|(\p{L})+|\s+`.")
    name, data = training_results.tokenizer_file(trained, "tiktoken", "ab")
    at = open_page()
    at.selectbox(key="tok_load_format").set_value("tiktoken").run()
    at.file_uploader(key="tok_load_tiktoken_0").upload(name, data).run()
    at.selectbox(key="tok_load_tiktoken_pattern").set_value("custom").run()
    assert at.button(key="tok_load_load").disabled  # until the regex is given
    at.text_input(key="tok_load_tiktoken_regex").set_value(r" ?(a)(b)|(\p{L})+|\s+").run()
    at.button(key="tok_load_load").click().run()
    assert not at.exception and not at.error
    type_text(at, "xab cd")
    assert ids_shown(at) == trained.encode("xab cd")


def test_the_vocabulary_page_on_a_loaded_file(monkeypatch) -> None:
    monkeypatch.setattr(vocabulary_view, "MAX_ROWS", 100)  # a model's 262k rows, in small
    at = open_vocabulary()
    at.session_state[TAB_KEY] = next(t for t in TABS if "Compare" in t)
    at.run()
    load(at, llama3_file(), key="vocab_load")
    tok = active(at)
    at.session_state[TAB_KEY] = next(t for t in TABS if "Browse" in t)
    at.run()
    df = next(d.value for d in at.dataframe if "script" in d.value.columns)
    assert list(df["id"]) == tok.ids()[:100]  # the first rows only, and the page says so
    assert f"{tok.vocab_size:,} of {tok.vocab_size:,} tokens; the table lists the first 100" in (
        captions(at))
    assert df["count"].isna().all()  # the file keeps no counts: unknown, not 0
    assert "highest pair count" not in at.selectbox(key="vocab_order").options
    merged = tok.merges[len(tok.merges) // 2].token_id
    at.number_input(key=TOKEN_KEY).set_value(merged).run()
    [chart] = at.get("graphviz_chart")
    assert chart.proto.spec == merge_tree.tree_dot(tok.merge_tree(merged))
    assert not any("pair seen" in c.value for c in at.caption)
    bos = tok.special_tokens["<|begin_of_text|>"]
    at.number_input(key=TOKEN_KEY).set_value(bos).run()
    assert not at.get("graphviz_chart")
    assert merge_tree.why_no_tree(tok, bos) in captions(at)
    at.session_state[TAB_KEY] = next(t for t in TABS if "Charts" in t)
    at.run()
    assert not at.exception
    assert any("not how often each pair occurred" in i.value for i in at.info)


def test_a_file_loaded_on_the_languages_page_joins_the_comparison() -> None:
    at = open_languages()
    name = load(at, llama2_file(), key="lang_load")
    assert name in at.multiselect(key="lang_tokenizers").value
    assert at.selectbox(key="lang_focus").value == name
    table = languages_table(at)
    rows = table[table.Tokenizer == name].set_index("Code")
    counts = count_tokens(active(at), parallel_sample())
    assert {c: rows.loc[c, "Tokens"] for c in rows.index} == {
        c: counts.total(c) for c in parallel_sample().codes}
    assert not at.exception


def test_uploads_are_named_after_what_their_files_say_and_told_apart() -> None:
    # Each was "tokenizer (Nk tokens)", whatever model's tokenizer.json it was: Llama 3's and
    # an NFKC model's of 400 tokens had one name, told apart by a digest ("…, 3f2a9c1b)").
    at = open_page()
    names = [load(at, f()) for f in (llama2_file, llama3_file, nfkc_file)]
    assert names == ["tokenizer.json (659 tokens, byte fallback, <s>)",
                     "tokenizer.json (400 tokens, byte-level, <|begin_of_text|>)",
                     "tokenizer.json (400 tokens, byte-level, NFKC)"]
    assert load(at, llama2_file()) == names[0]  # the same file again: no copy
    other = json.loads(llama2_file())
    other["model"]["merges"] = other["model"]["merges"][:-1]  # alike in all that names say
    names.append(load(at, json.dumps(other).encode()))
    assert names[-1] == "tokenizer.json (659 tokens, byte fallback, <s>) (2)"
    names.append(load(at, llama3_file(), file_name="Llama-3.2-1B.json"))  # a name of its own
    assert names[-1] == "Llama-3.2-1B"
    assert at.sidebar.selectbox(key="sidebar_tokenizer").options[-len(names):] == names


def test_a_file_nested_too_deeply_is_refused_saying_how_deep_it_reads_and_where() -> None:
    # The message said "nested too deeply to read: line 1 column 1 (char 0)".
    at = open_page()
    at.selectbox(key="tok_load_format").set_value("hf").run()
    deep = b'{"model": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    at.file_uploader(key="tok_load_hf_0").upload("tokenizer.json", deep, "application/json").run()
    at.button(key="tok_load_load").click().run()
    assert not at.exception
    [error] = [e.value.replace("\\", "") for e in at.error]
    said = re.search(r"nested more than ([\d,]+) levels deep, the most that can be read: line 1 "
                     r"column (\d+) \(char (\d+)\)", error)
    assert said and int(said[2]) == int(said[3]) + 1 > int(said[1].replace(",", "")) > 500


@pytest.mark.parametrize("data", [llama2_file], ids=["llama2"])
def test_sessions_loading_the_same_file_share_one_tokenizer(data) -> None:
    first, second = open_page(), open_page()
    load(first, data())
    load(second, data())
    assert active(first).model is active(second).model


def test_models_side_by_side_with_their_bos_and_their_different_cuts_outlined() -> None:
    at = open_page()
    text = "Hello wörld, hello tokens"
    type_text(at, text)
    default = at.session_state["tokenizer"]
    name = load(at, llama3_file())  # becomes the active one: the first column
    at.multiselect(key="tok_compare").set_value([default]).run()
    llama3, other = at.session_state["tokenizers"][name], at.session_state["tokenizers"][default]

    def columns():
        return [h.proto.body for h in at.get("html") if '<div class="bpe-scroll">' in h.proto.body]

    plain = columns()
    assert len(plain) == 2 and all('class="t ' in body for body in plain)
    at.toggle(key="tok_compare_specials").set_value(True).run()
    assert not at.exception
    wrapped = llama3.spans(text, add_special_tokens=True)
    assert [s.id for s in wrapped] == hf(llama3_file()).encode(text).ids  # its BOS first
    assert any(f"**{len(wrapped):,} tokens**" in c.value for c in at.caption)
    assert any(f"**{len(other.spans(text)):,} tokens**" in c.value for c in at.caption)
    assert "added by the tokenizer&#x27;s post-processor" in columns()[0]
    # Outlined: in the first column what the second lacks, and the other way round.
    lacking, extra = differences(wrapped, other.spans(text))
    assert lacking and extra
    assert any(c.value == f"Outlined in red: {len(lacking):,} tokens that some other "
               "tokenizer does not have." for c in at.caption)
    assert any(c.value == f"Outlined in red: {len(extra):,} tokens that **{md_literal(name)}** "
               "does not have." for c in at.caption)  # the name set apart from the count
    assert columns()[0].count(' d"') + columns()[0].count(' d ') == len(lacking)
    at.toggle(key="tok_compare_diff").set_value(False).run()
    assert not any(c.value.startswith("Outlined in red") for c in at.caption)


def test_a_chat_template_stays_with_the_tokenizer_it_was_uploaded_for() -> None:
    at = open_page()
    load(at, llama3_file())
    template = "{% for m in messages %}<|x|>{{ m['content'] }}{% endfor %}"
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("tokenizer_config.json", json.dumps({"chat_template": template}).encode(),
               "application/json").run()
    assert metric(at, "Prompt tokens")
    load(at, llama2_file())  # the file left in the first box is not this model's config
    assert not at.exception and not at.error
    assert any("Upload it above" in c.value for c in at.caption)
    assert not any(m.label == "Prompt tokens" for m in at.metric)


def test_a_chat_template_renders_the_conversation_as_the_model_receives_it() -> None:
    at = open_page()
    name = load(at, llama3_file())
    tok = at.session_state["tokenizers"][name]
    assert any("Upload it above" in c.value for c in at.caption)
    template = ("{{ bos_token }}{% for m in messages %}<|x|>{{ m['role'] }}\n{{ m['content'] }}"
                "<|x|>{% endfor %}{% if add_generation_prompt %}<|x|>assistant\n{% endif %}")
    config = json.dumps({"chat_template": template, "bos_token": "<|begin_of_text|>"})
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("tokenizer_config.json", config.encode(), "application/json").run()
    assert not at.exception and not at.error
    at.text_area(key="tok_chat_text_1").input("<script>alert(1)</script> é?").run()
    prompt = ("<|begin_of_text|><|x|>system\nYou are a helpful assistant.<|x|>"
              "<|x|>user\n<script>alert(1)</script> é?<|x|><|x|>assistant\n")
    assert at.code[0].value == prompt.rstrip("\n")  # (st.code drops the last line break)
    assert metric(at, "Prompt tokens") == f"{len(tok.spans(prompt)):,}"
    assert metric(at, "Special tokens") == "6"
    body = next(h.proto.body for h in at.get("html") if "&lt;|begin_of_text|&gt;" in h.proto.body)
    assert "<script>" not in body
    # A message the template refuses: its own words, as one sentence.
    refusing = json.dumps({"chat_template": "{{ raise_exception('Conversation roles must "
                                            "alternate user/assistant') }}"})
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("tokenizer_config.json", refusing.encode(), "application/json").run()
    assert [e.value.replace("\\", "") for e in at.error] == [  # as Markdown shows it
        "The chat template refuses these messages: Conversation roles must alternate "
        "user/assistant."]
    # Messages that end their sentence themselves get no second full stop.
    for template, said in (
            ("{{ raise_exception('Conversation roles must alternate user/assistant/...') }}",
             "The chat template refuses these messages: Conversation roles must alternate "
             "user/assistant/..."),
            ("{{ messages | nosuchfilter }}",
             "The chat template cannot be used: No filter named 'nosuchfilter'.")):
        box = at.file_uploader(key=upload_key(active(at)))
        box.upload("tokenizer_config.json", json.dumps({"chat_template": template}).encode(),
                   "application/json").run()
        assert [e.value.replace("\\", "") for e in at.error] == [said]
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("tokenizer_config.json", b"[1, 2]", "application/json").run()
    assert at.error[0].value.replace("\\", "").startswith(
        "tokenizer_config.json is not a tokenizer_config.json: it holds a JSON list")
    # Said below the box, which the config loaded before keeps closed: inside, none saw it.
    assert at.error[0].value.endswith(" The one loaded before is still used.")
    assert not any(box.error for box in at.expander)


def test_a_file_that_truncates_and_pads_says_what_hugging_face_does_to_the_ids() -> None:
    # A tokenizer.json saved after enable_truncation / enable_padding gives fewer (or more) ids
    # in tokenizers' encode; the page showed every token without a word, and a saved copy
    # dropped both settings ("truncation": null).
    reference = hf(llama2_file())
    reference.enable_truncation(4, direction="left")
    reference.enable_padding(length=12, pad_id=0, pad_token="<unk>")
    data = reference.to_str().encode()
    at = open_page()
    load(at, data)
    type_text(at, "Hello wörld")
    n = int(metric(at, "Tokens"))
    # (It said "the last 4", though the BOS its template adds is one of the 4 encode() keeps.)
    bos, *kept = reference.encode("Hello wörld").ids[:4]
    assert n > 4 and bos == 1 and kept == active(at).encode("Hello wörld")[-3:]
    assert [i.value.replace("\\", "") for i in at.info] == [
        f"Hugging Face's encode() keeps only the last 3 of these {n} tokens (the file's "
        "truncation to 4, counting the 1 special token its post-processor adds) and pads them "
        "with 8 more tokens ('<unk>') to 12; this page shows every token, as bpe_core's encode "
        "does."]
    saved = json.loads(bpe_core.dumps(active(at), format="hf"))
    assert (saved["truncation"], saved["padding"]) == (
        json.loads(data)["truncation"], json.loads(data)["padding"])
