"""Parallel corpora (bpe_core.analysis.parallel) and the premium measurements (bpe_core.analysis.premium)."""

from __future__ import annotations

import csv
import doctest
import json
from collections import Counter
from pathlib import Path

import pytest

import bpe_core
from bpe_core.analysis import parallel, premium
from bpe_core.analysis.parallel import ParallelCorpusError, identify, read_line_files, read_table
from bpe_core.analysis.parallel import read_upload as read_parallel_upload
from bpe_core.analysis.vocabulary import tokens_per_system, vocabulary
from bpe_core.analysis.writing_systems import (BYTE_FALLBACK, DIGITS, PARTIAL, SPECIAL, SYMBOLS,
                                               WHITESPACE)
from ui.shared.samples import PARALLEL, parallel_sample

LANGUAGES = Path(parallel.__file__).with_name("languages.json")


@pytest.mark.parametrize("module", [parallel, premium])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


# --- loading -----------------------------------------------------------------------------------


def test_bundled_sample_has_every_language_and_sentence():
    corpus = parallel_sample()
    languages = json.loads(LANGUAGES.read_text(encoding="utf-8"))
    assert [lang.code for lang in corpus.languages] == [entry["code"] for entry in languages]
    assert [lang.script for lang in corpus.languages] == [entry["script"] for entry in languages]
    with (PARALLEL / "sentences.tsv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    for j, code in enumerate(rows[0]):
        assert corpus.sentences(code) == tuple(row[j] for row in rows[1:])
    assert corpus.n_sentences == len(rows) - 1 >= 30 and corpus.dropped == 0


def test_csv_headers_may_be_codes_or_names_in_any_case():
    data = 'ENGLISH,fr,Hindi\n"Hello, world.", Bonjour le monde. ,नमस्ते दुनिया।\n'.encode()
    corpus = read_table("greetings.csv", data)
    assert corpus.codes == ("en", "fr", "hi")
    assert corpus.sentences("en") == ("Hello, world.",)  # quoted comma kept, cells trimmed
    assert corpus.sentences("fr") == ("Bonjour le monde.",)
    assert corpus.language("hi").script == "Devanagari"


def test_semicolon_table_and_tsv_quotes():
    assert read_table("s.csv", b"en;de\nYes;Ja\n").sentences("de") == ("Ja",)
    tsv = read_table("q.tsv", 'en\tes\n"Hi," she said\t"Hola", dijo\n'.encode())
    assert tsv.sentences("en") == ('"Hi," she said',)


def test_unknown_language_keeps_its_label_and_reads_script_and_spacing():
    corpus = read_table("x.csv", "Zorblaxian,cantonese\nQapla' batlh,我哋今日去咗市場買嘢食\n".encode())
    zorblax, cantonese = corpus.languages
    assert (zorblax.code, zorblax.label, zorblax.script, zorblax.spaces) == (
        "Zorblaxian", "Zorblaxian", "Latin", True)
    # Named by langcodes, but not in languages.json: the script and spacing come from the text.
    assert (cantonese.code, cantonese.label) == ("yue", "Cantonese — 粵語")
    assert (cantonese.script, cantonese.spaces) == ("Han", False)


@pytest.mark.parametrize("header, code, label", [
    ("zh_CN", "zh-CN", "Chinese (China) — 中文（中国）"),
    ("pt_BR", "pt-BR", "Portuguese (Brazil) — português (Brasil)"),
    ("Deutsch", "de", "German — Deutsch"),
    ("JA", "ja", "Japanese — 日本語"),
    ("Klingon", "tlh", "Klingon"),  # no native name apart from the English one
    ("qaa", "qaa", "qaa"),  # well-formed, but private use: no name, the code stays
    ("<b>x</b>", "<b>x</b>", "<b>x</b>"),
])
def test_locale_codes_and_names_are_shown_by_name(header, code, label):
    corpus = read_table("x.tsv", f"en\t{header}\nOne.\tOne.\n".encode())
    lang = corpus.languages[1]
    assert (lang.code, lang.label) == (code, label)


@pytest.mark.parametrize(
    "data, message",
    [
        (b"en,fr\nOne,Un\nTwo\nThree,Trois\n", r"x\.csv, line 3: 1 cells, but the header names 2"),
        (b"en,fr\nOne,Un\n\nTwo,,\n", r"x\.csv, line 4: 3 cells"),
        (b"en,fr\nOne,Un\nTwo,  \n", r"x\.csv, line 3: the 'fr' cell is empty"),
        (b"en,fr\n", r"header but no sentences"),
        (b"en\nOne\n", r"at least two"),
        (b"en,,de\nA,B,C\n", r"column 2 of the header has no name"),
        (b"en,English\nA,B\n", r"'en' and 'English' are the same language \(en\)"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00", r"binary file \(a PNG image\)"),
        (b"en,fr\ncaf\xe9,caf\xe9\n", r"not valid UTF-8"),
        (b"", r"is empty"),
        (b"id,en\n1,One\n2,Two\n", r"x\.csv: 'id' holds no letters \(only numbers, symbols or "
                                    r"empty cells\), so no language's sentences; a comparison "
                                    r"needs at least two columns of text"),
    ],
)
def test_bad_tables_say_where(data, message):
    with pytest.raises(ParallelCorpusError, match=message):
        read_table("x.csv", data)


def test_columns_without_letters_are_left_out_not_read_as_languages():
    # "id" was measured as Indonesian, and "score" as a language called score.
    corpus = read_table("x.csv", b",id,score,en,fr\n0,7,2.5,Hello,Bonjour\n1,8,,Bye,Salut\n")
    assert corpus.codes == ("en", "fr") and corpus.sentences("fr") == ("Bonjour", "Salut")
    assert corpus.skipped == ("column 1", "id", "score")


def test_text_files_aligned_by_line_take_the_language_from_the_name():
    corpus = read_line_files([
        ("flores.en.txt", b"One.\r\nTwo.\r\n"),
        ("hindi-sentences.txt", "एक।\nदो।\n\n".encode()),  # trailing blank lines are no sentence
        ("elvish.txt", "Min.\nTad.".encode()),
    ])
    assert corpus.codes == ("en", "hi", "elvish")
    assert corpus.sentences("hi") == ("एक।", "दो।")
    assert corpus.name == "3 files"


def test_text_files_with_different_line_counts_say_which_and_where():
    files = [("en.txt", b"1\n2\n3\n"), ("fr.txt", b"1\n2\n"), ("de.txt", b"1\n2\n3\n")]
    with pytest.raises(ParallelCorpusError,
                       match=r"fr\.txt ends after line 2 but en\.txt has 3 lines"):
        read_line_files(files)


def test_an_empty_line_inside_a_text_file_is_named():
    with pytest.raises(ParallelCorpusError, match=r"de\.txt, line 2 is empty"):
        read_line_files([("en.txt", b"a\nb\nc\n"), ("de.txt", b"a\n\nc\n")])


@pytest.mark.parametrize(
    "files, message",
    [
        ([], r"Choose a CSV/TSV table"),
        ([("en.txt", b"a\n")], r"at least two text files"),
        ([("p.csv", b"en,fr\na,b\n"), ("de.txt", b"a\n")], r"p\.csv is a table"),
        ([("en.txt", b"a\n"), ("english.txt", b"b\n")], r"same language \(en\)"),
    ],
)
def test_bad_uploads(files, message):
    with pytest.raises(ParallelCorpusError, match=message):
        read_parallel_upload(files)


def test_read_upload_takes_a_lone_table():
    assert read_parallel_upload([("p.tsv", b"en\tfr\na\tb\n")]).codes == ("en", "fr")


def test_long_uploads_keep_the_first_sentences():
    n = parallel.MAX_SENTENCES + 7
    data = "en,fr\n" + "".join(f"s{i},p{i}\n" for i in range(n))
    corpus = read_table("long.csv", data.encode())
    assert corpus.n_sentences == parallel.MAX_SENTENCES and corpus.dropped == 7
    assert corpus.sentences("fr")[-1] == f"p{parallel.MAX_SENTENCES - 1}"


def test_digest_follows_content():
    a = read_table("a.csv", b"en,fr\nx,y\n")
    assert a.digest == read_table("b.csv", b"en,fr\nx,y\n").digest
    assert a.digest != read_table("a.csv", b"en,fr\nx,z\n").digest
    # One sentence holding \x01 is not the two sentences around it.
    assert (read_table("a.tsv", b"en\tfr\na\x01b\tc\x01d\n").digest
            != read_table("a.tsv", b"en\tfr\na\tc\nb\td\n").digest)


def test_identify():
    assert identify(" Spanish ").code == "es"
    assert identify("ko").spaces is True and identify("ja").spaces is False


def test_a_tag_naming_a_script_takes_the_script_and_spacing_from_the_text():
    # Romanized Hindi and Japanese were drawn and listed as Devanagari and Japanese (and
    # romaji given no tokens per word), the usual script of their language.
    corpus = read_table("roman.csv", "hi-Latn,ja-Latn,zh-Hant\nMain ghar ja raha hoon.,"
                                     "Watashi wa gakusei desu.,我是學生。\n".encode())
    assert [(lang.label, lang.script, lang.spaces) for lang in corpus.languages] == [
        ("Hindi (Latin)", "Latin", True),
        ("Japanese (Latin) — 日本語 (ラテン文字)", "Latin", True),
        ("Chinese (Traditional) — 中文（繁體）", "Han", False)]


# --- measurements --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus():
    return parallel_sample()


@pytest.fixture(scope="module")
def english_byte():
    return bpe_core.train(["The weather was cold this morning, so I wore a warm coat. " * 3,
                           "We walked to the market and bought bread, apples and cheese."],
                          unit="byte", pretokenizer="gpt2", max_merges=60, min_frequency=2)


@pytest.fixture(scope="module")
def balanced(corpus):
    return bpe_core.train([s for col in corpus.columns for s in col], 900, unit="byte",
                          pretokenizer="gpt2", min_frequency=2)


def test_counts_are_bpe_cores(corpus, english_byte):
    counts = premium.count_tokens(english_byte, corpus)
    for code in corpus.codes:
        sentences = corpus.sentences(code)
        assert counts.tokens[code] == tuple(len(english_byte.encode(s)) for s in sentences)
        assert counts.used[code] == {i for s in sentences for i in english_byte.encode(s)}


def test_measure_exact_ratios(corpus, english_byte):
    counts = premium.count_tokens(english_byte, corpus)
    rows = {r.code: r for r in premium.measure(corpus, counts, baseline="en")}
    assert rows["en"].premium == 1.0
    for code, row in rows.items():
        sentences = corpus.sentences(code)
        tokens = sum(len(english_byte.encode(s)) for s in sentences)
        assert row.tokens == tokens
        assert row.premium == tokens / rows["en"].tokens
        assert row.chars_per_token == sum(map(len, sentences)) / tokens
        assert row.bytes_per_token == sum(len(s.encode()) for s in sentences) / tokens
        if corpus.language(code).spaces:
            assert row.tokens_per_word == tokens / sum(len(s.split()) for s in sentences)
        else:
            assert row.tokens_per_word is None
    # Another baseline: its premium is exactly 1 and English's the inverse ratio.
    rows = {r.code: r for r in premium.measure(corpus, counts, baseline="hi")}
    assert rows["hi"].premium == 1.0 and rows["en"].premium == rows["en"].tokens / rows["hi"].tokens


def test_byte_fallback_matches_partial_spans(corpus, english_byte, balanced):
    for tok in (english_byte, balanced):
        counts = premium.count_tokens(tok, corpus)
        for code in corpus.codes:
            partial = sum(span.partial for s in corpus.sentences(code) for span in tok.spans(s))
            assert counts.fallback[code] == partial
    # The English tokenizer has no whole Thai character: every token of Thai bytes is a fallback.
    counts = premium.count_tokens(english_byte, corpus)
    thai = sum(1 for s in corpus.sentences("th") for i in english_byte.encode(s)
               if min(english_byte.token_bytes(i)) >= 0x80)
    assert counts.fallback["th"] == thai > 0.9 * counts.total("th")
    assert counts.fallback["en"] == 0


def test_char_level_fallback_counts_unk_and_bytes():
    corpus = read_table("p.tsv", "en\tel\nabc\tαβγ a\n".encode())
    unk = bpe_core.train(["abc a b c"], unit="char", pretokenizer="whitespace", max_merges=0)
    counts = premium.count_tokens(unk, corpus)
    assert counts.fallback == {"en": 0, "el": 3}  # α, β, γ are [UNK]; the "a" is known
    fallback = bpe_core.train(["abc a b c"], unit="char", pretokenizer="whitespace",
                              max_merges=0, byte_fallback=True)
    assert premium.count_tokens(fallback, corpus).fallback == {"en": 0, "el": 6}  # 2 bytes each


def test_sentence_premiums(corpus, english_byte):
    counts = premium.count_tokens(english_byte, corpus)
    per = premium.sentence_premiums(counts, baseline="en")
    assert per["en"] == [1.0] * corpus.n_sentences
    assert per["ja"][3] == counts.tokens["ja"][3] / counts.tokens["en"][3]


def test_premium_curve_has_one_point_per_merge_count(corpus, balanced):
    ks = [0, 10, 100, len(balanced.merges)]
    curve = premium.premium_curve(balanced, corpus, baseline="en", merge_counts=ks)
    assert all(len(points) == len(ks) for points in curve.values())
    assert curve["en"] == [1.0] * len(ks)
    # With no merges a byte-level tokenizer spends one token per byte: the premium is bytes.
    en_bytes = sum(len(s.encode()) for s in corpus.sentences("en"))
    my_bytes = sum(len(s.encode()) for s in corpus.sentences("my"))
    assert curve["my"][0] == my_bytes / en_bytes
    # With every merge it is the full tokenizer's premium.
    rows = {r.code: r for r in premium.measure(corpus, premium.count_tokens(balanced, corpus),
                                               baseline="en")}
    assert curve["my"][-1] == rows["my"].premium


def test_merge_count_ladder():
    assert premium.merge_count_ladder(0) == [0]
    assert premium.merge_count_ladder(10) == [0, 10]
    assert premium.merge_count_ladder(35) == [0, 10, 20, 35]
    assert premium.merge_count_ladder(100_000)[-3:] == [20_000, 50_000, 100_000]


def test_the_writing_systems_of_the_bare_byte_alphabet():
    tok = bpe_core.train(["x"], unit="byte", max_merges=0)
    # 52 ASCII letters; the other 76 ASCII bytes as the Vocabulary page groups them (the
    # Languages page's donut called them all "Common"); 128 bytes that only ever occur inside a
    # multi-byte character (its "byte fragments"). Scripts first, then the rest in the table's
    # order.
    assert list(tokens_per_system(tok).items()) == [
        ("Latin", 52), (DIGITS, 10), (SYMBOLS, 56), (WHITESPACE, 10), (PARTIAL, 128)]


def test_the_writing_systems_sum_to_the_vocabulary_as_its_rows_say(balanced):
    systems = tokens_per_system(balanced)
    assert sum(systems.values()) == balanced.vocab_size
    assert {"Latin", "Cyrillic", "Devanagari", "Myanmar", "Hangul"} <= set(systems)
    assert systems == Counter(row.script for row in vocabulary(balanced))


def test_a_byte_fallback_token_is_one_on_both_pages():
    # The donut called <0xC3> a "byte fragment", the Vocabulary page "Byte fallback".
    tok = bpe_core.train(["hug pug"], unit="char", byte_fallback=True, max_merges=1,
                         min_frequency=1, special_tokens=["<s>"])
    systems = tokens_per_system(tok)
    assert systems[BYTE_FALLBACK] == 256 and systems[SPECIAL] == 1
    assert "byte fragments" not in systems and "markers" not in systems


def test_vocabulary_use_counts_exclusive_entries(corpus, balanced):
    counts = premium.count_tokens(balanced, corpus)
    use = premium.vocabulary_use(counts.used)
    for code, (used, only) in use.items():
        others = set().union(*(ids for c, ids in counts.used.items() if c != code))
        assert used == len(counts.used[code]) and only == len(counts.used[code] - others)


def test_a_quote_never_closed_in_the_last_column_is_refused_not_read_as_the_rows_after_it():
    # Read loosely, the last column's open quote took in every row after it as one French
    # sentence ('Bonjour\nBye,Au revoir\n...'): one sentence pair where there were three.
    data = 'en,fr\nHello,"Bonjour\nBye,Au revoir\nYes,Oui\n'.encode()
    with pytest.raises(ParallelCorpusError) as err:
        read_table("pairs.csv", data)
    assert str(err.value).startswith(
        "pairs.csv: lines 2 to 4: a double quote opens a text that is never closed")
    # And a quote closed before the end of its cell no longer loses its quotes silently.
    with pytest.raises(ParallelCorpusError, match="goes on after its closing quote"):
        read_table("pairs.csv", b'en,fr\n"Quoted," she said,"Cite," dit-elle\n')
    assert read_table("pairs.csv", b'en,fr\n"She said ""hi""","Elle a dit ""salut"""\n'
                      ).sentences("fr") == ('Elle a dit "salut"',)
