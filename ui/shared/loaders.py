"""The "load a tokenizer" panel, shared by the Tokenize, Vocabulary and Languages pages: upload a
tokenizer file (ours, Hugging Face's, tiktoken's or GPT-2's), fetch one of OpenAI's encodings by
name, or a Hugging Face model's tokenizer by its id (``catalogue``). What loads joins this
session's tokenizers (``state.add_tokenizer``) and becomes the active one; what does not gets a
message saying why.

``read_upload`` does the work without Streamlit, so tests call it directly.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

import streamlit as st

import bpe_core
from bpe_core.formats import loads_files
from bpe_core.formats.openai import (REFERENCE_ENCODINGS, ReferenceUnavailableError,
                                     reference_encoding, unavailable)
from bpe_core.formats.size import too_big
from bpe_core.identity import flatten

from . import budget, catalogue, state, upload_limit
from .annotate import md_literal
from .wording import CUSTOM, PRETOKENIZERS


@dataclass(frozen=True)
class Format:
    """A tokenizer file format: what to upload for it and what it needs besides."""

    label: str
    files: tuple[tuple[str, tuple[str, ...]], ...]  # one uploader per (what, extensions)
    help: str
    needs_pattern: bool = False  # the file stores no pre-tokenizer: the user picks one


FORMATS: dict[str, Format] = {
    "native": Format("BPE Playground (.json)", (("Tokenizer file", ("json",)),),
                     "A tokenizer saved by this playground: its merges with their counts, and "
                     "its pre-tokenizer. A Hugging Face tokenizer.json given here is "
                     "recognised by its content and read as one."),
    "hf": Format("Hugging Face tokenizer.json", (("tokenizer.json", ("json",)),),
                 "The one-file format of Hugging Face `tokenizers` (BPE models). A file saved "
                 "by this playground given here is recognised by its content and read as one."),
    "tiktoken": Format(".tiktoken rank file", ((".tiktoken file", ("tiktoken", "txt")),),
                       "tiktoken's format: each token's bytes and rank, no pre-tokenizer. "
                       "OpenAI's own files are recognised by their content.", needs_pattern=True),
    "gpt2": Format("GPT-2 vocab.json + merges.txt",
                   (("vocab.json (encoder.json)", ("json",)), ("merges.txt (vocab.bpe)",
                                                               ("txt", "bpe"))),
                   "The two files of GPT-2-style tokenizers.", needs_pattern=True),
}

#: The well-known pre-tokenizers, which a file's name is told by (``hints``).
PATTERNS = ("gpt2", "cl100k", "o200k")
#: Pre-tokenizers to choose from for files that store none (named as on every page,
#: ``PRETOKENIZERS``): every one the Train page makes byte-level files with, so a file saved
#: there loads back with its own ids.
FILE_PATTERNS = tuple(p for p in PRETOKENIZERS if p != "end-of-word")


def read_upload(fmt: str, files: list[tuple[str, bytes]], *, pattern: str | None = None,
                name: str | None = None) -> bpe_core.Tokenizer:
    """Read a tokenizer from uploaded ``(filename, bytes)`` pairs, one per ``FORMATS[fmt].files``.

    ``pattern`` (a preset name or a regex) is how to pre-tokenize for formats that store none.
    Raises ``TokenizerFileError`` with a message for the user when the files are not readable.
    """
    spec = FORMATS[fmt]
    if len(files) != len(spec.files) or len({n for n, _ in files}) != len(files):
        raise bpe_core.TokenizerFileError(
            f"a {spec.label} needs {len(spec.files)} file(s) with different names: "
            f"{', '.join(what for what, _ in spec.files)}")
    tok = loads_files(dict(files), pretokenizer=pattern if spec.needs_pattern else None)
    state.refuse_missing_tokens(tok)
    return tok.renamed(name or default_name(tok, [n for n, _ in files]))


def default_name(tok: bpe_core.Tokenizer, file_names: Sequence[str]) -> str:
    """The name a tokenizer read from ``file_names`` gets when the user gives none: the file's
    name without its extension and the word every such file has (``llama3-tokenizer.json`` ->
    ``llama3``); for a file named as every model's is (``tokenizer.json``, GPT-2's
    ``vocab.json``), that name with what the file says of its model (:func:`hints`).

    >>> tok = bpe_core.train("hug", unit="byte", max_merges=0, name="tokenizer")
    >>> default_name(tok.renamed("llama3-tokenizer"), ["llama3-tokenizer.json"])
    'llama3'
    >>> default_name(tok, ["tokenizer.json"])
    'tokenizer.json (256 tokens, byte-level, gpt2)'
    """
    name = _GENERIC_TAIL.sub("", tok.name)
    if name and not _GENERIC.fullmatch(tok.name):
        return name
    return f"{' + '.join(file_names) or tok.name} ({', '.join(hints(tok))})"


# "-tokenizer", "_tokenizer", ".tokenizer" at the end of a file's name add nothing to it.
_GENERIC_TAIL = re.compile(r"(?<=.)[-_. ]tokenizer$", re.IGNORECASE)
#: The names every model's files have (a browser saves a second download as "tokenizer (1)").
_GENERIC = re.compile(r"(tokenizer|vocab|encoder)( ?\(\d+\))?", re.IGNORECASE)
#: Normalizers that tell models apart; the rest (Replace, Prepend) is SentencePiece's plumbing,
#: which "byte fallback" or "characters" already says.
_TOLD_NORMALIZERS = ("NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents",
                     "BertNormalizer")


def hints(tok: bpe_core.Tokenizer) -> list[str]:
    """What a tokenizer says of its model, in a few words each: its size, whether it reads bytes
    or characters (with byte fallback or not), its Unicode normalizer, its pre-tokenizer when
    it is a well-known one, and the special token its post-processor starts a text with.
    Llama 3.1's file gives ``128,256 tokens, byte-level, <|begin_of_text|>``, Qwen 3's
    ``151,669 tokens, byte-level, NFC``, Gemma 3's ``262,145 tokens, byte fallback, <bos>``.

    >>> hints(bpe_core.train("hug", unit="char", pretokenizer="whitespace", max_merges=0))
    ['4 tokens', 'characters']
    """
    reads = ("byte-level" if tok.unit == "byte" else
             "byte fallback" if tok.model.byte_fallback else "characters")
    told = [f"{tok.vocab_size:,} tokens", reads]
    told += [n for n in (type(c).__name__ for c in flatten(tok.normalizer))
             if n in _TOLD_NORMALIZERS]
    if tok.config.get("pretokenizer") in PATTERNS:
        told.append(tok.config["pretokenizer"])
    starts = tok.post_processor.wrap()[0] if tok.post_processor is not None else ()
    told += [tok.display(i) for i in starts[:1]]
    return told


def distinct_name(tok: bpe_core.Tokenizer, taken: Mapping[str, bpe_core.Tokenizer]) -> str:
    """A name for ``tok`` that no other tokenizer of ``taken`` has: its own, or, when another
    tokenizer has it, the same with its size and its pre-tokenizer where the name does not say
    them, and at last numbered (``tokenizer.json (…) (2)``, as a second download is). A name
    held by this very tokenizer (the same file loaded again) is given back, so that loading a
    file twice does not make a copy.

    >>> a = bpe_core.train("hug pug", unit="byte", max_merges=1, min_frequency=1, name="x")
    >>> b = bpe_core.train("hug pug", unit="byte", max_merges=2, min_frequency=1, name="x")
    >>> distinct_name(a, {}), distinct_name(a, {"x": a}), distinct_name(b, {"x": a})
    ('x', 'x', 'x (258 tokens)')
    >>> c = b.renamed("tokenizer.json (258 tokens, byte-level, gpt2)")  # it says its size
    >>> distinct_name(c, {c.name: a})
    'tokenizer.json (258 tokens, byte-level, gpt2) (2)'
    """
    size = f"{tok.vocab_size:,} tokens"
    names = [tok.name]
    if size not in tok.name:  # what sets it apart: its size, then a known pre-tokenizer
        preset = tok.config.get("pretokenizer")
        names += [f"{tok.name} ({size})", *([f"{tok.name} ({size}, {preset})"] if preset else [])]
    numbered = (f"{names[-1]} ({n})" for n in itertools.count(2))
    return next(name for name in itertools.chain(names, numbered)
                if name not in taken or taken[name].fingerprint() == tok.fingerprint())


@st.cache_resource(show_spinner="Reading the tokenizer file…")
def _read_cached(digest: str, fmt: str, pattern: str | None,
                 _files: tuple[tuple[str, bytes], ...]) -> bpe_core.Tokenizer:
    """``read_upload``, once per server process for the same files: a large file takes seconds
    to read, and the sessions that load it share one tokenizer (it never changes)."""
    return read_upload(fmt, list(_files), pattern=pattern)


def read_cached(fmt: str, files: list[tuple[str, bytes]], *, pattern: str | None = None,
                name: str | None = None) -> bpe_core.Tokenizer:
    """``read_upload`` with its result kept for the next session that loads the same files."""
    h = hashlib.blake2b(digest_size=16)
    for file_name, data in files:
        h.update(file_name.encode("utf-8", "surrogatepass") + b"\0%d\0" % len(data) + data)
    digest = h.hexdigest()
    tok = _read_cached(digest, fmt, pattern, tuple(files))
    budget.TOKENIZERS.used(("file", digest, fmt, pattern), tok.vocab_size,
                           lambda: _read_cached.clear(digest, fmt, pattern, ()))
    return tok.renamed(name) if name else tok


# --- references ----------------------------------------------------------------------------


def reference_names() -> tuple[str, ...]:
    """OpenAI's encodings known by name, from gpt2 to o200k_harmony (loadable or not)."""
    return tuple(REFERENCE_ENCODINGS)


