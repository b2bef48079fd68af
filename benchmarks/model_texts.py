"""The texts ``benchmarks.real_models`` encodes with each model: short ones on which the ids
must agree (prose, code, 29 languages, emoji, right-to-left, whitespace, compatibility forms,
the file's added tokens), long ones from linux-doc for throughput, and texts of growing length.
"""

from __future__ import annotations

import csv
import random

from .common import ROOT

ENGLISH_BYTES = 2_000_000
CJK_BYTES = 500_000

ENGLISH = (
    "Byte-pair encoding starts from single characters and keeps merging the most frequent "
    "neighbouring pair. After a few thousand merges, common words such as \"the\" or \"because\" "
    "are single tokens, while rarer ones (antidisestablishmentarianism, Llanfairpwllgwyngyll) "
    "are still cut into pieces. Isn't it odd? It's 3.14159 times odder in 2024-11-25's logs: "
    "I'll say we'd rather they've    not.")

CODE = '''def count_pairs(ids: list[int]) -> dict[tuple[int, int], int]:
    """Count adjacent pairs."""
	counts = {}  # a tab-indented line, on purpose
    for a, b in zip(ids, ids[1:]):
        counts[a, b] = counts.get((a, b), 0) + 1
    return counts


if __name__ == "__main__":
    print(count_pairs([1, 2, 1, 2, 3]))  # {(1, 2): 2, (2, 1): 1, (2, 3): 1}
    x = 0x1F + 1_000_000 ** 2 // 7; y = f"{x!r:>10}" if x >= 10 else '\\n'
'''

EMOJI = ("Family 👩‍👩‍👧‍👦, rainbow flag 🏳️‍🌈, astronaut 🧑🏿‍🚀, thumbs up 👍🏽, keycap 1️⃣, flags "
         "🇯🇵🇫🇷, heart on fire ❤️‍🔥, and a lone ZWJ\u200d between letters: a\u200db.")

RTL = ("English, then Arabic: مرحبا بالعالم، كيف حالك؟ then Hebrew: שלום עולם! "
       "with marks \u200fRLM\u200f and \u200eLRM\u200e, an isolate \u2067עברית 123\u2069, "
       "digits ١٢٣٤٥ and ۱۲۳.")

WHITESPACE = ("  leading spaces, two  spaces, three   spaces,\ttab,\t\ttwo tabs\n\nblank line\n\n\n"
              "   \n \r\n windows line, no-break\u00a0space, ideographic\u3000space, trailing   ")

COMPAT = ("Compatibility forms: ﬁne ﬂow, ① ② Ⅻ, ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３, ㌔, ½, x², "
          "é (one code point) and e\u0301 (two), Å and \u212b, ﹏ ﹖, \u00ad soft hyphen.")


def parallel_sentences() -> dict[str, str]:
    """Each language of the bundled parallel sample, its sentences one per line."""
    path = ROOT / "assets" / "parallel" / "sentences.tsv"
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    return {code: "\n".join(row[k] for row in rows[1:]) for k, code in enumerate(rows[0])}


def added_tokens_text(hf) -> str:
    """A sentence around the file's first few special and non-special added tokens."""
    added = sorted(hf.get_added_tokens_decoder().items())
    special = [t.content for _, t in added if t.special][:3]
    plain = [t.content for _, t in added if not t.special][:2]
    picked = special + plain
    if not picked:
        return ""
    return "Start" + " middle ".join(picked) + "\nand " + " ".join(picked) + "end."


def short_texts(hf) -> dict[str, str]:
    texts = {"English prose": ENGLISH, "Python code": CODE, "emoji ZWJ": EMOJI,
             "right-to-left": RTL, "whitespace runs": WHITESPACE, "compatibility forms": COMPAT,
             "empty": "", "one space": " ", "newline": "\n"}
    texts.update({f"sentences.tsv {code}": s for code, s in parallel_sentences().items()})
    added = added_tokens_text(hf)
    if added:
        texts["added tokens in text"] = added
    return texts


def _cut(text: str, size: int) -> str:
    """The longest prefix of ``text`` of at most ``size`` UTF-8 bytes."""
    return text.encode("utf-8")[:size].decode("utf-8", errors="ignore")


def long_texts() -> dict[str, str]:
    """2 MB of English and 0.5 MB of CJK from linux-doc (the caller checked it is installed)."""
    from .corpus import read_text, translation

    cjk = (translation("ja_JP", 15_000) + translation("ko_KR", 15_000)
           + translation("zh_CN", 300_000))
    return {"English": _cut(read_text("en-10mb"), ENGLISH_BYTES), "CJK": _cut(cjk, CJK_BYTES)}


GROWTH_SMALL, GROWTH_LARGE = 10_000, 200_000

GROWTH_KINDS = ("prose", "CJK", "'a' run")


def growth_texts(with_long: bool) -> dict[str, str]:
    """Text of each kind, ``GROWTH_LARGE`` characters long (prose only with linux-doc)."""
    rng = random.Random(0)
    texts = {"CJK": "".join(chr(rng.randint(0x4E00, 0x9FFF)) for _ in range(GROWTH_LARGE)),
             "'a' run": "a" * GROWTH_LARGE}
    if with_long:
        texts["prose"] = long_texts()["English"][:GROWTH_LARGE]
    return texts
