"""The tokenizer: Hugging Face's pipeline, stage by stage.

    text -> added tokens split off -> normalizer -> pre-tokenizer -> model (BPE) -> ids
    ids -> decoder -> text;  post-processor: BOS/EOS around the ids, when asked for

Trained tokenizers (``bpe_core.train``) and loaded ones (``tokenizer.json``, ``.tiktoken``)
have this one shape. ``upto=k`` encodes with the first k merges only: the segmentation training
had reached after k steps.

>>> from bpe_core import train
>>> tok = train("low lower newest widest", unit="char", pretokenizer="end-of-word",
...             min_frequency=1, max_merges=3)
>>> [tok.display(i) for i in tok.encode("lowest")]
['low', 'es', 't', '</w>']
>>> [tok.display(i) for i in tok.encode("lowest", upto=1)]
['lo', 'w', 'e', 's', 't', '</w>']
>>> tok.decode(tok.encode("lower lowest"))
'lower lowest'
"""

from __future__ import annotations

import copy
import hashlib
import os
from dataclasses import dataclass, field
from typing import Any, Iterable, Literal

from . import encoders, encoding
from .added_vocabulary import AddedToken, AddedVocabulary
from .gc_pause import gc_paused
from .merges import Merge, MergeList
from .models import BPE
from .spans import TokenSpan, token_spans
from .vocab_view import VocabView
from .workers import worker_pool

#: How ``encode`` applies the merges: see ``bpe_core/encoders.py``.
EncodeMethod = Literal["rank", "merge-order", "longest-match"]

#: Below this many characters, ``encode_batch`` does not start worker processes.
_BATCH_PARALLEL_MIN_CHARS = 1 << 20


@dataclass(frozen=True)
class MergeTree:
    """How a token was built: its two parts, recursively, down to tokens no merge makes."""

    id: int
    token: str
    rank: int | None = None  # None for a token no merge makes
    count: int | None = None
    left: "MergeTree | None" = None
    right: "MergeTree | None" = None

    def leaves(self) -> list[str]:
        """The tokens it is made of, left to right."""
        if self.left is None:
            return [self.token]
        return self.left.leaves() + self.right.leaves()


