"""The model catalogue in Tokenize's load panel, run headless with AppTest: Hub models from a
stand-in Hub cache the tests make (or a stand-in ``hf_hub_download`` raising each error), and
OpenAI's encodings by name. Every failure shows one sentence, never a traceback."""

from __future__ import annotations

import huggingface_hub
import pytest
from huggingface_hub import constants, errors
from streamlit.testing.v1 import AppTest

from bpe_core.formats import hub
from tests.app.test_loaded_models_page import ids_shown
from tests.app.test_tokenize_page import APP, active, metric, open_page, type_text
from tests.hub_cache import (CHAT_CONFIG, CHAT_TEMPLATE, config_file, hub_exception, put_model,
                             unigram_file, wordpiece_file)
from tests.model_files import char_bpe_file, hf, llama3_file
from ui.shared import budget, catalogue, loaders
from ui.tokenize.chat import upload_key

KEY = "tok_load"


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    """An empty stand-in Hub cache, and no model kept from another test."""
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    catalogue.hub_model.clear()
    yield tmp_path
    catalogue.hub_model.clear()


def open_hub_form(at: AppTest | None = None) -> AppTest:
    at = at or open_page()
    at.radio(key=f"{KEY}_source").set_value("hub").run()
    assert not at.exception
    return at


def load_model(at: AppTest, repo_id: str) -> AppTest:
    """Pick ``repo_id`` in the catalogue, or type it in the box, and press Load model."""
    if repo_id in hub.CATALOGUE:
        at.selectbox(key=f"{KEY}_hub").set_value(repo_id).run()
    else:
        at.selectbox(key=f"{KEY}_hub").set_value(catalogue.OTHER).run()
        at.text_input(key=f"{KEY}_hub_id").input(repo_id).run()
    at.button(key=f"{KEY}_hub_load").click().run()
    assert not at.exception
    return at


def session_config(at: AppTest) -> dict | None:
    """The tokenizer_config.json the session keeps for its active tokenizer, a Hub model."""
    tok = active(at)
    return at.session_state[catalogue.CONFIGS].get((tok.fingerprint(), tok.name))


def the_error(at: AppTest) -> str:
    """The one error the page shows, Markdown escapes taken out."""
    [error] = [e.value.replace("\\", "") for e in at.error]
    assert "\n" not in error and "Traceback" not in error
    return error


def test_a_catalogue_model_loads_from_the_hub_cache_and_becomes_active(cache) -> None:
    data = llama3_file()
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": data,
                                       "tokenizer_config.json": config_file()})
    at = open_hub_form()
    assert at.selectbox(key=f"{KEY}_hub").options[:2] == [
        "Llama 3.2 (gated) — meta-llama/Llama-3.2-1B-Instruct", "Qwen 3 — Qwen/Qwen3-8B"]
    assert str(cache) in " ".join(c.value for c in at.caption)  # where downloads are kept
    load_model(at, "Qwen/Qwen3-8B")
    assert at.session_state["tokenizer"] == "Qwen/Qwen3-8B"
    assert any("Qwen/Qwen3-8B" in s.value.replace("\\", "") for s in at.success)
    text = "Hello wörld 😀 lower"
    type_text(at, text)
    assert ids_shown(at) == hf(data).encode(text, add_special_tokens=False).ids
    assert session_config(at) == CHAT_CONFIG
    # The chat view renders the model's own template, nothing uploaded.
    prompt = ("<|start|>system\nYou are a helpful assistant.<|end|>"
              "<|start|>user\nHow many tokens does this question cost?<|end|>")
    assert at.code[0].value == prompt
    assert metric(at, "Prompt tokens") == f"{len(active(at).spans(prompt)):,}"


def test_the_first_gpt_loads_from_the_catalogue_with_its_words_ending_in_end_of_word(cache
                                                                                       ) -> None:
    # GPT-1's file has BERT's normalizer and pre-tokenizer, as tokenizers' CharBPETokenizer.
    data = char_bpe_file()
    put_model(cache, "openai-community/openai-gpt", {"tokenizer.json": data})
    at = open_hub_form()
    assert "GPT-1 — openai-community/openai-gpt" in at.selectbox(key=f"{KEY}_hub").options
    load_model(at, "openai-community/openai-gpt")
    assert at.session_state["tokenizer"] == "openai-community/openai-gpt" and not at.error
    text = "The Lowest, newest!"
    type_text(at, text)
    assert ids_shown(at) == hf(data).encode(text).ids
    assert [active(at).display(i) for i in ids_shown(at)][:2] == ["the</w>", "lowest</w>"]


