"""Hugging Face files: ``tokenizer.json`` (BPE models) and GPT-2's ``vocab.json`` + ``merges.txt``.

Byte-level files spell each byte as a printable character (GPT-2's table: the space is ``Ġ``, the
newline ``Ċ``), so every token is a plain string. Our ids are written as the file's ids, and the
pre-tokenizer regex as a ``Split``, so ``tokenizers.Tokenizer.from_file`` gives exactly our ids:

>>> from bpe_core import train
>>> tok = train("hug pug pun bun hugs", unit="byte", pretokenizer="gpt2", max_merges=2,
...             min_frequency=1)
>>> d = to_dict(tok)
>>> d["model"]["merges"], d["model"]["vocab"]["Ġ"]
([['u', 'g'], ['h', 'ug']], 32)
>>> from_dict(d).encode("hugs") == tok.encode("hugs")
True

Character-level tokenizers are written with ``[UNK]`` (or byte fallback); the ``</w>`` symbol
becomes a marker character that a normalizer puts after every word.
"""

from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import regex

from .native import TokenizerFileError
from .pretokenize import PRESETS, resolve
from .tokenizer import Tokenizer
from .vocab import UNK, Base, byte_base, char_base

# GPT-2's byte <-> character table: printable Latin-1 bytes stand for themselves, the other 68
# bytes take the characters from U+0100 on, in byte order.
_PRINTABLE = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
BYTE_CHARS = [""] * 256
for _i, _b in enumerate(sorted(set(range(256)) - set(_PRINTABLE))):
    BYTE_CHARS[_b] = chr(0x100 + _i)
for _b in _PRINTABLE:
    BYTE_CHARS[_b] = chr(_b)
CHAR_BYTES = {c: b for b, c in enumerate(BYTE_CHARS)}

# End-of-word marker candidates (Unicode noncharacters, never meant to appear in text).
_MARKERS = [chr(c) for c in range(0xFDD0, 0xFDF0)]
_WORD_END = r"(?<=\S)(?!\S)"  # where a normalizer puts the marker: after each word


# -- regexes: Python's `regex` and Oniguruma (what `tokenizers` uses) differ in a few places ---

_TOKEN = regex.compile(r"""\\[pPxNu]\{[^}]*\}|\\.|\[\^?\]?(?:\\.|\[:[^\]]*:\]|[^\]\\])*\]
    |\(\?[a-zA-Z-]*[:)]|\{\d*,?\d*\}\+?|[\s\S]""", regex.VERBOSE)
# Classes Oniguruma draws differently, POSIX classes, and inline flags other than i (Oniguruma's
# (?m) is Python's (?s)).
_DIFFERENT = regex.compile(r"^\\[wWbBhHX]$"  # an escape on its own
                           r"|^\[.*(?<!\\)(?:\\\\)*(?:\\[wWbBhHX]|\[:)"  # one inside a class
                           r"|^\(\?.*[a-hj-zA-Z]")  # a flag group


def convert_pattern(pattern: str, *, to_onig: bool) -> str:
    """Translate a pre-tokenizer regex between Python's ``regex`` and Oniguruma.

    Anchors differ (Python's ``$`` is Oniguruma's ``\\Z``, Python's ``\\Z`` its ``\\z``) and so
    does ``x{1,3}+``: possessive in Python, "one or more of x{1,3}" in Oniguruma.

    >>> convert_pattern(r"\\p{N}{1,3}+|\\s++$", to_onig=True)
    '(?>\\\\p{N}{1,3})|\\\\s++\\\\Z'
    >>> convert_pattern(r"\\w+", to_onig=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: the regex '\\\\w+' uses \\w, which means something else in Hugging Face...
    """
    anchors = ({"$": r"\Z", "^": r"\A", r"\Z": r"\z"} if to_onig
               else {"$": "(?m:$)", "^": "(?m:^)", r"\Z": "$", r"\z": r"\Z"})
    out: list[str] = []
    groups: list[int] = []  # where each open group starts in `out`
    for tok in _TOKEN.findall(pattern):
        if _DIFFERENT.search(tok):
            raise ValueError(f"the regex {pattern!r} uses {tok}, which means something else in "
                             f"Hugging Face tokenizers (Oniguruma); spell classes out, e.g. "
                             f"[\\p{{L}}\\p{{N}}_] for \\w, and use no inline flag but i")
        if tok in anchors:
            out.append(anchors[tok])
        elif tok.startswith("{") and tok.endswith("}+") and out:
            # Possessive in Python is atomic in Oniguruma; Oniguruma's reading is a nested repeat.
            atom = out.pop()
            out.append(f"(?>{atom}{tok[:-1]})" if to_onig else f"(?:{atom}{tok[:-1]})+")
        elif tok.startswith("(") and not tok.endswith(")"):
            groups.append(len(out))
            out.append(tok)
        elif tok == ")" and groups:
            start = groups.pop()
            out[start:] = ["".join(out[start:]) + ")"]  # the group is one atom from now on
        else:
            out.append(tok)
    return "".join(out)


