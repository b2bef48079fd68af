"""Added tokens: special tokens (``<|endoftext|>``, ``<s>``) and other whole strings a model
encodes as one id, found in the text before anything else runs, as Hugging Face's added
vocabulary does: the longest at the leftmost place, with its options (``single_word``: only as
a word of its own; ``lstrip``/``rstrip``: it swallows the whitespace beside it; ``normalized``:
matched in the normalized text rather than the original).

>>> vocab = AddedVocabulary([AddedToken("<s>", 1, special=True), AddedToken("<tool>", 7,
...                                                                         rstrip=True)])
>>> vocab.split_raw("<s>hi <tool>  x")
[(0, 3, 1), (3, 6, None), (6, 14, 7), (14, 15, None)]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from typing import Callable, Iterable, Iterator, Mapping

import regex

from . import trie
from .checked import listed, shown
from .unicode16 import as_unicode, holds_changed

# Rust's \w (regex crate) and char::is_whitespace, spelled out for Python's `regex`.
_WORD_CLASS = r"[\p{Alphabetic}\p{M}\p{Nd}\p{Pc}\p{Join_Control}]"
_WORD = regex.compile(_WORD_CLASS)
_NOT_SPACE = regex.compile(r"[^\p{White_Space}]")
_NOT_SPACE_BACK = regex.compile(r"(?r)[^\p{White_Space}]")

Segment = tuple[int, int, "int | None"]


def _is_word(ch: str) -> bool:
    """Is ``ch`` in Rust's \\w, by the regex crate's Unicode 16 (see unicode16.py)?"""
    return (_word16() if holds_changed(ch) else _WORD).match(ch) is not None


@cache
def _word16() -> regex.Pattern:
    return regex.compile(as_unicode(_WORD_CLASS))


@dataclass(frozen=True)
class AddedToken:
    """One entry of ``tokenizer.json``'s ``added_tokens``."""

    content: str
    id: int
    special: bool = False
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False

    @classmethod
    def from_dict(cls, d: dict) -> "AddedToken":
        if not isinstance(d, dict):
            raise ValueError(f"each added token must be an object, not {shown(d)}")
        content = d["content"]
        if not isinstance(content, str) or not content:
            raise ValueError(f"an added token needs a non-empty content, not {content!r}")
        special = bool(d.get("special", False))
        i = d["id"]
        if type(i) is not int or i < 0:
            raise ValueError(f"the added token {content!r} has the id {i!r}; ids are integers "
                             f"from 0")
        if i >= 2 ** 32:  # (tokenizers reads ids as 32-bit and refuses the file)
            raise ValueError(f"the added token {content!r} has the id {i:,}; ids are integers "
                             f"below 4,294,967,296")
        return cls(content, i, special, bool(d.get("single_word")),
                   bool(d.get("lstrip")), bool(d.get("rstrip")),
                   bool(d.get("normalized", not special)))

    def to_dict(self) -> dict:
        return {"id": self.id, "content": self.content, "single_word": self.single_word,
                "lstrip": self.lstrip, "rstrip": self.rstrip, "normalized": self.normalized,
                "special": self.special}


def added_tokens(entries: object, *, skip_empty: bool = False) -> list[AddedToken]:
    """A file's ``added_tokens`` (null or absent: none), each one checked; ``skip_empty``
    leaves out those whose content is "", as ``tokenizers`` does as it reads a file (they
    take no id, and their id decodes to nothing), where a BPE Playground file refuses them.

    >>> [t.content for t in added_tokens([{"content": "", "id": 3}, {"content": "<s>", "id": 4}],
    ...                                  skip_empty=True)]
    ['<s>']
    """
    entries = listed(entries or [], "the added_tokens")
    if skip_empty:
        entries = [e for e in entries if not (isinstance(e, dict) and e.get("content") == "")]
    return list(map(AddedToken.from_dict, entries))


def as_hugging_face_reads(tokens: Iterable[AddedToken], vocab: Mapping[str, int]
                          ) -> list[AddedToken]:
    """The added tokens of a ``tokenizer.json`` with the ids ``tokenizers`` gives them as it reads
    the file: not the ids written there, but, in the file's order, the id of a token of the
    model's ``vocab`` that has the same text, else the next id from the vocabulary's size on.
    A token written twice keeps its first id (and place) and its last options; it is special
    if either is. Real files write the ids this gives; a file edited by hand may not.

    >>> vocab = {"a": 0, "b": 1, "ab": 2}
    >>> [(t.content, t.id) for t in as_hugging_face_reads(
    ...     [AddedToken("<x>", 1000), AddedToken("a", 7), AddedToken("<y>", 3)], vocab)]
    [('<x>', 3), ('a', 0), ('<y>', 4)]
    """
    ids: dict[str, int] = {}
    read: dict[int, AddedToken] = {}
    next_id = len(vocab)
    for token in tokens:
        i = ids.get(token.content, vocab.get(token.content))
        if i is None:
            i, next_id = next_id, next_id + 1
        before = read.get(i)
        if before is not None and before.content == token.content and before.special:
            token = replace(token, special=True)
        ids[token.content] = i
        read[i] = token if token.id == i else replace(token, id=i)  # (as written, in real files)
    return list(read.values())


