"""Unicode scripts: which writing system each character of a text belongs to.

>>> script_of("я"), script_of("中"), script_of("7")
('Cyrillic', 'Han', 'Common')
>>> script_counts("Hi, мир!")
{'Common': 3, 'Cyrillic': 3, 'Latin': 2}
>>> dominant_script("Hi, мир!")
'Cyrillic'

Digits, punctuation, spaces and emoji are "Common". Combining marks, variation selectors and
joiners are "Inherited": they take the script of the character they follow, so in counts
"é" written as e + U+0301 is two Latin characters.
"""

from __future__ import annotations

import functools
from collections import Counter

import regex

# Unicode's Script property values (UAX #24) in the `regex` module's spelling; the ones most
# text is written in come first, since the classifier tries them in order.
_SCRIPT_NAMES = """
    Common Latin Han Cyrillic Arabic Inherited Greek Hangul Hiragana Katakana Devanagari Bengali
    Tamil Telugu Kannada Malayalam Gujarati Gurmukhi Oriya Sinhala Thai Lao Khmer Myanmar Hebrew
    Georgian Armenian Ethiopic Tibetan Mongolian Thaana Syriac Bopomofo Yi
    Adlam Ahom Anatolian_Hieroglyphs Avestan Balinese Bamum Bassa_Vah Batak Beria_Erfe Bhaiksuki
    Braille Brahmi Buginese Buhid Canadian_Aboriginal Carian Caucasian_Albanian Chakma Cham
    Cherokee Chorasmian Coptic Cuneiform Cypriot Cypro_Minoan Deseret Dives_Akuru Dogra Duployan
    Egyptian_Hieroglyphs Elbasan Elymaic Garay Glagolitic Gothic Grantha Gunjala_Gondi
    Gurung_Khema Hanifi_Rohingya Hanunoo Hatran Imperial_Aramaic Inscriptional_Pahlavi
    Inscriptional_Parthian Javanese Kaithi Kawi Kayah_Li Kharoshthi Khitan_Small_Script Khojki
    Khudawadi Kirat_Rai Lepcha Limbu Linear_A Linear_B Lisu Lycian Lydian Mahajani Makasar Mandaic
    Manichaean Marchen Masaram_Gondi Medefaidrin Meetei_Mayek Mende_Kikakui Meroitic_Cursive
    Meroitic_Hieroglyphs Miao Modi Mro Multani Nabataean Nag_Mundari Nandinagari New_Tai_Lue Newa
    Nko Nushu Nyiakeng_Puachue_Hmong Ogham Ol_Chiki Ol_Onal Old_Hungarian Old_Italic
    Old_North_Arabian Old_Permic Old_Persian Old_Sogdian Old_South_Arabian Old_Turkic Old_Uyghur
    Osage Osmanya Pahawh_Hmong Palmyrene Pau_Cin_Hau Phags_Pa Phoenician Psalter_Pahlavi Rejang
    Runic Samaritan Saurashtra Sharada Shavian Sidetic Siddham SignWriting Sogdian Sora_Sompeng
    Soyombo Sundanese Sunuwar Syloti_Nagri Tagalog Tagbanwa Tai_Le Tai_Tham Tai_Viet Tai_Yo Takri
    Tangsa Tangut Tifinagh Tirhuta Todhri Tolong_Siki Toto Tulu_Tigalari Ugaritic Vai Vithkuqi
    Wancho Warang_Citi Yezidi Zanabazar_Square
""".split()


def _known(script: str) -> bool:
    try:
        regex.compile(rf"\p{{Script={script}}}")
    except regex.error:
        return False
    return True


# One alternation with a named group per script, so a single match names the script. Scripts
# newer than the installed `regex` release are left out; their characters count as "Unknown".
_CLASSIFIER = regex.compile(
    "|".join(rf"(?P<{s}>\p{{Script={s}}})" for s in _SCRIPT_NAMES if _known(s))
)
# A run of Inherited characters, with the character before it (if any) that gives its script.
_INHERITED_RUN = regex.compile(r"(?s)(\P{Script=Inherited}?)(\p{Script=Inherited}+)")


@functools.lru_cache(maxsize=1 << 16)
def script_of(ch: str) -> str:
    """The Unicode script of one character; "Unknown" for unassigned and private-use ones.

    >>> script_of("a"), script_of("ب"), script_of(" "), script_of("\\u0301")
    ('Latin', 'Arabic', 'Common', 'Inherited')
    """
    if len(ch) != 1:
        raise ValueError(f"script_of takes one character, got {len(ch)}: {ch!r:.40}")
    match = _CLASSIFIER.match(ch)
    return match.lastgroup if match else "Unknown"


def script_counts(text: str) -> dict[str, int]:
    """Characters per script, largest first (ties in order of first appearance).

    Inherited characters are counted with the script of the character before them ("Common"
    at the very start), so the result never has an "Inherited" entry.

    >>> script_counts("cafe\\u0301 ☕")
    {'Latin': 5, 'Common': 2}
    """
    counts: Counter[str] = Counter()
    # Classify each distinct character once: a text has far fewer of those than characters.
    for ch, n in Counter(text).items():
        counts[script_of(ch)] += n
    if counts.pop("Inherited", 0):
        for match in _INHERITED_RUN.finditer(text):
            base, run = match.groups()
            counts[script_of(base) if base else "Common"] += len(run)
    return dict(sorted(counts.items(), key=lambda item: -item[1]))


def dominant_script(text: str) -> str:
    """The script with the most characters, not counting "Common"; "Common" if there is none.

    >>> dominant_script("2024: 東京 and Kyoto")
    'Latin'
    """
    return next((s for s in script_counts(text) if s != "Common"), "Common")
