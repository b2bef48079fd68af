"""A rank file's merges, recovered once and kept on disk for the loads after.

Recovering the merges of a rank file (``rank_merges.recover``) is most of its load: on our
machine cl100k's take 0.17 of 0.40 s, o200k's 0.55 of 1.05 s. They follow from the ranks alone,
so the first load writes them to a cache folder, in a file named by a hash of the tokens in rank
order, and every later load of the same ranks reads them back. A file that is not whole (its
SHA-256 is stored in it) or was written by another version is ignored, and the merges are
recovered again.

The folder is ``BPE_CACHE_DIR``, else ``$XDG_CACHE_HOME/bpe-playground``, else
``~/.cache/bpe-playground``; an empty ``BPE_CACHE_DIR`` turns the cache off. A folder that cannot
be written is no error: the merges are then recovered at every load, as without a cache.

>>> table = {bytes([b]): b for b in range(256)} | {b"bc": 256, b"ab": 257, b"abc": 258}
>>> folder = tempfile.mkdtemp()
>>> first = recovered(table, folder=folder)  # recovered, then written
>>> recovered(table, folder=folder) == first, first[1:]  # read back
(True, ([98, 97, 97], [99, 98, 256]))
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Mapping

from .rank_merges import by_rank, recover

#: What a cache file begins with; the number changes whenever what is stored does.
MAGIC = b"bpe-playground recovered merges 1\n"


def cache_dir() -> str:
    """The folder the merges are kept in ("" when the cache is off; see the module)."""
    if "BPE_CACHE_DIR" in os.environ:
        return os.environ["BPE_CACHE_DIR"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bpe-playground")


def recovered(table: Mapping[bytes, int], *, source: str = "the ranks",
              folder: str | None = None) -> tuple[list[bytes], list[int], list[int]]:
    """``rank_merges.recover(table)``, read from the cache (``folder``, by default
    :func:`cache_dir`) when an earlier load wrote it there, else recovered and written there."""
    tokens = by_rank(table, source=source)
    folder = cache_dir() if folder is None else folder
    if not folder:
        return recover(table, source=source)
    path = Path(folder) / f"{_key(tokens)}.merges"
    found = _read(path, tokens)
    if found is not None:
        return tokens, *found
    tokens, left, right = recover(table, source=source)
    _write(path, left, right)
    return tokens, left, right


def _key(tokens: list[bytes]) -> str:
    """A hash of the tokens in rank order (their lengths too: b"ab", b"c" is not b"a", b"bc")."""
    digest = hashlib.sha256(array("I", map(len, tokens)).tobytes())
    digest.update(b"".join(tokens))
    return digest.hexdigest()[:32]


def _read(path: Path, tokens: list[bytes]) -> tuple[list[int], list[int]] | None:
    """The merges stored at ``path`` for ``tokens`` (left parts, right parts); None when there
    are none, or not all of them."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    m, start = len(tokens) - 256, len(MAGIC) + 32
    if (len(data) != start + 8 * m or not data.startswith(MAGIC)
            or hashlib.sha256(data[start:]).digest() != data[len(MAGIC):start]):
        return None
    parts = array("I")
    parts.frombytes(data[start:])
    if sys.byteorder == "big":
        parts.byteswap()  # (stored little-endian)
    return parts[:m].tolist(), parts[m:].tolist()


def _write(path: Path, left: list[int], right: list[int]) -> None:
    """Store the merges at ``path``, whole or not at all (a temporary file renamed): another
    process loading the same ranks meanwhile reads either nothing or all of it."""
    parts = array("I", left + right)
    if sys.byteorder == "big":
        parts.byteswap()
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.stem, suffix=".part")
        with os.fdopen(fd, "wb") as f:
            data = parts.tobytes()
            f.write(MAGIC + hashlib.sha256(data).digest() + data)
        os.replace(temporary, path)
    except OSError:  # a read-only or full disk: the next load recovers them again
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
