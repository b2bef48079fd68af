"""Which writing system a token serves: how many tokens a vocabulary spends on each.

Every token gets one label, decided in this order:

1. special tokens, added tokens and ``[UNK]`` (and a bare ``</w>``): :data:`SPECIAL`, whatever
   their text, since they are found whole in the text rather than built from it;
2. byte-fallback tokens (SentencePiece's ``<0x41>`` .. ``<0xFF>``): :data:`BYTE_FALLBACK`;
3. tokens whose bytes are not valid UTF-8 on their own (a byte-level piece of a character):
   :data:`PARTIAL`;
4. the rest by their text (:func:`text_system`): the Unicode script with the most letters,
   spaces, digits and punctuation not counted, so ``" мир"`` and ``"▁мир"`` are Cyrillic and
   ``"2024年"`` is Han; a tie goes to the script that comes first. A token without a letter is
   :data:`DIGITS` when digits are most of its characters other than spaces, :data:`WHITESPACE`
   when it is only spaces, tabs or newlines, else :data:`SYMBOLS` (punctuation, symbols, emoji).

>>> for t in (" мир", "2024年", " 42", "\\n\\n", "...", "🙂", "\\ue000"):
...     print(repr(t), text_system(t))
' мир' Cyrillic
'2024年' Han
' 42' Digits
'\\n\\n' Whitespace
'...' Punctuation & symbols
'🙂' Punctuation & symbols
'\\ue000' Private use & unassigned
"""

from __future__ import annotations

from typing import Mapping

from .scripts import script_counts, script_of

SPECIAL = "Special & added"
BYTE_FALLBACK = "Byte fallback"
PARTIAL = "Partial UTF-8"
DIGITS = "Digits"
WHITESPACE = "Whitespace"
SYMBOLS = "Punctuation & symbols"
#: Unicode's "Unknown" script: private-use characters (fonts' icons) and unassigned ones.
UNASSIGNED = "Private use & unassigned"
#: The labels that are not scripts of letters, in the order a table lists them after the scripts.
NOT_SCRIPTS = (DIGITS, SYMBOLS, WHITESPACE, UNASSIGNED, PARTIAL, BYTE_FALLBACK, SPECIAL)


def text_system(text: str) -> str:
    """The writing system of a token's text (valid UTF-8): see the module docstring.

    Script names are Unicode's, with spaces for underscores (``Canadian Aboriginal``).

    >>> [text_system(t) for t in ("Hello, мир!", "Hi 東京都", "Hi 東京", "1.")]
    ['Latin', 'Han', 'Latin', 'Punctuation & symbols']
    """
    if text.isascii():  # (most tokens): its letters can only be Latin, the rest Common
        # (Only letters have cases: one of the two changes a text with a letter.)
        letters = "Latin" if text.lower() != text.upper() else None
    else:
        # Most tokens have letters of one script (or none), which is then the answer; the
        # count by script is for the others (listing Gemma 3's 111,591 such tokens: 1.0 s).
        scripts = set(map(script_of, text))
        scripts.discard("Common")
        scripts.discard("Inherited")  # (their marks count with the letter before them)
        if len(scripts) <= 1:
            letters = scripts.pop() if scripts else None
        else:
            counts = script_counts(text)
            letters = next((s for s in counts if s != "Common"), None)
    if letters is not None:
        return UNASSIGNED if letters == "Unknown" else letters.replace("_", " ")
    if not text or text.isspace():
        return WHITESPACE
    shown = [c for c in text if not c.isspace()]
    digits = sum(c.isdecimal() for c in shown)
    return DIGITS if 2 * digits > len(shown) else SYMBOLS


def token_system(kind: str, text: str | None, *, byte_fallback: bool = False) -> str:
    """The writing system of a token of ``kind`` (as ``Tokenizer.kind`` says) whose bytes read
    as ``text`` (None when they are not valid UTF-8); ``byte_fallback``: the model spells
    unknown characters with ``<0xNN>`` tokens, so its "byte" tokens are those.

    >>> token_system("special", "<s>"), token_system("byte", "A", byte_fallback=True)
    ('Special & added', 'Byte fallback')
    >>> token_system("byte", None), token_system("byte", "A"), token_system("merge", " the")
    ('Partial UTF-8', 'Latin', 'Latin')
    """
    if kind in ("special", "added", "unk", "eow"):
        return SPECIAL
    if kind == "byte" and byte_fallback:
        return BYTE_FALLBACK
    if text is None:
        return PARTIAL
    return text_system(text)


def listed(counts: Mapping[str, int]) -> dict[str, int]:
    """``counts`` (writing system -> tokens) in the order every table and chart lists them:
    scripts of letters, most tokens first (then by name), then :data:`NOT_SCRIPTS` in order.

    >>> listed({PARTIAL: 128, SYMBOLS: 59, "Latin": 52, DIGITS: 13, "Han": 52})
    {'Han': 52, 'Latin': 52, 'Digits': 13, 'Punctuation & symbols': 59, 'Partial UTF-8': 128}
    """
    rank = {s: k for k, s in enumerate(NOT_SCRIPTS)}
    return {s: counts[s] for s in sorted(counts, key=lambda s: (rank.get(s, -1), -counts[s],
                                                                 s.casefold()))}
