"""The end of a training run: why it stopped, what it learned, and keeping or downloading it."""

from __future__ import annotations

import io
import re
import tempfile
import zipfile
from pathlib import Path

import streamlit as st

import bpe_core
from bpe_core import formats as files
from bpe_core.formats.errors import FormatCannotHold

from ..shared import charts, metrics, spreadsheet, state
from ..shared.annotate import inline_code, md_literal
from ..shared.loaders import FILE_PATTERNS
from ..shared.tokens import md_escape
from ..shared.wording import CUSTOM, PRETOKENIZERS
from . import runs, superbpe

#: The file name each format is saved under ({} is the tokenizer's name, made file-safe). A
#: format that writes several files (GPT-2's vocab.json + merges.txt) is downloaded as a zip.
SAVE_AS = {"native": "{}.json", "hf": "tokenizer.json", "tiktoken": "{}.tiktoken",
           "gpt2": "vocab.json"}
FORMAT_LABELS = {"native": "BPE Playground JSON", "hf": "Hugging Face tokenizer.json",
                 "tiktoken": "tiktoken .tiktoken", "gpt2": "GPT-2 vocab.json + merges.txt"}
FORMAT_HELP = {"native": "Everything, including the merge counts: load it back with "
                         "bpe_core.load or on the Tokenize page.",
               "gpt2": "GPT-2's two files as the Hugging Face Hub names them (OpenAI's release "
                       "calls them encoder.json and vocab.bpe), in one zip."}
NAME = "train_result_name"


def slug(name: str) -> str:
    """A file-safe version of a tokenizer's name.

    >>> slug("hug-pug · char · 3 merges")
    'hug-pug-char-3-merges'
    """
    return re.sub(r"[^\w.-]+", "-", name).strip("-") or "tokenizer"


def tokenizer_file(tok: bpe_core.Tokenizer, fmt: str, stem: str) -> tuple[str, bytes]:
    """``(file name, bytes)`` of ``tok`` saved in ``fmt``; raises ``ValueError`` when the format
    cannot hold this tokenizer. Several files come back as one zip."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        bpe_core.save(tok, folder / SAVE_AS.get(fmt, "{}." + fmt).format(stem), format=fmt)
        made = sorted(folder.iterdir())
        if len(made) == 1:
            return made[0].name, made[0].read_bytes()
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for f in made:
                archive.write(f, f.name)
        return f"{stem}-{fmt}.zip", buffer.getvalue()


def format_help(tok: bpe_core.Tokenizer, fmt: str) -> str | None:
    """What a download in ``fmt`` holds and, for a format that stores no pre-tokenizer, which
    one to pick in the Tokenize page's loader to get the same ids back.

    >>> tok = bpe_core.train("set new renew", unit="byte", pretokenizer="space-prefix",
    ...                      max_merges=1, min_frequency=1)
    >>> format_help(tok, "tiktoken").split(": ")[1]
    'load it with the pre-tokenizer “Leading-space words”.'
    """
    if fmt not in ("tiktoken", "gpt2"):
        return FORMAT_HELP.get(fmt)
    preset = tok.config.get("pretokenizer")
    pick = (f"“{PRETOKENIZERS[preset]}”" if preset in FILE_PATTERNS else
            f"“{PRETOKENIZERS[CUSTOM]}” and the regex {inline_code(tok.config['pattern'])}")
    if fmt == "gpt2":
        return (f"{FORMAT_HELP['gpt2']} They hold no pre-tokenizer: unzip them and load them "
                f"with the pre-tokenizer {pick}.")
    specials = " ".join(tok.special_tokens)
    missing = f" Nor does it hold the special tokens ({md_literal(specials)})." if specials else ""
    return (f"Holds the ranked tokens only, not the pre-tokenizer: load it with the "
            f"pre-tokenizer {pick}.{missing}")


def _file(run: runs.Run, fmt: str, name: str) -> tuple[str, bytes] | str:
    """The run's tokenizer in ``fmt``, or why it cannot be (str, without the engine's advice,
    which names its formats as the page does not); cached per name."""
    key = ("file", fmt, name)
    if key not in run.extras:
        tok = run.result()
        if not run.kept_as:  # a kept tokenizer has its name in the session already
            tok = tok.renamed(name)
        try:
            run.extras[key] = tokenizer_file(tok, fmt, slug(name))
        except FormatCannotHold as exc:
            run.extras[key] = exc.reason
        except ValueError as exc:
            run.extras[key] = str(exc)
    return run.extras[key]


def _lengths(run: runs.Run) -> tuple[dict[int, tuple[int, str]], str]:
    """Token id -> (length, "base" or "learned") over the vocabulary, and the length unit."""
    tok = run.result()
    chars = not tok.view.byte_level
    out = {}
    for i in tok.ids():
        kind = tok.kind(i)
        if kind in ("unk", "eow", "special", "added"):
            continue
        data = tok.token_bytes(i)
        size = len(data.decode("utf-8", errors="replace")) if chars else len(data)
        out[i] = (size, "learned" if kind == "merge" else "base")
    return out, "characters" if chars else "bytes"


def render(run: runs.Run) -> None:
    if run.superbpe:
        try:  # stage 2 has run above, under its own bar: here its result is read
            tok = run.result()
            used, tokens = run.result_counts()
        except ValueError as exc:
            st.error(md_escape(f"SuperBPE's stage 2 cannot run with these settings: {exc}"))
            return
        superbpe.render(run, tok)
    else:
        tok = run.result()
        used, tokens = run.result_counts()
    st.header("Result", anchor=False)
    reason = tok.stop_reason
    if run.superbpe and reason == "max_merges":  # stage 2 is run for the merges left to make
        reason = "vocab_size"
    st.success(f"Training stopped because {runs.STOP_REASONS[reason]}.")
    cards = metrics.row()
    metrics.count(cards, "Merges learned", len(tok.merges))
    metrics.count(cards, "Vocabulary size", tok.vocab_size,
                  help="Base symbols + merges + special tokens.")
    metrics.count(cards, "Effective vocabulary", used,
                  help="Tokens that still occur when the training corpus is encoded (special "
                       "tokens aside): a token whose every occurrence was merged into longer "
                       "tokens no longer appears.")
    cards.metric("Bytes per token", f"{run.total_bytes / max(tokens, 1):.2f}",
                 delta=f"from {run.total_bytes / max(run.start_tokens, 1):.2f}",
                 delta_color="off",
                 help="Over the training corpus's words as the pre-tokenizer cut them, which is "
                      "what training counts: whitespace it drops is not counted, and an "
                      "end-of-word marker </w> is a token of no bytes (so a start below 1). The "
                      "passage above is counted the same way.")
    left, right = st.columns([3, 2], gap="large")
    with left:
        lengths, unit = _lengths(run)
        st.markdown("**How long are the tokens?**")
        figure = charts.titled(charts.length_histogram(lengths, unit),
                               f"Token lengths in {unit} of {tok.name}", share=3 / 5)
        st.plotly_chart(figure, key="train_lengths", config={"displayModeBar": False})
    with right:
        _downloads(run, _keep(run))


def _keep(run: runs.Run) -> str:
    """The name box and the "keep" button; returns the tokenizer's name."""
    st.markdown("**Keep it**")
    if run.kept_as and run.kept_as not in state.tokenizers():
        run.kept_as = None  # let go since (a tab keeps a bounded number): it may be kept again
    if run.kept_as:
        name = md_literal(run.kept_as)
        st.success(f"Kept as “{name}”, now the active tokenizer: the other pages use it, and "
                   "the sidebar lets you switch." if state.active_tokenizer().name == run.kept_as
                   else f"Kept as “{name}”: pick it in the sidebar to use it on the other pages.")
        return run.kept_as
    default = _default_name(run)
    name = st.text_input("Name", default, key=f"{NAME}_{id(run)}", max_chars=80).strip()
    if st.button("Keep this tokenizer in the session", type="primary", key="train_keep",
                 disabled=not name):
        run.kept_as = state.add_tokenizer(run.result().renamed(name))
        st.rerun()  # the whole page, so the sidebar lists it
    return name or default


