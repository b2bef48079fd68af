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

import operator
from dataclasses import dataclass, field, fields
from typing import Any, Iterable, Literal

from . import encoders, encoding, identity, post_processors, workers
from .added_vocabulary import AddedToken, AddedVocabulary
from .gc_pause import gc_paused
from .models import BPE
from .spans import TokenSpan, token_spans, with_template
from .vocab_view import VocabularyMethods, VocabView

#: How ``encode`` applies the merges: see ``bpe_core/encoders.py``.
EncodeMethod = Literal["rank", "merge-order", "longest-match"]


@dataclass(frozen=True, eq=False)
class Tokenizer(VocabularyMethods):
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

    def prepare(self) -> "Tokenizer":
        """Build now what encoding builds once, when first needed (where pieces may be cut:
        cuts.py), and return the tokenizer. The file readers call it, as Hugging Face builds
        its tables at load; a trained tokenizer, often encoded little, builds it when needed."""
        self._plan.prepare()
        return self

    def renamed(self, name: str) -> "Tokenizer":
        """The same tokenizer under another name; it shares everything else, caches included."""
        # Not copy.copy, which goes through __getstate__ and so rebuilds the derived parts: a
        # loaded file, renamed as the app names it, lost its cutter and caches (Gemma 3's
        # first encode then built the cutter again, 0.18 s).
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        object.__setattr__(twin, "name", name)
        return twin

    def __getstate__(self) -> dict:
        # Pickled (for encode_batch's workers, or a cache) without the derived parts.
        return {f.name: getattr(self, f.name) for f in fields(self) if f.init}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)
        self.__post_init__()

    def describe(self) -> str:
        """The pipeline in one line, stage by stage.

        >>> from bpe_core import train
        >>> train("hug", unit="char", max_merges=0).describe()
        'pre-tokenizer Split(gpt2) → BPE → decoder Fuse'
        """
        return identity.describe(self.normalizer, self.pre_tokenizer, self.model, self.decoder,
                                 self.post_processor, preset=self.config.get("pretokenizer"))

    def fingerprint(self) -> str:
        """A digest of every stage, the vocabulary, the merges and the added tokens (not the
        name): equal for two tokenizers built alike, so it keys caches."""
        known = self.__dict__.get("_fingerprint")
        if known is None:
            known = identity.fingerprint(self.normalizer, self.pre_tokenizer, self.model,
                                         self.decoder, self.post_processor, self.added_tokens)
            object.__setattr__(self, "_fingerprint", known)
        return known

    def __repr__(self) -> str:
        return (f"<Tokenizer {self.name!r}: {len(self.merges)} merges, "
                f"vocab_size={self.vocab_size}>")

    # -- encoding ----------------------------------------------------------------------------

    def encode(self, text: str, *, add_special_tokens: bool = False, upto: int | None = None,
               method: EncodeMethod = "rank", split_special_tokens: bool = False) -> list[int]:
        """Text to token ids, as Hugging Face's ``encode(text, add_special_tokens=False)``.

        Added and special tokens in the text are encoded as themselves (``split_special_tokens``
        treats special ones as text); ``add_special_tokens`` adds the post-processor's BOS/EOS.
        ``method`` is "rank" (rank priority, as tiktoken and Hugging Face), "merge-order"
        (replay the merges in training order) or "longest-match" (greedy longest token first).
        """
        _check_text(text, "encode")
        piece = None if method == "rank" else encoders.piece_encoder(self.model, method)
        ids = self._plan.encode(text, self._limit(upto), split_special_tokens, piece)
        return post_processors.around(self.post_processor, ids) if add_special_tokens else ids

    def _limit(self, upto: int | None) -> int | None:
        """``upto`` checked: None for all the merges ("'>=' not supported" met "1", and -1
        quietly meant none)."""
        if upto is None:
            return None
        try:
            k = operator.index(upto)
        except TypeError:
            raise TypeError(f"upto takes a whole number of merges, not {upto!r}") from None
        if k < 0:
            raise ValueError(f"upto takes a number of merges from 0 (none) to "
                             f"{len(self.merges):,} (all), not {k}")
        return None if k >= len(self.merges) else k

    def pre_tokenize(self, text: str) -> list[str]:
        """The pieces merges stay within: added tokens taken out, the rest normalized and cut
        by the pre-tokenizer (before its per-piece rewrites, such as ByteLevel's characters).

        >>> from bpe_core import train
        >>> train("hug", max_merges=0).pre_tokenize("Hi there!")
        ['Hi', ' there', '!']
        """
        return self._plan.pre_tokenize(text)

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
        """``[encode(t) for t in texts]``, spread over ``processes`` (None: every core) when
        there is enough text to pay for them (about 16 MB); the ids are the same either way."""
        if isinstance(texts, (str, bytes)):  # else each of its characters was one text
            raise TypeError(f"encode_batch takes a list of texts, not one {type(texts).__name__}: "
                            f"give [text], or call encode(text)")
        return workers.encode_batch(self, texts, processes=processes, options=dict(
            add_special_tokens=add_special_tokens, upto=upto))

    def spans(self, text: str, *, add_special_tokens: bool = False, upto: int | None = None,
              method: EncodeMethod = "rank", split_special_tokens: bool = False
              ) -> list[TokenSpan]:
        """Encode and say, for each token, which characters of ``text`` it covers; the
        post-processor's BOS/EOS (``add_special_tokens``) cover none, at the text's two ends."""
        _check_text(text, "spans")
        piece = None if method == "rank" else encoders.piece_encoder(self.model, method)
        with gc_paused():  # one object per token, never in a cycle: see gc_pause.py
            spans = token_spans(self._plan, self.view, text, self._limit(upto),
                                split_special_tokens, piece)
        return with_template(self.post_processor, self.view, spans, len(text)) if (
            add_special_tokens) else spans

    # -- decoding ----------------------------------------------------------------------------

    def decode(self, ids: Iterable[int], *, skip_special_tokens: bool = True) -> str:
        """Token ids to text, as Hugging Face's ``decode`` (special tokens skipped unless
        ``skip_special_tokens=False``; ids past the vocabulary are skipped too). A negative id,
        or one that is not a whole number, is refused, as there."""
        return self.view.decode(_token_ids(ids), skip_special_tokens=skip_special_tokens)


