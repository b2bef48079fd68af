"""Tokenize's chat view: a conversation rendered by the model's chat template, exactly as the
model receives it, then cut into tokens with its special tokens framed and counted.

The template comes from the model's ``tokenizer_config.json`` (``bpe_core.chat``): uploaded
here (kept in the session for that tokenizer: its fingerprint and name), or downloaded with the
model from the Hugging Face Hub (``catalogue.hub_config``). A ``chat_template.jinja``, the
template in a file of its own as newer models ship it, may be uploaded too: it replaces the
template and keeps the config's special tokens.

Session keys: ``tok_chat_configs`` ((fingerprint, name) -> the parsed
``tokenizer_config.json``), ``tok_chat_config_read`` (which upload was read, for which
tokenizer), ``tok_chat_messages`` (the conversation: role and text of each message); each
tokenizer has an upload box of its own (``upload_key``).
"""

from __future__ import annotations

import hashlib
import json

import streamlit as st

from bpe_core import Tokenizer
from bpe_core.chat import ROLES, ChatTemplateError, render, special_tokens, templates
from bpe_core.formats.size import too_big
from bpe_core.json_text import loads as json_loads

from ..shared import metrics
from ..shared.annotate import coloured_html, md_literal
from ..shared.catalogue import hub_config
from ..shared.clicks import once_per_click
from ..shared.slow_regex import attempt
from ..shared.tokens import md_escape

CONFIGS, MESSAGES = "tok_chat_configs", "tok_chat_messages"
READ = "tok_chat_config_read"  # the upload (file id) and tokenizer the config was read for
FIRST_MESSAGES = ({"role": "system", "content": "You are a helpful assistant."},
                  {"role": "user", "content": "How many tokens does this question cost?"})


def config_of(tok: Tokenizer) -> dict | None:
    """The ``tokenizer_config.json`` of ``tok``'s model: the one uploaded in this session, else
    the one downloaded with the model; None when there is neither."""
    return st.session_state.get(CONFIGS, {}).get(_key(tok)) or hub_config(tok)


def _key(tok: Tokenizer) -> tuple[str, str]:
    # Two models may share a tokenizer.json and not their template (Qwen3-8B and its -Base).
    return tok.fingerprint(), tok.name


def upload_key(tok: Tokenizer) -> str:
    """The key of ``tok``'s upload box: a file left in one box is not read again for the next
    tokenizer chosen, whose template it is not."""
    digest = hashlib.sha256("\0".join(_key(tok)).encode("utf-8")).hexdigest()[:12]
    return f"tok_chat_config_{digest}"


def read_config(name: str, data: bytes) -> dict | str:
    """A ``tokenizer_config.json`` read (or a ``.jinja`` template, as the config it makes), or
    one sentence saying why it cannot be.

    >>> read_config("tokenizer_config.json", b'{"chat_template": "x"}')
    {'chat_template': 'x'}
    >>> read_config("c.json", b"[1]")
    'c.json is not a tokenizer_config.json: it holds a JSON list, not an object.'
    >>> read_config("chat_template.jinja", "{{ 'é' }}".encode())
    {'chat_template': "{{ 'é' }}"}
    >>> read_config("tokenizer_config.json", b'\\xef\\xbb\\xbf{"chat_template": "x"}')  # a BOM
    {'chat_template': 'x'}
    """
    if name.lower().endswith(".jinja"):
        try:
            return {"chat_template": data.decode("utf-8-sig")}
        except UnicodeDecodeError:
            return f"{name} is not UTF-8 text. Upload the model's chat_template.jinja."
    try:
        # A byte-order mark, as Windows editors write one, is read past: as the Hub's copy is.
        config = json_loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"{name} is not valid JSON ({exc}). Upload the model's tokenizer_config.json."
    if not isinstance(config, dict):
        return (f"{name} is not a tokenizer_config.json: it holds a JSON "
                f"{'list' if isinstance(config, list) else type(config).__name__}, not an object.")
    return config


