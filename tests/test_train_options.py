"""Training's options, where they stop, and what they mean beside `tokenizers`' BpeTrainer."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex, models, pre_tokenizers, trainers
from tokenizers import Tokenizer as HFTokenizer

import bpe_core
from bpe_core import count_words, reference_train
from bpe_core.presets import PRESETS
from bpe_core.training import Stage2
from bpe_core.training.steps import step_tables
from ui.train import jobs as train_jobs
from ui.train.config import SPECIALS_HELP, TIE_HELP
from ui.train.runs import STOP_REASONS


def test_a_trainer_keeps_both_limits_for_its_next_corpus():
    # vocab_size 12 with max_merges 3: on "ab ab" (3 base symbols) max_merges is the tighter,
    # and the trainer dropped vocab_size for good, so the next corpus, of 11 base symbols,
    # got 3 merges and 14 tokens where vocab_size allows 1 merge.
    trainer = bpe_core.Trainer(12, max_merges=3, unit="char", pretokenizer="whitespace",
                               min_frequency=1)
    tok = trainer.fit("ab ab ab")
    assert (len(tok.merges), tok.stop_reason) == (1, "no_pairs")
    assert (tok.config["vocab_size"], tok.config["max_merges"]) == (12, 3)
    tok = trainer.fit("abcdefghij " * 3)
    assert (len(tok.merges), tok.vocab_size, tok.stop_reason) == (1, 12, "vocab_size")
    tok = trainer.fit("abcd " * 5)  # 5 base symbols: 7 merges left by vocab_size, 3 by max_merges
    assert (len(tok.merges), tok.vocab_size, tok.stop_reason) == (3, 8, "max_merges")


def hugging_face_trained(texts, vocab_size, *, min_frequency=1, pattern=PRESETS["whitespace"],
                         special_tokens=("[UNK]",), byte_level=False) -> HFTokenizer:
    """`tokenizers`' BpeTrainer on ``texts``, pre-tokenized as our ``pattern`` cuts them."""
    theirs = HFTokenizer(models.BPE(unk_token=None if byte_level else "[UNK]"))
    split = pre_tokenizers.Split(Regex(pattern), behavior="removed", invert=True)
    theirs.pre_tokenizer = pre_tokenizers.Sequence(
        [split, pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)]
    ) if byte_level else split
    theirs.train_from_iterator(texts, trainers.BpeTrainer(
        vocab_size=vocab_size, min_frequency=min_frequency, special_tokens=list(special_tokens),
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet() if byte_level else []))
    return theirs


def their_merges(theirs: HFTokenizer) -> list[tuple[str, str]]:
    return [tuple(m) for m in json.loads(theirs.to_str())["model"]["merges"]]


def our_merges(tok: bpe_core.Tokenizer) -> list[tuple[str, str]]:
    return [(tok.model.tokens[m.left_id], tok.model.tokens[m.right_id]) for m in tok.merges]


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="aab cd\né中", min_size=1, max_size=80),
       more=st.integers(0, 30), min_frequency=st.integers(1, 4),
       pretokenizer=st.sampled_from(["whitespace", "gpt2", "space-prefix"]))
def test_lowest_id_ties_on_characters_train_what_hugging_faces_trainer_does(
        text, more, min_frequency, pretokenizer):
    # vocab_size counts the same ids in both: [UNK] (a special token there), the characters
    # and the merges; a pair whose count is min_frequency is merged in both.
    try:
        floor = bpe_core.train(text, max_merges=0, unit="char", pretokenizer=pretokenizer)
    except ValueError:  # nothing but whitespace: no words
        return
    ours = bpe_core.train(text, floor.vocab_size + more, unit="char", pretokenizer=pretokenizer,
                          min_frequency=min_frequency, tie_break="lowest-id")
    theirs = hugging_face_trained([text], floor.vocab_size + more, min_frequency=min_frequency,
                                  pattern=PRESETS[pretokenizer])
    assert our_merges(ours) == their_merges(theirs)
    assert ours.model.vocab == theirs.get_vocab()


