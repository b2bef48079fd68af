"""Real models on random text: bpe_core beside Hugging Face ``tokenizers`` until time runs out.

    python -m benchmarks.model_fuzz [--seconds 60] [--model NAME ...] [--seed 0]
    BPE_MODELS_DIR=/path/to/models python -m benchmarks.model_fuzz

``real_models`` checks a few dozen chosen texts; this checks as many random ones as
``--seconds`` allows on each model's ``tokenizer.json`` (found as ``real_models`` finds them),
in a fresh process per model. A text is a string of segments drawn from: any code point of any
plane, runs of one script (Latin, CJK, kana, Hangul and its jamo, Devanagari, Thai, Arabic,
Hebrew, Cyrillic), whitespace and digit runs of every kind, one letter or syllable repeated up to
400 times, the model's own added tokens (spaced, cut, doubled, in another case), emoji ZWJ
sequences, flags and keycaps, zero-width and bidi marks, characters normalization changes
(compatibility forms, decomposed letters, jamo), words and contractions. One text in eight has
1-5 characters, one in twenty 2,000-20,000.

Each text is checked as ``real_models`` checks its texts (``encode`` with and without special
tokens, ``decode``), and more: ``decode(..., skip_special_tokens=False)``, and the ids of
``spans`` against ``encode``. The first difference of each kind is shrunk (characters dropped
while it stays) and printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import unicodedata

from .common import child, emit, machine
from .model_files import MODELS, locate
from .model_report import markdown
from .real_models import check, selected


def _chars(*ranges: tuple[int, int]) -> str:
    return "".join(chr(c) for lo, hi in ranges for c in range(lo, hi + 1)
                   if not 0xD800 <= c < 0xE000)


SCRIPTS = [_chars((0x41, 0x5A), (0x61, 0x7A)), _chars((0xC0, 0x24F)), _chars((0x4E00, 0x9FFF)),
           _chars((0x3040, 0x30FF)), _chars((0xAC00, 0xD7A3)),
           _chars((0x1100, 0x11FF), (0x3130, 0x318F)), _chars((0x900, 0x97F)),
           _chars((0xE00, 0xE7F)), _chars((0x600, 0x6FF)), _chars((0x590, 0x5FF)),
           _chars((0x400, 0x4FF)), _chars((0x20000, 0x2A6DF))]
SPACES = " \t\n\r\u3000\xa0\u2009\x0b\x0c\u2003\u202f\u1680\u2028\x85"
DIGITS = "0123456789" + _chars((0x660, 0x669), (0x966, 0x96F), (0xFF10, 0xFF19))
MARKS = "\u200b\u200c\u200d\ufeff\u2060\xad\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2069"
COMPATIBLE = "ﬁﬂﬃ①⑳⑴Ⅻⅻ㎏㍻™℃№ſ²½ｱｶﾞﾟ･ǅΩKÅ" + _chars((0xFF01, 0xFF5E), (0x1D400, 0x1D433))
EMOJI = ["👨\u200d👩\u200d👧\u200d👦", "🏳️\u200d🌈", "👩🏽\u200d💻", "🇯🇵🇫🇷", "1️⃣", "#️⃣",
         "❤️\u200d🔥", "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", "😀🙂"]
WORDS = ["the", " the", "Hello", "HELLO", "don't", "I'm", "we'll", "'s", "'S", "'VE", "’s",
         "tokenization", "naïve", "café", "def", "return", "print(x)", "1,000,000", "3.14159",
         "http://example.com/a?b=c", "```python", "...", "—", "</s>", "<s>", "<unk>", "▁", "Ġ"]


class Texts:
    """Random texts for one model (see the module docstring)."""

    def __init__(self, rng: random.Random, added: list[str]):
        self.rng, self.added = rng, added or ["<|endoftext|>"]

    def any_char(self) -> str:
        while True:
            plane = self.rng.choice([0, 0, 0, 1, 2, 3, 14, 15, 16])
            c = plane << 16 | self.rng.randrange(0x10000)
            if not 0xD800 <= c < 0xE000:
                return chr(c)

    def segment(self, n: int) -> str:
        r = self.rng
        kind = r.randrange(11)
        if kind == 0:
            return "".join(self.any_char() for _ in range(n))
        if kind == 1:
            script = r.choice(SCRIPTS)
            return "".join(r.choice(script) for _ in range(n))
        if kind == 2:
            return r.choice(SPACES) * n if r.random() < 0.5 else "".join(
                r.choice(SPACES) for _ in range(n))
        if kind == 3:
            return "".join(r.choice(DIGITS[:10] if r.random() < 0.7 else DIGITS)
                           for _ in range(n))
        if kind == 4:
            return r.choice(["a", "z", ".", "-", "=", " ", "ab", "ing", "你", "é", "🙂", "ﬁ"]
                            ) * r.randint(20, 400)
        if kind == 5:
            token = r.choice(self.added)
            how = r.randrange(4)
            if how == 0 and len(token) > 2:
                return token[:r.randrange(1, len(token))]
            if how == 1:
                return token * r.randint(2, 3) if r.random() < 0.5 else token.upper()
            around = ["", " ", "  ", "\n", "\t", "\u3000"]
            return r.choice(around) + token + r.choice(around)
        if kind == 6:
            return r.choice(EMOJI)
        if kind == 7:
            return r.choice(MARKS) + "".join(r.choice(r.choice(SCRIPTS)) for _ in range(3))
        if kind == 8:
            c = r.choice(COMPATIBLE + SCRIPTS[1][:200] + SCRIPTS[4][:200])
            return unicodedata.normalize(r.choice(["NFD", "NFKD", "NFC"]), c)
        return r.choice(["", " "]) + r.choice(WORDS)

    def text(self) -> str:
        r = self.rng
        size = r.choices([r.randint(1, 5), r.randint(5, 300), r.randint(300, 2000),
                          r.randint(2000, 20_000)], weights=[12, 73, 10, 5])[0]
        out: list[str] = []
        while sum(map(len, out)) < size:
            out.append(self.segment(max(1, min(size, int(r.expovariate(1 / 12)) + 1))))
        return "".join(out)[:size]


def differs(hf, ours, text: str) -> str | None:
    """The first difference from tokenizers on ``text`` (see the module docstring), or None."""
    found = check(hf, ours, text)
    if found is not None:
        return found
    ids = hf.encode(text).ids
    try:
        if ours.decode(ids, skip_special_tokens=False) != hf.decode(ids,
                                                                     skip_special_tokens=False):
            return "decode(ids, skip_special_tokens=False) differs"
        if [s.id for s in ours.spans(text)] != ours.encode(text):
            return "the ids of spans(text) differ from encode(text)"
    except Exception as e:  # noqa: BLE001 -- any failure of the engine is a finding
        return f"{type(e).__name__}: {e}"
    return None


def shrink(hf, ours, text: str, seconds: float = 30) -> str:
    """A shorter text that still differs: characters dropped, halves first, while it does."""
    stop = time.perf_counter() + seconds
    step = max(1, len(text) // 2)
    while step and time.perf_counter() < stop:
        k, smaller = 0, False
        while k < len(text):
            candidate = text[:k] + text[k + step:]
            if candidate and differs(hf, ours, candidate) is not None:
                text, smaller = candidate, True
            else:
                k += step
        step = step if smaller and step > 1 else step // 2
    return text


def run(path: str, seconds: float, seed: int) -> None:
    """The child's side: random texts on one file until ``seconds`` are spent."""
    import bpe_core
    from tokenizers import Tokenizer

    hf, ours = Tokenizer.from_file(path), bpe_core.load(path)
    added = [t.content for t in hf.get_added_tokens_decoder().values()]
    texts = Texts(random.Random(seed), added)
    checked = characters = 0
    found: dict[str, str] = {}  # the first text of each kind of difference, shrunk
    stop = time.perf_counter() + seconds
    while time.perf_counter() < stop:
        text = texts.text()
        checked, characters = checked + 1, characters + len(text)
        what = differs(hf, ours, text)
        if what is not None:
            kind = what.split(":")[0].split(" (")[0]
            if kind not in found:
                small = shrink(hf, ours, text)
                found[kind] = f"{differs(hf, ours, small)} on {small!r}"
    emit(texts=checked, characters=characters, differences=list(found.values()))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=60, help="checking time per model")
    p.add_argument("--model", action="append", metavar="NAME",
                   help="only the models whose label contains NAME (repeatable)")
    p.add_argument("--seed", type=int, default=0)
    a = p.parse_args()
    print(machine(), flush=True)
    rows, notes = [], []
    for m in selected(a.model):
        path = locate(m)
        if path is None:
            print(f"skipped {m.label}: {m.package} ({m.registry}) not found; {m.install()}")
            continue
        print(f"… {m.label}", flush=True)
        r = child("benchmarks.model_fuzz", "run", str(path), str(a.seconds), str(a.seed),
                  threads=1, timeout=a.seconds + 600)
        rows.append([m.label, f"{r['texts']:,}", f"{r['characters']:,}",
                     str(len(r["differences"])) if r["differences"] else "none"])
        notes += [f"{m.label}: {d}" for d in r["differences"]]
    print(markdown(["model", "texts", "characters", "differences"], rows))
    print("\n".join(notes))


if __name__ == "__main__":
    if sys.argv[1:2] == ["run"]:
        run(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))
    else:
        main()