def _preset_name(pattern: str) -> str | None:
    """The preset whose regex reads back (from a file we wrote) as ``pattern``."""
    for name, preset in PRESETS.items():
        if pattern in (preset, convert_pattern(convert_pattern(preset, to_onig=True),
                                               to_onig=False)):
            return name
    return None


# -- writing ----------------------------------------------------------------------------------

def _texts(tok: Tokenizer, base_text: Sequence[str]) -> list[str]:
    texts = list(base_text)
    for m in tok.merges:
        texts.append(texts[m.left_id] + texts[m.right_id])
    return texts


def _vocab(texts: Sequence[str], specials: Mapping[str, int]) -> dict[str, int]:
    vocab: dict[str, int] = {}
    for i, text in [*enumerate(texts), *((i, s) for s, i in specials.items())]:
        if text in vocab:
            raise ValueError(f"tokens {vocab[text]} and {i} are both {text!r}; a Hugging Face "
                             f"vocabulary needs distinct strings")
        vocab[text] = i
    return vocab


def to_dict(tok: Tokenizer) -> dict[str, Any]:
    """The ``tokenizer.json`` content for ``tok`` (raises ValueError when HF cannot express it)."""
    base, normalizer = tok.base, None
    split = {"type": "Split", "pattern": {"Regex": convert_pattern(tok.pattern, to_onig=True)},
             "behavior": "Removed", "invert": True}  # keep the matches, drop what lies between
    model: dict[str, Any] = {"unk_token": None, "byte_fallback": False}
    if base.unit == "byte":
        if base.end_of_word:
            raise ValueError("Hugging Face byte-level BPE has no end-of-word symbol; save this "
                             "tokenizer in the native format, or train it with unit='char'")
        texts = _texts(tok, ["".join(BYTE_CHARS[b] for b in t) for t in base.tokens])
        pre = {"type": "Sequence", "pretokenizers": [split, {
            "type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
            "use_regex": False}]}
        decoder = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": False,
                   "use_regex": False}
    else:
        shown = [f"<0x{b:02X}>" for b in range(256)] if base.byte_fallback else [UNK]
        free = [c for c in _MARKERS if c not in base.char_ids]
        marker, escape = free[0], free[1]
        texts = _texts(tok, shown + base.chars + ([marker] if base.end_of_word else []))
        model = {"unk_token": None if base.byte_fallback else UNK,
                 "byte_fallback": base.byte_fallback}
        pre, decoder = split, {"type": "Fuse"}
        if base.byte_fallback:
            decoder = {"type": "Sequence", "decoders": [{"type": "ByteFallback"}, decoder]}
        if base.end_of_word:
            if base.byte_fallback:
                raise ValueError("Hugging Face files cannot combine byte fallback with </w>; "
                                 "save this tokenizer in the native format")
            # A marker char in the text itself becomes another unknown char, so it stays [UNK].
            normalizer = {"type": "Sequence", "normalizers": [
                {"type": "Replace", "pattern": {"String": marker}, "content": escape},
                {"type": "Replace", "pattern": {"Regex": _WORD_END}, "content": marker}]}
            decoder = {"type": "BPEDecoder", "suffix": marker}
    vocab = _vocab(texts, tok.special_tokens)
    added = [{"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
              "normalized": False, "special": True} for s, i in tok.special_tokens.items()]
    return {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": normalizer, "pre_tokenizer": pre, "post_processor": None,
        "decoder": decoder,
        "model": {"type": "BPE", "dropout": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False,
                  "ignore_merges": tok.ignore_merges,
                  **model, "vocab": vocab,
                  "merges": [[texts[m.left_id], texts[m.right_id]] for m in tok.merges]},
    }


def dumps(tok: Tokenizer) -> bytes:
    """``tokenizer.json`` bytes for ``tok``."""
    return json.dumps(to_dict(tok), ensure_ascii=False, indent=1).encode("utf-8") + b"\n"


def gpt2_files(tok: Tokenizer) -> tuple[bytes, bytes]:
    """GPT-2's ``(vocab.json, merges.txt)`` for a byte-level ``tok`` (the regex is not stored)."""
    if tok.unit != "byte" or tok.end_of_word:
        raise ValueError("GPT-2 vocab.json/merges.txt files hold byte-level BPE only; save this "
                         "tokenizer in the native or Hugging Face format")
    texts = _texts(tok, ["".join(BYTE_CHARS[b] for b in t) for t in tok.base.tokens])
    vocab = json.dumps(_vocab(texts, tok.special_tokens), ensure_ascii=False)
    merges = "".join(f"{texts[m.left_id]} {texts[m.right_id]}\n" for m in tok.merges)
    return vocab.encode("utf-8"), ("#version: 0.2\n" + merges).encode("utf-8")