def test_special_tokens_count_in_vocab_size_as_there_but_are_never_trained_on():
    text = "hug pug pun bun hugs <s>hug <s>pug"
    ours = bpe_core.train(text, 15, unit="char", pretokenizer="whitespace", min_frequency=1,
                          tie_break="lowest-id", special_tokens=["[UNK]", "<s>", "</s>"])
    theirs = hugging_face_trained([text.replace("<s>", "")], 15,
                                  special_tokens=["[UNK]", "<s>", "</s>"])
    assert our_merges(ours) == their_merges(theirs) == [
        ("u", "g"), ("h", "ug"), ("p", "ug"), ("u", "n"), ("b", "un")]
    assert ours.vocab_size == theirs.get_vocab_size() == 15
    # The same tokens; the special ones after the merges here, first there.
    assert {**ours.model.vocab, **ours.special_tokens}.keys() == theirs.get_vocab().keys()
    assert ours.special_tokens == {"[UNK]": 0, "<s>": 13, "</s>": 14}
    # Left in the text, BpeTrainer learns merges inside a special token.
    assert ("<", "s") in their_merges(hugging_face_trained([text], 15, special_tokens=["<s>"]))
    # The Train page's help said only that they are never split and come after the merges.
    assert "cut out of the corpus before its pairs are counted, so no merge is learned inside " \
           "one; Hugging Face's trainer counts their characters as text" in SPECIALS_HELP


def test_lowest_id_ties_between_bytes_follow_byte_values_not_gpt2s_order():
    # "aa" and " a" both occur once: the space (byte 32) has the lower id here, "a" (id 64 in
    # GPT-2's order, the space 220) there.
    ours = bpe_core.train("aa a", 257, unit="byte", min_frequency=1, tie_break="lowest-id")
    theirs = hugging_face_trained(["aa a"], 257, pattern=PRESETS["gpt2"], special_tokens=(),
                                  byte_level=True)
    assert (our_merges(ours), their_merges(theirs)) == ([("Ġ", "a")], [("a", "a")])
    assert "On bytes, whose ids here are their values, Hugging Face numbers them in GPT-2's " \
           "order instead" in TIE_HELP


def test_byte_fallback_never_merges_a_token_spelled_as_a_bytes_own():
    # "<0x41>" in the corpus was merged into a token decoding read as the byte "A" (so "<0x41>"
    # came back as "A"), and that no tokenizer.json could hold beside the byte's <0x41>.
    text = "<0x41> <0x4a>x <0x41> <0x4a>x <0x41>"
    tok = bpe_core.train(text, max_merges=20, unit="char", pretokenizer="whitespace",
                         byte_fallback=True, min_frequency=1)
    assert [m.token for m in tok.merges] == ["<0", "<0x", "<0x4", "<0x41", "<0x4a", ">x",
                                             "<0x4a>x"]
    assert tok.stop_reason == "byte_names"  # <0x41 + > alone is left, 3 times
    ids = tok.encode(text)
    assert tok.decode(ids) == text.replace(" ", "")
    theirs = HFTokenizer.from_str(bpe_core.dumps(tok, format="hf").decode())
    assert theirs.encode(text, add_special_tokens=False).ids == ids
    assert theirs.decode(ids) == tok.decode(ids)
    assert reference_train(count_words(text, "whitespace"), unit="char", pretokenizer="whitespace",
                           min_frequency=1, max_merges=20, byte_fallback=True) == [
        (m.left_id, m.right_id, m.count) for m in tok.merges]
    assert STOP_REASONS["byte_names"].endswith("such as <0x41>, which would be read as that byte")


@settings(max_examples=40, deadline=None)
@given(text=st.text(alphabet="aab c\né<", min_size=1, max_size=50),
       unit=st.sampled_from(["byte", "char"]),
       pretokenizer=st.sampled_from(["gpt2", "whitespace", "end-of-word", "none"]),
       min_frequency=st.integers(1, 4), special_tokens=st.sampled_from([(), ("<",)]),
       max_merges=st.none() | st.integers(0, 12), more=st.none() | st.integers(0, 12))
def test_a_run_stops_where_its_stop_reason_says(text, unit, pretokenizer, min_frequency,
                                                special_tokens, max_merges, more):
    options = dict(unit=unit, pretokenizer=pretokenizer, special_tokens=special_tokens)
    try:
        floor = bpe_core.train(text, max_merges=0, **options).vocab_size
    except ValueError:  # no words
        return
    vocab_size = None if more is None else floor + more
    tok = bpe_core.train(text, vocab_size, max_merges=max_merges, min_frequency=min_frequency,
                         **options)
    made, reason = len(tok.merges), tok.stop_reason
    assert made <= min(n for n in (max_merges, more, made) if n is not None)
    # The textbook loop, with no limit but min_frequency, makes these merges and then more
    # only if a limit stopped us first; with min_frequency 1 too, more only if a pair is left.
    words = count_words(text, pretokenizer, special_tokens=special_tokens)
    unlimited = reference_train(words, min_frequency=min_frequency, unit=unit,
                                pretokenizer=pretokenizer)
    any_pair = reference_train(words, min_frequency=1, unit=unit, pretokenizer=pretokenizer)
    assert [(m.left_id, m.right_id, m.count) for m in tok.merges] == unlimited[:made]
    assert reason == (
        "vocab_size" if made == more and (max_merges is None or more <= max_merges)
        else "max_merges" if made == max_merges
        else "min_frequency" if len(any_pair) > made else "no_pairs")


