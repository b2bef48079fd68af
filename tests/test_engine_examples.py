"""The worked examples of the textbooks, reproduced exactly."""

import pytest

import bpe_core


def tokens(tok):
    return [m.token for m in tok.merges]


def test_hugging_face_course_hug_pug():
    tok = bpe_core.train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}, unit="char",
                         pretokenizer="whitespace", max_merges=3, min_frequency=1)
    assert [(m.token, m.count) for m in tok.merges] == [("ug", 20), ("un", 16), ("hug", 15)]


def test_old_finest_end_of_word():
    tok = bpe_core.train({"old": 7, "older": 3, "finest": 9, "lowest": 4}, unit="char",
                         pretokenizer="end-of-word", tie_break="first", max_merges=5,
                         min_frequency=1)
    assert tokens(tok) == ["es", "est", "est</w>", "ol", "old"]


def test_sennrich_low_lower_newest_widest():
    tok = bpe_core.train("low lower newest widest", unit="char", pretokenizer="end-of-word",
                         min_frequency=1, tie_break="first", max_merges=3)
    assert tokens(tok) == ["lo", "low", "es"]


def test_slp_set_new_renew_space_prefix():
    tok = bpe_core.train("set new new renew reset renew", pretokenizer="space-prefix",
                         tie_break="first", max_merges=4)
    assert tokens(tok) == ["ne", "new", " r", " re"]


def test_stop_reasons():
    corpus = "set new new renew reset renew"
    assert bpe_core.train(corpus, pretokenizer="space-prefix", max_merges=2).stop_reason == "max_merges"
    assert bpe_core.train(corpus, pretokenizer="space-prefix").stop_reason == "min_frequency"
    assert bpe_core.train(corpus, 258, pretokenizer="space-prefix").stop_reason == "vocab_size"
    assert bpe_core.train("ab", pretokenizer="none", min_frequency=1).stop_reason == "no_pairs"


def test_vocab_size_counts_base_merges_and_specials():
    tok = bpe_core.train("set new new renew reset renew", 260, pretokenizer="space-prefix",
                         special_tokens=["<|endoftext|>"])
    assert len(tok.merges) == 3 and tok.vocab_size == 260
    assert tok.special_tokens == {"<|endoftext|>": 259}


def test_vocab_size_below_the_base_alphabet_says_what_to_do():
    with pytest.raises(ValueError, match="below the base alphabet.*at least 256"):
        bpe_core.train("abc", 100)


def test_lowest_id_tie_rule_differs_from_first():
    # "ne" and "ew" tie at 4: first occurrence picks "ne", the smallest ids (e=101, w=119 vs
    # n=110, e=101) pick "ew".
    corpus = "set new new renew reset renew"
    assert tokens(bpe_core.train(corpus, pretokenizer="space-prefix", max_merges=1)) == ["ne"]
    assert tokens(bpe_core.train(corpus, pretokenizer="space-prefix", max_merges=1,
                                 tie_break="lowest-id")) == ["ew"]


def test_gage_stream_merges_across_spaces():
    tok = bpe_core.train("A B D C A B E C A B", pretokenizer="none", max_merges=2)
    assert tokens(tok) == ["A ", "A B"]


def test_char_unit_unknown_character_is_unk_or_bytes():
    tok = bpe_core.train("hug pug", unit="char", pretokenizer="whitespace", max_merges=1,
                         min_frequency=1)
    assert [tok.display(i) for i in tok.encode("hux")] == ["h", "u", "[UNK]"]
    fb = bpe_core.train("hug pug", unit="char", pretokenizer="whitespace", max_merges=1,
                        min_frequency=1, byte_fallback=True)
    assert [fb.display(i) for i in fb.encode("hé")] == ["h", "<C3>", "<A9>"]
    assert fb.decode(fb.encode("hé")) == "hé"



def sample_merges(sample_id: str) -> tuple[str, list[str]]:
    """A bundled sample's description and the merges of training it with the settings the
    manifest suggests (the Train page's defaults for it)."""
    import json
    from pathlib import Path

    samples = Path(__file__).resolve().parent.parent / "assets" / "samples"
    [entry] = [e for e in json.loads((samples / "manifest.json").read_text(encoding="utf-8"))
               if e["id"] == sample_id]
    path = samples / entry["path"]
    corpus = (json.loads(path.read_text(encoding="utf-8")) if entry["kind"] == "counts"
              else path.read_text(encoding="utf-8"))
    settings = dict(entry["suggested"])
    return entry["description"], tokens(bpe_core.train(corpus, settings.pop("vocab_size"),
                                                       **settings))


def test_the_textbook_samples_make_the_merges_their_descriptions_name():
    said, made = sample_merges("hug-pug")
    assert "first three merges (u+g, u+n, h+ug)" in said and made == ["ug", "un", "hug"]
    said, made = sample_merges("old-finest")
    assert "first three merges build es, est and est</w>" in said and "before old" in said
    assert made == ["es", "est", "est</w>", "ol", "old"]
    said, made = sample_merges("low-lower")
    assert "five merges build lo and low" in said and "and es, est and est</w>" in said
    assert made == ["lo", "low", "es", "est", "est</w>"]
    said, made = sample_merges("lowest-price")
    assert "ten merges build e</w>, th and the</w>, the lo, low, lowe" in said
    assert "the st</w> ending" in said
    assert made == ["e</w>", "th", "the</w>", "lo", "low", "lowe", "st", "st</w>", "lowest</w>",
                    "pr"]
    said, made = sample_merges("set-new-renew")
    assert "four merges build new and the word-initial ·re" in said
    assert made == ["ne", "new", " r", " re"]
    said, made = sample_merges("abdcabecab")
    assert "the first merges glue letters to spaces (A·B among them)" in said
    assert made == ["A ", "A B", "A B "]
