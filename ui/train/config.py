"""The Train page's settings: unit, pre-tokenizer, when to stop, ties and special tokens.

Defaults come from the active corpus's ``suggested`` settings in the sample manifest, applied
whenever the active corpus changes; the widgets keep their values across page switches.
"""

from __future__ import annotations

import streamlit as st

import bpe_core
from bpe_core import TokenSpan
from bpe_core.presets import iter_pieces, resolve, special_splitter
from bpe_core.training.superbpe import MAX_WORDS, TRANSITION_RATIO, default_transition

from ..shared.state import DEFAULT_SETTINGS, SessionCorpus
from ..shared.tokens import md_escape, tokens_html
from ..shared.wording import CUSTOM, PRETOKENIZERS, plural

#: What each pre-tokenizer does, under its box (the names fit the box: ``PRETOKENIZERS``).
PRETOKENIZER_NOTES = {
    "gpt2": "Words with their leading space, numbers, punctuation.",
    "cl100k": "As GPT-2's, but numbers come in up to three digits, without the space before "
              "them, and contractions match in any case (IT'S).",
    "o200k": "As GPT-4's, but splits CamelCase and keeps a contraction on its word (don't).",
    "space-prefix": "Words with the space before them: ·new, ·renew (Jurafsky & Martin).",
    "whitespace": "Words between whitespace; the spaces themselves are dropped.",
    "end-of-word": "Whitespace words, each ending in `</w>` (Sennrich et al. 2016).",
    "none": "The whole text is one piece: merges cross spaces.",
}
UNITS = {"byte": "Bytes (256 base symbols)", "char": "Characters (those seen in the corpus)"}
TIE_RULES = {"first": "first in the corpus wins", "lowest-id": "lowest token ids win"}
TIE_HELP = ("Which pair is merged when several have the highest count. **First in the "
            "corpus**: the one that occurs first in the corpus as merged so far, as in the code "
            "of Sennrich et al.'s paper and in minbpe. **Lowest token ids**: the one whose left "
            "token, then right token, has the smallest id: on characters, as in Hugging Face's "
            "trainer. On bytes, whose ids here are their values, Hugging Face numbers them in "
            "GPT-2's order instead (the printable ones first, the space after them), so a tie "
            "between byte pairs can go the other way there.")
STOP_BY = {"vocab_size": "Vocabulary size", "max_merges": "Number of merges"}
SPECIALS_HELP = ("Whole strings that are never split, added to the vocabulary after the merges. "
                 "They are cut out of the corpus before its pairs are counted, so no merge is "
                 "learned inside one; Hugging Face's trainer counts their characters as text, "
                 "and may merge them.")

# Widget keys (each persists for the session); _DEFAULTS_FOR remembers whose defaults they hold.
K = {name: f"train_{name}" for name in ("mode", "unit", "byte_fallback", "pretokenizer", "regex",
                                        "stop_by", "vocab_size", "max_merges", "min_frequency",
                                        "tie_break", "specials", "superbpe", "transition")}
# Pre-tokenizers that drop the spaces (or never split at them) leave SuperBPE nothing to cross.
NO_SUPERBPE = ("whitespace", "end-of-word", "none")
_DEFAULTS_FOR = "train_defaults_for"
#: The key of the row of setting groups, which wrap to fewer columns in a narrow window.
SETTINGS_ROW = "train_settings"
# The transition this page last chose itself: while the widget still holds it, it follows the
# vocabulary size; once the user types another, it is theirs.
_AUTO_TRANSITION = "train_transition_auto"
#: Word counts typed by a user are a textbook example: characters, a few merges to step through.
COUNTS_SETTINGS = {"unit": "char", "pretokenizer": "whitespace", "vocab_size": None,
                   "max_merges": 10, "min_frequency": 1}
MODES = {"bpe": "Train a BPE tokenizer", "compress": "Byte-pair compression (Gage 1994)"}


def defaults(corpus: SessionCorpus) -> dict:
    """Widget values for ``corpus``: its sample's suggestions over the playground's defaults."""
    s = dict(DEFAULT_SETTINGS, **(COUNTS_SETTINGS if corpus.is_counts else {}))
    s.update(corpus.sample.suggested if corpus.sample else {})
    pre = s.get("pretokenizer", "gpt2")
    custom = pre not in PRETOKENIZERS
    return {
        "mode": s.get("mode", "bpe"), "unit": s.get("unit", "byte"), "byte_fallback": False,
        "pretokenizer": CUSTOM if custom else pre,
        "regex": pre if custom else bpe_core.PRESETS["gpt2"],
        "stop_by": "vocab_size" if s.get("vocab_size") else "max_merges",
        "vocab_size": int(s.get("vocab_size") or 1000),
        "max_merges": int(s.get("max_merges") or 100),
        "min_frequency": int(s.get("min_frequency", 2)), "tie_break": s.get("tie_break", "first"),
        "specials": "", "superbpe": False,
        "transition": default_transition(int(s.get("vocab_size") or 1000)),
    }