# -- reading ----------------------------------------------------------------------------------

def _merge_pairs(merges: list, source: str) -> list[tuple[str, str]]:
    pairs = []
    for k, m in enumerate(merges):
        if isinstance(m, str) and m.count(" ") == 1:
            m = m.split(" ")
        if not (isinstance(m, (list, tuple)) and len(m) == 2
                and all(isinstance(x, str) for x in m)):
            raise TokenizerFileError(f"{source}: merge {k} ({m!r}) is not two tokens")
        pairs.append((m[0], m[1]))
    return pairs


def _build(vocab: Mapping[str, int], merges: list[tuple[str, str]], base: Base,
           base_text: Sequence[str], pattern: str, specials: Mapping[str, int], name: str,
           source: str, preset: str | None = None, *, ignore_merges: bool = False) -> Tokenizer:
    """Check that the file's ids are ours (base symbols, then one id per merge) and build."""
    n_base = len(base)
    for i, text in enumerate(base_text):
        if vocab.get(text) != i:
            raise TokenizerFileError(
                f"{source}: this engine needs the base symbol {text!r} at id {i}, but the file "
                f"has it at {vocab.get(text)}; only files whose ids run base symbols first, then "
                f"one new id per merge in merge order, can be read")
    pairs = []
    for k, (left, right) in enumerate(merges):
        want = n_base + k
        got = vocab.get(left + right)
        if got != want or vocab.get(left, want) >= want or vocab.get(right, want) >= want:
            raise TokenizerFileError(
                f"{source}: merge {k} ({left!r} + {right!r}) must make id {want} from lower ids; "
                f"the file gives {vocab.get(left)} + {vocab.get(right)} -> {got}. Only files "
                f"whose ids follow the merge order (one merge per token) can be read")
        pairs.append((vocab[left], vocab[right], 0))
    try:
        return Tokenizer.from_pairs(base, pairs, pattern=pattern, name=name,
                                    pretokenizer=preset or _preset_name(pattern),
                                    special_tokens=dict(specials), ignore_merges=ignore_merges)
    except ValueError as exc:
        raise TokenizerFileError(f"{source}: {exc}") from None


def _byte_base(vocab: Mapping[str, int], source: str) -> tuple[Base, list[str]]:
    by_id = {i: t for t, i in vocab.items()}
    order = []
    for i in range(256):
        text = by_id.get(i)
        if text is None or text not in CHAR_BYTES:
            shown = "not in the vocabulary" if text is None else repr(text)
            raise TokenizerFileError(f"{source}: this engine needs ids 0-255 to be the 256 byte "
                                     f"tokens; id {i} is {shown}")
        order.append(CHAR_BYTES[text])
    try:
        return byte_base(order=order), [BYTE_CHARS[b] for b in order]
    except ValueError as exc:
        raise TokenizerFileError(f"{source}: {exc}") from None


def _pattern(pre: dict | None, source: str) -> tuple[bool, str]:
    """``(byte_level, regex)`` from a Hugging Face pre-tokenizer."""
    if pre is None:
        steps = []
    else:
        steps = pre.get("pretokenizers", []) if pre.get("type") == "Sequence" else [pre]
    byte_level, patterns = False, []
    for step in steps:
        kind = step.get("type")
        if kind == "ByteLevel":
            byte_level = True
            if step.get("add_prefix_space"):
                raise TokenizerFileError(f"{source}: ByteLevel add_prefix_space=true is not "
                                         f"supported (it adds a space before the text)")
            if step.get("use_regex", True):
                patterns.append(PRESETS["gpt2"])  # the same pieces as HF's built-in GPT-2 regex
        elif kind == "WhitespaceSplit":
            patterns.append(PRESETS["whitespace"])
        elif kind == "Split":
            spec = step.get("pattern", {})
            p = (convert_pattern(spec["Regex"], to_onig=False) if "Regex" in spec
                 else regex.escape(spec.get("String", "")))
            keep, between = {("Removed", True): (True, False), ("Isolated", True): (True, True),
                             ("Isolated", False): (True, True), ("Removed", False): (False, True)
                             }.get((step.get("behavior"), bool(step.get("invert"))), (None, None))
            if keep is None:
                raise TokenizerFileError(f"{source}: Split behavior {step.get('behavior')!r} "
                                         f"is not supported")
            gaps = f"(?:(?!(?:{p}))[\\s\\S])+"  # the text between two matches
            patterns.append(p if not between else f"(?:{p})|{gaps}" if keep else gaps)
        else:
            raise TokenizerFileError(f"{source}: the {kind} pre-tokenizer is not supported; this "
                                     f"engine reads Split, WhitespaceSplit and ByteLevel")
    if len(patterns) > 1:
        raise TokenizerFileError(f"{source}: more than one splitting pre-tokenizer")
    return byte_level, patterns[0] if patterns else PRESETS["none"]