def test_byte_fallback_never_merges_a_bytes_name_with_end_of_word_either():
    # "<0x41>" + </w> was merged, and a text's last token is decoded without its marker, so
    # "x <0x41>" came back "x A".
    text = "<0x41> " * 5 + "A"
    tok = bpe_core.train(text, unit="char", pretokenizer="end-of-word", byte_fallback=True,
                         min_frequency=1)
    for sentence in ("x <0x41>", "<0x41>", "<0x41> x"):
        assert tok.decode(tok.encode(sentence)) == sentence
    assert reference_train(count_words(text, "end-of-word"), unit="char", min_frequency=1,
                           pretokenizer="end-of-word", byte_fallback=True) == [
        (m.left_id, m.right_id, m.count) for m in tok.merges]


def test_the_step_tables_and_ties_say_which_pairs_are_refused_and_why():
    # After merge 5, "<0x41" + ">" (3 times) stood above the winner unmarked, so the tables had
    # no winner (the page said training had stopped), and "<0x4a" + ">" was a tie it lost.
    text = "<0x41> <0x4a>x <0x41> <0x4a>x <0x41>"
    trainer = bpe_core.Trainer(max_merges=20, unit="char", pretokenizer="whitespace",
                               byte_fallback=True, min_frequency=1)
    steps = list(trainer.run(text))
    tables = step_tables(trainer, 5)
    assert [(p.left, p.right, p.count, p.status, p.refused) for p in tables.pairs] == [
        ("<0x41", ">", 3, "refused", "byte_names"), (">", "x", 2, "winner", ""),
        ("<0x4a", ">", 2, "refused", "byte_names")]
    assert (tables.winner.left, tables.winner.right, tables.ties) == (">", "x", ())
    assert step_tables(trainer.record(), 5) == tables  # a replay's tables say the same
    # Merge 6's tie list had nothing in it ("<0x4a" + ">" came first and was dropped), though
    # it counted one tie.
    assert ([(t.left, t.right, t.refused) for t in steps[5].ties], steps[5].n_tied) == (
        [("<0x4a", ">", "byte_names")], 1)
    assert [(t.left, t.right, t.refused) for t in steps[3].ties] == [("1", ">", "")]


def test_superbpes_step_tables_mark_what_its_rule_refuses():
    text = "a b c d e\n" * 4
    stage2 = Stage2(text, bpe_core.train(text, 256, unit="byte"), 270, transition=256)
    for _ in stage2.read():
        pass
    made = [m.token for m in stage2.run()]
    assert stage2.trainer.stop_reason == "not_allowed" and len(made) == 7
    [refused] = step_tables(stage2.trainer, 7).pairs  # "a b c d " + "e": five words
    assert (refused.status, refused.refused) == ("refused", "not_allowed")


class Progress:
    """A job's reporter that keeps its messages."""

    def __init__(self):
        self.messages: list[str] = []

    def progress(self, fraction: float, message: str = "") -> None:
        self.messages.append(message)


def test_a_run_with_both_limits_aims_at_the_fewer_merges():
    # The Train page's jobs counted merges to vocab_size alone: 12 leaves 7 merges on "abcd"
    # (5 base symbols with [UNK]), so a run that stops at max_merges 3 said "merge 3 of 7".
    trainer = bpe_core.Trainer(12, max_merges=3, unit="char", pretokenizer="whitespace",
                               min_frequency=1)
    trainer.fit("abcd " * 5)
    assert trainer.merge_target == 3
    trainer.fit("abcdefghij " * 3)  # 11 base symbols: vocab_size leaves 1
    assert trainer.merge_target == 1
    settings = {"unit": "char", "pretokenizer": "whitespace", "min_frequency": 1,
                "tie_break": "first", "special_tokens": (), "byte_fallback": False,
                "vocab_size": 12, "max_merges": 3, "name": "both"}
    report = Progress()
    trained = train_jobs.train(["abcd " * 5], settings, report=report)
    assert (len(trained.steps), report.messages[-1]) == (3, "merge 3 of 3")
