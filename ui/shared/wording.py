"""What a count of "words" means, what each pre-tokenizer is called and how a token's writing
system is counted, said the same way on every page.

Pages count different things: the Corpus page splits text with a pre-tokenizer of your choice,
Train counts the pieces of the pre-tokenizer it trains with, Tokenize and Languages split on
whitespace. A count of words always says which, so that two pages never seem to disagree:

>>> units("whitespace").phrase, units("gpt2").phrase
('words (split on whitespace)', 'pieces (split by the pre-tokenizer “GPT-2 regex”)')
>>> count(1234, "gpt2")
'1,234 pieces (split by the pre-tokenizer “GPT-2 regex”)'
>>> count(1, "whitespace", distinct=True)
'1 distinct word (split on whitespace)'

A pre-tokenizer is called by one name wherever a user picks or reads one (:data:`PRETOKENIZERS`).
"""

from __future__ import annotations

from dataclasses import dataclass

CUSTOM = "custom"
#: The pre-tokenizers' names on every page (Train's box, the Corpus page's, the loaders' for
#: files that store none, the counts of pieces); their ids stay in addresses, session state and
#: the engine. Short enough for Train's box, a third of the page (a longer one was cut mid-word,
#: "GPT-2 regex (words with their le"); what each does is said under the boxes. "None (whole
#: text)" says what the choice does on Train and Corpus alike: Gage's compressor is Train's
#: other mode, and means nothing where a corpus is counted or a file is loaded.
PRETOKENIZERS = {
    "gpt2": "GPT-2 regex",
    "cl100k": "GPT-4 regex (cl100k)",
    "o200k": "GPT-4o regex (o200k)",
    "space-prefix": "Leading-space words",
    "whitespace": "Whitespace words",
    "end-of-word": "Words ending in </w>",
    "none": "None (whole text)",
    CUSTOM: "Custom regex…",
}

# The presets whose pieces are the runs of characters between whitespace.
_WHITESPACE_SPLIT = ("whitespace", "end-of-word")


@dataclass(frozen=True)
class Units:
    """What is counted: ``one``/``many`` ("word"/"words", "piece"/"pieces") and how the text
    was split into them."""

    one: str
    many: str
    split: str

    @property
    def phrase(self) -> str:
        """``words (split on whitespace)``: the plural with how the text was split."""
        return f"{self.many} ({self.split})"

    @property
    def title(self) -> str:
        """``Words``: the plural as a heading or a label."""
        return self.many.capitalize()


#: Runs of characters between spaces, tabs and newlines, as Tokenize and Languages count them.
WHITESPACE_WORDS = Units("word", "words", "split on whitespace")


def units(pretokenizer: str | None) -> Units:
    """What a corpus split by ``pretokenizer`` is counted in (``None``: a word-count list,
    whose words are counted as they are listed).

    >>> units("none").phrase, units(None).phrase
    ('pieces (each document is one piece)', 'words (as listed in the word counts)')
    >>> units(r"\\w+").phrase
    'pieces (split by your own pre-tokenizer regex)'
    """
    if pretokenizer is None:
        return Units("word", "words", "as listed in the word counts")
    if pretokenizer in _WHITESPACE_SPLIT:
        return WHITESPACE_WORDS
    if pretokenizer == "none":
        return Units("piece", "pieces", "each document is one piece")
    if pretokenizer in PRETOKENIZERS and pretokenizer != CUSTOM:
        return Units("piece", "pieces",
                     f"split by the pre-tokenizer “{PRETOKENIZERS[pretokenizer]}”")
    return Units("piece", "pieces", "split by your own pre-tokenizer regex")

#: How a token's writing system is counted, on the Vocabulary page's table and the Languages
#: page's donut alike (the rule of bpe_core.analysis.writing_systems).
SYSTEM_RULE = ("Each token counts once, for the Unicode script most of its letters belong to "
               "(a leading space or ▁, digits and punctuation do not count; a tie goes to the "
               "script written first); private-use and unassigned characters (a font's icons) "
               "count as one more script, private use & unassigned. A token with neither "
               "counts as digits when digits are most of it, as whitespace when it is only "
               "spaces, tabs or newlines, else as punctuation & symbols (emoji too). Partial "
               "UTF-8: a byte-level piece of a character; byte fallback: the <0xNN> tokens; "
               "special & added: tokens the file lists as added, [UNK] and </w>, whatever "
               "their text.")


def count(n: int, pretokenizer: str | None, *, distinct: bool = False) -> str:
    """``n`` with what it counts: ``1,234 words (split on whitespace)``."""
    u = units(pretokenizer)
    noun = u.one if n == 1 else u.many
    return f"{n:,} {'distinct ' if distinct else ''}{noun} ({u.split})"


def documents(n: int) -> str:
    """``1 document``, ``24 documents``. A document is what the user gave: a file, a row of a
    table (a line of a .jsonl file), or the pasted text, however long it is."""
    return f"{n:,} document{'s' * (n != 1)}"


def plural(n: int, noun: str) -> str:
    """``n`` of ``noun``: ``1 language``, ``24 languages``.

    >>> plural(1, "language"), plural(1234, "base symbol")
    ('1 language', '1,234 base symbols')
    """
    return f"{n:,} {noun}{'s' * (n != 1)}"


def times(n: int) -> str:
    """How often a pair or token occurs.

    >>> times(1), times(1234)
    ('1 time', '1,234 times')
    """
    return plural(n, "time")
