"""The BPE model: a vocabulary (token string -> id, ids arbitrary) and merges with result ids.

It turns one pre-tokenized piece into token ids as Hugging Face's ``BPE`` model does: each
character becomes its token (with ``continuing_subword_prefix`` on every character but the first
and ``end_of_word_suffix`` on the last; an unknown character becomes its ``<0xNN>`` bytes under
``byte_fallback``, else ``unk_token``, fused into one with ``fuse_unk``, else nothing), then the
adjacent pair of lowest merge rank is merged, leftmost first, until no pair has a merge.

>>> model = BPE.from_vocab({"h": 0, "u": 1, "g": 2, "ug": 3, "hug": 4},
...                        [("u", "g"), ("h", "ug")])
>>> model.tokenize("hug"), model.tokenize("hug", limit=1), model.tokenize("gu")
([4], [0, 3], [2, 1])
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from itertools import chain, count, repeat
from operator import itemgetter, lshift, lt, or_
from typing import Any, Iterable, Mapping, Sequence

from .checked import checked, listed, option
from .merges import MergeList
from .merging import LONG_PIECE, merge_long, merge_short, runs

#: How many ids a vocabulary may leave unused below its largest: ids are arbitrary in Hugging
#: Face's format, but every id up to the largest has a place in the tables here, so that a
#: file giving one token the id 4,000,000,000 would take gigabytes. (Real files leave none,
#: or a few hundred before their added tokens.)
SPARE_IDS = 1_000_000


def check_id(i: int, text: str, count: int) -> None:
    """Refuse the id ``i`` of ``text`` in a tokenizer of ``count`` ids: one that is not an integer
    from 0, or that would leave more than :data:`SPARE_IDS` ids unused below it."""
    if type(i) is not int or i < 0:
        raise ValueError(f"{text!r} has the id {i!r}; ids are integers from 0")
    if i >= count + SPARE_IDS:
        raise ValueError(f"{text!r} has the id {i:,}, but there are only {count:,} tokens; "
                         f"ids may leave at most {SPARE_IDS:,} unused below the largest")


def _from_fields(cls: type, values: dict[str, Any]) -> Any:
    """The model rebuilt from its fields (see ``BPE.__reduce__``)."""
    return cls(**values)


@dataclass(frozen=True, eq=False)
class BPE:
    """Hugging Face's BPE model (see the module docstring). Build with :meth:`from_vocab` from a
    file's strings, or directly from ids (``tokens``: id -> token string, None for an id the
    model does not use)."""

    tokens: tuple[str | None, ...] = field(repr=False)
    merges: MergeList = field(repr=False)
    unk_token: str | None = None
    fuse_unk: bool = False
    byte_fallback: bool = False
    continuing_subword_prefix: str | None = None
    end_of_word_suffix: str | None = None
    ignore_merges: bool = False
    #: Does every merge make the token its two parts spell (``left + right``)? None: not known
    #: yet, see :meth:`spells_merges`.
    spelled: bool | None = field(default=None, repr=False, compare=False)
    #: Does every merge come after all the merges that make its two parts, as a trained merge
    #: list does? None: not known yet, see :meth:`merges_in_order`.
    in_order: bool | None = field(default=None, repr=False, compare=False)
    #: What each token stands for, given by a maker that has its bytes at hand (a rank file):
    #: ``cuts.token_texts`` of the tokens, which the encoding plan of a byte-level model
    #: otherwise works out from GPT-2's byte characters (cl100k: 27 ms; from bytes, 8 ms).
    texts: Sequence[str | None] | None = field(default=None, repr=False, compare=False)
    vocab: dict[str, int] = field(init=False, repr=False)
    # (left id, right id) -> the merge's rank and result id in one int: rank << _shift | result.
    # Ints compare by rank first, so the lowest is the merge to make, and the result comes
    # with it at no cost (no second table, no second lookup).
    _keys: dict[tuple[int, int], int] = field(init=False, repr=False)
    _shift: int = field(init=False, repr=False)
    _all: int = field(init=False, repr=False)
    _char_symbols: "_CharSymbols" = field(init=False, repr=False)

    def __post_init__(self):
        # Two ids with one string (a trained model can have them): the first. Built backwards in
        # C, so that the first id is the one written last.
        n = len(self.tokens)
        vocab = dict(zip(reversed(self.tokens), range(n - 1, -1, -1)))
        vocab.pop(None, None)  # ids the model does not use
        set_ = object.__setattr__  # frozen: derived tables are set once, here
        set_(self, "vocab", vocab)
        # A pair listed twice keeps its last rank, as in Hugging Face's merge map.
        shift = max(len(self.tokens), 1).bit_length()
        set_(self, "_shift", shift)
        set_(self, "_all", len(self.merges) << shift)  # the key no merge reaches
        set_(self, "_char_symbols", _CharSymbols(vocab))
        keys = map(or_, map(lshift, count(), repeat(shift)), self.merges.result)  # in C
        set_(self, "_keys", dict(zip(zip(self.merges.left, self.merges.right), keys)))
        # An unk_token the vocabulary lacks loads, as in Hugging Face's tokenizers: it fails
        # only when a character needs it (see unk_id).

    def __reduce__(self):
        # Pickled (for a worker process) without the tables __post_init__ derives: it rebuilds
        # them in C loops in less time than pickling them takes (Gemma 3: 0.23 s, against
        # 0.20 s to pickle and 0.34 s to unpickle them).
        return _from_fields, (type(self), {f.name: getattr(self, f.name) for f in fields(self)
                                           if f.init})

    @classmethod
    def from_vocab(cls, vocab: Mapping[str, int], merges: Iterable[tuple[str, str]],
                   **options: Any) -> "BPE":
        """The model of a ``tokenizer.json``: merges as string pairs, each making the token
        ``left + right`` (``right`` without its ``continuing_subword_prefix``)."""
        ids = list(vocab.values())
        if set(map(type, ids)) - {int} or min(ids, default=0) < 0 or (
                max(ids, default=0) >= len(ids) + SPARE_IDS):
            for text, i in vocab.items():
                check_id(i, text, len(ids))
        if ids == list(range(len(ids))):  # the usual order: no gaps, in id order
            tokens: list[str | None] = list(vocab)
        else:
            tokens = [None] * (max(ids, default=-1) + 1)
            for text, i in vocab.items():
                if tokens[i] is not None:  # one id, two tokens: which would it decode to?
                    raise ValueError(f"{tokens[i]!r} and {text!r} both have the id {i}; each "
                                     f"token needs an id of its own")
                tokens[i] = text
        cut = len(options.get("continuing_subword_prefix") or "")
        merges = list(merges)
        lefts, rights = list(map(itemgetter(0), merges)), list(map(itemgetter(1), merges))
        # Hundreds of thousands of merges (Gemma 3: 515,000): looked up in C loops.
        left, right = list(map(vocab.get, lefts)), list(map(vocab.get, rights))
        made = map(str.__add__, lefts, rights if not cut else (b[cut:] for b in rights))
        result = list(map(vocab.get, made))
        if None in left or None in right or None in result:
            rank = next(r for r, ids in enumerate(zip(left, right, result)) if None in ids)
            a, b = merges[rank]
            missing = list(map(repr, dict.fromkeys(t for t in (a, b, a + b[cut:])
                                                   if t not in vocab)))
            named = " and ".join(filter(None, [", ".join(missing[:-1]), missing[-1]]))
            raise ValueError(f"merge {rank + 1} (rank {rank}: {a!r} + {b!r}) names {named}, which "
                             f"{'is' if len(missing) == 1 else 'are'} not in the vocabulary")
        shown = tuple(tokens)
        return cls(shown, MergeList(left=left, right=right, result=result, shown=shown),
                   spelled=not cut, **options)

    def spells_merges(self) -> bool:
        """Does every merge make the token its two parts spell? So for a model read from a
        file's strings (without a ``continuing_subword_prefix``) or trained here; otherwise
        found out once, in C loops."""
        if self.spelled is None:
            get, m = self.tokens.__getitem__, self.merges
            spelled = (list(map(str.__add__, map(get, m.left), map(get, m.right)))
                       == list(map(get, m.result)))
            object.__setattr__(self, "spelled", spelled)
        return self.spelled

    def merges_in_order(self) -> bool:
        """Does every merge come after all the merges that make its parts (``in_order``)? Then
        merging a piece is making each merge in rank order wherever it occurs, leftmost first:
        a merge never makes a pair that a lower one joins. Found out once, in C loops.

        >>> BPE.from_vocab({"a": 0, "b": 1, "ab": 2, "abb": 3},
        ...                [("ab", "b"), ("a", "b")]).merges_in_order()  # "ab" used, then made
        False
        """
        if self.in_order is None:
            m = self.merges
            made = dict(zip(m.result, range(len(m))))  # token -> the last merge that makes it
            in_order = all(map(lt, map(made.get, m.left, repeat(-1)), count())) and all(
                map(lt, map(made.get, m.right, repeat(-1)), count()))
            object.__setattr__(self, "in_order", in_order)
        return self.in_order

    # -- from a piece to its first symbols ---------------------------------------------------

    def symbols(self, piece: str) -> list[int]:
        """The ids a piece starts from, before any merge (see the module docstring)."""
        if self.continuing_subword_prefix is None and self.end_of_word_suffix is None:
            ids = list(map(self.vocab.get, piece))  # the common case, in C
            if None not in ids:
                return ids
            if self.byte_fallback:  # each character's symbols, found once (None: unk_token)
                each = list(map(self._char_symbols.__getitem__, piece))
                if None not in each:
                    return list(chain.from_iterable(each))
        return self.symbols_with_offsets(piece)[0]

    def symbols_all(self, pieces: list[str]) -> list[list[int]]:
        """:meth:`symbols` of many pieces: when each character is a token, all found at once."""
        if self.continuing_subword_prefix is None and self.end_of_word_suffix is None:
            ids = list(map(self.vocab.get, "".join(pieces)))
            if None not in ids:
                return runs(ids, map(len, pieces))
        return list(map(self.symbols, pieces))

    def symbols_with_offsets(self, piece: str) -> tuple[list[int], list[tuple[int, int]]]:
        """``(ids, offsets)``: the first symbols and the UTF-8 bytes ``(start, end)`` of the piece
        each stands for. Each byte-fallback token of a character stands for all of it (the
        bytes of a prefix or suffix it also spells too); a character the model drops stands in
        no symbol, so the offsets skip it."""
        vocab, prefix, suffix = self.vocab, self.continuing_subword_prefix, self.end_of_word_suffix
        ids: list[int] = []
        offsets: list[tuple[int, int]] = []
        unk: list[int] | None = None  # [id, start, end] of an unknown run not yet added
        last, pos = len(piece) - 1, 0
        for k, ch in enumerate(piece):
            s = (prefix + ch if k and prefix else ch) + (suffix if k == last and suffix else "")
            n = len(ch.encode("utf-8"))
            i = vocab.get(s)
            if i is not None:
                if unk is not None:
                    ids.append(unk[0])
                    offsets.append((unk[1], unk[2]))
                    unk = None
                ids.append(i)
                offsets.append((pos, pos + n))
            elif self.byte_fallback and None not in (
                    fallback := [vocab.get(f"<0x{b:02X}>") for b in s.encode("utf-8")]):
                # Hugging Face spells each byte of what it looked up (prefix and suffix too), and
                # each stands for the whole character. A pending unknown run is left pending
                # here, as Hugging Face does.
                ids += fallback
                offsets += [(pos, pos + n)] * len(fallback)
            elif self.unk_token is not None:
                if unk is not None and self.fuse_unk:
                    unk[2] = pos + n
                else:
                    if unk is not None:
                        ids.append(unk[0])
                        offsets.append((unk[1], unk[2]))
                    unk = [self.unk_id(ch), pos, pos + n]
            # (No unk_token: Hugging Face drops the character.)
            pos += n
        if unk is not None:
            ids.append(unk[0])
            offsets.append((unk[1], unk[2]))
        return ids, offsets

    def unk_id(self, char: str) -> int:
        """The id of ``unk_token``, for ``char``, which has no token; a ValueError when the
        vocabulary lacks it too, as Hugging Face's encode fails ("Unk token `<unk>` not found
        in the vocabulary").

        >>> BPE.from_vocab({"a": 0}, [], unk_token="<unk>").tokenize("ab")
        Traceback (most recent call last):
        ValueError: 'b' (U+0062) has no token, and the unk_token '<unk>' that stands for such a \
