"""How the pages show a loaded model's tokens, without a browser: boxes that say what the model
read where the text differs (a prefix space, NFKC, one character read as several tokens),
byte-fallback and unknown tokens, and a sentence wherever a token has no merge tree."""

from __future__ import annotations

from collections import Counter

import pytest

import bpe_core
from tests.model_files import (char_bpe_file, llama2_file, llama2_no_fallback_file, llama3_file,
                               nfkc_file)
from ui.shared import annotate, merge_tree, tokens as colour
from ui.vocabulary.data import default_token


def load(data: bytes) -> bpe_core.Tokenizer:
    return bpe_core.loads(data, source="tokenizer.json")


@pytest.fixture(scope="module")
def llama2() -> bpe_core.Tokenizer:
    return load(llama2_file())


def shown(tok: bpe_core.Tokenizer, text: str) -> list[tuple[str, str]]:
    """(label, style) of every box, labels with whitespace made visible."""
    return [(colour.readable_token(b.label), b.style)
            for b in colour.boxes(tok.spans(text), text)]


def test_a_prefix_space_the_model_adds_is_shown_as_read(llama2) -> None:
    boxes = shown(llama2, "Hello")
    assert "".join(label for label, _ in boxes) == "·Hello"  # Llama 2 reads "▁Hello"
    assert boxes[0][1] == "nz" and boxes[0][0].startswith("·")
    assert all(style == "" for _, style in boxes[1:])
    # The same word after a space is what the text has: nothing to flag.
    assert all(style == "" for _, style in shown(llama2, "Hello Hello")[len(boxes):])


def test_a_space_read_twice_is_flagged_on_the_second_token(llama2) -> None:
    text = "<s> x"  # after a special token Llama 2 prepends "▁" again: the model reads "▁▁x"
    spans = llama2.spans(text)
    boxes = colour.boxes(spans, text)
    assert spans[0].special and boxes[0].style == ""
    rest = boxes[1:]
    assert "".join(colour.readable_token(b.label) for b in rest) == "··x"
    assert [b.style for b in rest].count("nz") >= 1
    note = next(b.note for b in rest if b.style == "nz")
    assert note.startswith("rewritten before BPE")


def test_nfkc_boxes_show_what_the_model_reads_and_the_tooltip_what_the_text_has() -> None:
    tok = load(nfkc_file())
    text = "ﬁne ½"
    spans = tok.spans(text)
    boxes = colour.boxes(spans, text)
    read = "".join(b.label for b in boxes if b.style != "pb")
    assert read.startswith("fine")
    fi = [b for s, b in zip(spans, boxes) if text[s.start:s.end].startswith("ﬁ")]
    assert "".join(b.label for b in fi).startswith("fi")
    assert all(b.style == "nz" and "the text has 'ﬁ" in b.note for b in fi)
    # ½ is read as 1, ⁄ and 2: every token of it is flagged or shown as bytes, none shows ½.
    half = [b for s, b in zip(spans, boxes) if text[s.start:s.end] == "½"]
    assert len(half) >= 3 and all(b.style in ("nz", "pb") for b in half)
    assert all("½" not in b.label for b in half)


def test_byte_fallback_and_unknown_tokens_are_shown_honestly(llama2) -> None:
    text = "a 😀"
    spans, boxes = llama2.spans(text), colour.boxes(llama2.spans(text), text)
    fallback = [(s, b) for s, b in zip(spans, boxes) if b.style == "pb"]
    assert [b.label for _, b in fallback] == ["<F0>", "<9F>", "<98>", "<80>"]
    assert all(annotate.how_made(llama2, s.id) == "byte fallback" for s, _ in fallback)
    html = annotate.coloured_html(llama2, spans, text)
    assert "part of &#x27;😀&#x27;" in html and "\ufffd" not in html
    unk_tok = load(llama2_no_fallback_file())
    spans = unk_tok.spans(text)
    [unknown] = [b for b in colour.boxes(spans, text) if b.style == "uk"]
    assert unknown.label == "<unk>" and "cannot spell '😀'" in unknown.note
    assert "unknown token" in annotate.legend(unk_tok, spans, text)


