"""The textbook BPE training loop, written for clarity rather than speed.

After every merge it recounts all adjacent pairs from scratch, over every word weighted by its
count, exactly as the textbooks (Jurafsky & Martin's token learner), minbpe and tiktoken's
``_educational.py`` describe. It is the oracle the fast trainer is tested against.

>>> merges = reference_train({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5},
...                          unit="char", pretokenizer="whitespace", max_merges=2, min_frequency=1)
>>> merges  # ids: [UNK]=0, then b g h n p s u = 1..7
[(7, 2, 20), (7, 4, 16)]
"""

from __future__ import annotations

from collections import Counter

from ..alphabet import base_for
from ..decoders import fallback_byte
from ..encoders import merge_pair
from ..end_of_word import MARKER, without_marker
from ..presets import resolve
from ..recipes import base_strings


def count_pairs(words: list[list[int]], counts: list[int]) -> Counter:
    """Every adjacent pair, weighted by the word's count, in order of first occurrence."""
    pairs: Counter = Counter()
    for w, c in zip(words, counts):
        for pair in zip(w, w[1:]):
            pairs[pair] += c
    return pairs


def reference_train(word_counts: dict[str, int], *, unit: str = "byte", pretokenizer: str = "gpt2",
                    tie_break: str = "first", min_frequency: int = 2,
                    max_merges: int | None = None, byte_fallback: bool = False
                    ) -> list[tuple[int, int, int]]:
    """Train on pre-counted words; return the merges as ``(left_id, right_id, count)``.

    ``word_counts`` must already be pre-tokenized pieces (as ``count_words`` gives them). Token
    ids are those of :func:`bpe_core.train` on the same words: base symbols first, then one new
    id per merge.
    """
    preset, _ = resolve(pretokenizer)
    if preset == "end-of-word" and unit == "char":
        word_counts = without_marker(word_counts)
    base = base_for(word_counts, unit=unit, end_of_word=preset == "end-of-word",
                    byte_fallback=byte_fallback)
    # The corpus as Sennrich et al.'s loop holds it: each distinct word once, with its count,
    # in order of first appearance (what the "first" tie rule needs). Every occurrence on its
    # own gives the same counts and the same first-occurrence order, at the counts' sum in
    # time: a word seen 1,000 times was recounted 1,000 times after each merge.
    words = [base.symbols(w) for w in word_counts]
    counts = list(word_counts.values())
    shown = base_strings(base)  # each token as the model writes it
    merges: list[tuple[int, int, int]] = []
    while max_merges is None or len(merges) < max_merges:
        pairs = count_pairs(words, counts)
        if byte_fallback:  # no token spelled as a byte's own ("<0x41>", </w> or not): see train()
            pairs = Counter({p: n for p, n in pairs.items() if fallback_byte(
                (shown[p[0]] + shown[p[1]]).removesuffix(MARKER)) is None})
        if not pairs:
            break
        if tie_break == "first":
            # max() keeps the first of equal counts, and the Counter is in first-occurrence order.
            best = max(pairs, key=pairs.get)
        else:
            best = min(pairs, key=lambda p: (-pairs[p], p))
        if pairs[best] < min_frequency:
            break
        new = len(base) + len(merges)
        words = [merge_pair(w, best, new) for w in words]
        merges.append((best[0], best[1], pairs[best]))
        shown.append(shown[best[0]] + shown[best[1]])
    return merges