def reference_title(name: str) -> str:
    """An encoding's name with the models that use it.

    >>> reference_title("cl100k_base")
    'cl100k_base — GPT-4, GPT-3.5-turbo and text-embedding-3'
    """
    ref = REFERENCE_ENCODINGS.get(name)
    return f"{name} — {ref.models}" if ref else name


#: How to get a reference encoding all the same, in one sentence.
REFERENCE_HELP = ("Run the app once with internet (tiktoken keeps what it downloads), or upload "
                  "the encoding's .tiktoken file under “Upload a file”.")
# Whether a reference can load is checked once per server process and remembered for a while
# (a HEAD request per encoding not in tiktoken's cache), so a machine that comes online later
# is noticed; an encoding that failed to load is not offered again for as long.
_RECHECK_SECONDS = 600


@st.cache_resource(show_spinner="Checking which reference encodings can be fetched…",
                   ttl=_RECHECK_SECONDS)
def _unavailable(name: str) -> str | None:
    return unavailable(name)


@st.cache_resource(show_spinner=False, ttl=_RECHECK_SECONDS)
def _failures() -> dict[str, str]:
    """Reference name -> why it failed to load, for every session of this process."""
    return {}


def why_not(name: str) -> str | None:
    """Why the reference ``name`` cannot be loaded now, in a few words; None when it can."""
    return _failures().get(name) or _unavailable(name)


