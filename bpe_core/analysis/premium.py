"""The tokenization premium (Petrov et al. 2023) and friends, measured on a parallel corpus.

A language's premium is the tokens its sentences need divided by the tokens the baseline
language needs for the same sentences: English 1.0, and 2.0 for a language that costs twice as
many tokens, so twice the price, half the context and twice the latency.

>>> from bpe_core import train
>>> from bpe_core.analysis.parallel import read_table
>>> corpus = read_table("p.tsv", "en\\tru\\nthe cat\\tкот\\n".encode())
>>> tok = train(["the cat the cat"], unit="byte", max_merges=5, min_frequency=1)
>>> counts = count_tokens(tok, corpus)
>>> counts.tokens, counts.fallback
({'en': (2,), 'ru': (6,)}, {'en': 0, 'ru': 6})
>>> [(row.code, row.premium) for row in measure(corpus, counts, baseline="en")]
[('en', 1.0), ('ru', 3.0)]
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..tokenizer import Tokenizer
from .parallel import ParallelCorpus


@dataclass(frozen=True)
class Counts:
    """One tokenizer on one parallel corpus, per language code."""

    tokens: dict[str, tuple[int, ...]]  # tokens of each sentence
    fallback: dict[str, int]  # [UNK] / byte-fallback tokens, summed over the sentences
    used: dict[str, frozenset[int]]  # the vocabulary entries the sentences use

    def total(self, code: str) -> int:
        return sum(self.tokens[code])


@dataclass(frozen=True)
class LanguageRow:
    """The measurements of one language with one tokenizer."""

    code: str
    name: str  # English and native: "Japanese — 日本語"
    script: str
    sentences: int
    tokens: int
    premium: float  # tokens / the baseline's tokens
    chars_per_token: float
    bytes_per_token: float
    tokens_per_word: float | None  # None where words are not separated by spaces
    fallback_share: float  # share of tokens that are [UNK] or byte fallback


def fallback_tokens(tok: Tokenizer, ids: Sequence[int]) -> int:
    """How many of ``ids`` stand in for text the vocabulary cannot spell whole.

    Not byte-level: ``[UNK]`` and the fallback bytes ``<0xNN>``. Byte-level: tokens holding only part of
    a character (``TokenSpan.partial`` in ``tok.spans``), i.e. the vocabulary had no entry for
    the character and fell back on its bytes. A token is partial when it, or the token after
    it, starts inside a character (with a UTF-8 continuation byte, 0b10xxxxxx); reading that
    off the ids is some fifty times faster than building spans.

    >>> from bpe_core import train
    >>> tok = train(["ab"], unit="byte", max_merges=0)
    >>> fallback_tokens(tok, tok.encode("aé"))  # 'a', then the two bytes of 'é'
    2
    """
    if not tok.view.byte_level:
        return sum(1 for i in ids if tok.kind(i) in ("unk", "byte"))
    firsts = [b[0] for b in map(tok.token_bytes, ids) if b]  # </w> covers no bytes: skip it
    inside = [0x80 <= b < 0xC0 for b in firsts] + [False]
    return sum(1 for k in range(len(firsts)) if inside[k] or inside[k + 1])


def count_tokens(tok: Tokenizer, corpus: ParallelCorpus, *,
                 progress: Callable[[int], object] | None = None) -> Counts:
    """Encode every sentence of every language once; special-token strings count as text.
    ``progress(k)`` hears when the first ``k`` languages are done."""
    tokens, fallback, used = {}, {}, {}
    for k, code in enumerate(corpus.codes):
        if progress is not None:
            progress(k)
        per_sentence, n_fallback, seen = [], 0, set()
        for sentence in corpus.sentences(code):
            ids = tok.encode(sentence, split_special_tokens=True)
            per_sentence.append(len(ids))
            n_fallback += fallback_tokens(tok, ids)
            seen.update(ids)
        tokens[code], fallback[code], used[code] = tuple(per_sentence), n_fallback, frozenset(seen)
    return Counts(tokens, fallback, used)


def measure(corpus: ParallelCorpus, counts: Counts, *, baseline: str) -> list[LanguageRow]:
    """A row per language, in the corpus's order; the baseline's premium is exactly 1."""
    base = counts.total(baseline)
    rows = []
    for lang, sentences in zip(corpus.languages, corpus.columns):
        n = counts.total(lang.code)
        chars = sum(len(s) for s in sentences)
        utf8 = sum(len(s.encode("utf-8", "surrogatepass")) for s in sentences)
        words = sum(len(s.split()) for s in sentences) if lang.spaces else 0
        rows.append(LanguageRow(
            lang.code, lang.label, lang.script, len(sentences), n, n / base if base else math.nan,
            chars / n if n else math.nan, utf8 / n if n else math.nan,
            n / words if words else None, counts.fallback[lang.code] / n if n else 0.0))
    return rows


def sentence_premiums(counts: Counts, *, baseline: str) -> dict[str, list[float]]:
    """Per sentence: its tokens divided by the baseline sentence's tokens."""
    base = counts.tokens[baseline]
    return {code: [n / b if b else math.nan for n, b in zip(per, base)]
            for code, per in counts.tokens.items()}