character is not in the vocabulary either: add '<unk>' to the vocab, or set unk_token to null \
(such characters are then dropped)
        """
        i = self.vocab.get(self.unk_token)
        if i is None:
            raise ValueError(
                f"{char!r} (U+{ord(char):04X}) has no token, and the unk_token {self.unk_token!r} "
                f"that stands for such a character is not in the vocabulary either: add "
                f"{self.unk_token!r} to the vocab, or set unk_token to null (such characters "
                f"are then dropped)")
        return i

    # -- merging -----------------------------------------------------------------------------

    def tokenize(self, piece: str, limit: int | None = None) -> list[int]:
        """Token ids of one piece; ``limit=k`` uses only the first k merges."""
        if not piece:
            return []
        if self.ignore_merges and limit is None:
            i = self.vocab.get(piece)
            if i is not None:
                return [i]  # a piece that is a token is that token, merges or not
        return self.merge(self.symbols(piece), limit)

    def tokenize_with_offsets(self, piece: str, limit: int | None = None
                              ) -> list[tuple[int, int, int]]:
        """``(id, start, end)`` per token, start and end being UTF-8 byte offsets in ``piece``."""
        if not piece:
            return []
        if self.ignore_merges and limit is None and piece in self.vocab:
            return [(self.vocab[piece], 0, len(piece.encode("utf-8")))]
        ids, offsets = self.symbols_with_offsets(piece)
        ids, offsets = merge_long(ids, self._keys.get, (1 << self._shift) - 1, self._limit(limit),
                                  offsets)
        return [(i, a, b) for i, (a, b) in zip(ids, offsets)]

    def _limit(self, limit: int | None) -> int:
        """The key no merge at or past ``limit`` (every merge, for None) reaches."""
        n = len(self.merges)
        return (n if limit is None else max(0, min(int(limit), n))) << self._shift

    def merge(self, ids: list[int], limit: int | None = None) -> list[int]:
        """Apply the merges (the first ``limit`` of them) to a list of ids, in place."""
        if len(ids) < 2:
            return ids
        stop = self._all if limit is None else self._limit(limit)
        get, mask = self._keys.get, (1 << self._shift) - 1
        if len(ids) > LONG_PIECE:
            return merge_long(ids, get, mask, stop)[0]
        return merge_short(ids, get, mask, stop)

    def last_merge(self, ids: Sequence[int]) -> tuple[list[int], int | None]:
        """What :meth:`merge` makes of ``ids`` with every merge, and the rank of the last merge
        it makes (None for none): the merge that made a token merged from its own symbols. A
        plain scan, the pairs looked up again at each merge: for one token's symbols.

        >>> model = BPE.from_vocab({"a": 0, "b": 1, "c": 2, "ab": 3, "bc": 4, "abc": 5},
        ...                        [("a", "bc"), ("a", "b"), ("ab", "c"), ("b", "c")])
        >>> model.last_merge([0, 1, 2])  # 'a' + 'b' first, then 'ab' + 'c' (rank 2), never 'bc'
        ([5], 2)
        """
        ids, get, stop, last = list(ids), self._keys.get, self._all, None
        while len(ids) > 1:
            keys = list(map(get, zip(ids, ids[1:]), repeat(stop)))
            best = min(keys)
            if best >= stop:
                break
            k = keys.index(best)
            ids[k:k + 2] = [best & ((1 << self._shift) - 1)]
            last = best >> self._shift
        return ids, last

    # -- the vocabulary ----------------------------------------------------------------------

    def id_to_token(self, i: int) -> str | None:
        return self.tokens[i] if 0 <= i < len(self.tokens) else None

    def token_to_id(self, token: str) -> int | None:
        return self.vocab.get(token)

    def to_dict(self) -> dict[str, Any]:
        """The ``"model"`` object of a ``tokenizer.json`` (merges written as pairs)."""
        tokens = self.tokens
        duplicated = len(self.vocab) != sum(t is not None for t in tokens)
        if duplicated:
            seen: dict[str, int] = {}
            for i, t in enumerate(tokens):
                if t is not None and seen.setdefault(t, i) != i:
                    raise ValueError(f"tokens {seen[t]} and {i} are both {t!r}; a Hugging Face "
                                     f"vocabulary needs distinct strings")
        return {"type": "BPE", "dropout": None, "unk_token": self.unk_token,
                "continuing_subword_prefix": self.continuing_subword_prefix,
                "end_of_word_suffix": self.end_of_word_suffix, "fuse_unk": self.fuse_unk,
                "byte_fallback": self.byte_fallback, "ignore_merges": self.ignore_merges,
                "vocab": dict(self.vocab),
                "merges": [[tokens[a], tokens[b]]
                           for a, b in zip(self.merges.left, self.merges.right)]}


class _CharSymbols(dict):
    """Character -> the ids it starts as under ``byte_fallback`` and no prefix or suffix: its
    own token, else its bytes' ``<0xNN>`` tokens, else None (``unk_token`` then, which may fuse
    with its neighbours: see ``symbols_with_offsets``). Filled on first lookup."""

    def __init__(self, vocab: dict[str, int]):
        super().__init__()
        self.vocab = vocab

    def __missing__(self, ch: str) -> tuple[int, ...] | None:
        i = self.vocab.get(ch)
        ids = (i,) if i is not None else tuple(map(self.vocab.get, map(
            "<0x{:02X}>".format, ch.encode("utf-8"))))
        ids = self[ch] = None if None in ids else ids
        return ids


def from_dict(d: Mapping[str, Any]) -> BPE:
    """The BPE model of a ``tokenizer.json``'s ``"model"`` object."""
    kind = d.get("type", "BPE")
    if kind != "BPE":
        raise ValueError(f"the model is {kind}, not BPE; bpe_core reads BPE models only "
                         f"(WordPiece and Unigram tokenizers work differently)")
    if d.get("dropout") not in (None, 0, 0.0):
        raise ValueError(f"BPE dropout ({d['dropout']}) makes encoding random; bpe_core encodes "
                         f"deterministically: set dropout to null")
    vocab = d.get("vocab")
    if not isinstance(vocab, Mapping):
        raise ValueError("the BPE model has no vocab" if vocab is None else
                         "the BPE model's vocab must be an object of token: id, not "
                         + ("a list" if isinstance(vocab, list) else repr(vocab)[:40]))
    for key in ("unk_token", "continuing_subword_prefix", "end_of_word_suffix"):
        if d.get(key) is not None and not isinstance(d[key], str):  # (before they are used)
            raise ValueError(f"the BPE model's {key} is {d[key]!r}; it must be a string or null")
    return checked(BPE.from_vocab(
        vocab, pairs(listed(d.get("merges") or [], "the BPE model's merges")), unk_token=d.get("unk_token"),
        fuse_unk=option(d, "fuse_unk", False), byte_fallback=option(d, "byte_fallback", False),
        continuing_subword_prefix=d.get("continuing_subword_prefix") or None,
        end_of_word_suffix=d.get("end_of_word_suffix") or None,
        ignore_merges=option(d, "ignore_merges", False)))


