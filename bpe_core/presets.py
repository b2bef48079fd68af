"""Pre-tokenizers: how text is cut into pieces ("words") before BPE sees it.

Merges never cross a piece boundary, so the pre-tokenizer decides what a token can be.
Every preset is a regex; a piece is one match of it:

>>> split("set new renew", "space-prefix")
['set', ' new', ' renew']
>>> split("Hello world's 123", "gpt2")
['Hello', ' world', "'s", ' 123']

The three OpenAI patterns are exactly those of tiktoken's ``tiktoken_ext/openai_public.py`` so
that our pieces, and hence our ids, agree with tiktoken's.
"""

from __future__ import annotations

import functools
import re
from typing import Callable, Iterator

import regex

# GPT-2 (r50k_base / p50k_base).
GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)
# GPT-4 (cl100k_base): case-insensitive contractions, digits in groups of at most three.
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
# GPT-4o (o200k_base): words split at case changes, so "CamelCase" is two pieces.
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

#: Preset name -> regex. "whitespace" and "end-of-word" drop the whitespace itself, so those two
#: are the only presets whose pieces do not add up to the input text.
PRESETS: dict[str, str] = {
    # Gage 1994: the whole text is one stream and merges may cross anything.
    "none": r"[\s\S]+",
    # Words split on whitespace (Hugging Face's WhitespaceSplit).
    "whitespace": r"\S+",
    # Sennrich et al. 2016: whitespace words, each followed by an end-of-word symbol </w>.
    "end-of-word": r"\S+",
    # Words keep one leading space, as "␣new" and "␣renew" in Jurafsky & Martin (SLP3, ch. 2).
    # A run of spaces gives all but its last space to a piece of its own.
    "space-prefix": r" ?\S+|\s+(?!\S)|\s+",
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
}

#: The pre-tokenizer regexes of well-known models, exactly as their ``tokenizer.json`` files
#: write them (GPT-4o's and GPT-OSS's are the "o200k" preset). Like the presets they cannot
#: backtrack far: each alternative is a run of one class, optionally after one character of
#: another, and the whitespace ones give up on a run at most once before another consumes it,
#: so they run without the time limit (``needs_limit``); the five whole patterns have an ASCII
#: twin below.
MODEL_PATTERNS: dict[str, str] = {
    # Hugging Face's ByteLevel pre-tokenizer (``use_regex``): GPT-2's before tiktoken made it
    # possessive (GPT-2, RoBERTa, GPT-NeoX and OLMo 1, Claude 1-2, Command R+).
    "byte-level": r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
    # Llama 3 and 3.1, GPT-4's tokenizer.json, OLMo 2: cl100k before tiktoken made it possessive.
    "llama3": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}"""
              r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    # Qwen 2, 2.5 and 3: the same with each digit a piece.
    "qwen2": r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}"""
             r"""| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    # DeepSeek V3 and V4: digits in threes, then runs of CJK ideographs and kana, then the rest
    # (their file writes \r and \n in the last one as the characters themselves).
    "deepseek-v3-digits": r"\p{N}{1,3}",
    "deepseek-v3-cjk": "[一-龥\u3040-ゟ゠-ヿ]+",
    "deepseek-v3": (r"""[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+"""
                    "|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| ?[\\p{P}\\p{S}]+[\r\n]*"
                    "|\\s*[\r\n]+|\\s+(?!\\S)|\\s+"),
    # Mistral's Tekken (Mistral NeMo): o200k's word shapes without contractions, single digits.
    "tekken": (r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+"""
               r"""|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*"""
               r"""|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"""),
}

#: Presets whose pieces concatenate back to the exact input.
LOSSLESS_PRESETS = frozenset({"none", "space-prefix", "gpt2", "cl100k", "o200k"})

