"""Pre-tokenizer regexes read by Unicode 16, as Hugging Face's and OpenAI's engines read them
(bpe_core/unicode16.py), checked against `tokenizers` and against Unicode's own tables."""

from __future__ import annotations

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st
from tokenizers import Regex
from tokenizers import pre_tokenizers as hf

from bpe_core import pre_tokenizers, unicode16
from bpe_core.oniguruma import convert_pattern
from bpe_core.presets import MODEL_PATTERNS, PRESETS

CHANGED = sorted(unicode16.changed_chars())
TEXT = st.text(st.sampled_from(["a", "Z", " ", "1", "\n", "'", "s", "中", "é", ".", "\u0378",
                                "😀", "\u0300", "٣", "ɐ"]) | st.sampled_from(CHANGED),
               min_size=1, max_size=16)
PATTERNS = [PRESETS["gpt2"], PRESETS["cl100k"], PRESETS["o200k"], *MODEL_PATTERNS.values(),
            r"\p{N}{1,3}", r"[^\p{L}]+", r"[\p{Ll}\p{Lo}]+", r"[a-z\p{Lu}]+|\P{L}",
            r"[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]+"]
BEHAVIORS = {"Isolated": "isolated", "Removed": "removed",
             "MergedWithPrevious": "merged_with_previous", "Contiguous": "contiguous"}
GC = "Lu Ll Lt Lm Lo Mn Mc Me Nd Nl No Pc Pd Ps Pe Pi Pf Po Sm Sc Sk So Zs Zl Zp Cc Cf Cs Co Cn"


def test_the_table_is_unicode_16s_and_the_changed_characters_are_found():
    """unassigned16.txt is Unicode 16's; what regex classes otherwise is what it has added since
    and RECLASSED (a later regex that reclasses more characters makes this fail: add them)."""
    unicodedata2 = pytest.importorskip("unicodedata2")  # (requirements-test.txt: Unicode 16)
    if unicodedata2.unidata_version != "16.0.0":
        pytest.skip(f"unicodedata2 {unicodedata2.unidata_version} installed; the table is "
                    "checked against 16.0.0, the peers' version")
    everything = "".join(map(chr, range(0x110000)))
    # Each code point's category then (Unicode 16) and now (regex), in lists by code point:
    # dicts by character took four times as long to fill and compare.
    then = list(map(unicodedata2.category, everything))
    unassigned = [chr(c) for c, gc in enumerate(then) if gc == "Cn"]
    assert [chr(c) for a, b in unicode16.UNASSIGNED_16 for c in range(a, b + 1)] == unassigned
    now = [""] * len(everything)
    for gc in GC.split():
        for m in regex.finditer(rf"\p{{gc={gc}}}+", everything):
            now[m.start():m.end()] = [gc] * (m.end() - m.start())
    changed = unicode16.changed_chars()
    assert changed == {chr(c) for c, (old, new) in enumerate(zip(then, now)) if old != new}
    then_of, now_of = (lambda c: then[ord(c)]), (lambda c: now[ord(c)])
    for c, stand_ins in unicode16.RECLASSED.items():
        assert now_of(stand_ins[16]) == then_of(stand_ins[16]) == then_of(c) != "Cn"
        assert now_of(stand_ins[17]) == then_of(stand_ins[17]) != then_of(c)
    assert now_of(unicode16.UNASSIGNED) == then_of(unicode16.UNASSIGNED) == "Cn"
    # Unicode 17 (Rust's): what it added of 16's unassigned ones reads as regex reads it.
    added = {chr(c) for a, b in unicode16.ADDED_IN_17 for c in range(a, b + 1)}
    assert added <= set(unassigned)
    assert unicode16.changed_chars(17) == (
        {c for c in changed - added if c not in unicode16.RECLASSED}
        | {c for c, stand_ins in unicode16.RECLASSED.items()
           if now_of(c) != now_of(stand_ins[17])})
    if now_of("\U00012679") == "Cn":  # (a regex at Unicode 17: what it added is the table's)
        assert added == changed - set(unicode16.RECLASSED)


