"""What a loaded tokenizer says about its tokens: the unknown token, added tokens that are text,
where the tokens of the other encoders lie in the text, and the merges that use a token when a
file lists merges out of the order they can apply in. Files come from the ``tokenizers``
library, which is the oracle where it has an answer."""

from __future__ import annotations

import json

import pytest
from tokenizers import AddedToken as HFAddedToken

import bpe_core
from bpe_core import decoders
from bpe_core.analysis.premium import fallback_tokens
from bpe_core.analysis.vocabulary import built_from
from tests.model_files import hf, llama2_file, llama2_no_fallback_file, llama3_file
from tests.test_pipeline_exact import added_tokens_style, gemma_style


def test_the_unknown_token_is_unk_even_when_the_file_lists_it_as_special():
    data = llama2_no_fallback_file()
    tok = bpe_core.loads(data, source="tokenizer.json")
    unk = tok.model.vocab["<unk>"]
    assert "<unk>" in tok.special_tokens  # the file lists it with the special tokens
    assert tok.kind(unk) == "unk" and tok.token_bytes(unk) == b"" and tok.display(unk) == "<unk>"
    text = "a ½ b"
    spans = tok.spans(text)
    assert [s.id for s in spans] == hf(data).encode(text, add_special_tokens=False).ids
    [unknown] = [s for s in spans if s.id == unk]
    assert (text[unknown.start:unknown.end], unknown.bytes, unknown.special) == ("½", b"", False)
    assert fallback_tokens(tok, [s.id for s in spans]) == 1  # the Languages page counts it
    typed = tok.spans("<unk>")  # the marker typed as text is the special token
    assert [(s.id, s.special) for s in typed] == [(unk, True)]


def test_an_added_token_that_is_text_stands_for_what_the_decoder_makes_of_it():
    # Gemma's added tokens include runs of "▁", which its decoder turns into spaces.
    theirs = gemma_style()
    theirs.add_tokens([HFAddedToken("▁▁", normalized=False)])
    tok = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    i = theirs.token_to_id("▁▁")
    assert tok.kind(i) == "added"
    assert tok.token_bytes(i) == theirs.decode([i]).encode() == b"  "
    assert tok.display(i) == "  "


def test_a_byte_level_added_token_shows_its_own_text_not_byte_characters():
    theirs = added_tokens_style()
    tok = bpe_core.loads(theirs.to_str().encode(), source="tokenizer.json")
    cafe, special = theirs.token_to_id("café"), theirs.token_to_id("<|x|>")
    assert tok.kind(cafe) == "added" and tok.token_bytes(cafe) == "café".encode()
    assert theirs.decode([cafe]) != "café"  # the ByteLevel decoder garbles it: not our display
    assert (tok.kind(special), tok.display(special)) == ("special", "<|x|>")


def test_built_from_follows_a_merge_listed_before_the_merge_that_makes_its_part():
    # "ab c" comes first, yet needs "ab", which the later "a b" makes (HF still applies both).
    d = json.loads(llama2_no_fallback_file())
    d.update(normalizer=None, post_processor=None, added_tokens=[], decoder=None)
    d["model"].update(vocab={"a": 0, "b": 1, "c": 2, "abc": 3, "ab": 4}, merges=["ab c", "a b"],
                      unk_token=None, fuse_unk=False)
    data = json.dumps(d).encode()
    tok = bpe_core.loads(data, source="tokenizer.json")
    assert tok.encode("abc") == hf(data).encode("abc").ids == [3]
    a = tok.model.vocab["a"]
    assert [m.token for m in built_from(tok, a)] == ["ab"]
    assert [m.token for m in built_from(tok, a, recursive=True)] == ["abc", "ab"]


def _small_llama2(vocab: list[str], merges: list[str]) -> bytes:
    """A Llama 2 shaped file (prefix "▁", byte fallback) with these tokens and merges."""
    d = json.loads(llama2_no_fallback_file())
    tokens = ["<unk>", "<s>", "</s>", *(f"<0x{b:02X}>" for b in range(256)), *vocab]
    d["model"].update(vocab={t: i for i, t in enumerate(tokens)}, merges=merges,
                      byte_fallback=True)
    return json.dumps(d).encode()


def test_spans_of_the_other_encoders_cover_the_right_characters_with_byte_fallback():
    data = _small_llama2(["▁", "a", "b", "c", "bc", "ab"], ["b c", "a b"])
    tok = bpe_core.loads(data, source="tokenizer.json")
    text = "abc 😀"
    assert tok.encode(text) == hf(data).encode(text, add_special_tokens=False).ids
    greedy = tok.spans(text, method="longest-match")
    assert [s.id for s in greedy] == tok.encode(text, method="longest-match")
    assert [s.token for s in greedy][:3] != [s.token for s in tok.spans(text)][:3]
    covered = [(s.token, text[s.start:s.end], s.partial) for s in greedy]
    assert covered == [(" ", "a", False), ("ab", "ab", False), ("c", "c", False),
                       (" ", " ", False), *((f"<{b:02X}>", "😀", True) for b in "😀".encode())]