def apply_defaults(corpus: SessionCorpus) -> None:
    """Set the widgets to ``corpus``'s defaults when the active corpus has changed."""
    ss = st.session_state
    if ss.get(_DEFAULTS_FOR) == corpus.digest:
        return
    for name, value in defaults(corpus).items():
        ss[K[name]] = value
    ss[_DEFAULTS_FOR] = corpus.digest


def mode() -> str:
    """BPE training or Gage's compression, chosen at the top of the page."""
    choice = st.segmented_control("What to run", list(MODES), format_func=MODES.get,
                                  key=K["mode"], required=True, persist_state="session",
                                  label_visibility="collapsed")
    return choice or "bpe"


def preview_line(corpus: SessionCorpus, limit: int = 160) -> str:
    """A line of the corpus to show the pre-tokenizer on."""
    for line in corpus.text.splitlines():
        line = line.strip()
        if line:
            if len(line) > limit:
                cut = line.rfind(" ", 0, limit)
                line = line[:cut if cut > limit // 2 else limit]
            return line
    return "Hello world's 123 CamelCase tokens!"


def preview_pieces(line: str, pattern: str, special_tokens: tuple[str, ...] = ()
                   ) -> list[TokenSpan]:
    """The pieces of the preview's line, as training cuts it: each special token whole, first,
    then the text between them by the pre-tokenizer; a user's regex runs within its time limit
    on it (a bounded line: ``preview_line``), raising ``PatternTimeout`` past it.

    >>> [(s.token, s.special) for s in preview_pieces("a<s>b c", r"\\S+", ("<s>",))]
    [('a', False), ('<s>', True), ('b', False), ('c', False)]
    """
    spans, pos = [], 0
    splitter = special_splitter(special_tokens)
    for m in splitter.finditer(line) if splitter else ():
        spans += _pieces(line[pos:m.start()], pattern, pos)
        spans.append(TokenSpan(0, m[0], m[0].encode("utf-8"), m.start(), m.end(), special=True))
        pos = m.end()
    spans += _pieces(line[pos:], pattern, pos)
    return [span._replace(id=i) for i, span in enumerate(spans)]


def _pieces(text: str, pattern: str, offset: int) -> list[TokenSpan]:
    return [TokenSpan(0, piece, piece.encode("utf-8"), offset + start, offset + start + len(piece))
            for start, piece in iter_pieces(text, pattern)]


def _preview(line: str, spans: list[TokenSpan], preset: str, counts: bool) -> None:
    st.html(tokens_html(spans, line, id_label="piece"))
    end = " then ends in the </w> symbol." if preset == "end-of-word" else ""
    if counts:  # (count_words takes a word -> count table as words already cut)
        st.caption(f"Word counts are words already: training merges inside each counted word "
                   f"and cuts none{f'; each word{end}' if end else '.'} The pre-tokenizer cuts "
                   f"only the passage and your sentence, as here "
                   f"({plural(len(spans), 'piece')}). Hover a piece for its bytes.")
        return
    kept = (" Special tokens, outlined, are cut out first and kept whole."
            if any(s.special for s in spans) else "")
    st.caption(f"{plural(len(spans), 'piece')}: merges never cross a piece boundary."
               f"{f' Each piece{end}' if end else ''}{kept} Hover a piece for its bytes.")


def _superbpe(corpus: SessionCorpus, unit: str, preset: str, stop_by: str) -> int | None:
    """The SuperBPE switch and transition point; returns the transition, or None when off."""
    why_not = ("needs byte-level units" if unit != "byte"
               else "needs running text, not word counts" if corpus.is_counts
               else "needs a pre-tokenizer that keeps the spaces" if preset in NO_SUPERBPE
               else "needs a vocabulary size to stop at" if stop_by != "vocab_size" else "")
    on = st.checkbox("SuperBPE (superwords)", key=K["superbpe"],
                     persist_state="session", disabled=bool(why_not),
                     help="SuperBPE (Liu et al. 2025) trains ordinary BPE up to the transition "
                          "vocabulary size, then goes on over pieces that cross single spaces, "
                          f"so tokens such as ·of·the can form (up to {MAX_WORDS} words a "
                          "token)."
                          + (f" Here it {why_not}." if why_not else ""))
    if not on or why_not:
        return None
    value = st.number_input("Transition (vocabulary size where stage 2 starts)", min_value=1,
                            step=50, key=K["transition"], persist_state="session",
                            help=f"Ordinary BPE runs up to this vocabulary size, superwords "
                                 f"fill the rest. It follows the vocabulary size at "
                                 f"{TRANSITION_RATIO:.0%} of it (the SuperBPE paper's main "
                                 f"models switch at 180k of 200k) until you change it.")
    return int(value)


def _follow_vocab_size() -> None:
    """Keep the transition at its rule's value for the vocabulary size, unless the user set it.

    Runs before the transition widget is drawn, so writing its value is allowed."""
    ss = st.session_state
    auto = default_transition(int(ss[K["vocab_size"]]),
                              special_tokens=len(set(ss[K["specials"]].split())))
    if ss.get(K["transition"]) in (None, ss.get(_AUTO_TRANSITION), auto):
        ss[K["transition"]] = ss[_AUTO_TRANSITION] = auto


def render(corpus: SessionCorpus) -> tuple[dict | None, str | None]:
    """Draw the settings; return ``(settings for training, None)`` or ``(None, error message)``."""
    ss = st.session_state
    # Three groups side by side where each gets 13rem (208 px), else two, else one under the
    # other: three equal columns were 113 px each at 800 px with the sidebar open, and cut
    # "Byte fallback", "SuperBPE (superwords)" and the chosen options short.
    st.html(f"<style>.st-key-{SETTINGS_ROW} > div {{flex: 1 1 13rem}}</style>")
    row = st.container(horizontal=True, gap="medium", key=SETTINGS_ROW)
    c1, c2, c3 = (row.container() for _ in range(3))
    with c1:
        unit = st.radio("Base symbols", list(UNITS), format_func=UNITS.get, key=K["unit"],
                        persist_state="session",
                        help="Byte-level BPE starts from the 256 byte values, so it never meets an "
                             "unknown symbol. Character BPE starts from the characters in the "
                             "corpus; anything else becomes [UNK].")
        if unit == "char":
            # (A short label: a checkbox's stays on one line, cut short in a narrow column.)
            st.checkbox("Byte fallback", key=K["byte_fallback"], persist_state="session",
                        help="Characters not seen in the corpus become their UTF-8 bytes "
                             "(<0xNN> tokens) instead of [UNK].")
        st.number_input("Minimum pair frequency", min_value=1, step=1, key=K["min_frequency"],
                        persist_state="session",
                        help="Stop when the most frequent pair occurs fewer times than this.")
        st.text_input("Special tokens (separated by spaces)", key=K["specials"],
                      persist_state="session", placeholder="<|endoftext|> <pad>",
                      help=SPECIALS_HELP)
    with c2:
        preset = st.selectbox("Pre-tokenizer", list(PRETOKENIZERS), format_func=PRETOKENIZERS.get,
                              key=K["pretokenizer"], persist_state="session",
                              help="Cuts the text into pieces before BPE; merges stay inside a "
                                   "piece.")
        if preset == CUSTOM:
            st.text_input("Custom regex (each match is one piece)", key=K["regex"],
                          persist_state="session")
        else:
            st.caption(PRETOKENIZER_NOTES[preset])
        st.selectbox("Tie rule", list(TIE_RULES), format_func=TIE_RULES.get, key=K["tie_break"],
                      persist_state="session",
                      help=TIE_HELP)
    with c3:
        stop_by = st.radio("Stop at", list(STOP_BY), format_func=STOP_BY.get, key=K["stop_by"],
                           horizontal=True, persist_state="session")
        if stop_by == "vocab_size":
            st.number_input("Vocabulary size (base symbols + merges + special tokens)",
                            min_value=1, step=50, key=K["vocab_size"], persist_state="session")
        else:
            st.number_input("Number of merges", min_value=0, step=10, key=K["max_merges"],
                            persist_state="session")
        _follow_vocab_size()
        transition = _superbpe(corpus, unit, preset, stop_by)
    pretokenizer = ss[K["regex"]] if preset == CUSTOM else preset
    line = preview_line(corpus)
    try:  # a regex that does not compile, or takes too long on the preview's line
        _, pattern = resolve(pretokenizer)
        pieces = preview_pieces(line, pattern, tuple(ss[K["specials"]].split()))
    except bpe_core.PatternError as exc:
        # (The message quotes the regex: its $ signs and backslashes are no Markdown.)
        st.error(md_escape(f"The custom pre-tokenizer regex does not work: {exc}"))
        return None, str(exc)
    with st.expander("How this pre-tokenizer cuts a line of the corpus", expanded=preset == CUSTOM):
        _preview(line, pieces, preset, corpus.is_counts)
    settings = {
        "transition": transition, "unit": unit, "pretokenizer": pretokenizer,
        "min_frequency": int(ss[K["min_frequency"]]),
        "tie_break": ss[K["tie_break"]], "special_tokens": tuple(ss[K["specials"]].split()),
        "byte_fallback": unit == "char" and bool(ss.get(K["byte_fallback"])),
        "vocab_size": int(ss[K["vocab_size"]]) if stop_by == "vocab_size" else None,
        "max_merges": int(ss[K["max_merges"]]) if stop_by == "max_merges" else None,
    }
    size = (f"vocab {settings['vocab_size']}" if stop_by == "vocab_size"
            else f"{settings['max_merges']} merges")
    origin = corpus.sample.id if corpus.sample else corpus.name
    method = "superbpe" if transition else unit
    pre = "regex" if preset == CUSTOM else preset
    settings["name"] = f"{origin} · {method} · {pre} · {size}"
    return settings, None
