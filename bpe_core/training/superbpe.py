"""SuperBPE (Liu et al. 2025, "SuperBPE: Space Travel for Language Models"): subwords first,
then *superwords* that cross spaces.

Stage 1 is ordinary byte-level BPE with a whitespace-aware pre-tokenizer, up to the
``transition`` vocabulary size. Stage 2 goes on from there over larger pieces: words joined by
single spaces, so tokens such as " of the" can form. As in the paper's trainer, a stage-2 token
holds at most four words and never a colon followed by a space ("Answer: yes" stays two tokens
at least). Newlines, other whitespace and runs of three or more punctuation marks still separate
pieces here (this module's own guard against tokens that run across lines or separators; the
paper's trainer splits stage 2's text at digits only).

>>> text = "the cat sat on the mat\\nthe dog sat on the log\\n" * 5
>>> tok = train_superbpe(text, 275, transition=270)
>>> tok.config["transition"], tok.config["stage1_merges"], len(tok.merges)
(270, 14, 19)
>>> [m.token for m in tok.merges[14:]]  # stage 2 starts at rank 14; never five words
[' sat on', ' sat on the', 'the cat', ' sat on the mat', 'the d']
>>> [tok.display(i) for i in tok.encode("the dog sat on the mat")]
['the d', 'og', ' sat on the mat']
>>> report = stage_report(tok, "the dog sat on the mat")
>>> report.stage1_tokens, report.tokens
(7, 3)

Encoding with the final tokenizer reproduces training's segmentation: its pattern yields stage 2's
pieces, and in each piece rank priority applies every stage-1 merge (all ranked before stage 2)
before any stage-2 merge, exactly as stage 2's training words were made. Stage 2's words are its
pieces with stage 1's merges applied over the whole piece, as in the paper's implementation; in
rare cases a stage-1 token then spans the seam of two stage-1 pieces (a cl100k token "(w" in
"((word", whose stage-1 pieces are "((" and "word").
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterator, Mapping

from .. import recipes
from ..alphabet import byte_base
from ..presets import PRESETS, resolve
from ..tokenizer import Tokenizer
from .counting import Corpus, count_words
from .trainer import MergeStep, Trainer, special_token_tuple, train

#: A piece of stage 2: chunks of non-space characters joined by single spaces, where a chunk
#: stops before a run of three or more punctuation marks.
_CHUNK = r"(?:(?![^\s\p{L}\p{N}]{3})\S)+"
SUPERWORD = rf" ?{_CHUNK}(?: {_CHUNK})*"
_WHITESPACE_DROPPING = ("whitespace", "end-of-word", "none")
# Stage 2 trains on stage-1 token sequences written as strings, one character per token id.
_SYMBOL_BASE = 0xE000


def superword_pattern(stage1_pattern: str) -> str:
    """Stage 2's pre-tokenizer: superword pieces where they match, stage 1's pieces elsewhere.

    >>> from bpe_core.presets import compile_pattern
    >>> compile_pattern(superword_pattern(PRESETS["gpt2"])).findall("in the end...\\nor not")
    ['in the end', '...', '\\n', 'or not']
    """
    return f"{SUPERWORD}|{stage1_pattern}"


#: The most words (runs of bytes between spaces) a stage-2 token may hold, as in the paper's
#: trainer (alisawuffles/tokenizers-superbpe: "limit to 4-word tokens").
MAX_WORDS = 4
#: The SuperBPE paper's main models switch at 180k of a 200k vocabulary: 90 %.
TRANSITION_RATIO = 0.9
#: How many of stage 2's pieces are read between two progress reports.
PIECES_PER_REPORT = 2_000


def default_transition(vocab_size: int, *, special_tokens: int = 0) -> int:
    """The transition point for ``vocab_size``: the paper's ratio, and never below the bytes
    and special tokens.

    >>> default_transition(1000), default_transition(200_000), default_transition(260)
    (900, 180000, 256)
    """
    return max(256 + special_tokens, int(vocab_size * TRANSITION_RATIO))


def train_superbpe(corpus: Corpus, vocab_size: int, *, transition: int,
                   pretokenizer: str = "gpt2", min_frequency: int = 2, tie_break: str = "first",
                   special_tokens=(), processes: int | None = None,
                   name: str = "superbpe") -> Tokenizer:
    """Train a byte-level SuperBPE tokenizer of ``vocab_size`` tokens.

    ``transition`` is the vocabulary size (base bytes, stage-1 merges and special tokens) at which
    stage 2 starts; ``tok.config`` records it and ``stage1_merges``, the number of merges that
    belong to stage 1 (ranks below it).
    """
    if not isinstance(corpus, (str, os.PathLike, Mapping)):
        corpus = list(corpus)  # read twice, once per stage
    specials = special_token_tuple(special_tokens)
    _check(corpus, vocab_size, transition, pretokenizer, specials)
    stage1 = train(corpus, transition, unit="byte", pretokenizer=pretokenizer,
                   min_frequency=min_frequency, tie_break=tie_break, special_tokens=specials,
                   processes=processes, name=name)
    stage2 = Stage2(corpus, stage1, vocab_size, transition=transition, pretokenizer=pretokenizer,
                    min_frequency=min_frequency, tie_break=tie_break, processes=processes,
                    name=name)
    for _ in stage2.read():
        pass
    return stage2.fit()


def _check(corpus: Corpus, vocab_size: int, transition: int, pretokenizer: str,
           specials: tuple[str, ...]) -> None:
    if resolve(pretokenizer)[0] in _WHITESPACE_DROPPING:
        raise ValueError(f"SuperBPE needs a stage-1 pre-tokenizer that keeps the spaces and "
                         f"splits at them, such as gpt2, cl100k or o200k; not "
                         f"{resolve(pretokenizer)[0]!r}")
    if isinstance(corpus, Mapping):
        raise TypeError("SuperBPE needs running text (a str, a path, or documents), not word "
                        "counts: stage 2 learns which words follow each other")
    if not 256 + len(specials) <= transition <= vocab_size:
        raise ValueError(f"transition must lie between {256 + len(specials)} (the bytes and "
                         f"special tokens) and vocab_size ({vocab_size}); got {transition}")


class Stage2:
    """SuperBPE's stage 2 from a finished stage 1, in steps a page can show progress between.

    ``read()`` reads the corpus as stage 2's words, reporting ``(pieces done, pieces)`` as it
    goes; then either ``fit()`` trains to the end, or ``run()`` yields one ``MergeStep`` per
    merge (``target`` of them at most) and ``tokenizer()`` gives the result. ``stage1`` must be
    byte-level BPE trained on ``corpus`` with ``pretokenizer`` and the transition's vocabulary.

    >>> text = "the cat sat on the mat\\nthe dog sat on the log\\n" * 5
    >>> one = train(text, 270, unit="byte", min_frequency=2)
    >>> two = Stage2(text, one, 275, transition=270)
    >>> list(two.read()), two.target
    ([(0, 3), (3, 3)], 5)
    >>> [s.rank for s in two.run()], two.tokenizer().config["stage1_merges"]
    ([0, 1, 2, 3, 4], 14)
    """

    def __init__(self, corpus: Corpus, stage1: Tokenizer, vocab_size: int, *, transition: int,
                 pretokenizer: str = "gpt2", min_frequency: int = 2, tie_break: str = "first",
                 processes: int | None = None, name: str = "superbpe"):
        specials = tuple(stage1.special_tokens)
        _check(corpus, vocab_size, transition, pretokenizer, specials)
        self.corpus, self.stage1, self.specials = corpus, stage1, specials
        self.preset, self.stage1_pattern = resolve(pretokenizer)
        self.vocab_size, self.transition, self.processes, self.name = (
            vocab_size, transition, processes, name)
        self.min_frequency, self.tie_break = min_frequency, tie_break
        # The merges left to the asked size from where stage 1 stopped: short of the transition
        # when its pairs ran out, stage 2 still aims at vocab_size (a fixed vocab_size -
        # transition left the vocabulary short, and said it had reached its size).
        self.target = vocab_size - stage1.vocab_size
        self.words: dict[str, int] | None = None
        self.trainer = Trainer(max_merges=self.target, unit="char", pretokenizer="whitespace",
                               min_frequency=min_frequency, tie_break=tie_break, max_ties=0,
                               allow=self._allowed)

    def _allowed(self, symbols: bytes) -> bool:
        """Whether stage 2 may make a token of these stage-1 tokens (each one of its symbols,
        in UTF-8): as the paper's trainer, no token of more than MAX_WORDS words, and none
        holding a colon and then a space."""
        data = b"".join(self.stage1.token_bytes(ord(c) - _SYMBOL_BASE)
                        for c in symbols.decode("utf-8"))
        return b": " not in data and len(list(filter(None, data.split(b" ")))) <= MAX_WORDS

    def read(self) -> Iterator[tuple[int, int]]:
        """Count stage 2's pieces and write each as stage-1 tokens: the slow part on a big
        corpus (every distinct piece is encoded), so it reports ``(done, pieces)`` now and then.
        """
        pattern = superword_pattern(self.stage1_pattern)
        # Stage 2's words are its pieces with stage 1's merges applied over each whole piece:
        # what encode does with them too, so training and encoding see the same starting point.
        whole = recipes.build(byte_base(), _pairs(self.stage1.merges), pattern=PRESETS["none"],
                              preset="none")
        pieces = count_words(self.corpus, pattern, special_tokens=self.specials,
                             processes=self.processes)
        words: dict[str, int] = {}
        for done, (piece, n) in enumerate(pieces.items()):
            if done % PIECES_PER_REPORT == 0:
                yield done, len(pieces)
            key = "".join(chr(_SYMBOL_BASE + i) for i in whole.encode(piece))
            words[key] = words.get(key, 0) + n
        self.words = words
        yield len(pieces), len(pieces)

    def run(self) -> Iterator[MergeStep]:
        """Stage 2's merges one by one (after ``read``); ``tokenizer()`` is then the result."""
        return self.trainer.run(self._words())

    def fit(self) -> Tokenizer:
        """Train stage 2 to the end (after ``read``) and return the SuperBPE tokenizer."""
        return self._combined(self.trainer.fit(self._words()))

    def tokenizer(self) -> Tokenizer:
        """The SuperBPE tokenizer with the stage-2 merges made so far."""
        return self._combined(self.trainer.tokenizer)

    def _words(self) -> dict[str, int]:
        if self.words is None:
            raise RuntimeError("read() the corpus first")
        return self.words

    def _combined(self, stage2: Tokenizer) -> Tokenizer:
        """Stage 1's merges, then stage 2's in the ids of the byte-level vocabulary."""
        n1 = len(self.stage1.merges)
        # Stage 2's own ids: [UNK], its symbols (one per stage-1 token id) by code point, then
        # its new tokens, which follow stage 1's merges.
        symbols = stage2.model.tokens[:len(stage2.model.tokens) - len(stage2.merges)]
        first_new = len(symbols)
        to_id = [0] + [ord(c) - _SYMBOL_BASE for c in symbols[1:]]

        def real(i: int) -> int:
            return to_id[i] if i < first_new else 256 + n1 + i - first_new

        pairs = _pairs(self.stage1.merges) + [(real(m.left_id), real(m.right_id), m.count)
                                              for m in stage2.merges]
        return recipes.build(
            byte_base(), pairs, pattern=superword_pattern(self.stage1_pattern), preset=None,
            special_tokens=self.specials, name=self.name, stop_reason=stage2.stop_reason,
            config={"method": "superbpe", "vocab_size": self.vocab_size,
                    "transition": self.transition, "stage1_merges": n1,
                    "stage1_pretokenizer": self.preset, "stage1_pattern": self.stage1_pattern,
                    "min_frequency": self.min_frequency, "tie_break": self.tie_break})