def test_any_model_id_loads_from_the_box_and_sessions_share_it_unchanged(cache) -> None:
    put_model(cache, "someone/tiny-bpe", {"tokenizer.json": llama3_file()})
    first = load_model(open_hub_form(), "someone/tiny-bpe")
    second = load_model(open_hub_form(), " someone/tiny-bpe ")
    a, b = active(first), active(second)
    assert a.name == b.name == "someone/tiny-bpe"
    assert a.model is b.model  # read once for the process, shared
    assert session_config(first) == {}
    # Each session holds its own renamed copy: the tokenizer kept for the process is not one.
    kept = catalogue.hub_model("someone/tiny-bpe").tokenizer
    assert a is not kept and b is not kept and a is not b
    load_model(first, "someone/tiny-bpe")  # loading it again only makes it active
    assert list(first.session_state["tokenizers"]).count("someone/tiny-bpe") == 1


def test_models_kept_for_later_sessions_are_bounded_by_their_vocabularies(cache, monkeypatch
                                                                          ) -> None:
    # Three models of 400 tokens and room for 800: the one used longest ago is let go, and
    # read anew when asked for again; the one used last stays, even alone over the budget.
    for repo_id in ("org/a", "org/b", "org/c"):
        put_model(cache, repo_id, {"tokenizer.json": llama3_file()})
    monkeypatch.setattr(budget.TOKENIZERS, "tokens", 800)
    a, b = catalogue.hub_model("org/a"), catalogue.hub_model("org/b")
    assert a.tokenizer.vocab_size == 400 and catalogue.hub_model("org/a") is a  # b is older
    c = catalogue.hub_model("org/c")
    assert catalogue.hub_model("org/a") is a and catalogue.hub_model("org/c") is c
    again = catalogue.hub_model("org/b")
    assert again is not b and again.tokenizer.encode("Hello") == b.tokenizer.encode("Hello")
    monkeypatch.setattr(budget.TOKENIZERS, "tokens", 100)
    assert catalogue.hub_model("org/b") is again and catalogue.hub_model("org/c") is not c
    catalogue.hub_model.clear()  # every model goes, and so do their places in the budget
    assert not [key for key in budget.TOKENIZERS.keys() if key[0] == "hub"]


def test_hub_models_and_uploaded_files_share_one_budget(cache, monkeypatch) -> None:
    # Each cache was bounded alone (six Hub models, four uploads, three references, whatever
    # their size): an upload now counts against the Hub models' budget, and they theirs.
    put_model(cache, "org/a", {"tokenizer.json": llama3_file()})
    put_model(cache, "org/b", {"tokenizer.json": llama3_file()})
    monkeypatch.setattr(budget.TOKENIZERS, "tokens", 800)
    a = catalogue.hub_model("org/a")
    upload = [("tokenizer.json", llama3_file())]
    mine = loaders.read_cached("hf", upload)
    assert loaders.read_cached("hf", upload) is mine  # kept while there is room
    catalogue.hub_model("org/b")  # 1,200 tokens: the one used longest ago, org/a, is let go
    assert catalogue.hub_model("org/a") is not a
    assert loaders.read_cached("hf", upload) is not mine  # let go for org/a, used since


def test_a_models_page_address_pasted_in_the_box_loads_it_under_its_id(cache) -> None:
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": llama3_file(),
                                       "tokenizer_config.json": config_file()})
    at = load_model(open_hub_form(), "https://huggingface.co/Qwen/Qwen3-8B/tree/main")
    assert not at.error and at.session_state["tokenizer"] == "Qwen/Qwen3-8B"
    assert any("“Qwen/Qwen3-8B”" in s.value.replace("\\", "") for s in at.success)
    assert chat_prompt(at).startswith("<|start|>system\nYou are a helpful assistant.<|end|>")
    load_model(at, "Qwen/Qwen3-8B/")  # the same model: made active, not loaded twice
    assert list(at.session_state["tokenizers"]).count("Qwen/Qwen3-8B") == 1
    load_model(at, "https://huggingface.co/datasets/org/corpus")
    assert the_error(at).startswith("https://huggingface.co/datasets/org/corpus is the address "
                                    "of a data set on the Hugging Face Hub, not of a model")


