"""The Train page in its address: the corpus (a bundled sample, or typed word counts or text
when short), the settings that differ from the corpus's defaults, the step on show, the
user's sentence and the text given to Gage's compressor.

Streamlit's session state is gone after a reload; the address is not. Reading it back trains
the run again (training is deterministic) and goes to the same step, paused. An uploaded corpus
cannot go in an address, and the page says so plainly.
"""

from __future__ import annotations

import streamlit as st

from ..shared import corpus_link, state
from ..shared.tokens import md_escape
from ..shared.wording import PRETOKENIZERS, plural
from . import config, data, gage
from .view import SENTENCE, SENTENCE_CHARS

URL_READ, PENDING_STEP, PROBLEM = "train_url_read", "train_url_step", "train_url_problem"
ASKED_STEP = "train_url_step_asked"  # the step the link asked for, until the run is shown
_COUNTS = range(1, 10**9)
CHOICES = {"mode": config.MODES, "unit": config.UNITS, "pretokenizer": PRETOKENIZERS,
           "stop_by": config.STOP_BY, "tie_break": config.TIE_RULES, "vocab_size": _COUNTS,
           "min_frequency": _COUNTS, "transition": _COUNTS}
#: The page's labels of the settings a link holds, to say which one a bad value left alone.
LABELS = {"mode": "What to run", "unit": "Base symbols", "byte_fallback": "Byte fallback",
          "pretokenizer": "Pre-tokenizer", "regex": "Custom regex", "stop_by": "Stop at",
          "vocab_size": "Vocabulary size", "max_merges": "Number of merges",
          "min_frequency": "Minimum pair frequency", "tie_break": "Tie rule",
          "specials": "Special tokens", "superbpe": "SuperBPE", "transition": "Transition"}


def read() -> None:
    """Take the corpus, settings, step and sentence from the address, once per session (call
    before the settings are drawn); what could not be used is kept for :func:`problem`."""
    ss = st.session_state
    if ss.get(URL_READ):
        return
    ss[URL_READ] = True
    params = st.query_params.to_dict()
    if not params:
        return
    failed, named = "", False
    try:
        corpus = corpus_link.corpus_from(params)
    except ValueError as exc:
        corpus, failed = None, str(exc)
        named = isinstance(exc, corpus_link.UploadGone)  # (its message names the corpus used)
    if corpus is not None:
        state.set_corpus(corpus)
    corpus = state.active_corpus()
    if failed and not named:
        failed += f", so the page uses {md_escape(corpus.name)} instead"
    config.apply_defaults(corpus)
    defaults = config.defaults(corpus)
    values, bad = data.read_settings(params, defaults, CHOICES)
    for name, value in values.items():
        ss[config.K[name]] = value
    if "transition" not in params:  # none given: the page's own, for the link's vocabulary size
        del ss[config.K["transition"]]
    parts = [unused(name, params[name], _kept(name, defaults[name])) for name in bad]
    step = params.get("step", "")
    if step.isascii() and step.isdigit():
        ss[PENDING_STEP] = ss[ASKED_STEP] = int(step)
    elif step:  # a run was on show: train it, at its start
        ss[PENDING_STEP] = 0
        parts.append(unused("step", step, "merge 0 is shown"))
    if "sentence" in params:  # (the box takes no more)
        ss[SENTENCE] = params["sentence"][:SENTENCE_CHARS]
        if len(params["sentence"]) > SENTENCE_CHARS:
            parts.append(unused("sentence", params["sentence"],
                                f"its first {SENTENCE_CHARS:,} characters are kept"))
    if "gage" in params:  # marked as this corpus's, so the compressor does not reset it
        ss[gage.TEXT], ss[gage.TEXT_FOR] = params["gage"], corpus.digest
    if failed or parts:
        ss[PROBLEM] = failed, parts


def unused(name: str, raw: str, instead: str) -> str:
    """One part of the link the page could not use, and what it does instead (Markdown).

    >>> print(unused("max_merges", "abc", "Number of merges stays 10"))
    max\\_merges=abc (Number of merges stays 10)
    """
    raw = raw if len(raw) <= 24 else f"{raw[:24]}…"
    return f"{md_escape(f'{name}={raw}')} ({md_escape(instead)})"


def _kept(name: str, value: object) -> str:
    """What a setting the link could not set stays at, as the page labels it."""
    labels = CHOICES.get(name)
    shown = (labels.get(value, value) if isinstance(labels, dict)
             else ("on" if value else "off") if isinstance(value, bool) else value)
    return f"{LABELS[name]} stays {shown}"


def check_step(shown: int) -> None:
    """Once the run of a link is on show at step ``shown``: say so if the link asked for a
    step past the run's last merge."""
    asked = st.session_state.pop(ASKED_STEP, None)
    if asked is not None and asked > shown:
        corpus, parts = st.session_state.get(PROBLEM) or ("", [])
        more = unused("step", str(asked), f"the run has {plural(shown, 'merge')}: merge "
                                          f"{shown:,} is shown")
        st.session_state[PROBLEM] = corpus, [*parts, more]


def problem(*, forget: bool = False) -> str | None:
    """What the address asked for that could not be used, in one note; kept (the page reruns
    once when the address changed the corpus) until ``forget``, when the user starts training
    anew."""
    ss = st.session_state
    if forget:
        ss.pop(PROBLEM, None)
        ss.pop(ASKED_STEP, None)
    corpus, parts = ss.get(PROBLEM) or ("", [])
    lines = [f"{corpus[:1].upper()}{corpus[1:]}." if corpus else "",
             f"{'Parts' if len(parts) > 1 else 'Part'} of the link could not be used: "
             f"{'; '.join(parts)}." if parts else ""]
    return " ".join(line for line in lines if line) or None


def pending_step() -> int | None:
    """The step the address asked for, once: the page trains the run again and goes there."""
    return st.session_state.pop(PENDING_STEP, None)


def write(corpus: state.SessionCorpus, *, step: int | None) -> None:
    """Put the page's state in the address (``step``: the step on show of an up-to-date run)."""
    ss = st.session_state
    defaults = config.defaults(corpus)
    wanted = corpus_link.address(corpus)
    wanted |= data.settings_params({n: ss.get(config.K[n]) for n in defaults}, defaults)
    if step is not None:
        wanted["step"] = str(step)
    sentence = ss.get(SENTENCE) or ""
    if sentence and len(sentence) <= corpus_link.LINK_CHARS:
        wanted["sentence"] = sentence
    text = ss.get(gage.TEXT) or ""
    if (ss.get(config.K["mode"]) == "compress" and text != gage.default_text(corpus)
            and len(text) <= corpus_link.LINK_CHARS):
        wanted["gage"] = text
    if st.query_params.to_dict() != wanted:
        st.query_params.from_dict(wanted)


def note(corpus: state.SessionCorpus) -> None:
    """Say what a reload keeps."""
    corpus_link.note(corpus, kept="the corpus, the settings and the step on show (the run is "
                                  "trained again)")