def loadable_references() -> tuple[str, ...]:
    """The reference encodings that can be loaded now (from tiktoken's cache, or downloaded)."""
    return tuple(n for n in reference_names() if why_not(n) is None)


def missing_references(names: Sequence[str] | None = None) -> str:
    """One line naming the references (of ``names``; all by default) that cannot be loaded,
    why, and how to get them; "" when all can."""
    missing = {n: why_not(n) for n in (reference_names() if names is None else names)}
    missing = {n: why for n, why in missing.items() if why}
    if not missing:
        return ""
    reasons = list(dict.fromkeys(missing.values()))
    why = reasons[0] if len(reasons) == 1 else "; ".join(f"{n}: {w}" for n, w in missing.items())
    return f"Not offered: {', '.join(missing)}, {why}. {REFERENCE_HELP}"


@st.cache_resource(show_spinner="Fetching the reference encoding (it can take a while)…")
def _reference(name: str) -> bpe_core.Tokenizer:
    return reference_encoding(name)


def forget_references() -> None:
    """Forget what this process knows of the reference encodings (which can load, which
    failed, the ones kept, and their places in the budget): the next look checks again."""
    for cache in (_unavailable, _failures, _reference):
        cache.clear()
    budget.TOKENIZERS.forget("reference")


def reference(name: str) -> bpe_core.Tokenizer | str:
    """The reference encoding ``name`` (kept for every session within the server's budget,
    ``budget``), or one line saying why it cannot be loaded; a failure is remembered, so the
    reference is no longer offered."""
    why = why_not(name)
    if why is None:
        try:
            tok = _reference(name)
            budget.TOKENIZERS.used(("reference", name), tok.vocab_size,
                                   lambda: _reference.clear(name))
            return tok
        except (ReferenceUnavailableError, ValueError, OSError) as exc:
            cause = exc.__cause__ or exc
            said = str(cause).splitlines()[0] if str(cause) else ""
            said = said if len(said) <= 80 else said[:79] + "…"
            why = _failures().setdefault(name, f"tiktoken failed ({type(cause).__name__}: {said})")
    return f"Could not fetch {name}: {why}. {REFERENCE_HELP}"


def fetch_into_session(name: str, *, activate: bool = True) -> str | None:
    """Fetch the reference encoding ``name`` into the session; None, or a message on failure."""
    if name not in state.tokenizers():
        tok = reference(name)
        if isinstance(tok, str):
            return tok
        state.add_tokenizer(tok, activate=activate)  # the name is free: it stays as it is
    elif activate:
        state.set_active_tokenizer(name)
    return None