class _Matcher:
    """Finds one group of added tokens (by their matched text) in a text."""

    def __init__(self, tokens: dict[str, AddedToken]):
        self.tokens = tokens
        # Leftmost-longest, as Hugging Face's Aho-Corasick automaton finds them (see trie.py),
        # as one group, for ``cut``'s re.split.
        self.regex = re.compile(f"({trie.pattern(tokens)})")
        self.ids = {content: t.id for content, t in tokens.items()}
        # Tokens whose matches are all kept as matched: no option to look at around them.
        self.plain = not any(t.single_word or t.lstrip or t.rstrip for t in tokens.values())
        self.special = any(t.special for t in tokens.values())

    def cut(self, text: str, split_special: bool) -> tuple[list[str], list[int]]:
        """``(gaps, ids)``: the text between the tokens found (``len(ids) + 1`` of them, empty
        where two tokens meet or one starts or ends the text) and the tokens' ids, in C loops
        when every match is kept (Gemma 3 on 2 MB of English: 49,755 tabs and newlines,
        25 -> 15 ms)."""
        if self.plain and not (split_special and self.special):
            parts = self.regex.split(text)  # gap, token, gap, ..., gap
            return parts[0::2], list(map(self.ids.__getitem__, parts[1::2]))
        gaps, ids, pos = [], [], 0
        for start, end, tid in self.split(text, split_special):
            if tid is not None:
                gaps.append(text[pos:start])
                ids.append(tid)
                pos = end
        gaps.append(text[pos:])
        return gaps, ids

    def split(self, text: str, split_special: bool) -> list[Segment]:
        out: list[Segment] = []
        pos = 0
        for m in self.regex.finditer(text):
            start, stop = m.span()
            token = self.tokens[m.group()]
            if split_special and token.special:
                continue
            if token.single_word and ((start and _is_word(text[start - 1]))
                                      or (stop < len(text) and _is_word(text[stop]))):
                continue
            if token.lstrip:
                back = _NOT_SPACE_BACK.search(text, 0, start)
                start = max(back.end() if back else 0, pos)
            if token.rstrip:
                ahead = _NOT_SPACE.search(text, stop)
                stop = ahead.start() if ahead else len(text)
            if start >= stop:  # all of it taken by the token before, which stripped spaces:
                continue       # Hugging Face drops an empty split, token and all
            if start > pos:
                out.append((pos, start, None))
            out.append((start, stop, token.id))
            pos = stop
        if pos < len(text) or not text:
            out.append((pos, len(text), None))
        return out


class AddedVocabulary:
    """The added tokens of a tokenizer, and where they are in a text (see the module)."""

    def __init__(self, tokens: Iterable[AddedToken], normalize: Callable[[str], str] | None = None):
        self.tokens = tuple(tokens)
        self._by_id = {t.id: t for t in self.tokens}
        #: id -> the text a normalized token decodes as: its content normalized, as Hugging
        #: Face's decoder reads it (``tokenizers`` 0.23, whose skip_special_tokens then looks
        #: for that text among the special tokens).
        self.decoded = {t.id: normalize(t.content) for t in self.tokens
                        if t.normalized and normalize is not None}
        raw = {t.content: t for t in self.tokens if not t.normalized}
        norm = {(normalize(t.content) if normalize else t.content): t
                for t in self.tokens if t.normalized}
        # A token the normalizer erases (Strip on "\n\n") is never found: with no other, no
        # matcher, whose empty regex would match everywhere (KeyError: '' on encode).
        norm = {k: t for k, t in norm.items() if k}
        self._raw = _Matcher(raw) if raw else None
        self._normalized = _Matcher(norm) if norm else None

    def __len__(self) -> int:
        return len(self.tokens)

    def __iter__(self) -> Iterator[AddedToken]:
        return iter(self.tokens)

    def split_raw(self, text: str, *, split_special_tokens: bool = False) -> list[Segment]:
        """``(start, end, id or None)`` over the original text, for the tokens matched there."""
        if self._raw is None:
            return [(0, len(text), None)]
        return self._raw.split(text, split_special_tokens)

    def cut_raw(self, text: str, *, split_special_tokens: bool = False
                ) -> tuple[list[str], list[int]]:
        """``(gaps, ids)`` over the original text: the tokens matched there and the text
        between them (see ``_Matcher.cut``).

        >>> AddedVocabulary([AddedToken("<s>", 1), AddedToken("\\n", 5)]).cut_raw("<s>a\\n\\n")
        (['', 'a', '', ''], [1, 5, 5])
        """
        if self._raw is None:
            return [text], []
        return self._raw.cut(text, split_special_tokens)

    def split_normalized(self, text: str, *, split_special_tokens: bool = False
                         ) -> list[Segment]:
        """The same over normalized text, for the tokens matched after normalization."""
        if self._normalized is None:
            return [(0, len(text), None)]
        return self._normalized.split(text, split_special_tokens)

    def id_of(self, content: str) -> int | None:
        return next((t.id for t in self.tokens if t.content == content), None)

    def content_of(self, i: int) -> str | None:
        t = self._by_id.get(i)
        return None if t is None else t.content

    def is_special(self, i: int) -> bool:
        t = self._by_id.get(i)
        return t is not None and t.special
