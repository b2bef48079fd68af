"""JSON from a file a user gives, read by Python's ``json`` with one more refusal: lists and
objects nested too deeply for it, said with how deep it reads and where the text goes deeper.

``json.loads`` descends once per level and gives up with a RecursionError, which readers that
refuse malformed JSON (``json.JSONDecodeError``) let through: a 20 KB upload of ``[[[…]]]``
showed the app's error box in place of a message. How deep it reads depends on the Python (995
levels on 3.11, 1,497 on 3.12, 9,998 on 3.13), so it is measured when a text is refused. No
tokenizer file, config or corpus line nests anywhere near that deep.

>>> loads('{"merges": [["a", "b"]]}')
{'merges': [['a', 'b']]}
>>> loads('{"a": "[[[", "b": ' + "[" * 100_000 + "]" * 100_000 + "}")  # doctest: +ELLIPSIS
Traceback (most recent call last):
json.decoder.JSONDecodeError: lists or objects nested more than ... levels deep, the most that \
can be read: line 1 column ... (char ...)
"""

from __future__ import annotations

import json
import re

#: A JSON string (whose brackets are text) or a bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
#: Deeper than any Python's reader goes (see above): the search for its depth starts below.
_DEEPEST = 1 << 17


def loads(text: str) -> object:
    """``json.loads(text)``; a ``json.JSONDecodeError`` for JSON nested too deeply to read, at
    the bracket that opens the first level too deep."""
    try:
        return json.loads(text)
    except RecursionError:
        pass  # (raised outside the handler, not chained to a thousand frames of recursion)
    # How deep the reader goes, called from here as it was: the most levels it reads.
    low, high = 0, _DEEPEST
    while high - low > 1:
        middle = (low + high) // 2
        try:
            json.loads("[" * middle + "]" * middle)
            low = middle
        except RecursionError:
            high = middle
    raise json.JSONDecodeError(f"lists or objects nested more than {low:,} levels deep, the "
                               f"most that can be read", text, _opening(text, low + 1))


def _opening(text: str, level: int) -> int:
    """Where the first list or object ``level`` levels deep opens in ``text`` (else the deepest
    one does: a reader that gave up higher than ``level`` in a text that never goes as deep).

    >>> _opening('{"a": "[[", "b": [[1], [[2]]]}', 3), _opening("[[]]", 5)
    (18, 1)
    """
    depth = deepest = where = 0
    for token in _TOKENS.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, token.start()
                if depth >= level:
                    break
        elif bracket in "]}":
            depth -= 1
    return where