def test_an_unknown_tokens_tooltip_names_what_the_model_looked_up_after_normalizing() -> None:
    # A character model (tokenizers') that lowercases after NFKC and knows no "a": "Ａ" is read
    # as "a", which it cannot spell. The tooltip named only "Ａ", which the model never saw.
    from tokenizers import Tokenizer, models, normalizers
    hf = Tokenizer(models.BPE(vocab={"[UNK]": 0, "b": 1}, merges=[], unk_token="[UNK]"))
    hf.normalizer = normalizers.Sequence([normalizers.NFKC(), normalizers.Lowercase()])
    tok = load(hf.to_str().encode("utf-8"))
    text = "Ａb😀"
    spans = tok.spans(text)
    assert [(s.token, s.unknown) for s in spans] == [("[UNK]", "a"), ("b", ""), ("[UNK]", "😀")]
    notes = [b.note for b in colour.boxes(spans, text)]
    assert notes == ["unknown: the text has 'Ａ', rewritten before BPE as 'a', which the "
                     "vocabulary cannot spell, so the model reads only [UNK]", "",
                     "unknown: the vocabulary cannot spell '😀', so the model reads only [UNK]"]


def test_hex_runs_keep_their_spaces_where_whitespace_is_made_visible() -> None:
    assert colour.readable_token(" <E4 BD>a b") == "·<E4 BD>a·b"
    html = colour.tokens_html([bpe_core.TokenSpan(5, " <F0 9F>", b" \xf0\x9f", 0, 2, True)],
                              " 😀")
    assert "&lt;F0 9F&gt;" in html and '<span class="m">·</span>' in html


def test_every_token_without_a_tree_gets_a_sentence_saying_why(llama2) -> None:
    unk_tok = load(llama2_no_fallback_file())
    cases = {
        llama2.special_tokens["<s>"]: (llama2, "is a special token"),
        llama2.model.vocab["<0xF0>"]: (llama2, "is a byte-fallback token"),
        llama2.model.vocab["a"]: (llama2, "is a base character"),
        unk_tok.model.vocab["<unk>"]: (unk_tok, "is the unknown token"),
    }
    for token_id, (tok, says) in cases.items():
        assert tok.merge_tree(token_id).rank is None
        sentence = merge_tree.why_no_tree(tok, token_id)
        assert says in sentence and sentence.endswith("so it has no merge tree.")


def test_trees_of_a_model_whose_ids_do_not_follow_the_merge_order() -> None:
    tok = load(llama3_file())
    assert not tok.merges.is_canonical(tok.n_base)
    tree = tok.merge_tree(tok.encode(" the")[0])
    ranks = [s.rank for s in merge_tree.recipe(tree)]
    assert ranks == sorted(ranks) and ranks
    assert tree.token == " the" and "".join(tree.leaves()) == " the"
    assert merge_tree.summary(tree).endswith("the file records no pair counts.")



