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
from . import config, data, gage
from .view import SENTENCE

URL_READ, PENDING_STEP, PROBLEM = "train_url_read", "train_url_step", "train_url_problem"
_COUNTS = range(1, 10**9)
CHOICES = {"mode": config.MODES, "unit": config.UNITS, "pretokenizer": config.PRETOKENIZERS,
           "stop_by": config.STOP_BY, "tie_break": config.TIE_RULES, "vocab_size": _COUNTS,
           "min_frequency": _COUNTS, "transition": _COUNTS}


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
    problems = []
    try:
        corpus = corpus_link.corpus_from(params)
    except ValueError as exc:
        corpus = None
        problems.append(str(exc))
    if corpus is not None:
        state.set_corpus(corpus)
    corpus = state.active_corpus()
    config.apply_defaults(corpus)
    values, bad = data.read_settings(params, config.defaults(corpus), CHOICES)
    for name, value in values.items():
        ss[config.K[name]] = value
    if "transition" not in params:  # none given: the page's own, for the link's vocabulary size
        del ss[config.K["transition"]]
    step = params.get("step", "")
    if step.isascii() and step.isdigit():
        ss[PENDING_STEP] = int(step)
    elif step:
        bad.append("step")
    if "sentence" in params:
        ss[SENTENCE] = params["sentence"][:corpus_link.LINK_CHARS]
    if "gage" in params:  # marked as this corpus's, so the compressor does not reset it
        ss[gage.TEXT], ss[gage.TEXT_FOR] = params["gage"], corpus.digest
    if bad:
        problems.append(f"these settings in the link were not understood and keep their "
                        f"defaults: {', '.join(bad)}")
    if problems:
        text = "; ".join(problems)
        ss[PROBLEM] = f"{text[0].upper()}{text[1:]}."


def problem(*, forget: bool = False) -> str | None:
    """What the address asked for that could not be used; kept (the page reruns once when the
    address changed the corpus) until ``forget``, when the user starts training anew."""
    if forget:
        st.session_state.pop(PROBLEM, None)
    return st.session_state.get(PROBLEM)


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
