"""A watched run once it has stopped, without its training state: what a replay needs.

While it trains, a :class:`~bpe_core.training.trainer.Trainer` keeps pair counts, the words
that hold each pair and a heap of candidates: far more than the run itself, and of no use once
it has stopped. A replay (the Train page stepping back and forth through the merges) needs only
the tokenizer, each training word's final segmentation, the word counts and the token
frequencies. That is small enough to send from a worker process to the page, which is why a
run trained in the background comes back as a record.

>>> from bpe_core.training.trainer import Trainer
>>> t = Trainer(max_merges=2, unit="char", pretokenizer="whitespace", min_frequency=1)
>>> _ = list(t.run("low lower"))
>>> record = t.record()
>>> record.stop_reason, [m.token for m in record.tokenizer.merges]
('max_merges', ['lo', 'low'])
>>> [[record.tokenizer.display(i) for i in w] for w in record.segmentation(1)]
[['lo', 'w'], ['lo', 'w', 'e', 'r']]
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain
from typing import Callable, Iterable, Sequence

from ..tokenizer import Tokenizer
from .refusals import why_refused


def rewind(words: Iterable[Sequence[int]], later: Iterable[tuple[int, int]],
           first_id: int) -> list[tuple[int, ...]]:
    """Each word's ids with the merges ``later`` undone: they are the ``(left id, right id)``
    of the merges that made ids ``first_id``, ``first_id + 1``, ... in that order.

    Every token a later merge made is split back into its two parts until all ids come before
    ``first_id``. That is exact, since a merge only ever joins two neighbours, and it costs the
    length of the result: re-encoding a 60 KB piece would cost its whole merge history.

    >>> rewind([(2, 3), (3,)], [(0, 1), (2, 0)], 2)  # 2 = 0+1, 3 = 2+0 = 0+1+0
    [(0, 1, 0, 1, 0), (0, 1, 0)]
    """
    # Token id -> its ids before first_id: itself for older tokens, its parts' for newer ones.
    parts: list[tuple[int, ...]] = [(i,) for i in range(first_id)]
    for a, b in later:
        parts.append(parts[a] + parts[b])
    get = parts.__getitem__
    return [tuple(chain.from_iterable(map(get, w))) for w in words]


@dataclass(frozen=True, eq=False)
class TrainingRecord:
    """A stopped watched run (see the module docstring): ``Trainer.record()`` makes one.

    It answers what a stopped :class:`Trainer` answers about its run: ``tokenizer``,
    ``stop_reason``, ``word_counts``, ``token_frequencies``, ``special_tokens``,
    ``segmentation(step)`` and ``refusal(left_id, right_id)``."""

    tokenizer: Tokenizer
    word_counts: dict[str, int]
    words: tuple[tuple[int, ...], ...]  # each word's ids after the last merge
    token_frequencies: dict[int, int]
    allow: Callable[[bytes], bool] | None = None  # the trainer's rule, if it had one

    def refusal(self, left_id: int, right_id: int) -> str | None:
        """Why the run never merged these two tokens, or None (``Trainer.refusal``)."""
        tok = self.tokenizer
        byte_fallback = tok.model.byte_fallback
        if not (byte_fallback or self.allow):
            return None
        # A token's bytes leave out </w>, as the trainer's do.
        return why_refused(tok.token_bytes(left_id) + tok.token_bytes(right_id),
                           byte_fallback=byte_fallback, allow=self.allow)

    @property
    def stop_reason(self) -> str | None:
        return self.tokenizer.stop_reason

    @property
    def special_tokens(self) -> tuple[str, ...]:
        return tuple(self.tokenizer.special_tokens)

    def segmentation(self, step: int) -> list[tuple[int, ...]]:
        """Each training word's token ids after the first ``step`` merges, in ``word_counts``
        order."""
        merges = self.tokenizer.merges
        step = max(0, min(int(step), len(merges)))
        later = ((m.left_id, m.right_id) for m in merges[step:])
        return rewind(self.words, later, self.tokenizer.n_base + step)