def _default_name(run: runs.Run) -> str:
    """The settings' name, with the size reached when training stopped short of the one asked
    for ("… · vocab 2000" for 319 tokens read as if it had 2,000, "… · 3 merges" for none made
    when no pair was frequent enough)."""
    name, result = run.settings["name"], run.result()
    if run.settings.get("vocab_size"):
        asked, reached = f"vocab {run.settings['vocab_size']}", f"vocab {result.vocab_size}"
    else:
        asked, reached = f"{run.settings['max_merges']} merges", f"{len(result.merges)} merges"
    return name.removesuffix(asked) + reached if name.endswith(asked) else name


def merge_log_csv(run: runs.Run) -> bytes:
    """The merge log as CSV for a spreadsheet: its pairs and tokens are text it could run as a
    formula ('==', made of '=' + '=', or '-1'), so they are written safe
    (``ui/shared/spreadsheet.py``)."""
    return spreadsheet.as_csv(run.merge_log(), texts=["left", "right", "token", "tied_with"])


def _downloads(run: runs.Run, name: str) -> None:
    st.markdown("**Download**")
    stem = slug(name)
    files_made = {fmt: _file(run, fmt, name) for fmt in files.FORMATS}
    labels = {fmt: FORMAT_LABELS.get(fmt, f"{fmt} file") for fmt in files.FORMATS}
    # What to download instead, in the page's own names for its buttons.
    saved = [f"“{labels[fmt]}”" for fmt, made in files_made.items()
             if not isinstance(made, str)]
    instead = f" Download it as {' or '.join(saved)} instead." if saved else ""
    for fmt, made in files_made.items():
        label = labels[fmt]
        if isinstance(made, str):
            st.caption(f"{label} is not available for this tokenizer: "
                       f"{md_escape(made.rstrip('.'))}.{instead}")
            continue
        st.download_button(label, made[1], made[0], key=f"train_download_{fmt}",
                           help=format_help(run.result(), fmt), on_click="ignore",
                           width="stretch",
                           icon=":material/download:")
    st.download_button("Merge log (CSV)", merge_log_csv(run),
                       f"{stem}-merges.csv", mime="text/csv", key="train_download_csv",
                       on_click="ignore", width="stretch", icon=":material/download:")