def pairs(merges: Sequence[Any]) -> Sequence[Sequence[str]]:
    """Merges written ``"a b"`` (older files) or ``["a", "b"]``, as pairs; a ``#version`` line
    first (GPT-2's merges.txt) is skipped. Checked in C loops: files hold hundreds of thousands.

    >>> pairs(["#version: 0.2", "a b", "ab c"]), pairs([["a", "b"]])
    ([['a', 'b'], ['ab', 'c']], [['a', 'b']])
    """
    if merges and isinstance(merges[0], str) and merges[0].startswith("#version"):
        merges = merges[1:]
    kinds = set(map(type, merges))
    if kinds == {str}:
        split = [m.split(" ") for m in merges]
        if set(map(len, split)) == {2}:
            return split
    elif kinds == {list} and set(map(len, merges)) == {2} and set(
            map(type, chain.from_iterable(merges))) == {str}:
        return merges
    return [pair(m, k) for k, m in enumerate(merges)]  # raises, naming the first bad merge


def pair(m: Any, k: int) -> tuple[str, str]:
    """A merge written ``"a b"`` (older files) or ``["a", "b"]``."""
    if isinstance(m, str):
        parts = m.split(" ")
        if len(parts) == 2:
            return parts[0], parts[1]
    elif isinstance(m, (list, tuple)) and len(m) == 2 and all(isinstance(x, str) for x in m):
        return m[0], m[1]
    raise ValueError(f"merge {k + 1} (rank {k}: {m!r}) is not two tokens")