def chat_panel(tok: Tokenizer, *, show_whitespace: bool, colours: str) -> None:
    st.header("Chat template", anchor=False)
    config = config_of(tok)
    with st.expander("The model's tokenizer_config.json or chat_template.jinja"
                     + (" (loaded)" if config else ""),
                     expanded=config is None, icon=":material/upload_file:"):
        refused = _upload(tok)
    if refused:  # below the box, which a loaded config keeps closed: inside, none saw it
        kept = " The one loaded before is still used." if config else ""
        st.error(md_escape(refused) + kept, icon=":material/block:")
    config = config_of(tok)
    found = templates(config or {})
    if not found:
        st.caption("A chat model's tokenizer_config.json (or, in newer models, its "
                   "chat_template.jinja) holds its chat template: the way a conversation is "
                   "written as one text, with the model's special tokens between the "
                   "messages. " + ("This one has none." if config else
                                   "Upload it above to see a conversation as "
                                   f"{md_literal(tok.name)} receives it."))
        return
    names = list(found)
    which = st.selectbox("Template", names, key="tok_chat_template") if len(names) > 1 else names[0]
    messages = _messages()
    generation = st.toggle("Add the generation prompt", value=True, key="tok_chat_generation",
                           help="What comes after the last message when the model is to "
                                "answer: the start of an assistant turn "
                                "(add_generation_prompt=True).")
    # A named template beside the default is for tools or documents (Command R's tool_use and
    # rag), which transformers renders only when given some: here, an empty list of each.
    given = {} if which == "default" else {"tools": [], "documents": []}
    try:
        prompt = render(found[which], messages, add_generation_prompt=generation,
                        special_tokens=special_tokens(config), **given)
    except ChatTemplateError as exc:
        said = str(exc)
        # Jinja's words, or the template's own, may end their sentence already ("No filter
        # named 'x'.", "must alternate user/assistant/..."): one full stop, not two.
        said = said[0].upper() + said[1:] + ("" if said.endswith((".", "!", "?")) else ".")
        st.error(md_escape(said), icon=":material/error:")
        return
    # Its special tokens are found whole, as the model reads them.
    spans = attempt(tok.spans, prompt)
    if spans is None:  # a regex of the tokenizer's file was stopped: said above
        return
    special = sum(1 for s in spans if s.special)
    cards = metrics.row()
    cards.metric("Prompt tokens", f"{len(spans):,}")
    cards.metric("Special tokens", f"{special:,}", help="Framed in blue below.")
    cards.metric("Prompt characters", f"{len(prompt):,}")
    st.html(coloured_html(tok, spans, prompt, show_whitespace=show_whitespace, colours=colours,
                          label="text"))
    with st.expander("The prompt as text"):
        st.code(prompt, language=None, wrap_lines=True)


def _upload(tok: Tokenizer) -> str | None:
    """The uploader; a config it reads becomes the tokenizer's, a file it cannot read gives
    the sentence saying why."""
    file = st.file_uploader("tokenizer_config.json or chat_template.jinja", type=["json", "jinja"],
                            key=upload_key(tok),
                            help="They sit beside tokenizer.json in the model's repository. A "
                                 "chat_template.jinja replaces the template of the config "
                                 "already here and keeps its special tokens.")
    if file is None or st.session_state.get(READ) == (file.file_id, _key(tok)):
        return None  # read already: a file stays in its uploader, and the page reruns
    problem = too_big(file.name, file.size)
    config = problem or read_config(file.name, file.getvalue())
    if isinstance(config, str):
        return config
    if file.name.lower().endswith(".jinja"):
        config = {**(config_of(tok) or {}), **config}
    st.session_state.setdefault(CONFIGS, {})[_key(tok)] = config
    st.session_state[READ] = (file.file_id, _key(tok))
    return None


def _messages() -> list[dict]:
    """The conversation, as its editor shows it: a role and a text per message."""
    ss = st.session_state
    messages = ss.setdefault(MESSAGES, [dict(m) for m in FIRST_MESSAGES])
    for k, message in enumerate(messages):
        role_col, text_col = st.columns([1, 4])
        message["role"] = role_col.selectbox(
            "Role", ROLES, index=ROLES.index(message["role"]), key=f"tok_chat_role_{k}",
            label_visibility="visible" if k == 0 else "collapsed")
        message["content"] = text_col.text_area(
            "Message", message["content"], key=f"tok_chat_text_{k}", height=68,
            label_visibility="visible" if k == 0 else "collapsed")
    add, remove = st.columns(2)
    add.button("Add a message", key="tok_chat_add", icon=":material/add:", on_click=_add)
    remove.button("Remove the last", key="tok_chat_remove", icon=":material/remove:",
                  on_click=_remove, disabled=len(messages) <= 1)
    return [dict(m) for m in messages]


@once_per_click
def _add() -> None:
    messages = st.session_state[MESSAGES]
    role = "assistant" if messages and messages[-1]["role"] == "user" else "user"
    messages.append({"role": role, "content": ""})


@once_per_click
def _remove() -> None:
    messages = st.session_state[MESSAGES]
    if len(messages) > 1:
        k = len(messages) - 1
        messages.pop()
        for key in (f"tok_chat_role_{k}", f"tok_chat_text_{k}"):
            st.session_state.pop(key, None)
