"""The tokenizers the server keeps for the sessions to come, within one budget of tokens.

A tokenizer that takes seconds to read is read once per server process (``st.cache_resource``)
and shared by every session that loads it: a Hugging Face Hub model (``catalogue``), an uploaded
file and an OpenAI reference encoding (``loaders``). Each cache alone was bounded by its number of
entries only, so after every session had gone the server could still hold about 1.4 GB of Hub
models, 0.95 GB of uploads and 0.4 GB of references (six, four and three of the largest). A
loaded tokenizer holds about 0.5 to 0.9 KB a token (measured: o200k's 200,000 tokens 90 MB,
Gemma 3's 262,145 175 MB, 238 MB once its vocabulary is listed), so the three caches share one
budget of tokens: the entry used longest ago is let go first, and read again when asked for.
The entry used last always stays, whatever its size. A session that holds a tokenizer let go
keeps it.

>>> let_go = []
>>> budget = Budget(tokens=10, entries=3)
>>> for key, size in [("a", 4), ("b", 4), ("a", 4), ("c", 4)]:
...     budget.used(key, size, lambda key=key: let_go.append(key))
>>> let_go, budget.keys()
(['b'], ['a', 'c'])
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

#: What the three caches keep together: Gemma 3, GPT-OSS, Qwen 3 and Llama 3 fit at once
#: (742,089 tokens; 510 MB loaded, measured one by one).
KEPT_TOKENS, KEPT_ENTRIES = 768_000, 8


class Budget:
    """Entries kept within ``tokens`` in all and ``entries`` in number, the one used longest
    ago let go first (see the module)."""

    def __init__(self, *, tokens: int, entries: int):
        self.tokens, self.entries = tokens, entries
        self._kept: OrderedDict[Hashable, tuple[int, Callable[[], None]]] = OrderedDict()
        self._lock = threading.Lock()  # sessions run in threads of their own

    def used(self, key: Hashable, size: int, let_go: Callable[[], None]) -> None:
        """Note that ``key`` (``size`` tokens; ``let_go()`` drops it from its cache) was just
        used, and let go of the entries used longest ago while the budget is exceeded."""
        with self._lock:
            self._kept[key] = (size, let_go)
            self._kept.move_to_end(key)
            while len(self._kept) > 1 and (
                    len(self._kept) > self.entries
                    or sum(size for size, _ in self._kept.values()) > self.tokens):
                self._kept.popitem(last=False)[1][1]()

    def forget(self, kind: str) -> None:
        """Drop the entries whose key starts with ``kind`` without letting them go: their cache
        was cleared whole (a stale entry would still count against the budget, and push out
        others)."""
        with self._lock:
            for key in [k for k in self._kept if isinstance(k, tuple) and k[:1] == (kind,)]:
                del self._kept[key]

    def keys(self) -> list[Hashable]:
        """The keys kept, used last at the end."""
        with self._lock:
            return list(self._kept)


#: The one budget of the server process.
TOKENIZERS = Budget(tokens=KEPT_TOKENS, entries=KEPT_ENTRIES)