def test_a_link_naming_a_hub_model_in_the_cache_opens_it(cache) -> None:
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": llama3_file(),
                                       "tokenizer_config.json": config_file()})
    at = open_page({"tokenizer": "Qwen/Qwen3-8B", "text": "Hello wörld"})
    assert not at.info and at.session_state["tokenizer"] == "Qwen/Qwen3-8B"
    assert ids_shown(at) == hf(llama3_file()).encode("Hello wörld",
                                                     add_special_tokens=False).ids
    assert chat_prompt(at).startswith("<|start|>system\nYou are a helpful assistant.<|end|>")
    at = open_page({"tokenizer": "Qwen/Qwen3-4B"})  # not in the cache: said, as before
    assert at.info[0].value.startswith("The link asks for the tokenizer 'Qwen/Qwen3\\-4B'")
    put_model(cache, "google-bert/bert-base-uncased", {"tokenizer.json": wordpiece_file()})
    at = open_page({"tokenizer": "google-bert/bert-base-uncased"})  # one that cannot be read
    assert [i.value.replace("\\", "") for i in at.info] == [
        "google-bert/bert-base-uncased's tokenizer.json cannot be read as a Hugging Face BPE "
        "tokenizer: the model is WordPiece, not BPE; bpe_core reads BPE models only (WordPiece "
        "and Unigram tokenizers work differently)."]


def test_offline_and_not_cached_names_the_cache_and_the_upload(cache) -> None:
    at = load_model(open_hub_form(), "google/gemma-3-1b-it")
    assert the_error(at) == (
        f"google/gemma-3-1b-it is not in the Hugging Face cache ({cache}) and cannot be "
        "downloaded (offline: huggingface.co cannot be reached, ConnectionError); download its "
        "tokenizer.json once with internet, or upload the file under “Upload a file”.")
    assert at.session_state["tokenizer"] != "google/gemma-3-1b-it"


@pytest.mark.parametrize("repo_id, file, kind", [
    ("google-bert/bert-base-uncased", wordpiece_file, "WordPiece"),
    ("google-t5/t5-small", unigram_file, "Unigram")])
def test_a_not_bpe_model_says_so(cache, repo_id, file, kind) -> None:
    put_model(cache, repo_id, {"tokenizer.json": file()})
    at = load_model(open_hub_form(), repo_id)
    assert the_error(at) == (
        f"{repo_id}'s tokenizer.json cannot be read as a Hugging Face BPE tokenizer: the model "
        f"is {kind}, not BPE; bpe_core reads BPE models only (WordPiece and Unigram tokenizers "
        "work differently).")
    assert repo_id not in at.session_state["tokenizers"]


def chat_prompt(at: AppTest) -> str:
    """The prompt the chat view shows for the active model (its first conversation)."""
    assert not at.exception and not at.error
    return at.code[0].value


def test_a_models_chat_template_in_its_own_file_is_used(cache) -> None:
    put_model(cache, "openai/gpt-oss-20b", {
        "tokenizer.json": llama3_file(), "chat_template.jinja": CHAT_TEMPLATE.encode(),
        "tokenizer_config.json": config_file({"bos_token": "<|begin_of_text|>"})})
    at = load_model(open_hub_form(), "openai/gpt-oss-20b")
    assert chat_prompt(at) == ("<|begin_of_text|><|system|>You are a helpful assistant.<|end|>"
                               "<|user|>How many tokens does this question cost?<|end|>"
                               "<|assistant|>")
    assert metric(at, "Special tokens") == "1"  # <|begin_of_text|>; the rest is the test's own


def test_a_template_file_uploaded_keeps_the_downloaded_configs_special_tokens(cache) -> None:
    put_model(cache, "org/no-template", {
        "tokenizer.json": llama3_file(),
        "tokenizer_config.json": config_file({"bos_token": "<|begin_of_text|>"})})
    at = load_model(open_hub_form(), "org/no-template")
    assert any("This one has none." in c.value for c in at.caption)
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("chat_template.jinja", CHAT_TEMPLATE.encode(), "text/plain").run()
    assert chat_prompt(at).startswith("<|begin_of_text|><|system|>You are a helpful assistant.")
    box = at.file_uploader(key=upload_key(active(at)))
    box.upload("chat_template.jinja", b"\xff{{ x }}", "text/plain").run()
    assert the_error(at) == ("chat_template.jinja is not UTF-8 text. Upload the model's "
                             "chat_template.jinja. The one loaded before is still used.")