@settings(max_examples=150, deadline=None)
@given(text=TEXT, pattern=st.sampled_from(PATTERNS), behavior=st.sampled_from(list(BEHAVIORS)))
def test_split_cuts_as_tokenizers_does(text, pattern, behavior):
    theirs = hf.Split(Regex(convert_pattern(pattern, to_onig=True)), BEHAVIORS[behavior])
    ours = pre_tokenizers.Split(pattern, behavior)
    expected = [p for p, _ in theirs.pre_tokenize_str(text)]
    assert ours.split([text]) == expected
    ranges = [(i, i + 1) for i in range(len(text))]
    assert [p for p, _ in ours.split_aligned([(text, ranges)])] == expected


@settings(max_examples=150, deadline=None)
@given(text=TEXT)
def test_whitespace_and_byte_level_cut_as_tokenizers_does(text):
    ranges = [(i, i + 1) for i in range(len(text))]
    for theirs, ours in [(hf.Whitespace(), pre_tokenizers.Whitespace()),
                         (hf.ByteLevel(add_prefix_space=False),
                          pre_tokenizers.ByteLevel(add_prefix_space=False))]:
        expected = [p for p, _ in theirs.pre_tokenize_str(text)]
        assert ours.split([text]) == expected
        assert [p for p, _ in ours.split_aligned([(text, ranges)])] == expected


@pytest.mark.parametrize("text, pieces", [
    ("ab\u088fcd", ["ab", "\u088fcd"]),  # a letter new in 17, no letter in 16: "cd"'s head
    ("ʕB", ["ʕ", "B"]),  # ʕ: a lowercase letter in 16, an "other" one (Lo) in 17
    ("x\U000323b0\U000323b1y", ["x", "\U000323b0\U000323b1", "y"]),  # CJK Extension J
])
def test_the_changed_characters_read_as_in_unicode_16(text, pieces):
    assert pre_tokenizers.Split(PRESETS["o200k"]).split([text]) == pieces
    assert unicode16.holds_changed(text)
    assert not unicode16.holds_changed("ab cd ɐ中文 😀 \u0378")


@pytest.mark.parametrize("version", [16, 17])
def test_a_text_of_many_characters_to_look_at_reads_as_each_of_them(version):
    """Past 20,000 characters to look at (a text of every code point), holds_changed tests them
    all against the set of changed characters at once: the answer is still each one's own."""
    plane = [chr(c) for c in range(0x10000, 0x20000)]  # 65,536 to look at, one by one here
    unchanged = "".join(c for c in plane if not unicode16.holds_changed(c, version))
    assert len(unchanged) > 20_000 and not unicode16.holds_changed(unchanged, version)
    changed = sorted(unicode16.changed_chars(version))
    for c in changed[:1] + changed[len(changed) // 2:][:1] + changed[-1:]:
        assert unicode16.holds_changed(unchanged + c, version), (version, c)
        assert unicode16.holds_changed(c + unchanged, version), (version, c)


def test_a_regex_that_reads_no_changed_character_otherwise_is_kept():
    assert unicode16.as_unicode(r"\s+|[a-z]+") == r"\s+|[a-z]+"


def test_a_regex_the_rewriting_cannot_follow_is_read_as_it_is(monkeypatch):
    assert unicode16.as_unicode(r"(?V1)[\p{L}--\p{Ll}]+") == r"(?V1)[\p{L}--\p{Ll}]+"
    monkeypatch.setattr(unicode16, "_class_as", lambda cls, version: cls + "(")  # (a rewrite gone wrong)
    assert unicode16.as_unicode(r"[\p{L}]+") == r"[\p{L}]+"


@pytest.mark.parametrize("pattern", [r"\p{L}+", r"[^\s\p{L}]"])
def test_replace_matches_as_tokenizers_does(pattern):
    from tokenizers import decoders as hd
    from tokenizers import normalizers as hn

    from bpe_core import decoders, normalizers

    text = "ab\u088fcd ʕB x\U000323b0y"
    theirs = hn.Replace(Regex(convert_pattern(pattern, to_onig=True)), "_")
    ours = normalizers.Replace(pattern, "_", regex=True)
    assert ours.normalize_str(text) == theirs.normalize_str(text)
    ranges = [(i, i + 1) for i in range(len(text))]
    assert ours.normalize_aligned(text, ranges)[0] == theirs.normalize_str(text)
    decoder = hd.Replace(Regex(convert_pattern(pattern, to_onig=True)), "_")
    assert (decoders.Replace(pattern, "_", regex=True).decode([text, "ʕ"])
            == decoder.decode([text, "ʕ"]))