def _marker(normalizer: dict | None, source: str) -> str | None:
    """The end-of-word marker, if the normalizer is the one :func:`to_dict` writes."""
    if normalizer is None:
        return None
    steps = normalizer.get("normalizers", [])
    if (len(steps) == 2 and steps[1].get("pattern") == {"Regex": _WORD_END}
            and steps[0].get("pattern") == {"String": steps[1].get("content")}):
        return steps[1]["content"]
    raise TokenizerFileError(f"{source}: normalizers ({normalizer.get('type')}) are not supported; "
                             f"this engine does not change the text before splitting it")


def from_dict(d: Mapping[str, Any], *, source: str = "the file", name: str = "hf") -> Tokenizer:
    """A Tokenizer from the content of a Hugging Face ``tokenizer.json`` (a BPE model)."""
    try:
        model = d["model"]
        if model.get("type", "BPE") != "BPE":
            raise TokenizerFileError(f"{source} holds a {model.get('type')} model; only BPE is "
                                     f"supported")
        for option in ("continuing_subword_prefix", "end_of_word_suffix", "dropout"):
            if model.get(option):
                raise TokenizerFileError(f"{source}: the BPE option {option}="
                                         f"{model[option]!r} is not supported")
        vocab, merges = dict(model["vocab"]), _merge_pairs(model.get("merges", []), source)
        byte_level, pattern = _pattern(d.get("pre_tokenizer"), source)
        marker = _marker(d.get("normalizer"), source)
        added = d.get("added_tokens", [])
        for t in added:
            if t.get("lstrip") or t.get("rstrip") or t.get("single_word"):
                raise TokenizerFileError(f"{source}: the added token {t['content']!r} strips "
                                         f"spaces or matches whole words only, which this engine "
                                         f"does not do")
        specials = {t["content"]: int(t["id"]) for t in added}
        ignore_merges = bool(model.get("ignore_merges"))
        if byte_level:
            base, base_text = _byte_base(vocab, source)
            return _build(vocab, merges, base, base_text, pattern, specials, name, source,
                          ignore_merges=ignore_merges)
        fallback = bool(model.get("byte_fallback"))
        if not fallback and model.get("unk_token") is None:
            raise TokenizerFileError(f"{source}: a character-level BPE needs an unk_token (or "
                                     f"byte_fallback); this one has neither")
        first = [f"<0x{b:02X}>" for b in range(256)] if fallback else [model["unk_token"]]
        produced = {left + right for left, right in merges} | set(specials) | {marker}
        chars = sorted((t for t, i in vocab.items() if len(t) == 1 and t not in produced
                        and i >= len(first)), key=lambda t: vocab[t])
        if chars != sorted(chars):
            raise TokenizerFileError(f"{source}: this engine numbers a character alphabet in "
                                     f"code-point order; this file does not")
        base = char_base(chars, end_of_word=marker is not None, byte_fallback=fallback)
        return _build(vocab, merges, base, first + chars + ([marker] if marker else []),
                      pattern, specials, name, source, "end-of-word" if marker else None,
                      ignore_merges=ignore_merges)
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        if isinstance(exc, TokenizerFileError):
            raise
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise TokenizerFileError(f"{source} is a malformed Hugging Face tokenizer: {what}"
                                 ) from None


def from_gpt2(vocab: bytes, merges: bytes, *, pretokenizer: str = "gpt2",
              source: str = "the files", name: str = "gpt2") -> Tokenizer:
    """A Tokenizer from GPT-2's ``vocab.json`` (or ``encoder.json``) and ``merges.txt`` (or
    ``vocab.bpe``). Vocabulary entries after the merges (``<|endoftext|>``) are special tokens.
    """
    try:
        table = json.loads(vocab.decode("utf-8-sig"))
        lines = merges.decode("utf-8-sig").splitlines()
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TokenizerFileError(f"{source}: not a GPT-2 vocab.json and merges.txt: {exc}"
                                 ) from None
    if not isinstance(table, dict) or not all(isinstance(i, int) for i in table.values()):
        raise TokenizerFileError(f"{source}: vocab.json must map token strings to integer ids")
    pairs = _merge_pairs([line for line in lines if line and not line.startswith("#version")],
                         source)
    first_special = 256 + len(pairs)
    specials = {t: i for t, i in table.items() if i >= first_special}
    preset, pattern = resolve(pretokenizer)
    base, base_text = _byte_base(table, source)
    return _build(table, pairs, base, base_text, pattern, specials, name, source, preset)
