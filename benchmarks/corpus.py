"""Benchmark corpora, built from Debian's ``linux-doc`` package into benchmarks/output/.

The text is third-party (the Linux kernel's documentation), so it is only ever written to the
git-ignored output folder, never committed.

* ``en-10mb``: the first 10.5 MB of the English documentation (every ``.rst.gz`` outside
  ``translations/``, in sorted path order, decompressed and concatenated);
* ``en-1mb``: the first 1 MB of the same;
* ``multi-2.8mb``: every translation (``translations/``: zh_CN, zh_TW, it_IT, ja_JP, ko_KR), in
  sorted path order: 2.8 MB, mostly Chinese;
* ``mixed-100mb``: 100 MB of everything textual in the package, in this order: the English
  ``.rst`` files, the translations (zh_CN, ja_JP, ko_KR, it_IT ...), the other compressed text
  files (ABI descriptions, device-tree YAML ...) and then the rendered HTML pages. A real mix
  rather than one file repeated, so the number of distinct words grows as it would.

    python -m benchmarks.corpus        # build all three and print their sizes
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path
from typing import Iterator

DOC = Path("/usr/share/doc/linux-doc-6.1")
OUTPUT = Path(__file__).resolve().parent / "output"
MB = 1_000_000

SIZES = {"en-1mb": 1 * MB, "en-10mb": 10_500_000, "multi-2.8mb": 2_780_000,
         "mixed-100mb": 100 * MB}


def _english() -> list[Path]:
    root = DOC / "Documentation"
    return sorted(p for p in root.rglob("*.rst.gz") if "translations" not in p.relative_to(root).parts)


def _sources(name: str) -> Iterator[bytes]:
    """The raw bytes that make up corpus ``name``, file by file."""
    root = DOC / "Documentation"
    translations = (gzip.decompress(p.read_bytes())
                    for p in sorted((root / "translations").rglob("*.rst.gz")))
    if name.startswith("multi"):
        yield from translations
        return
    yield from (gzip.decompress(p.read_bytes()) for p in _english())
    if not name.startswith("mixed"):
        return
    yield from translations
    others = sorted(p for p in root.rglob("*.gz")
                    if not p.name.endswith((".rst.gz", ".svg.gz")))
    yield from (gzip.decompress(p.read_bytes()) for p in others)
    yield from (p.read_bytes() for p in sorted((DOC / "html").rglob("*.html")))


def corpus_path(name: str) -> Path:
    """The corpus file, built on first use (a minute at most for the 100 MB one)."""
    if name not in SIZES:
        raise ValueError(f"unknown corpus {name!r}; choose one of {', '.join(SIZES)}")
    path = OUTPUT / f"{name}.txt"
    size = SIZES[name]
    if path.exists() and path.stat().st_size <= size and path.stat().st_size > size - 4:
        return path
    if not DOC.is_dir():
        sys.exit(f"error: {DOC} is missing; install Debian's linux-doc package "
                 f"(apt-get install linux-doc) to build the benchmark corpora")
    OUTPUT.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".part")
    written = 0
    with open(tmp, "wb") as out:
        for data in _sources(name):
            # Each file is valid UTF-8 on its own; reject (rare) files that are not, so the
            # corpus always decodes.
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            room = size - written
            if len(data) >= room:
                data = data[:room]
                while data and (data[-1] & 0xC0) == 0x80:  # never cut a character in two
                    data = data[:-1]
                if data and data[-1] >= 0xC0:
                    data = data[:-1]
                out.write(data)
                written += len(data)
                break
            out.write(data)
            written += len(data)
    if written < size - 4:
        sys.exit(f"error: linux-doc holds only {written:,} bytes of text, {name} needs {size:,}")
    tmp.replace(path)
    return path


def read_text(name: str) -> str:
    return corpus_path(name).read_text(encoding="utf-8")


def translation(language: str, chars: int) -> str:
    """The first ``chars`` characters of one translation (``zh_CN``, ``ja_JP``, ``ko_KR`` ...)."""
    folder = DOC / "Documentation" / "translations" / language
    text = ""
    for p in sorted(folder.rglob("*.rst.gz")):
        text += gzip.decompress(p.read_bytes()).decode("utf-8")
        if len(text) >= chars:
            return text[:chars]
    raise SystemExit(f"error: {folder} holds fewer than {chars:,} characters")


if __name__ == "__main__":
    for n in SIZES:
        p = corpus_path(n)
        print(f"{n:12} {p.stat().st_size:>12,} bytes  {p}")
