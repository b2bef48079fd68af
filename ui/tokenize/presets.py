"""Example texts for the Tokenize page: textbook sentences, languages, code, numbers, emoji and
characters that try to break a page.

The language examples come from the bundled parallel sample (the same sentence in many
languages), so they say the same thing and their token counts can be compared fairly.

>>> presets()["Textbook: lowest price"]
'the lowest price is lower than the last one'
"""

from __future__ import annotations

import csv
from functools import lru_cache

from ..shared.samples import ASSETS

PARALLEL = ASSETS / "parallel" / "sentences.tsv"

#: Languages shown in the "many languages" example, by their column in the parallel sample.
LANGUAGES = {"en": "English", "es": "Spanish", "ru": "Russian", "el": "Greek", "ar": "Arabic",
             "hi": "Hindi", "th": "Thai", "zh": "Chinese", "ja": "Japanese", "ko": "Korean"}

CODE = '''def mean(values: list[float]) -> float:
    """Average of a non-empty list."""
    if not values:
        raise ValueError("no values")
    return sum(values) / len(values)


print(f"{mean([3, 4, 5]):.2f}")  # 4.00
'''

NUMBERS = """Order 40721 shipped on 2024-03-15 at 09:45.
Total: $1,234.56 (incl. 8.5% tax); 12 × 7 = 84; π ≈ 3.14159.
Phone +44 20 7946 0958, room 101, version 3.10.2, 1000000 vs 1,000,000."""

EMOJI = """Thumbs up 👍 and a heart ❤️ — coffee ☕ first!
Family 👨‍👩‍👧 (one emoji, five code points), flags 🇯🇵 🇧🇷, skin tone 👋🏽.
Accents: café, naïve, Zürich; maths ∑ √ ∞ ≠; arrows → ⇒ ↺."""

HOSTILE = ("<script>alert('hi')</script> <img src=x onerror=alert(1)> &amp; &lt;b&gt;\n"
           "**bold?** `code?` [link](javascript:alert(1)) $x^2$ # heading?\n"
           "zero\u200bwidth, joiner\u200dhere, bidi \u202eoverride\u202c and \u2067isolate\u2069.")


@lru_cache(maxsize=1)
def _parallel_row() -> dict[str, str]:
    """The parallel sample's second sentence, by language code (an empty dict if it is missing)."""
    try:
        with open(PARALLEL, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f, delimiter="\t", quoting=csv.QUOTE_NONE))
    except OSError:
        return {}
    return dict(zip(rows[0], rows[2])) if len(rows) > 2 else {}


def many_languages() -> str:
    """One sentence, one line per language: ``English: It will probably rain…``."""
    row = _parallel_row()
    return "\n".join(f"{name}: {row[code]}" for code, name in LANGUAGES.items() if code in row)


@lru_cache(maxsize=1)
def presets() -> dict[str, str]:
    """Example name -> text, in the order the page offers them."""
    out = {
        "Textbook: lowest price": "the lowest price is lower than the last one",
        "Textbook: NLP sentence": "Natural language processing is interesting",
        "Textbook: low, lower, newest, widest": "low lower newest widest",
    }
    langs = many_languages()
    if langs:
        out["Many languages, one sentence"] = langs
    out.update({
        "Code (Python)": CODE,
        "Numbers, dates and prices": NUMBERS,
        "Emoji and accents": EMOJI,
        "Tricky: HTML, markdown, invisible characters": HOSTILE,
    })
    return out
