"""Tokenizers people train themselves: bpe_core beside Hugging Face ``tokenizers`` on the
pipelines ``tokenizers`` offers for BPE, each trained by ``tokenizers``.

    python -m benchmarks.bench_shapes [--repeat 2] [--shape NAME ...]

Each shape (its own ``CharBPETokenizer`` and ``SentencePieceBPETokenizer``, a ByteLevel,
Whitespace, BERT, Punctuation, Digits or Metaspace pre-tokenizer, or none) is trained by
``tokenizers`` on 300 kB of the English corpus at vocab 8,000 and written as its
``tokenizer.json``; both then encode 1 MB of the English corpus and the 0.5 MB of CJK of
``real_models`` (``benchmarks/model_texts.py``), each on a tokenizer loaded afresh (cold), one
thread, the best of ``--repeat``, the ids checked identical. Needs Debian's ``linux-doc``.

Real models' files are ``real_models``'s; these are the smaller vocabularies a user trains, which
leave more words to merge: a text no pre-tokenizer cuts is one piece whose merges cross its
spaces, merged in Python.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import tokenizers  # noqa: E402
from tokenizers import Regex, decoders as D, models, normalizers as N  # noqa: E402
from tokenizers import pre_tokenizers as P  # noqa: E402
from tokenizers.implementations import CharBPETokenizer, SentencePieceBPETokenizer  # noqa: E402
from tokenizers.trainers import BpeTrainer  # noqa: E402

import bpe_core  # noqa: E402

from .model_texts import long_texts  # noqa: E402

VOCAB, TRAIN_CHARS, ENGLISH_CHARS = 8_000, 300_000, 1_000_000


def _pipeline(pre=None, normalizer=None, byte_level: bool = False):
    def build(text: str) -> str:
        tok = tokenizers.Tokenizer(models.BPE(unk_token=None if byte_level else "[UNK]"))
        if normalizer is not None:
            tok.normalizer = normalizer
        if pre is not None:
            tok.pre_tokenizer = pre
        if byte_level:
            tok.decoder = D.ByteLevel()
        tok.train_from_iterator([text], BpeTrainer(
            vocab_size=VOCAB, show_progress=False, special_tokens=[] if byte_level else ["[UNK]"],
            initial_alphabet=P.ByteLevel.alphabet() if byte_level else []))
        return tok.to_str()
    return build


def _implementation(cls, **options):
    def build(text: str) -> str:
        tok = cls(**options)
        tok.train_from_iterator([text], vocab_size=VOCAB, show_progress=False)
        return tok.to_str()
    return build


SHAPES = {
    "CharBPETokenizer (BERT, </w>)": _implementation(CharBPETokenizer, lowercase=True),
    "SentencePieceBPETokenizer (NFKC, Metaspace)": _implementation(SentencePieceBPETokenizer),
    "ByteLevel": _pipeline(P.ByteLevel(), byte_level=True),
    "ByteLevel without its regex": _pipeline(P.ByteLevel(use_regex=False), byte_level=True),
    "Whitespace": _pipeline(P.Whitespace()),
    "Whitespace, NFD + StripAccents + Lowercase": _pipeline(
        P.Whitespace(), N.Sequence([N.NFD(), N.StripAccents(), N.Lowercase()])),
    "Whitespace then Digits (each)": _pipeline(P.Sequence([P.Whitespace(), P.Digits(True)])),
    "WhitespaceSplit then Punctuation (contiguous)": _pipeline(
        P.Sequence([P.WhitespaceSplit(), P.Punctuation("contiguous")])),
    "Split(\\s+, removed)": _pipeline(P.Split(Regex(r"\s+"), "removed")),
    "Metaspace": _pipeline(P.Metaspace()),
    "no pre-tokenizer": _pipeline(),
}


def _cold(load, encode, repeat: int) -> tuple[float, list[int]]:
    best, ids = float("inf"), []
    for _ in range(repeat):
        tok = load()
        start = time.perf_counter()
        ids = encode(tok)
        best = min(best, time.perf_counter() - start)
    return best, ids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--shape", action="append", help="only shapes whose name holds this")
    args = parser.parse_args()
    texts = long_texts()
    train, english = texts["English"][:TRAIN_CHARS], texts["English"][:ENGLISH_CHARS]
    print("| shape | English 1 MB: tokenizers / bpe_core MB/s | ratio | CJK 0.5 MB | ratio |")
    print("|---|---|---|---|---|")
    for name, build in SHAPES.items():
        if args.shape and not any(s in name for s in args.shape):
            continue
        data = build(train)
        cells = []
        for text in (english, texts["CJK"]):
            mb = len(text.encode("utf-8")) / 1e6
            theirs, want = _cold(lambda: tokenizers.Tokenizer.from_str(data),
                                 lambda t: t.encode(text, add_special_tokens=False).ids,
                                 args.repeat)
            ours, got = _cold(lambda: bpe_core.loads(data.encode(), source="tokenizer.json"),
                              lambda t: t.encode(text), args.repeat)
            same = "" if got == want else " (ids differ)"
            cells += [f"{mb / theirs:.2f} / {mb / ours:.2f}{same}", f"{theirs / ours:.2f}×"]
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
