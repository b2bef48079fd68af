"""The bundled samples: the corpora listed in ``assets/samples/manifest.json`` and the parallel
multilingual sample in ``assets/parallel/``.

A sample corpus is plain text (a file, or a folder of .txt files read in name order) or a JSON
object of word counts (the textbook toy corpora).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from bpe_core.analysis.parallel import ParallelCorpus, read_table

ASSETS = Path(__file__).resolve().parents[2] / "assets"
SAMPLES = ASSETS / "samples"
PARALLEL = ASSETS / "parallel"
DEFAULT_SAMPLE = "english"


@dataclass(frozen=True)
class Sample:
    id: str
    title: str
    path: str
    kind: str  # "text" or "counts"
    description: str = ""
    language: str = ""
    script: str = ""
    suggested: dict = field(default_factory=dict, compare=False, hash=False)

    def documents(self) -> tuple[str, ...]:
        """The sample's text, one document per file."""
        p = SAMPLES / self.path
        files = sorted(p.glob("*.txt")) if p.is_dir() else [p]
        return tuple(f.read_text(encoding="utf-8") for f in files)

    def counts(self) -> dict[str, int]:
        """The word counts of a "counts" sample."""
        return json.loads((SAMPLES / self.path).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def samples() -> dict[str, Sample]:
    """Sample id -> Sample, in the manifest's order."""
    entries = json.loads((SAMPLES / "manifest.json").read_text(encoding="utf-8"))
    fields = set(Sample.__dataclass_fields__)
    return {e["id"]: Sample(**{k: v for k, v in e.items() if k in fields}) for e in entries}


def parallel_sample() -> ParallelCorpus:
    """The parallel sample: about 30 everyday sentences in about 30 languages (our own writing)."""
    # Its header holds the codes of bpe_core's languages.json, so every column is a known language.
    return read_table("sentences.tsv", (PARALLEL / "sentences.tsv").read_bytes(),
                      name="Parallel sample")
