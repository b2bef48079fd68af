"""A user's regex runs with a time limit: a catastrophic pattern gives one clear error, fast,
wherever it is used (training, the preview's pieces, a loaded Split or Replace, the vocabulary
search)."""

from __future__ import annotations

import pytest
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers

import bpe_core
from bpe_core import decoders as our_decoders
from bpe_core import normalizers as our_normalizers
from bpe_core import presets
from bpe_core.analysis.vocabulary import VocabularySearchError, matches
from bpe_core.formats import loads

CATASTROPHIC = r"(?:a|aa)+$"  # on "a" * 46 + "!": minutes without a limit
TEXT = "a" * 46 + "!"


@pytest.fixture(autouse=True)
def short_limit(monkeypatch):
    monkeypatch.setattr(presets, "REGEX_SECONDS", 0.2)


def test_training_with_a_catastrophic_pre_tokenizer_stops_with_a_sentence():
    with pytest.raises(bpe_core.PatternTimeout,
                       match=r"took more than 0\.2 s on 47 characters.*possessive"):
        bpe_core.train([TEXT], pretokenizer=CATASTROPHIC, vocab_size=300)


def test_the_pieces_of_a_preview_stop_too():
    with pytest.raises(bpe_core.PatternTimeout, match="nests repetitions"):
        list(presets.iter_pieces(TEXT, CATASTROPHIC))
    with pytest.raises(bpe_core.PatternTimeout):
        presets.split(TEXT, CATASTROPHIC)


def test_a_timeout_is_a_pattern_error_so_callers_that_show_pattern_errors_show_it():
    assert issubclass(bpe_core.PatternTimeout, bpe_core.PatternError)


def test_presets_and_sane_patterns_are_unaffected():
    assert presets.split("aaa bbb", r"\w+") == ["aaa", "bbb"]
    assert list(presets.iter_pieces("ab cd", "gpt2" and presets.PRESETS["gpt2"])) == [
        (0, "ab"), (2, " cd")]


def test_a_loaded_split_with_a_catastrophic_pattern_stops_when_encoding():
    hf = Tokenizer(models.BPE(vocab={"a": 0, "!": 1}, merges=[]))
    hf.pre_tokenizer = pre_tokenizers.Split(Regex(CATASTROPHIC), "isolated")
    tok = loads(hf.to_str().encode(), source="catastrophic.json")
    assert tok.encode("aa!") == hf.encode("aa!").ids  # fine on short text
    with pytest.raises(bpe_core.PatternTimeout, match="pre-tokenizer regex"):
        tok.encode(TEXT)
    with pytest.raises(bpe_core.PatternTimeout, match="pre-tokenizer regex"):
        tok.spans(TEXT)  # the path that keeps offsets


def test_a_loaded_normalizer_replace_with_a_catastrophic_pattern_stops_when_encoding():
    hf = Tokenizer(models.BPE(vocab={"a": 0, "!": 1, "b": 2}, merges=[]))
    hf.normalizer = normalizers.Replace(Regex(CATASTROPHIC), "b")
    tok = loads(hf.to_str().encode(), source="catastrophic.json")
    assert tok.encode("aa!") == hf.encode("aa!").ids == [0, 0, 1]  # fine on short text
    assert tok.encode("aa") == hf.encode("aa").ids == [2]
    with pytest.raises(bpe_core.PatternTimeout,
                       match=r"^the normalizer regex .* took more than 0\.2 s on 47 characters"):
        tok.encode(TEXT)
    with pytest.raises(bpe_core.PatternTimeout, match="normalizer regex.*nests repetitions"):
        tok.spans(TEXT)  # the path that keeps each character's origin


def test_a_loaded_decoder_replace_with_a_catastrophic_pattern_stops_when_decoding():
    hf = Tokenizer(models.BPE(vocab={"a": 0, "!": 1, "aa!": 2, TEXT: 3}, merges=[]))
    hf.decoder = decoders.Replace(Regex(CATASTROPHIC), "b")
    tok = loads(hf.to_str().encode(), source="catastrophic.json")
    assert tok.decode([0, 2]) == hf.decode([0, 2]) == "baa!"  # fine on short tokens
    with pytest.raises(bpe_core.PatternTimeout,
                       match=r"^the decoder regex .* took more than 0\.2 s on 47 characters"):
        tok.decode([3])
    with pytest.raises(bpe_core.PatternTimeout, match="decoder regex"):
        tok.token_bytes(3)  # what the pages show of the token


