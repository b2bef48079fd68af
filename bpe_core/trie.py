"""A regex that finds any of many literal strings, leftmost and longest, as fast as one.

Models carry thousands of added tokens (Gemma 3: 6,415, mostly ``<unused123>``). Written as one
alternation ``a|b|c|...``, the regex engine tries every alternative at every place in the text;
written as a trie, alternatives that share a beginning share it in the pattern, so at each
place the engine follows one branch per character and gives up at the first that fits none
(a hundred times faster on Gemma 3's tokens; Python's ``re`` compiles it seven times faster
than ``regex`` does). A node that ends a string makes the rest optional and greedy, so the
longest string wins, and backtracking still finds a shorter one.

>>> pattern("ab", "abc", "b")
'(?:ab(?:c)?|b)'
>>> import re
>>> [m.group() for m in re.finditer(pattern("<s>", "<sep>", "<"), "x<sep><s<")]
['<sep>', '<', '<']
"""

from __future__ import annotations

import re
from typing import Iterable

_END = ""  # a key no character is: this node ends a string


def pattern(*strings: str | Iterable[str]) -> str:
    """A regex matching exactly the given non-empty strings (any number, or one iterable)."""
    if len(strings) == 1 and not isinstance(strings[0], str):
        strings = tuple(strings[0])
    trie: dict = {}
    for s in strings:
        node = trie
        for ch in s:
            node = node.setdefault(ch, {})
        node[_END] = True
    return _node(trie)


def _node(node: dict) -> str:
    """The pattern for the strings below ``node`` (without what led to it)."""
    branches = []
    for ch, child in node.items():
        if ch == _END:
            continue
        # A chain of single children is written out in one go (deep tries stay shallow).
        text = re.escape(ch)
        while len(child) == 1 and _END not in child:
            (ch, child), = child.items()
            text += re.escape(ch)
        rest = _node(child)
        if _END in child and rest:
            text += f"(?:{rest})?"
        else:
            text += rest
        branches.append(text)
    if len(branches) < 2:
        return "".join(branches)
    return "(?:" + "|".join(branches) + ")"