def merge_count_ladder(n_merges: int) -> list[int]:
    """Round merge counts from 0 up to ``n_merges`` (always included): 0, 10, 20, 50, 100…

    >>> merge_count_ladder(1744)
    [0, 10, 20, 50, 100, 200, 500, 1000, 1744]
    """
    ladder, step = [0], 10
    while step < n_merges:
        ladder.extend(k for k in (step, 2 * step, 5 * step) if k < n_merges)
        step *= 10
    return ladder + [n_merges] if n_merges else ladder


def premium_curve(tok: Tokenizer, corpus: ParallelCorpus, *, baseline: str,
                  merge_counts: Iterable[int],
                  progress: Callable[[int], object] | None = None) -> dict[str, list[float]]:
    """Each language's premium when only the first k merges are used, for each k given.

    No retraining: ``encode(upto=k)`` is the segmentation training had reached after k merges.
    ``progress(i)`` hears when the first ``i`` merge counts are done.
    """
    curve: dict[str, list[float]] = {code: [] for code in corpus.codes}
    for i, k in enumerate(merge_counts):
        if progress is not None:
            progress(i)
        totals = {code: sum(len(tok.encode(s, upto=k, split_special_tokens=True))
                            for s in corpus.sentences(code)) for code in corpus.codes}
        for code, n in totals.items():
            curve[code].append(n / totals[baseline] if totals[baseline] else math.nan)
    return curve


def vocabulary_sizes(tok: Tokenizer, merge_counts: Iterable[int]) -> list[int]:
    """The vocabulary each merge count reaches: the base symbols and the tokens the first k
    merges make. Not ``n_base + k``: a file converted from SentencePiece makes some tokens by
    several merges (Llama 2's 58,980 merges make 28,446 tokens; Llama 3's 280,147, 127,744).

    >>> from bpe_core import train
    >>> tok = train(["abab"], unit="byte", max_merges=2, min_frequency=1)
    >>> vocabulary_sizes(tok, [2, 0, 1])
    [258, 256, 257]
    """
    merge_counts = list(merge_counts)
    made, seen, r = {}, set(), 0
    for k in sorted(set(merge_counts)):
        seen.update(tok.merges.result[r:k])
        r = k
        made[k] = len(seen)
    return [tok.n_base + made[k] for k in merge_counts]


def vocabulary_use(used: dict[str, frozenset[int]]) -> dict[str, tuple[int, int]]:
    """Per language: (vocabulary entries its sentences use, how many of those no other uses).

    >>> vocabulary_use({"en": frozenset({1, 2, 3}), "fr": frozenset({2, 3, 4, 5})})
    {'en': (3, 1), 'fr': (4, 2)}
    """
    seen = Counter(i for ids in used.values() for i in ids)
    return {code: (len(ids), sum(1 for i in ids if seen[i] == 1)) for code, ids in used.items()}