#: ASCII twins of the presets for Python's own ``re`` engine, which is about twice as fast as
#: ``regex`` on plain ASCII. On text of ASCII characters only, each finds exactly the pieces of
#: its preset: there \p{L} is [A-Za-z], \p{Lu} [A-Z], \p{Ll} [a-z], \p{N} [0-9], no character
#: is in \p{Lt}, \p{Lm}, \p{Lo} or \p{M}, and under re.ASCII \s is the same six characters as
#: Unicode's White_Space. (The tests compare every twin with its preset.)
_ASCII_TWINS: dict[str, str] = {
    GPT2_PATTERN:
        r"""'(?:[sdmt]|ll|ve|re)| ?[A-Za-z]++| ?[0-9]++| ?[^\sA-Za-z0-9]++|\s++$|\s+(?!\S)|\s""",
    CL100K_PATTERN:
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{1,3}+"""
        r"""| ?[^\sA-Za-z0-9]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
    O200K_PATTERN: "|".join([
        r"""[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[0-9]{1,3}""",
        r""" ?[^\sA-Za-z0-9]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]),
    PRESETS["space-prefix"]: PRESETS["space-prefix"],
    PRESETS["whitespace"]: PRESETS["whitespace"],
    MODEL_PATTERNS["byte-level"]:
        r"'s|'t|'re|'ve|'m|'ll|'d| ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+(?!\S)|\s+",
    # In ASCII, \p{P} and \p{S} together are its punctuation, !-/ :-@ [-` {-~.
    MODEL_PATTERNS["llama3"]:
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]{1,3}"""
        r"""| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    MODEL_PATTERNS["qwen2"]:
        r"""(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\nA-Za-z0-9]?[A-Za-z]+|[0-9]"""
        r"""| ?[^\sA-Za-z0-9]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    MODEL_PATTERNS["deepseek-v3"]:
        r"""[!-/:-@\[-`{-~][A-Za-z]+|[^\r\nA-Za-z!-/:-@\[-`{-~]?[A-Za-z]+"""
        r"""| ?[!-/:-@\[-`{-~]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
    MODEL_PATTERNS["tekken"]:
        r"""[^\r\nA-Za-z0-9]?[A-Z]*[a-z]+|[^\r\nA-Za-z0-9]?[A-Z]+[a-z]*|[0-9]"""
        r"""| ?[^\sA-Za-z0-9]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+""",
}

# Runs of non-ASCII characters, joined across short ASCII gaps so that mostly non-ASCII text is
# a few long runs rather than one per word.
_NON_ASCII = regex.compile(r"[^\x00-\x7f](?:[\x00-\x7f]{0,64}[^\x00-\x7f]++)*+")
# A place where the text may be cut without changing a preset's pieces: before a space that
# follows a non-space (see words.py for why), searched for forwards and backwards.
_CUT = regex.compile(r"(?<=\S)(?= )")
_CUT_BACK = regex.compile(r"(?r)(?<=\S)(?= )")


class PatternError(ValueError):
    """A custom pre-tokenizer regex that does not compile, or a user's or a file's regex (a
    pre-tokenizer, a normalizer's or a decoder's Replace) that takes too long (below)."""


#: A regex that a user typed, or a file gave (see :func:`needs_limit`), may run this long on a
#: text, plus ``REGEX_SECONDS_PER_MB`` for each MB of it, before it is stopped. Some patterns,
#: as ``(?:a|aa)+$``, take time that grows exponentially with the text: on 46 letters, minutes.
REGEX_SECONDS = 1.0
REGEX_SECONDS_PER_MB = 2.0


class PatternTimeout(PatternError):
    """A user's regex ran past its time limit (see :func:`time_limit`)."""


def time_limit(n_chars: int) -> float:
    """Seconds a user's regex may take on a text of ``n_chars`` characters.

    >>> time_limit(500_000)
    2.0
    """
    return REGEX_SECONDS + REGEX_SECONDS_PER_MB * n_chars / 1e6


def shown_pattern(pattern: str) -> str:
    r"""A regex in a message, in quotes, as the user wrote it (``repr`` would double each
    backslash); ``repr`` only when it holds a character that would not show, such as a newline.

    >>> print(shown_pattern(r"\s+"), shown_pattern("a\n"))
    “\s+” 'a\n'
    """
    return f"“{pattern}”" if pattern.isprintable() else repr(pattern)


def too_slow(pattern: str, text: str, *, stage: str = "pre-tokenizer") -> PatternTimeout:
    """The error for ``pattern`` (the regex of a ``stage``: "pre-tokenizer", "normalizer",
    "decoder") stopped on ``text``: what happened, and how to fix it."""
    return PatternTimeout(
        f"the {stage} regex {shown_pattern(pattern)} took more than "
        f"{time_limit(len(text)):.1f} s on {len(text):,} characters and was stopped. A "
        "pattern that nests repetitions, such as (a+)+ or (?:a|aa)+, or chains them, such as "
        ".*?a.*?a.*?z, can take time that grows very fast with the text; write it without the "
        "nesting, or make repetitions possessive (a++, .*+).")


def needs_limit(pattern: str) -> bool:
    r"""Whether ``pattern`` runs with a time limit: every pattern but our presets and the
    well-known models' (:data:`MODEL_PATTERNS`), which never backtrack far.

    A pattern typed by a user or read from a tokenizer file may take time that grows
    exponentially with the text (``(a+)+``, ``(?:a|aa)+$``) or as a high power of it
    (``.*?a.*?a.*?a.*?z``: ten seconds on 500 letters). Telling such a pattern from a safe one
    is as hard as running it, so all of them run with ``regex``'s own timeout, which costs it
    about a quarter of its speed.

    >>> needs_limit(PRESETS["cl100k"]), needs_limit(r"\w+"), needs_limit(r".*?a.*?a.*?z")
    (False, True, True)
    """
    return pattern not in _TRUSTED


_TRUSTED = frozenset([*PRESETS.values(), *MODEL_PATTERNS.values()])


def _findall_bounded(compiled: regex.Pattern, text: str, pos: int = 0,
                     endpos: int | None = None) -> list[str]:
    """``compiled.findall`` within the time limit of ``text``: the whole matches, also for a
    pattern with capturing groups (where findall itself gives the groups' text, as ``(a)b``
    gives ``a`` for ``ab``; a Split pre-tokenizer keeps whole matches, groups or not)."""
    timeout = time_limit(len(text))
    try:
        if compiled.groups:
            return [m.group() for m in compiled.finditer(text, pos, endpos, timeout=timeout)]
        return compiled.findall(text, pos, endpos, timeout=timeout)
    except TimeoutError:
        raise too_slow(compiled.pattern, text) from None


def resolve(pretokenizer: str) -> tuple[str | None, str]:
    """Return ``(preset name or None, regex)`` for a preset name or a custom regex.

    >>> resolve("whitespace")
    ('whitespace', '\\\\S+')
    >>> resolve(r"\\w+")
    (None, '\\\\w+')
    """
    if pretokenizer in PRESETS:
        return pretokenizer, PRESETS[pretokenizer]
    meant = _preset_spelled_as(pretokenizer)
    if meant is not None:  # else it ran as a regex, matching only that very word
        raise PatternError(f"{pretokenizer!r} is not a preset; did you mean {meant!r}? The "
                           f"presets are {', '.join(PRESETS)}.")
    compile_pattern(pretokenizer)  # fail early, with a readable message
    return None, pretokenizer


def _preset_spelled_as(name: object) -> str | None:
    """The preset ``name`` differs from only in case, ``-``, ``_``, spaces or a ``_base`` as
    tiktoken's encodings have (``"cl100k_base"``, ``"GPT-2"``, ``"end_of_word"``); else None.

    >>> _preset_spelled_as("cl100k_base"), _preset_spelled_as(r"\\w+")
    ('cl100k', None)
    """
    def key(s: str) -> str:
        return re.sub(r"[-_ ]", "", s.lower()).removesuffix("base")
    if not isinstance(name, str):
        return None
    return next((p for p in PRESETS if key(p) == key(name)), None)


def compile_typed(pattern: str, flags: int = 0) -> regex.Pattern:
    """``regex.compile`` for a pattern a user typed: one nested too deeply to be read raises
    ``regex.error`` as other bad patterns do (the module reads a group by recursing, so some
    500 nested "(" raised a RecursionError).

    >>> compile_typed("(" * 10_000)
    Traceback (most recent call last):
    regex._regex_core.error: its groups nest too deeply to be read
    """
    try:
        return regex.compile(pattern, flags)
    except RecursionError:
        raise regex.error("its groups nest too deeply to be read") from None


@functools.lru_cache(maxsize=64)
def compile_pattern(pattern: str) -> regex.Pattern:
    """Compile a pre-tokenizer regex (cached), or raise :class:`PatternError` saying why."""
    if not pattern:
        raise PatternError("the pre-tokenizer regex is empty; give a pattern such as \\S+")
    try:
        compiled = compile_typed(pattern)
    except regex.error as exc:
        raise PatternError(
            f"invalid pre-tokenizer regex {shown_pattern(pattern)}: {exc}. "
            f"Check brackets and escapes, or pick a preset: {', '.join(PRESETS)}."
        ) from None
    return compiled


@functools.lru_cache(maxsize=64)
def piece_finder(pattern: str) -> Callable[[str], list[str]]:
    """``findall`` for a pre-tokenizer regex: the fastest way to get a text's pieces.

    For a preset, stretches of plain ASCII go to the preset's ASCII twin in ``re`` and the rest
    to ``regex``, cut where both give the pieces of the whole text; the result is always exactly
    ``compile_pattern(pattern).findall(text)``.

    >>> piece_finder(PRESETS["gpt2"])("naïve code, plain code")
    ['naïve', ' code', ',', ' plain', ' code']
    """
    compiled = compile_pattern(pattern)
    if needs_limit(pattern):  # a user's pattern: it runs with a time limit
        return functools.partial(_findall_bounded, compiled)
    full = compiled.findall
    if pattern not in _ASCII_TWINS:  # ("none", DeepSeek's digits and CJK runs)
        return full
    fast = re.compile(_ASCII_TWINS[pattern], re.ASCII).findall
    return functools.partial(_findall_mixed, fast, full)  # a partial pickles; a closure not


#: A text beyond ASCII shorter than this goes to ``regex`` whole: looking for its ASCII
#: stretches would cost more than ``re`` saves on them.
MIXED_MIN_CHARS = 128


def _findall_mixed(fast, full, text: str) -> list[str]:
    """Pieces of ``text``: ASCII stretches by ``fast``, stretches around other characters by
    ``full``, each stretch ending at a cut (``findall``'s endpos then acts as the text's end)."""
    if text.isascii():
        return fast(text)
    if len(text) < MIXED_MIN_CHARS:  # (DeepSeek's runs of Chinese, one by one)
        return full(text)
    out, pos = [], 0
    for m in _NON_ASCII.finditer(text):
        start, end = m.span()
        if end <= pos:
            continue  # inside the stretch just done
        if start > pos:
            cut = _CUT_BACK.search(text, pos, start)
            if cut is not None:
                out += fast(text, pos, cut.start())
                pos = cut.start()
        cut = _CUT.search(text, end)
        stop = len(text) if cut is None else cut.start()
        out += full(text, pos, stop)
        pos = stop
    out += fast(text, pos)
    return out


def split(text: str, pretokenizer: str) -> list[str]:
    """Cut ``text`` into pieces with a preset name or a custom regex (empty matches dropped)."""
    if not isinstance(text, str):  # else "'NoneType' object has no attribute 'isascii'"
        raise TypeError(f"split takes a str, not {type(text).__name__}")
    _, pattern = resolve(pretokenizer)
    return [p for p in piece_finder(pattern)(text) if p]


def iter_pieces(text: str, pattern: str) -> Iterator[tuple[int, str]]:
    """Yield ``(start, piece)`` for each non-empty match, start being a character offset (a
    user's regex within the time limit of ``text``)."""
    limit = time_limit(len(text)) if needs_limit(pattern) else None
    try:
        for m in compile_pattern(pattern).finditer(text, timeout=limit):
            if m.start() != m.end():
                yield m.start(), m.group()
    except TimeoutError:
        raise too_slow(pattern, text) from None


def special_splitter(special_tokens) -> regex.Pattern | None:
    """A regex that finds any of the special tokens, longest first (so "<|a|>x" beats "<|a|>")."""
    if not special_tokens:
        return None
    alternatives = sorted(special_tokens, key=len, reverse=True)
    return regex.compile("|".join(regex.escape(s) for s in alternatives))
