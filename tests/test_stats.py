"""Corpus statistics, exact on small corpora."""

from __future__ import annotations

from collections import Counter

import pytest

from bpe_core.analysis import stats
from bpe_core.analysis import upload_text as corpus
from bpe_core.analysis.stats import CorpusStats, corpus_stats
from bpe_core.analysis.uploads import iter_upload
from bpe_core.presets import PRESETS, PatternError, split
from bpe_core.training import counting

TEXT = "the cat and the hat\nthe end\n"


def test_exact_stats_of_a_small_text():
    assert corpus_stats([TEXT]) == CorpusStats(
        bytes=28,
        characters=28,
        lines=2,
        words=7,
        unique_words=5,
        top_words=[("the", 3), ("cat", 1), ("and", 1), ("hat", 1), ("end", 1)],
        scripts={"Latin": 21, "Common": 7},
        preview=TEXT,
    )


def test_top_limits_the_list_and_ties_go_by_first_appearance():
    result = corpus_stats(["b a c a b d"], top=3)
    assert result.top_words == [("b", 2), ("a", 2), ("c", 1)]


def test_documents_cut_after_newlines_count_like_one_text(monkeypatch):
    monkeypatch.setattr(corpus, "CHUNK_SIZE", 8)
    text = TEXT * 5 + "last line without newline"
    chunks = list(iter_upload("t.txt", text.encode()))
    assert len(chunks) > 5
    assert corpus_stats(iter(chunks)) == corpus_stats([text])
    assert corpus_stats([text]).lines == 11


def test_each_table_cell_is_its_own_line_and_preview_separates_them():
    result = corpus_stats(["first review", "", "second\nreview"], preview_chars=20)
    assert (result.lines, result.words, result.characters) == (3, 4, 25)
    assert result.preview == "first review\nsecond\n"


def test_bytes_are_utf8_and_scripts_cover_every_character():
    result = corpus_stats(["Мир 👋", "东京"], pretokenizer="whitespace")
    assert result.bytes == len("Мир 👋".encode()) + len("东京".encode()) == 17
    assert result.characters == 7
    assert result.scripts == {"Cyrillic": 3, "Common": 2, "Han": 2}


@pytest.mark.parametrize(
    "pretokenizer, top",
    [
        ("whitespace", [("the", 3), ("cat", 1)]),
        ("gpt2", [("the", 2), ("\n", 2)]),
        ("space-prefix", [("the", 2), ("\n", 2)]),
        (r"\w", [("t", 5), ("h", 4)]),
    ],
)
def test_words_follow_the_pretokenizer(pretokenizer, top):
    assert corpus_stats([TEXT], pretokenizer=pretokenizer, top=2).top_words == top


def test_gpt2_pieces_are_counted_exactly():
    result = corpus_stats(["Hello world's 123"], pretokenizer="gpt2")
    assert (result.words, result.unique_words) == (4, 4)


def test_bad_custom_regex_fails_before_reading():
    def documents():
        raise AssertionError("must not be read")
        yield ""

    with pytest.raises(PatternError, match="invalid pre-tokenizer regex"):
        corpus_stats(documents(), pretokenizer="(unclosed")


def test_empty_corpus():
    result = corpus_stats([])
    assert result == CorpusStats(0, 0, 0, 0, 0, [], {}, "")


def test_progress_reports_bytes_read(monkeypatch):
    monkeypatch.setattr(stats, "PROGRESS_EVERY", 10)
    seen: list[tuple[int, int]] = []
    corpus_stats(("abcdé" for _ in range(5)), progress=lambda *read: seen.append(read))
    assert seen == [(12, 10), (24, 20), (30, 25)]


@pytest.mark.parametrize("pretokenizer", ["whitespace", "gpt2", "o200k", "none"])
def test_a_long_document_counts_as_the_whole_text(pretokenizer, monkeypatch):
    # One uploaded file is one document, however long: it is read in parts, cut where no
    # piece is split, so its pieces are exactly those of the whole text. Parts of 16 K
    # characters, not 256 K: a tenth of the text (100 KB) is cut in seven parts, not four.
    monkeypatch.setattr(counting, "CHUNK_CHARS", 1 << 14)
    lines = [f"line {i}: naïve café,  done\n\n" if i % 3 else f"{i}   spaced  \n"
             for i in range(4_000)]
    text = "".join(lines)
    assert len(list(counting.text_parts(text, PRESETS["gpt2"]))) == 7
    whole = corpus_stats([text], pretokenizer=pretokenizer, top=50)
    pieces = Counter(split(text, pretokenizer))
    assert (whole.words, whole.unique_words) == (pieces.total(), len(pieces))
    assert whole.top_words == pieces.most_common(50)
    by_lines = corpus_stats(lines, pretokenizer=pretokenizer, top=50)
    assert (whole.bytes, whole.characters, whole.lines, whole.scripts, whole.preview) == (
        by_lines.bytes, by_lines.characters, by_lines.lines, by_lines.scripts, by_lines.preview)
    assert whole.lines == 4_000 + len([i for i in range(4_000) if i % 3])


def test_progress_is_reported_within_one_long_document():
    seen = []
    corpus_stats(["word " * 600_000], progress=lambda *read: seen.append(read))  # 3 MB
    assert len(seen) >= 3 and seen == sorted(seen) and seen[-1] == (3_000_000, 3_000_000)
