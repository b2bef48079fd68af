"""JSON from a file a user gives, read by Python's ``json`` with one more refusal: lists and
objects nested too deeply for it.

``json.loads`` descends once per level and gives up near a thousand levels with a
RecursionError, which readers that refuse malformed JSON (``json.JSONDecodeError``) let through:
a 20 KB upload of ``[[[…]]]`` showed the app's error box in place of a message. No tokenizer
file, config or corpus line nests anywhere near that deep.

>>> loads('{"merges": [["a", "b"]]}')
{'merges': [['a', 'b']]}
>>> loads("[" * 100_000 + "]" * 100_000)
Traceback (most recent call last):
json.decoder.JSONDecodeError: lists or objects nested too deeply to read: line 1 column 1 (char 0)
"""

from __future__ import annotations

import json


def loads(text: str) -> object:
    """``json.loads(text)``; a ``json.JSONDecodeError`` for JSON nested too deeply to read."""
    try:
        return json.loads(text)
    except RecursionError:
        raise json.JSONDecodeError("lists or objects nested too deeply to read", text, 0
                                   ) from None