def _token_ids(ids: object) -> list[int]:
    """``ids`` as a list of whole numbers from 0, else an error naming the first that is not.

    Hugging Face refuses them too, less clearly ("can't convert negative int to unsigned").
    Unchecked, -1 was skipped without a word, "5" met "'<=' not supported between 'int' and
    'str'", 3.0 "list indices must be integers", and 1.0 decoded as token 1.

    >>> _token_ids((i for i in (5, True)))
    [5, 1]
    """
    if isinstance(ids, (str, bytes)) or not isinstance(ids, Iterable):
        fix = ": give [9906, 11], or [int(i) for i in text.split()]" if isinstance(
            ids, (str, bytes)) else ""
        raise TypeError(f"decode takes a list of token ids, not a {type(ids).__name__}{fix}")
    ids = list(ids)
    if not {int}.issuperset(map(type, ids)):  # (numpy's integers, True: the ints they are)
        for k, i in enumerate(ids):
            try:
                ids[k] = operator.index(i)
            except TypeError:
                raise TypeError(f"decode takes whole-number token ids, not {i!r} (at position "
                                f"{k})") from None
    if ids and min(ids) < 0:
        k = next(k for k, i in enumerate(ids) if i < 0)
        raise ValueError(f"decode takes token ids from 0, not {ids[k]} (at position {k})")
    return ids


def _check_text(text: object, method: str) -> None:
    """Refuse what is not a str with a message that says so (the encoder's own errors named
    neither the argument nor the fix: "sequence item 0: expected str instance, bytes found")."""
    if not isinstance(text, str):
        fix = ": decode it first, as text.decode('utf-8')" if isinstance(
            text, (bytes, bytearray)) else ""
        raise TypeError(f"{method} takes a str, not {type(text).__name__}{fix}")