def test_two_models_with_one_tokenizer_each_show_their_own_template(cache) -> None:
    data = llama3_file()  # the same tokenizer.json, as Qwen3-8B and Qwen3-8B-Base share
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": data,
                                       "tokenizer_config.json": config_file()})
    put_model(cache, "Qwen/Qwen3-8B-Base", {
        "tokenizer.json": data, "chat_template.jinja": b"base: {{ messages[0].content }}"})
    at = load_model(open_hub_form(), "Qwen/Qwen3-8B")
    instruct = chat_prompt(at)
    assert instruct.startswith("<|start|>system\nYou are a helpful assistant.<|end|>")
    load_model(at, "Qwen/Qwen3-8B-Base")  # loaded last: it once took the other's place
    instruct_tok = at.session_state["tokenizers"]["Qwen/Qwen3-8B"]
    assert active(at).fingerprint() == instruct_tok.fingerprint()
    assert chat_prompt(at) == "base: You are a helpful assistant."
    at.session_state["tokenizer"] = "Qwen/Qwen3-8B"
    at.run()
    assert chat_prompt(at) == instruct
    # A session loading only the base model sees the base model's template.
    assert chat_prompt(load_model(open_hub_form(), "Qwen/Qwen3-8B-Base")) == (
        "base: You are a helpful assistant.")


def test_a_models_config_stays_in_the_sessions_that_loaded_it(cache) -> None:
    # The server kept the config of every model any session had loaded, by (fingerprint, id),
    # for as long as it ran: it only grew, and a session holding the same tokenizer under that
    # name (its own upload) was given the other session's chat template.
    data = llama3_file()
    put_model(cache, "org/chat", {"tokenizer.json": data, "tokenizer_config.json": config_file()})
    a = load_model(open_hub_form(), "org/chat")
    assert chat_prompt(a).startswith("<|start|>system\nYou are a helpful assistant.<|end|>")
    b = open_page()
    b.file_uploader(key=f"{KEY}_native_0").upload("tokenizer.json", data, "application/json").run()
    b.text_input(key=f"{KEY}_name").set_value("org/chat")
    b.button(key=f"{KEY}_load").click().run()
    assert not b.exception and b.session_state["tokenizer"] == "org/chat"
    assert active(b).fingerprint() == active(a).fingerprint()
    assert not b.code and any("Upload it above to see a conversation as org/chat receives it."
                              in c.value.replace("\\", "") for c in b.caption)
    assert catalogue.CONFIGS not in b.session_state
    # A session keeps only the configs of the models it holds.
    put_model(cache, "org/other", {"tokenizer.json": char_bpe_file()})
    held = {k: v for k, v in a.session_state["tokenizers"].items() if k != "org/chat"}
    a.session_state["tokenizers"], a.session_state["tokenizer"] = held, next(iter(held))
    load_model(a, "org/other")
    assert list(a.session_state[catalogue.CONFIGS]) == [(active(a).fingerprint(), "org/other")]


def test_text_that_is_no_model_id_says_how_ids_look(cache) -> None:
    at = load_model(open_hub_form(), "<script>alert(1)</script> **x**")
    assert the_error(at) == ("'<script>alert(1)</script> **x**' is not a model id: a Hub id "
                             "looks like org/name, for example Qwen/Qwen3-8B.")
    assert r"\*\*x\*\*" in at.error[0].value  # shown as typed, not as Markdown


def fail_downloads(monkeypatch, exc: Exception) -> None:
    """The Hub answers, nothing is cached, and every download raises ``exc``."""
    def download(repo_id, filename, *, local_files_only=False, **_):
        if local_files_only:
            raise hub_exception(errors.LocalEntryNotFoundError, "not in the cache")
        raise exc

    monkeypatch.setattr(hub, "unreachable", lambda: None)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)


@pytest.mark.parametrize("repo_id, cls, said", [
    ("meta-llama/Llama-3.2-1B-Instruct", errors.GatedRepoError,
     "meta-llama/Llama-3.2-1B-Instruct is a gated model and HF_TOKEN is not set: accept its "
     "licence on https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct, then start the app "
     "with HF_TOKEN set to a token of that account."),
    ("nobody/no-such-model", errors.RepositoryNotFoundError,
     "There is no model nobody/no-such-model on the Hugging Face Hub (or it is private): check "
     "the id, which looks like org/name, for example Qwen/Qwen3-8B."),
    ("someone/weights-only", errors.RemoteEntryNotFoundError,
     "someone/weights-only has no tokenizer.json (an older model may ship only a SentencePiece "
     "tokenizer.model or a vocab file), so it cannot be read here."),
])
def test_each_hub_failure_is_one_sentence(cache, monkeypatch, repo_id, cls, said) -> None:
    monkeypatch.delenv("HF_TOKEN", raising=False)
    fail_downloads(monkeypatch, hub_exception(cls, "404 Client Error\nwith a long body"))
    at = load_model(open_hub_form(), repo_id)
    assert the_error(at) == said
    assert repo_id not in at.session_state["tokenizers"]