def test_plain_string_replaces_run_with_no_limit(monkeypatch):
    # Real models' Replace patterns are strings ("▁", " "): they never pay for a time limit.
    def no_limit(n_chars):
        raise AssertionError("a plain string got a time limit")

    monkeypatch.setattr(our_normalizers, "time_limit", no_limit)
    monkeypatch.setattr(our_decoders, "time_limit", no_limit)
    hf = Tokenizer(models.BPE(vocab={"▁": 0, "a": 1, "▁a": 2}, merges=[("▁", "a")]))
    hf.normalizer = normalizers.Replace(" ", "▁")
    hf.decoder = decoders.Replace("▁", " ")
    tok = loads(hf.to_str().encode(), source="plain.json")
    text = " a a"
    assert tok.encode(text) == hf.encode(text).ids == [2, 2]
    assert [s.id for s in tok.spans(text)] == [2, 2]
    assert tok.decode([2, 2]) == hf.decode([2, 2]) == " a a"


def test_vocabulary_search_stops_with_a_sentence():
    with pytest.raises(VocabularySearchError, match="took too long and was stopped"):
        matches([TEXT] * 3, CATASTROPHIC, use_regex=True)
    assert matches(["hug", "pun"], "^h", use_regex=True) == [True, False]


def test_the_limit_grows_with_the_text():
    assert presets.time_limit(1_000_000) == pytest.approx(0.2 + presets.REGEX_SECONDS_PER_MB)


@pytest.mark.parametrize("pattern", [
    r"(?:a|aa)+$", r"(a+)+", r".*?a.*?a.*?a.*?z", r"\w+",
    r"(?i:'s|'t|'re)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}",  # Llama 3's shape
])
def test_every_pattern_but_the_presets_runs_with_a_limit(pattern):
    # Which patterns blow up cannot be told without running them; the presets, whose
    # repetitions are possessive, are ours and never do.
    assert presets.needs_limit(pattern)
    assert not any(map(presets.needs_limit, presets.PRESETS.values()))


@pytest.mark.parametrize("name", sorted(presets.MODEL_PATTERNS))
def test_the_well_known_models_patterns_run_without_a_limit_and_never_need_one(name):
    # They are trusted as the presets are: on long runs of what makes a pattern backtrack
    # (spaces before a letter, newlines after spaces, apostrophes, capitals, punctuation),
    # each finishes well within the limit a user's pattern gets (0.4 s on 100,000
    # characters here; a pattern that backtracks quadratically would take minutes).
    pattern = presets.MODEL_PATTERNS[name]
    assert not presets.needs_limit(pattern)
    n = 100_000
    for text in ("a" * n, " " * n, " " * n + "a", "\n" * n, " \n" * n, "  \t" * n + "x",
                 "'" * n, "'s" * n, "A" * n, "Ab" * n, "1" * n, "!" * n, " !" * n, "a " * n,
                 "中" * n, "カ" * n, "\u0301" * n, "\x00" * n, "é " * n):
        found = presets.compile_pattern(pattern).findall(text, timeout=presets.time_limit(n))
        assert "".join(found) == text or name.startswith("deepseek"), (name, text[:9])


def test_a_chain_of_lazy_repetitions_stops_too():
    # No group is repeated, yet its time grows as a high power of the text: 10 s on 500
    # letters without a limit.
    with pytest.raises(bpe_core.PatternTimeout, match="chains them"):
        presets.split("a" * 600, r".*?a.*?a.*?a.*?z")


def test_a_long_uncut_text_is_counted_within_the_limit_too(monkeypatch):
    # A text longer than LONG_TEXT_CHARS is matched piece by piece; that path ran the user's
    # regex with no limit (31 letters: 1.5 s here, 46: minutes).
    monkeypatch.setattr(bpe_core.training.counting, "LONG_TEXT_CHARS", 8)
    with pytest.raises(bpe_core.PatternTimeout, match="took more than 0.2 s on 32 characters"):
        bpe_core.train(["a" * 31 + "!"], pretokenizer=CATASTROPHIC, vocab_size=300)
    counted = bpe_core.training.counting.count_words(["ab cd ab " * 3], r"(a)b|\w+| ")
    assert counted == {"ab": 6, "cd": 3, " ": 9}  # whole matches, groups or not