def _pairs(merges) -> list[tuple[int, int, int]]:
    return [(m.left_id, m.right_id, m.count) for m in merges]


def stage1(tok: Tokenizer) -> Tokenizer:
    """The ordinary BPE tokenizer a SuperBPE tokenizer was at its transition point."""
    if tok.config.get("method") != "superbpe":
        raise ValueError(f"{tok.name!r} was not trained with train_superbpe")
    return recipes.build(byte_base(), _pairs(tok.merges[:tok.config["stage1_merges"]]),
                         pattern=tok.config["stage1_pattern"],
                         preset=tok.config["stage1_pretokenizer"],
                         special_tokens=list(tok.special_tokens), name=f"{tok.name} (stage 1)")


@dataclass(frozen=True)
class StageReport:
    """Tokens for the same text before (stage 1) and after (stage 2) the transition."""

    bytes: int
    stage1_tokens: int
    tokens: int

    @property
    def stage1_bytes_per_token(self) -> float:
        return self.bytes / max(self.stage1_tokens, 1)

    @property
    def bytes_per_token(self) -> float:
        return self.bytes / max(self.tokens, 1)


def stage_report(tok: Tokenizer, text: str) -> StageReport:
    """Encode held-out ``text`` with the stage-1 tokenizer and with ``tok`` itself."""
    return StageReport(len(text.encode("utf-8")),
                       len(stage1(tok).encode(text, split_special_tokens=True)),
                       len(tok.encode(text, split_special_tokens=True)))