@pytest.mark.parametrize("data", [llama2_file, llama3_file], ids=["llama2", "llama3"])
def test_spans_with_special_tokens_add_the_templates_bos_covering_no_text(data):
    tok = bpe_core.loads(data())
    text = "Hello wörld"
    spans = tok.spans(text, add_special_tokens=True)
    assert [s.id for s in spans] == tok.encode(text, add_special_tokens=True) == hf(
        data()).encode(text).ids
    bos = spans[0]
    assert bos.special and (bos.start, bos.end) == (0, 0) and bos.token == tok.display(bos.id)
    assert spans[1:] == tok.spans(text)  # the text's own tokens are unchanged


def test_a_token_the_template_adds_is_special_whether_or_not_the_file_lists_it_so():
    # Command R+ ends a text with <|END_OF_TURN_TOKEN|>, an added token the file does not call
    # special: its span was not special, so Tokenize's comparison with special tokens said
    # "rewritten before BPE: the text has '', the model reads '<eot>'" where the BOS beside it
    # said "added by the tokenizer's post-processor: not in the text".
    from tokenizers import processors
    from ui.shared.tokens import box
    theirs = hf(llama2_file())
    theirs.add_tokens(["<eot>"])
    theirs.post_processor = processors.TemplateProcessing(
        single="<s> $A <eot>", special_tokens=[("<s>", 1), ("<eot>", theirs.token_to_id("<eot>"))])
    tok, text = bpe_core.loads(theirs.to_str().encode()), "Hi <eot>"
    spans, want = tok.spans(text, add_special_tokens=True), theirs.encode(text)
    assert [s.id for s in spans] == want.ids
    # Hugging Face's mask: the template's tokens, not the <eot> typed in the text.
    assert [k for k, s in enumerate(spans) if s.special and s.start == s.end] == [
        k for k, special in enumerate(want.special_tokens_mask) if special] == [0, 5]
    assert [box(s, text).note for s in spans if s.start == s.end] == [
        "added by the tokenizer's post-processor: not in the text"] * 2


def _styles() -> dict[str, bytes]:
    gemma = gemma_style()
    gemma.add_tokens([HFAddedToken("▁▁", normalized=False)])
    return {"llama2": llama2_file(), "llama3": llama3_file(), "gemma": gemma.to_str().encode(),
            "added": added_tokens_style().to_str().encode()}


@pytest.mark.parametrize("style", ["llama2", "llama3", "gemma", "added", "end-of-word"])
def test_a_whole_vocabulary_at_once_reads_as_each_token_alone(style):
    # The Vocabulary page lists every token in one pass (bytes_of, display_of, kinds); each
    # answer must be what the token alone gives, asked of a tokenizer that has memoized none.
    def fresh() -> bpe_core.Tokenizer:
        if style == "end-of-word":
            return bpe_core.train("low lower lowest newer wider", unit="char",
                                  pretokenizer="end-of-word", max_merges=8, min_frequency=1)
        return bpe_core.loads(_styles()[style], source="tokenizer.json")

    whole, alone = fresh(), fresh()
    ids = whole.ids()
    got = list(zip(whole.view.bytes_of(ids), whole.view.display_of(ids), whole.view.kinds(ids)))
    assert got == [(alone.token_bytes(i), alone.display(i), alone.kind(i)) for i in ids]
    # ... and what the token stands for, read off its string as the model writes it.
    raw = whole.view.raw
    expected = {"llama2": [("▁the", b" the", " the"), ("<0xE4>", b"\xe4", "<E4>")],
                "llama3": [("Ġthe", b" the", " the"), ("Ã", b"\xc3", "<C3>")],
                "gemma": [("▁▁", b"  ", "  ")], "added": [("café", "café".encode(), "café")],
                "end-of-word": [("low\ufdd0", b"low", "low</w>"), ("er\ufdd0", b"er", "er</w>"),
                                ("\ufdd0", b"", "</w>")]}
    shown = {raw(i): (data, text) for i, (data, text, _) in zip(ids, got)}
    assert [(t, *shown[t]) for t, _, _ in expected[style]] == expected[style]


def test_decoder_steps_over_many_tokens_are_those_over_each():
    # Byte fallback after a Replace, a nested sequence, a BPE suffix: each token on its own.
    steps = decoders.Sequence([decoders.Replace("▁", " "), decoders.Sequence(
        [decoders.ByteFallback(), decoders.BPEDecoder("</w>"), decoders.Fuse()])])
    tokens = ["▁the", "<0xE4>", "<0x+A>", "<0x▁>", "ab</w>", "", "x</w>y"]
    assert decoders.tokens_bytes(steps, tokens) == [decoders.token_bytes(steps, t)
                                                    for t in tokens]
    assert decoders.tokens_bytes(steps, tokens) == [b" the", b"\xe4", b"\n", b"<0x >", b"ab ",
                                                    b"", b"x y"]