@dataclass(frozen=True, eq=False)
class Tokenizer:
    """A BPE tokenizer: the stages of the pipeline, a name, and what training recorded.

    Never changed after it is built (tokenizers are shared between app sessions): derive a
    renamed copy with :meth:`renamed`.
    """

    model: BPE
    normalizer: Any = None
    pre_tokenizer: Any = None
    decoder: Any = None
    added_tokens: tuple[AddedToken, ...] = ()
    post_processor: Any = None
    name: str = "bpe"
    stop_reason: str | None = None
    config: dict = field(default_factory=dict, compare=False)
    # Derived once (see __post_init__): what the pages show of each token, the added
    # vocabulary, and the encoding plan with its piece caches.
    view: VocabView = field(init=False, repr=False, compare=False)
    added: AddedVocabulary = field(init=False, repr=False, compare=False)
    _plan: encoding.Plan = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        set_ = object.__setattr__  # frozen: the derived parts are set once, here
        set_(self, "added_tokens", tuple(self.added_tokens))
        set_(self, "config", dict(self.config))
        normalize = self.normalizer.normalize_str if self.normalizer is not None else None
        set_(self, "added", AddedVocabulary(self.added_tokens, normalize))
        set_(self, "view", VocabView(self.model, self.pre_tokenizer, self.decoder, self.added))
        set_(self, "_plan", encoding.Plan(self.model, self.normalizer, self.pre_tokenizer,
                                               self.added))

    def renamed(self, name: str) -> "Tokenizer":
        """The same tokenizer under another name; it shares everything else, caches included."""
        twin = copy.copy(self)
        object.__setattr__(twin, "name", name)
        return twin

    def __getstate__(self) -> dict:
        # Pickled (for encode_batch's workers, or a cache) without the derived parts.
        return {k: getattr(self, k) for k in ("model", "normalizer", "pre_tokenizer", "decoder",
                                              "added_tokens", "post_processor", "name",
                                              "stop_reason", "config")}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    def describe(self) -> str:
        """The pipeline in one line, stage by stage.

        >>> from bpe_core import train
        >>> train("hug", unit="byte", max_merges=0).describe()
        'pre-tokenizer Split(gpt2) + ByteLevel → BPE → decoder ByteLevel'
        """
        model = "BPE" + "".join(f", {label}" for label, on in (
            ("byte fallback", self.model.byte_fallback), ("ignore_merges", self.ignore_merges))
            if on)
        preset = self.config.get("pretokenizer")
        out = [f"normalizer {_names(self.normalizer)}" if self.normalizer else "",
               f"pre-tokenizer {_names(self.pre_tokenizer, preset)}" if self.pre_tokenizer else "",
               model, f"decoder {_names(self.decoder)}" if self.decoder else "",
               f"post-processor {_names(self.post_processor)}" if self.post_processor else ""]
        return " → ".join(p for p in out if p)

    def fingerprint(self) -> str:
        """A digest of everything that changes an encoding or what the pages show of it: every
        stage, the vocabulary, the merges and their counts, the added tokens (not the name).
        Equal for two tokenizers built alike, so it keys caches."""
        known = self.__dict__.get("_fingerprint")
        if known is None:
            h = hashlib.blake2b(digest_size=16)
            for part in (self.normalizer, self.pre_tokenizer, self.decoder, self.post_processor):
                h.update(repr(None if part is None else part.to_dict()).encode())
            h.update(repr([t.to_dict() for t in self.added_tokens]).encode())
            m = self.model
            h.update(repr((m.unk_token, m.fuse_unk, m.byte_fallback, m.continuing_subword_prefix,
                           m.end_of_word_suffix, m.ignore_merges)).encode())
            h.update("\x00".join("\x01" if t is None else t for t in m.tokens).encode(
                "utf-8", "surrogatepass"))
            for column in (m.merges.left, m.merges.right, m.merges.result, m.merges.count):
                h.update(column.tobytes())
            known = h.hexdigest()
            object.__setattr__(self, "_fingerprint", known)
        return known

    def __repr__(self) -> str:
        return (f"<Tokenizer {self.name!r}: {len(self.merges)} merges, "
                f"vocab_size={self.vocab_size}>")

    # -- the vocabulary (see vocab_view.py) ---------------------------------------------------

    @property
    def merges(self) -> MergeList:
        return self.view.merges

    @property
    def vocab_size(self) -> int:
        """Every id the tokenizer can produce: the model's tokens and the added ones."""
        return self.view.size

    def __len__(self) -> int:
        return self.vocab_size

    @property
    def unit(self) -> str:
        """"byte" when tokens are byte strings (ByteLevel), else "char"."""
        return "byte" if self.view.byte_level else "char"

    @property
    def n_base(self) -> int:
        """How many of the model's tokens no merge makes: the alphabet merging starts from."""
        return self.view.n_base

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special token text -> id (the added tokens marked special)."""
        return {t.content: t.id for t in self.added_tokens if t.special}

    @property
    def ignore_merges(self) -> bool:
        return self.model.ignore_merges

    def ids(self) -> list[int]:
        """Every id of the vocabulary, in order."""
        return self.view.ids()

    def kind(self, i: int) -> str:
        """"byte", "char", "vocab" (a longer token no merge makes), "unk", "eow", "merge",
        "special" or "added"."""
        return self.view.kind(i)

    def token_bytes(self, i: int) -> bytes:
        """The bytes a token stands for (without a ``</w>`` marker)."""
        return self.view.bytes(i)

    def ends_word(self, i: int) -> bool:
        """Does token ``i`` end with the end-of-word marker (``</w>``)?"""
        return self.view.ends_word(i)

    def display(self, i: int) -> str:
        """Readable text of a token: ``"est</w>"``, ``" re"``, or hex like ``<E4 BD>``."""
        return self.view.display(i)

    def merge_for(self, i: int) -> Merge | None:
        """The (first) merge that makes token ``i`` (None for tokens no merge makes)."""
        return self.view.merge_for(i)

    def merge_tree(self, i: int) -> MergeTree:
        """Which two tokens made ``i``, recursively, with rank and count when known."""
        m = self.merge_for(i)
        if m is None:
            return MergeTree(i, self.display(i))
        return MergeTree(i, m.token, m.rank, m.count, self.merge_tree(m.left_id),
                         self.merge_tree(m.right_id))

    # -- encoding ----------------------------------------------------------------------------

    def encode(self, text: str, *, add_special_tokens: bool = False, upto: int | None = None,
               method: EncodeMethod = "rank", split_special_tokens: bool = False) -> list[int]:
        """Text to token ids, as Hugging Face's ``encode(text, add_special_tokens=False)``.

        Added and special tokens in the text are encoded as themselves (``split_special_tokens``
        treats special ones as text); ``add_special_tokens`` adds the post-processor's BOS/EOS.
        ``method`` is "rank" (rank priority, as tiktoken and Hugging Face), "merge-order"
        (replay the merges in training order) or "longest-match" (greedy longest token first).
        """
        piece = None if method == "rank" else encoders.piece_encoder(self.model, method)
        ids = self._plan.encode(text, self._limit(upto), split_special_tokens, piece)
        return self._wrap(ids) if add_special_tokens else ids

    def _wrap(self, ids: list[int]) -> list[int]:
        if self.post_processor is None:
            return ids
        before, after = self.post_processor.wrap()
        return [*before, *ids, *after]

    def _limit(self, upto: int | None) -> int | None:
        return None if upto is None or upto >= len(self.merges) else max(0, int(upto))

    def pre_tokenize(self, text: str) -> list[str]:
        """The pieces merges stay within: added tokens taken out, the rest normalized and cut
        by the pre-tokenizer (before its per-piece rewrites, such as ByteLevel's characters).

        >>> from bpe_core import train
        >>> train("hug", max_merges=0).pre_tokenize("Hi there!")
        ['Hi', ' there', '!']
        """
        plan = self._plan
        return [p for first, seg, _ in plan.segments(text, False) if seg is not None
                for p in plan.head_pieces(seg, first)]

    def encode_piece(self, piece: str, *, upto: int | None = None) -> tuple[int, ...]:
        """Token ids of one already pre-tokenized piece (a training word), as the model sees
        it after the pre-tokenizer's per-piece steps; ``upto=k`` uses the first k merges.

        >>> from bpe_core import train
        >>> tok = train({"hug": 10, "pug": 5}, unit="char", pretokenizer="whitespace",
        ...             max_merges=2, min_frequency=1)
        >>> [tok.display(i) for i in tok.encode_piece("hug", upto=1)]
        ['h', 'ug']
        """
        return self._plan.encode_piece(piece, self._limit(upto))

    def encode_batch(self, texts: Iterable[str], *, processes: int | None = None,
                     add_special_tokens: bool = False, upto: int | None = None
                     ) -> list[list[int]]:
        """``[encode(t) for t in texts]``, spread over ``processes`` (None: every core).

        Worker processes start only when there is enough text to pay for them (about 1 MB);
        the ids are the same either way.
        """
        texts = list(texts)
        kwargs = dict(add_special_tokens=add_special_tokens, upto=upto)
        processes = (os.cpu_count() or 1) if processes is None else processes
        total = sum(map(len, texts))
        if processes < 2 or len(texts) < 2 or total < _BATCH_PARALLEL_MIN_CHARS:
            return [self.encode(t, **kwargs) for t in texts]
        # Batches of about equal text, several per process so that none waits for a slow one;
        # imap keeps their order.
        batches, batch, size, goal = [], [], 0, total / (4 * processes)
        for t in texts:
            batch.append(t)
            size += len(t)
            if size >= goal:
                batches.append(batch)
                batch, size = [], 0
        if batch:
            batches.append(batch)
        with worker_pool(processes, _batch_start, (self, kwargs)) as pool:
            return [ids for done in pool.imap(_batch_encode, batches) for ids in done]

    def spans(self, text: str, *, upto: int | None = None, method: EncodeMethod = "rank",
              split_special_tokens: bool = False) -> list[TokenSpan]:
        """Encode and say, for each token, which characters of ``text`` it covers."""
        piece = None if method == "rank" else encoders.piece_encoder(self.model, method)
        with gc_paused():  # one object per token, never in a cycle: see gc_pause.py
            return token_spans(self._plan, self.view, text, self._limit(upto),
                               split_special_tokens, piece)

    # -- decoding ----------------------------------------------------------------------------

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = True) -> str:
        """Token ids to text, as Hugging Face's ``decode`` (special tokens skipped unless
        ``skip_special_tokens=False``; ids not in the vocabulary are skipped too)."""
        view = self.view
        tokens = [t for t in map(view.raw, ids)
                  if t is not None and not (skip_special_tokens and t in view.special_texts)]
        if self.decoder is None:
            return " ".join(tokens)
        return self.decoder.decode(tokens)


def _names(component, preset: str | None = None) -> str:
    """``Split(gpt2) + ByteLevel``: a stage's type names, Sequences flattened."""
    inner = next((getattr(component, a) for a in ("normalizers", "pretokenizers", "decoders",
                                                  "processors") if hasattr(component, a)), None)
    if inner is not None:
        return " + ".join(_names(c, preset) for c in inner)
    name = type(component).__name__
    return f"{name}({preset})" if preset and name == "Split" else name


# encode_batch's workers: the tokenizer arrives once per process (inherited, with fork), not
# once per batch.
_batch_tokenizer: tuple[Tokenizer, dict] | None = None


def _batch_start(tok: Tokenizer, kwargs: dict) -> None:
    global _batch_tokenizer
    _batch_tokenizer = tok, kwargs


def _batch_encode(texts: list[str]) -> list[list[int]]:
    tok, kwargs = _batch_tokenizer
    return [tok.encode(t, **kwargs) for t in texts]