# --- the panel -----------------------------------------------------------------------------


def _upload_form(key: str) -> str | None:
    fmt = st.selectbox("Format", list(FORMATS), format_func=lambda f: FORMATS[f].label,
                       key=f"{key}_format")
    spec = FORMATS[fmt]
    st.caption(spec.help)
    uploads = [st.file_uploader(what, type=list(types), key=f"{key}_{fmt}_{i}")
               for i, (what, types) in enumerate(spec.files)]
    upload_limit.note()
    pattern = _pattern_form(key, fmt) if spec.needs_pattern else None
    name = st.text_input("Name in this session", key=f"{key}_name",
                         placeholder="From the file name")
    if not st.button("Load", key=f"{key}_load",
                     disabled=any(u is None for u in uploads) or pattern == ""):
        return None
    refused = [problem for u in uploads if (problem := too_big(md_literal(u.name), u.size))]
    if refused:  # said before the file is read or parsed
        st.error(" ".join(refused), icon=":material/block:")
        return None
    files = [(u.name, u.getvalue()) for u in uploads]
    try:
        tok = read_cached(fmt, files, pattern=pattern, name=name.strip() or None)
    except (bpe_core.TokenizerFileError, ValueError) as exc:
        # Both name what the user gave (a file's name, a token: '**x**', '$x$'), shown as is.
        st.error(f"Could not load {md_literal(' + '.join(n for n, _ in files))}: "
                 f"{md_literal(str(exc))}")
        return None
    name = distinct_name(tok, state.tokenizers())
    if name in state.tokenizers():  # the same tokenizer, loaded before
        state.set_active_tokenizer(name)
        return name
    return state.add_tokenizer(tok.renamed(name))


def _pattern_form(key: str, fmt: str) -> str:
    """The pre-tokenizer a file that stores none was made with: a preset's name or a regex
    ("" while the custom regex box is empty)."""
    pattern = st.selectbox("Pre-tokenizer", FILE_PATTERNS, format_func=PRETOKENIZERS.get,
                           index=FILE_PATTERNS.index("gpt2" if fmt == "gpt2" else "cl100k"),
                           key=f"{key}_{fmt}_pattern",
                           help="How text is cut into pieces before the merges: this format "
                                "does not store it, so say which one it was made with.")
    if pattern != CUSTOM:
        return pattern
    typed = st.text_input("Pre-tokenizer regex", key=f"{key}_{fmt}_regex",
                          placeholder=r"e.g. \p{L}+|\p{N}+|\s+|[^\s\p{L}\p{N}]+",
                          help="The regex the file was trained with; each of its matches is "
                               "a piece.")
    return typed if typed.strip() else ""  # spaces may be part of a regex: kept as typed


def _fetch_form(key: str) -> str | None:
    names, missing = loadable_references(), missing_references()
    if not names:
        st.info(missing, icon=":material/cloud_off:")
        return None
    name = st.selectbox("OpenAI encoding", names, format_func=reference_title,
                        key=f"{key}_ref")
    st.caption("tiktoken downloads the encoding the first time and keeps it in its cache."
               + (f" {missing}" if missing else ""))
    if not st.button("Fetch", key=f"{key}_fetch"):
        return None
    message = fetch_into_session(name)
    if message:
        st.error(message)
        return None
    return name


def just_loaded(key: str) -> str | None:
    """The name of the tokenizer the panel ``key`` loaded on the previous run, if it did (for a
    page that draws its controls before the panel and wants to show the new tokenizer)."""
    return st.session_state.get(f"{key}_loaded")


#: Where a tokenizer can come from: source -> (label, the form that loads from it).
SOURCES = {"upload": ("Upload a file", _upload_form), "fetch": ("OpenAI", _fetch_form),
           "hub": ("Hugging Face", catalogue.hub_form)}


def load_panel(*, key: str, sources: Sequence[str] = tuple(SOURCES)) -> None:
    """Draw the panel, with a form for each of ``sources`` (keys of :data:`SOURCES`). A
    tokenizer it loads joins the session as the active one, and the page reruns so that
    everything shows it."""
    source = st.radio("Source", list(sources), horizontal=True, key=f"{key}_source",
                      format_func=lambda s: SOURCES[s][0], label_visibility="collapsed")
    loaded = SOURCES[source][1](key)
    flash = f"{key}_loaded"
    if loaded:
        st.session_state[flash] = loaded
        st.rerun()
    if st.session_state.get(flash):
        st.success(f"Loaded “{md_literal(st.session_state.pop(flash))}”; it is now the active "
                   "tokenizer.")