def test_a_failed_model_is_tried_again_when_it_can_load(cache, monkeypatch) -> None:
    fail_downloads(monkeypatch, hub_exception(errors.GatedRepoError, "restricted"))
    at = load_model(open_hub_form(), "someone/later")
    assert "gated model" in the_error(at)
    monkeypatch.undo()  # the licence accepted: the cache holds it now
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(cache))
    put_model(cache, "someone/later", {"tokenizer.json": llama3_file()})
    at.button(key=f"{KEY}_hub_load").click().run()
    assert not at.error and at.session_state["tokenizer"] == "someone/later"


def test_openai_encodings_are_offered_by_name_with_their_models(monkeypatch) -> None:
    monkeypatch.setattr(loaders, "unavailable", lambda name: None)  # all look loadable
    loaders.forget_references()
    try:
        at = open_page()
        at.radio(key=f"{KEY}_source").set_value("fetch").run()
        assert at.selectbox(key=f"{KEY}_ref").options == [
            "gpt2 — GPT-2, from its own release files",
            "r50k_base — GPT-2 and GPT-3 (davinci, curie, babbage, ada)",
            "p50k_base — Codex, text-davinci-002 and text-davinci-003",
            "cl100k_base — GPT-4, GPT-3.5-turbo and text-embedding-3",
            "o200k_base — GPT-4o, GPT-4.1, o1, o3 and o4-mini",
            "o200k_harmony — GPT-OSS (gpt-oss-20b, gpt-oss-120b)"]
    finally:
        loaders.forget_references()


def test_an_openai_encoding_offline_names_tiktokens_cache_and_the_upload() -> None:
    loaders.forget_references()
    at = open_page()
    at.radio(key=f"{KEY}_source").set_value("fetch").run()
    [line] = [i.value for i in at.info if "Not offered" in i.value]
    assert line.startswith("Not offered: gpt2, r50k_base, p50k_base, cl100k_base, o200k_base, "
                           "o200k_harmony, offline (openaipublic.blob.core.windows.net cannot "
                           "be reached: ConnectionError) and not in tiktoken's cache (")
    assert line.endswith("or upload the encoding's .tiktoken file under “Upload a file”.")


def test_a_hostile_downloaded_template_is_stopped_with_one_sentence(cache) -> None:
    put_model(cache, "someone/hostile", {"tokenizer.json": llama3_file(),
                                         "chat_template.jinja": b"{{ 'x' * 10**9 }}"})
    at = load_model(open_hub_form(), "someone/hostile")
    assert the_error(at) == ("The chat template would make a text or list of more than "
                             "1,000,000 characters or items.")
    assert not at.code  # no prompt shown


def test_the_sidebar_loads_a_model_on_any_page(cache) -> None:
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": llama3_file()})
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()  # the Corpus page: no load panel of its own
    assert not at.exception and not at.sidebar.radio  # the catalogue waits until opened
    at.session_state["sidebar_models"] = True  # what opening the expander does
    at.run()
    assert at.sidebar.radio(key="sidebar_load_source").options == [
        "Hugging Face", "OpenAI", "Upload a file"]  # (what the offline messages point to)
    at.sidebar.selectbox(key="sidebar_load_hub").set_value("Qwen/Qwen3-8B").run()
    at.sidebar.button(key="sidebar_load_hub_load").click().run()
    assert not at.exception
    assert at.session_state["tokenizer"] == "Qwen/Qwen3-8B"
    assert at.sidebar.selectbox(key="sidebar_tokenizer").value == "Qwen/Qwen3-8B"
    assert any("Qwen/Qwen3-8B" in s.value.replace("\\", "") for s in at.sidebar.success)


def test_named_templates_get_tools_as_transformers_passes_them(cache) -> None:
    # Command R's kind: a default template and named ones for tools and documents. The default
    # is rendered as transformers renders it with no tools given (None), a named one as it
    # renders it with some (here none: an empty list).
    template = "{{ tools | tojson }} {{ documents | tojson }} {{ messages | length }}"
    config = {"chat_template": [{"name": "default", "template": "default: " + template},
                                {"name": "tool_use", "template": "tool_use: " + template}]}
    put_model(cache, "CohereForAI/c4ai-like", {"tokenizer.json": llama3_file(),
                                               "tokenizer_config.json": config_file(config)})
    at = load_model(open_hub_form(), "CohereForAI/c4ai-like")
    assert at.selectbox(key="tok_chat_template").options == ["default", "tool_use"]
    assert chat_prompt(at) == "default: null null 2"
    at.selectbox(key="tok_chat_template").set_value("tool_use").run()
    assert chat_prompt(at) == "tool_use: [] [] 2"
