"""The catalogue's Hugging Face half: a model's tokenizer by its Hub id, for the load panel.

A model loads once per server process (``st.cache_resource``) and every session that picks it
shares that tokenizer, under its own name in its own state (``state.add_tokenizer`` keeps a
renamed copy). A model joins a session under its id (``load_into_session``), and the session
keeps its ``tokenizer_config.json`` by its tokenizer's fingerprint and that id: two models with
one tokenizer.json (Qwen3-8B and Qwen3-8B-Base) each keep their own chat template.
"""

from __future__ import annotations

import streamlit as st

import bpe_core
from bpe_core.formats.hub import CATALOGUE, HubError, HubModel, cache_dir, load_model, model_name

from . import budget, state
from .annotate import md_literal

#: The selectbox's last option: a model id typed in a box.
OTHER = ""


@st.cache_resource(show_spinner="Getting the model's tokenizer from the Hugging Face Hub…")
def _loaded(repo_id: str) -> HubModel:
    return load_model(repo_id)


def hub_model(repo_id: str) -> HubModel:
    """The model ``repo_id``, kept for every session within the server's budget (``budget``);
    raises ``HubError`` (not kept, so a model that failed is tried again) with one sentence for
    the user."""
    model = _loaded(repo_id)
    budget.TOKENIZERS.used(("hub", repo_id), model.tokenizer.vocab_size,
                           lambda: _loaded.clear(repo_id))
    return model


def _clear() -> None:
    """Let every kept model go, as a cached function's ``clear`` does, and its place in the
    budget with it."""
    _loaded.clear()
    budget.TOKENIZERS.forget("hub")


hub_model.clear = _clear


#: Session key: (fingerprint, model id) -> the tokenizer_config.json of each Hub model the
#: session holds. In the session, not the server: a server-wide dict of every model any session
#: ever loaded grew for as long as the server ran (a config may be up to 100 MB, and any number
#: of ids can be typed, ``org/name@revision`` too); a session's goes with it.
CONFIGS = "hub_configs"


def hub_config(tok: bpe_core.Tokenizer) -> dict | None:
    """The tokenizer_config.json of the Hub model ``tok`` is (named by its id, as
    ``load_into_session`` names it), or None if it came from elsewhere (or this session has
    not loaded that model)."""
    return st.session_state.get(CONFIGS, {}).get((tok.fingerprint(), tok.name))


def _keep_config(model: HubModel) -> None:
    """Keep ``model``'s config in the session, and only those of the models it still holds."""
    held = state.tokenizers()
    kept = {key: config for key, config in st.session_state.get(CONFIGS, {}).items()
            if key[1] in held}
    kept[model.tokenizer.fingerprint(), model.repo_id] = model.config
    st.session_state[CONFIGS] = kept


def load_into_session(text: str, *, activate: bool = True) -> tuple[str, str | None]:
    """Load the Hub model ``text`` names (its id, or its page's address: ``model_name``) into
    the session under its name; that name, and None or the message saying why it cannot be."""
    try:
        repo_id = model_name(text)
    except HubError as exc:
        return text.strip(), str(exc)
    if repo_id not in state.tokenizers():
        try:
            model = hub_model(repo_id)
            state.refuse_missing_tokens(model.tokenizer)
        except (HubError, bpe_core.TokenizerFileError) as exc:
            return repo_id, str(exc)
        state.add_tokenizer(model.tokenizer, activate=activate)  # the id is free: it stays
        _keep_config(model)
    elif activate:
        state.set_active_tokenizer(repo_id)
    return repo_id, None


def title(repo_id: str) -> str:
    """How the catalogue shows a model.

    >>> title("Qwen/Qwen3-8B"), title(OTHER)
    ('Qwen 3 — Qwen/Qwen3-8B', 'Another model id…')
    """
    return f"{CATALOGUE[repo_id]} — {repo_id}" if repo_id in CATALOGUE else (
        repo_id or "Another model id…")


def hub_form(key: str) -> str | None:
    """A model from the catalogue or any Hub id; the name it got in the session once loaded."""
    choice = st.selectbox("Model", [*CATALOGUE, OTHER], format_func=title, key=f"{key}_hub",
                          help="Popular models with a BPE tokenizer, or any model id on the "
                               "Hub. Llama and Gemma are gated: accept the licence on the "
                               "model's Hub page and set HF_TOKEN before starting the app.")
    repo_id = choice or st.text_input("Model id on the Hugging Face Hub", key=f"{key}_hub_id",
                                      placeholder="org/name, for example Qwen/Qwen3-8B, or "
                                                  "the address of its page").strip()
    st.caption("The model's tokenizer.json, tokenizer_config.json and chat templates are "
               "downloaded the first time and kept in the Hugging Face cache "
               f"(`{cache_dir()}`); from there they load without internet. A gated model needs "
               "its licence accepted on the Hub and HF_TOKEN set. Only BPE tokenizers can be "
               "read.")
    if not st.button("Load model", key=f"{key}_hub_load", disabled=not repo_id):
        return None
    name, message = load_into_session(repo_id)
    if message:
        st.error(md_literal(message))
        return None
    return name
