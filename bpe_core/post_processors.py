"""Post-processors: the special tokens a model puts around a text (BOS/EOS), applied only when
encoding asks for them (``add_special_tokens=True``).

``wrap()`` gives the ids that go before and after one sequence:

>>> llama3 = Sequence([ByteLevel(), TemplateProcessing(
...     [{"SpecialToken": {"id": "<|begin_of_text|>", "type_id": 0}},
...      {"Sequence": {"id": "A", "type_id": 0}}], [],
...     {"<|begin_of_text|>": {"id": "<|begin_of_text|>", "ids": [128000],
...                            "tokens": ["<|begin_of_text|>"]}})])
>>> llama3.wrap()
((128000,), ())
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .checked import checked, listed, option, shown, stage, stages

SUPPORTED = "TemplateProcessing, ByteLevel, RobertaProcessing, BertProcessing and Sequence"


@dataclass(frozen=True)
class TemplateProcessing:
    """Hugging Face's template: ``single`` lists the pieces of one sequence's encoding, special
    tokens (named in ``special_tokens``) and ``$A``, the text's own ids."""

    single: list = field(hash=False)
    pair: list = field(hash=False)
    special_tokens: dict = field(hash=False)

    def wrap(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        before: list[int] = []
        after: list[int] = []
        seen_text = False
        for piece in self.single:
            if not isinstance(piece, dict) or not (
                    "Sequence" in piece or isinstance(piece.get("SpecialToken"), dict)):
                raise ValueError(f"a template piece must be {{\"Sequence\": ...}} or "
                                 f"{{\"SpecialToken\": ...}}, not {shown(piece)}")
            if "Sequence" in piece:
                if seen_text:
                    raise ValueError("a single-sequence template holds $A twice")
                seen_text = True
                continue
            name = piece["SpecialToken"]["id"]
            if not isinstance(name, str) or not isinstance(self.special_tokens.get(name), dict):
                raise ValueError(f"the template names the special token {name!r}, which its "
                                 f"special_tokens do not define")
            ids = self.special_tokens[name]["ids"]
            if not isinstance(ids, list) or any(type(i) is not int or i < 0 for i in ids):
                raise ValueError(f"the template's special token {name!r} has the ids {ids!r}; "
                                 f"they must be a list of integers from 0")
            (after if seen_text else before).extend(ids)
        if not seen_text:
            raise ValueError("the single-sequence template has no $A (the text itself)")
        return tuple(before), tuple(after)

    def to_dict(self) -> dict:
        return {"type": "TemplateProcessing", "single": self.single, "pair": self.pair,
                "special_tokens": self.special_tokens}


@dataclass(frozen=True)
class ByteLevel:
    """Only moves offsets in Hugging Face; the ids stay as they are."""

    add_prefix_space: bool = True
    trim_offsets: bool = True
    use_regex: bool = True

    def wrap(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (), ()

    def to_dict(self) -> dict:
        return {"type": "ByteLevel", "add_prefix_space": self.add_prefix_space,
                "trim_offsets": self.trim_offsets, "use_regex": self.use_regex}


@dataclass(frozen=True)
class RobertaProcessing:
    """``cls`` before and ``sep`` after, each a ``(token, id)`` pair (BertProcessing: the same)."""

    sep: tuple
    cls: tuple
    kind: str = "RobertaProcessing"
    options: dict = field(default_factory=dict, hash=False)

    def wrap(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (int(self.cls[1]),), (int(self.sep[1]),)

    def to_dict(self) -> dict:
        return {"type": self.kind, "sep": list(self.sep), "cls": list(self.cls), **self.options}


@dataclass(frozen=True)
class Sequence:
    """Several post-processors: each wraps what the one before made."""

    processors: tuple

    def __init__(self, processors):
        object.__setattr__(self, "processors", tuple(processors))

    def wrap(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        before: tuple[int, ...] = ()
        after: tuple[int, ...] = ()
        for p in self.processors:
            b, a = p.wrap()
            before, after = b + before, after + a
        return before, after

    def to_dict(self) -> dict:
        return {"type": "Sequence", "processors": [p.to_dict() for p in self.processors]}


def around(processor: Any, ids: list[int]) -> list[int]:
    """``ids`` with what ``processor`` (None: nothing) puts before and after them.

    >>> around(None, [5]), around(TemplateProcessing([{"SpecialToken": {"id": "<s>"}},
    ...     {"Sequence": {"id": "A"}}], [], {"<s>": {"id": "<s>", "ids": [1]}}), [5])
    ([5], [1, 5])
    """
    if processor is None:
        return ids
    before, after = processor.wrap()
    return [*before, *ids, *after]


def from_dict(d: dict | None) -> Any:
    """The post-processor a ``tokenizer.json`` describes (None for none), its fields checked."""
    return None if d is None else checked(_from_dict(stage(d, "the post-processor")))


def _from_dict(d: dict) -> Any:
    kind = d.get("type")
    if kind == "TemplateProcessing":
        special = d.get("special_tokens") or {}
        if not isinstance(special, dict):
            raise ValueError(f"the template's special_tokens must be an object, not "
                             f"{shown(special)}")
        p = TemplateProcessing(listed(d["single"], "the template's single"),
                               listed(d.get("pair") or [], "the template's pair"), special)
        p.wrap()  # a broken template fails when the file is read, not when text is encoded
        return p
    if kind == "ByteLevel":
        return ByteLevel(option(d, "add_prefix_space", True), option(d, "trim_offsets", True),
                         option(d, "use_regex", True))
    if kind in ("RobertaProcessing", "BertProcessing"):
        options = {k: v for k, v in d.items() if k not in ("type", "sep", "cls")}
        return RobertaProcessing(_token(d["sep"], f"{kind}'s sep"),
                                 _token(d["cls"], f"{kind}'s cls"), kind, options)
    if kind == "Sequence":
        return Sequence(list(map(from_dict, stages(d, "processors", "post-processor"))))
    raise ValueError(f"the {kind} post-processor is not supported; bpe_core reads {SUPPORTED}")


def _token(value: Any, what: str) -> tuple[str, int]:
    """A ``[token, id]`` pair of a file (RobertaProcessing's ``sep`` and ``cls``), checked."""
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)
            and type(value[1]) is int and value[1] >= 0):
        raise ValueError(f"the {what} must be [token, id], the id an integer from 0, not "
                         f"{shown(value)}")
    return value[0], value[1]