def test_a_tree_says_which_of_the_merges_listed_for_its_token_it_draws() -> None:
    # Llama 2's file makes '▁that' by '▁t' + 'hat' (rank 130, 'hat' made at 7,501) and by
    # '▁th' + 'at' (131): the tree draws the second, as merging takes it, and says why.
    tok = bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        [("a", "bc"), ("a", "b"), ("ab", "c"), ("b", "c")], ignore_merges=True))
    tree = tok.merge_tree(5)
    assert [s.rank for s in merge_tree.recipe(tree)] == [1, 2]
    assert annotate.how_made(tok, 5) == "merge 3 (rank 2): 'ab' + 'c'"
    assert merge_tree.caption(tok, 5, tree).startswith(
        "The file lists 2 merges that make 'abc', the first at rank 0 (a + bc); merging its "
        "own symbols by rank, as the encoder does, takes the one drawn. 3 base symbols")
    assert merge_tree.listed_note(tok, 4) is None  # one merge makes 'bc'
    unmade = bpe_core.Tokenizer(bpe_core.BPE.from_vocab(
        {"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        [("a", "b"), ("b", "c"), ("a", "bc")], ignore_merges=True))
    assert merge_tree.listed_note(unmade, 5) == (
        "Merging its own symbols never makes 'abc' (they end as 'ab' + 'c'): only a piece that "
        "is exactly this token gives it (ignore_merges). The tree shows the first merge the "
        "file lists for it.")

def test_the_default_token_is_found_from_the_merge_arrays() -> None:
    tok = load(llama3_file())
    # The definition, spelled out over merge records.
    uses = Counter(m.left_id for m in tok.merges) + Counter(m.right_id for m in tok.merges)
    deep = [m for m in tok.merges if tok.merge_for(m.left_id) or tok.merge_for(m.right_id)]
    assert default_token(tok) == max(deep, key=lambda m: (uses[m.token_id], m.rank)).token_id


def test_a_char_bpe_files_word_final_characters_are_base_symbols() -> None:
    # CharBPETokenizer starts a word's last character as "o</w>", a base symbol of its own: it
    # was "in the vocabulary, made by no merge", and its tree said "merging never produces it"
    # of a token in every word ending in o.
    tok = load(char_bpe_file())
    final = [s for s in tok.spans("The lowest 中文!") if "</w>" in s.token]
    assert [s.token for s in final] == ["the</w>", "lowest</w>", "中</w>", "文</w>", "!</w>"]
    final = final[2:]
    for s in final:
        assert tok.kind(s.id) == "char" and annotate.KIND_NAMES["char"] == "base character"
        assert "never produces" not in merge_tree.why_no_tree(tok, s.id)
    assert Counter(tok.view.kinds(tok.ids())) == {"char": tok.vocab_size - len(tok.merges) - 1,
                                                  "merge": len(tok.merges), "unk": 1}


def test_the_end_of_word_marker_stays_on_bytes_and_reads_left_to_right() -> None:
    # Bytes that end a word: "<A9></w>" was drawn "<A9>", its marker gone.
    tok = bpe_core.train("é © é © é ©", max_merges=1, unit="byte", pretokenizer="end-of-word",
                         min_frequency=1)
    assert [m.token for m in tok.merges] == ["<A9></w>"]
    assert shown(tok, "é") == [("<C3>", "pb"), ("<A9></w>", "pb")]
    assert colour.tokens_html(tok.spans("é"), "é").count('<bdi dir="ltr">&lt;/w&gt;</bdi>') == 1
    # Closing a Hebrew word, the marker is isolated left to right: bare, the bidi algorithm
    # drew "ם</w>" as "<w/>ם". A token of the text "</w>" is text, not the marker.
    text = "שלום </w>"
    spans = [bpe_core.TokenSpan(k, t, t.removesuffix("</w>").encode(), a, b) for k, (t, a, b) in
             enumerate([("שלו", 0, 3), ("ם</w>", 3, 4), ("<</w>", 5, 6), ("/</w>", 6, 7),
                        ("w</w>", 7, 8), ("></w>", 8, 9)])]
    assert [(b.label, b.ends_word) for b in colour.boxes(spans, text)] == [
        ("שלו", False), ("ם</w>", True), ("<</w>", True), ("/</w>", True), ("w</w>", True),
        ("></w>", True)]
    html = colour.tokens_html(spans, text)
    assert html.count('<bdi dir="ltr">&lt;/w&gt;</bdi>') == 5 and "ם<bdi" in html
    literal = bpe_core.train("a </w> </w>", max_merges=3, unit="char", pretokenizer="whitespace",
                             min_frequency=1)
    assert [(b.label, b.ends_word) for b in colour.boxes(literal.spans("</w>"), "</w>")] == [
        ("</w>", False)]
