"""Hub models by id (``bpe_core.formats.hub``), from a stand-in Hub cache the tests make, or a
stand-in ``hf_hub_download`` raising each of ``huggingface_hub``'s errors: no network."""

from __future__ import annotations

import json
from types import SimpleNamespace

import huggingface_hub
import pytest
from huggingface_hub import constants, errors
from tokenizers import Tokenizer as HFTokenizer

from bpe_core.formats import hub, size
from bpe_core.formats.hub import CATALOGUE, HubError, load_model
from tests.hub_cache import (CHAT_CONFIG, CHAT_TEMPLATE, config_file, hub_exception, put_model,
                             wordpiece_file)
from tests.model_files import llama2_file, llama3_file


@pytest.fixture()
def cache(monkeypatch, tmp_path):
    """An empty Hub cache, online as far as the Hub settings go (the suite's requests.head
    finds every host unreachable)."""
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    return tmp_path


def refusal(repo_id: str) -> str:
    """Why ``load_model(repo_id)`` fails."""
    with pytest.raises(HubError) as error:
        load_model(repo_id)
    return str(error.value)


def test_a_cached_model_loads_without_the_network_with_its_config(cache) -> None:
    data = llama3_file()
    put_model(cache, "org/llama-like", {"tokenizer.json": data,
                                        "tokenizer_config.json": config_file()})
    model = load_model(" org/llama-like ")
    assert model.repo_id == "org/llama-like" and model.tokenizer.name == "org/llama-like"
    assert model.config == CHAT_CONFIG
    text = "Hello wörld 😀 lower"
    assert model.tokenizer.encode(text) == HFTokenizer.from_str(data.decode()).encode(
        text, add_special_tokens=False).ids


def test_a_cached_model_without_a_config_loads_with_an_empty_one(cache) -> None:
    put_model(cache, "org/plain", {"tokenizer.json": llama2_file()})
    model = load_model("org/plain")
    assert model.config == {}


def test_an_unreadable_config_is_left_out_not_fatal(cache) -> None:
    put_model(cache, "org/odd", {"tokenizer.json": llama2_file(),
                                 "tokenizer_config.json": b"{not json"})
    assert load_model("org/odd").config == {}


def test_a_wordpiece_model_is_refused_saying_it_is_not_bpe(cache) -> None:
    put_model(cache, "google-bert/bert-base-uncased", {"tokenizer.json": wordpiece_file()})
    assert refusal("google-bert/bert-base-uncased") == (
        "google-bert/bert-base-uncased's tokenizer.json cannot be read as a Hugging Face BPE "
        "tokenizer: the model is WordPiece, not BPE; bpe_core reads BPE models only (WordPiece "
        "and Unigram tokenizers work differently).")


def test_offline_and_not_cached_names_the_cache_and_the_upload(cache) -> None:
    assert refusal("Qwen/Qwen3-8B") == (
        f"Qwen/Qwen3-8B is not in the Hugging Face cache ({cache}) and cannot be downloaded "
        "(offline: huggingface.co cannot be reached, ConnectionError); download its "
        "tokenizer.json once with internet, or upload the file under “Upload a file”.")


def test_offline_a_model_the_hub_said_has_no_tokenizer_json_says_so(cache) -> None:
    # As transformers leaves a model with only a SentencePiece tokenizer.model in the cache.
    put_model(cache, "org/sentencepiece", {"tokenizer_config.json": config_file(),
                                           "tokenizer.model": b"\x0a\x0b"},
              absent=("tokenizer.json",))
    assert refusal("org/sentencepiece") == (
        "org/sentencepiece has no tokenizer.json (an older model may ship only a SentencePiece "
        "tokenizer.model or a vocab file), so it cannot be read here.")


def test_offline_a_model_cached_without_its_tokenizer_json_is_said_to_be_there_in_part(cache):
    # Its config fetched (by transformers, say), its tokenizer.json never: 'not in the cache'.
    put_model(cache, "org/partial", {"tokenizer_config.json": config_file()})
    assert refusal("org/partial") == (
        f"org/partial is in the Hugging Face cache ({cache}) without its tokenizer.json and "
        "cannot be downloaded (offline: huggingface.co cannot be reached, ConnectionError); "
        "download its tokenizer.json once with internet, or upload the file under “Upload a "
        "file”.")


def test_offline_an_id_spelt_in_other_case_names_the_model_the_cache_holds(cache) -> None:
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": llama3_file()})
    assert refusal("qwen/qwen3-8b@v1.0") == (
        f"qwen/qwen3-8b@v1.0 is not in the Hugging Face cache ({cache}), which holds "
        "Qwen/Qwen3-8B: give the id as the Hub writes it, capitals too.")
    assert load_model("Qwen/Qwen3-8B").repo_id == "Qwen/Qwen3-8B"


def test_hub_offline_mode_is_named(cache, monkeypatch) -> None:
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    assert refusal("Qwen/Qwen3-8B").startswith(
        f"Qwen/Qwen3-8B is not in the Hugging Face cache ({cache}) and cannot be downloaded "
        "(HF_HUB_OFFLINE is set); ")


@pytest.mark.parametrize("repo_id", ["not an id", "a/b/c", "", "<script>/x"])
def test_what_is_no_model_id_says_how_ids_look(cache, repo_id) -> None:
    assert refusal(repo_id) == (f"{repo_id!r} is not a model id: a Hub id looks like org/name, "
                                "for example Qwen/Qwen3-8B.")


@pytest.mark.parametrize("text", [
    "https://huggingface.co/Qwen/Qwen3-8B", "https://huggingface.co/Qwen/Qwen3-8B/",
    "huggingface.co/Qwen/Qwen3-8B/tree/main", "https://hf.co/Qwen/Qwen3-8B#model-card",
    "https://huggingface.co/Qwen/Qwen3-8B/blob/main/tokenizer_config.json?plain=1",
    "https://huggingface.co/Qwen/Qwen3-8B/discussions/12", " Qwen/Qwen3-8B/ ",
    "Qwen/Qwen3-8B@main"])
def test_a_models_page_address_or_its_id_with_a_slash_loads_the_model(cache, text) -> None:
    put_model(cache, "Qwen/Qwen3-8B", {"tokenizer.json": llama3_file(),
                                       "tokenizer_config.json": config_file()})
    model = load_model(text)
    assert model.repo_id == model.tokenizer.name == "Qwen/Qwen3-8B"
    assert model.config == CHAT_CONFIG


def test_a_revision_in_the_address_or_after_an_at_loads_that_revision(cache) -> None:
    put_model(cache, "org/m", {"tokenizer.json": llama3_file(),
                               "tokenizer_config.json": config_file()})
    put_model(cache, "org/m", {"tokenizer.json": llama2_file()}, ref="v1.0",
              absent=("tokenizer_config.json", "chat_template.jinja"))
    for text in ("https://huggingface.co/org/m/tree/v1.0", "org/m@v1.0",
                 "https://huggingface.co/org/m/blob/v1.0/tokenizer.json"):
        old = load_model(text)
        assert old.repo_id == old.tokenizer.name == "org/m@v1.0" and old.config == {}
        assert old.tokenizer.encode("Hello wörld") == HFTokenizer.from_str(
            llama2_file().decode()).encode("Hello wörld", add_special_tokens=False).ids
    assert load_model("org/m").config == CHAT_CONFIG
    assert refusal("https://huggingface.co/org/m/tree/v2") == (
        f"org/m@v2 is not in the Hugging Face cache ({cache}) and cannot be downloaded "
        "(offline: huggingface.co cannot be reached, ConnectionError); download its "
        "tokenizer.json once with internet, or upload the file under “Upload a file”.")
    assert refusal("org/m@../../x") == ("'../../x' is not a revision of a model: a branch, a "
                                        "tag or a commit, such as main.")


@pytest.mark.parametrize("text, what", [
    ("https://huggingface.co/datasets/org/corpus", "a data set on the Hugging Face Hub, not of "
                                                   "a model"),
    ("https://huggingface.co/spaces/org/demo", "a Space on the Hugging Face Hub, not of a model"),
    ("https://huggingface.co/", "no model on the Hugging Face Hub")])
def test_an_address_that_is_no_models_page_says_what_it_is(cache, text, what) -> None:
    assert refusal(text) == (f"{text} is the address of {what}: give a model's id (org/name, "
                             "for example Qwen/Qwen3-8B) or the address of its page.")


def online_hub(monkeypatch, fails: dict[str, Exception],
               found: dict[str, str] | None = None) -> list[tuple[str, bool]]:
    """The Hub answers; nothing is in the cache; ``hf_hub_download`` of a file named in
    ``fails`` raises its error, of one in ``found`` gives its path. The calls made, as (file,
    local only)."""
    calls = []

    def download(repo_id, filename, *, local_files_only=False, **_):
        calls.append((filename, local_files_only))
        if local_files_only:
            raise hub_exception(errors.LocalEntryNotFoundError, "not in the cache")
        if filename in (found or {}):
            return found[filename]
        raise fails[filename]

    monkeypatch.setattr(hub, "unreachable", lambda: None)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    return calls


def gated(message: str = "Access to model meta-llama/Llama-3.2-1B-Instruct is restricted."):
    return hub_exception(errors.GatedRepoError, message)


@pytest.mark.parametrize("token, why", [
    (None, "HF_TOKEN is not set"), ("hf_x", "the account of your HF_TOKEN has no access yet")])
def test_a_gated_model_says_accept_the_licence_and_set_hf_token(cache, monkeypatch, token,
                                                                why) -> None:
    if token:
        monkeypatch.setenv("HF_TOKEN", token)
    else:
        monkeypatch.delenv("HF_TOKEN", raising=False)
    calls = online_hub(monkeypatch, {"tokenizer.json": gated()})
    assert refusal("meta-llama/Llama-3.2-1B-Instruct") == (
        f"meta-llama/Llama-3.2-1B-Instruct is a gated model and {why}: accept its licence on "
        "https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct, then start the app with "
        "HF_TOKEN set to a token of that account.")
    assert calls == [("tokenizer.json", True), ("tokenizer.json", False)]  # the cache first


@pytest.mark.parametrize("exc, said", [
    (hub_exception(errors.RepositoryNotFoundError, "404"),
     "There is no model org/nothing on the Hugging Face Hub (or it is private): check the id, "
     "which looks like org/name, for example Qwen/Qwen3-8B."),
    (hub_exception(errors.RemoteEntryNotFoundError, "404 tokenizer.json"),
     "org/nothing has no tokenizer.json (an older model may ship only a SentencePiece "
     "tokenizer.model or a vocab file), so it cannot be read here."),
    (hub_exception(errors.LocalEntryNotFoundError, "connection dropped"),
     "The Hugging Face Hub cannot be reached (offline?) and org/nothing is not in the Hugging "
     "Face cache ({cache}); download its tokenizer.json once with internet, or upload the file "
     "under “Upload a file”."),
    (hub_exception(errors.RevisionNotFoundError, "404 Revision Not Found"),
     "org/nothing has no such revision on the Hugging Face Hub."),
    (hub_exception(errors.HfHubHTTPError, "500 Server Error\nrequest id: 1"),
     "The Hugging Face Hub did not give org/nothing's tokenizer (HfHubHTTPError: 500 Server "
     "Error)."),
])
def test_each_download_error_is_one_sentence(cache, monkeypatch, exc, said) -> None:
    online_hub(monkeypatch, {"tokenizer.json": exc})
    assert refusal("org/nothing") == said.format(cache=cache)


def test_a_revision_is_asked_of_the_hub_and_named_when_it_fails(cache, monkeypatch) -> None:
    asked = []
    monkeypatch.setattr(hub, "unreachable", lambda: None)

    def download(repo_id, filename, *, revision=None, local_files_only=False, **_):
        asked.append((repo_id, revision))
        if local_files_only:
            raise hub_exception(errors.LocalEntryNotFoundError, "not in the cache")
        raise hub_exception(errors.RevisionNotFoundError, "404 Revision Not Found")

    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    assert refusal("https://huggingface.co/org/nothing/tree/v9") == (
        "org/nothing has no revision v9 on the Hugging Face Hub.")
    assert asked == [("org/nothing", "v9")] * 2
    monkeypatch.delenv("HF_TOKEN", raising=False)
    online_hub(monkeypatch, {"tokenizer.json": gated()})
    assert refusal("meta-llama/Llama-3.2-1B-Instruct@v2").startswith(
        "meta-llama/Llama-3.2-1B-Instruct is a gated model and HF_TOKEN is not set: accept its "
        "licence on https://huggingface.co/meta-llama/Llama-3.2-1B-Instruct, then ")


def test_a_downloaded_model_without_a_config_loads(cache, monkeypatch) -> None:
    downloaded = put_model(cache / "downloads", "org/new", {"tokenizer.json": llama2_file()})
    missing = hub_exception(errors.RemoteEntryNotFoundError, "404")
    calls = online_hub(monkeypatch, {"tokenizer_config.json": missing,
                                     "chat_template.jinja": missing},
                       {"tokenizer.json": str(downloaded / "tokenizer.json")})
    model = load_model("org/new")
    assert model.config == {} and model.tokenizer.vocab_size > 256
    assert calls == [("tokenizer.json", True), ("tokenizer.json", False),
                     ("tokenizer_config.json", False), ("chat_template.jinja", False)]


def test_a_separate_chat_template_file_is_used_before_the_configs(cache) -> None:
    put_model(cache, "openai/gpt-oss-like", {"tokenizer.json": llama3_file(),
                                             "tokenizer_config.json": config_file(),
                                             "chat_template.jinja": CHAT_TEMPLATE.encode()})
    # As transformers reads it: the file's template, the config's special tokens.
    assert load_model("openai/gpt-oss-like").config == {**CHAT_CONFIG,
                                                       "chat_template": CHAT_TEMPLATE}
    put_model(cache, "org/template-only", {"tokenizer.json": llama3_file(),
                                           "chat_template.jinja": b"\xef\xbb\xbf{{ x }}"})
    assert load_model("org/template-only").config == {"chat_template": "{{ x }}"}


def test_a_cached_tokenizer_gets_its_missing_config_and_template_when_online(
        cache, monkeypatch) -> None:
    put_model(cache, "org/half", {"tokenizer.json": llama3_file()})
    downloads = put_model(cache / "downloads", "org/half", {
        "tokenizer_config.json": config_file(), "chat_template.jinja": CHAT_TEMPLATE.encode()})
    calls = []
    real = huggingface_hub.hf_hub_download

    def download(repo_id, filename, *, local_files_only=False, **_):
        calls.append((filename, local_files_only))
        if local_files_only:
            return real(repo_id, filename, local_files_only=True)
        return str(downloads / filename)

    monkeypatch.setattr(hub, "unreachable", lambda: None)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    assert load_model("org/half").config == {**CHAT_CONFIG, "chat_template": CHAT_TEMPLATE}
    assert calls == [("tokenizer.json", True), ("tokenizer_config.json", False),
                     ("chat_template.jinja", False)]


@pytest.mark.parametrize("exc", [
    hub_exception(errors.HfHubHTTPError, "500 Server Error"),
    hub_exception(errors.GatedRepoError, "Access restricted: your token has expired"),
    hub_exception(errors.LocalEntryNotFoundError, "connection dropped")])
def test_a_cached_tokenizer_loads_when_what_it_lacks_cannot_be_had_now(cache, monkeypatch,
                                                                        exc) -> None:
    put_model(cache, "org/half", {"tokenizer.json": llama3_file()})
    real = huggingface_hub.hf_hub_download

    def download(repo_id, filename, *, local_files_only=False, **_):
        if local_files_only:
            return real(repo_id, filename, local_files_only=True)
        raise exc

    monkeypatch.setattr(hub, "unreachable", lambda: None)
    monkeypatch.setattr(huggingface_hub, "hf_hub_download", download)
    model = load_model("org/half")  # the tokenizer in hand works without them
    assert model.config == {} and model.tokenizer.name == "org/half"


def test_a_cached_tokenizer_offline_loads_without_what_it_lacks(cache) -> None:
    put_model(cache, "org/half", {"tokenizer.json": llama3_file()})
    assert load_model("org/half").config == {}  # the suite's Hub cannot be reached


def test_files_the_hub_said_it_has_not_are_not_asked_for_again(cache, monkeypatch) -> None:
    put_model(cache, "org/plain", {"tokenizer.json": llama3_file()},
              absent=("tokenizer_config.json", "chat_template.jinja"))
    monkeypatch.setattr(hub, "unreachable", lambda: pytest.fail("the Hub was asked"))
    assert load_model("org/plain").config == {}


@pytest.mark.parametrize("name", ["tokenizer.json", "tokenizer_config.json",
                                  "chat_template.jinja"])
def test_a_file_over_the_size_limit_is_refused_before_it_is_read(cache, monkeypatch,
                                                                 name) -> None:
    files = {"tokenizer.json": llama2_file(), "tokenizer_config.json": config_file(),
             "chat_template.jinja": CHAT_TEMPLATE.encode()}
    files[name] += b" " * 2**20
    put_model(cache, "org/big", files)
    monkeypatch.setattr(size, "MAX_TOKENIZER_BYTES", 2**20)  # 1 MB, so the test writes little
    if name == "tokenizer.json":
        monkeypatch.setattr(hub, "loads", lambda *_, **__: pytest.fail("it was read"))
    assert refusal("org/big") == (
        f"org/big's {name} is {len(files[name]) / 2**20:.1f} MB, more than the 1 MB a tokenizer "
        "file may have here (the largest real one, Gemma 3's tokenizer.json, is 33 MB). Is it "
        "the model's weights rather than its tokenizer?")


def test_a_file_the_cache_holds_but_cannot_be_read_says_so(cache) -> None:
    snapshot = put_model(cache, "org/broken", {})
    (snapshot / "tokenizer.json").mkdir()  # (a cache damaged by hand, or a file it cannot open)
    assert refusal("org/broken") == ("Could not read org/broken's tokenizer.json in the Hugging "
                                     "Face cache (Is a directory).")


def test_the_catalogue_names_real_bpe_models() -> None:
    families = " ".join(CATALOGUE.values())
    for family in ("Llama 3", "Qwen 3", "Gemma 3", "Mistral", "DeepSeek V3", "GPT-OSS", "Phi-4",
                   "SmolLM", "GPT-1"):
        assert family in families
    assert all(repo.count("/") == 1 and " " not in repo for repo in CATALOGUE)
    assert json.loads(config_file()) == CHAT_CONFIG


TOOL_TEMPLATE = "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}{% endfor %}[tools]"


def test_named_chat_templates_in_their_folder_are_offered_by_name(cache) -> None:
    # Only chat_template.jinja was read: the chat view offered no "tool_use" template.
    from bpe_core.chat import templates
    put_model(cache, "org/tools", {
        "tokenizer.json": llama3_file(), "tokenizer_config.json": config_file(),
        "chat_template.jinja": CHAT_TEMPLATE.encode(),
        "additional_chat_templates/tool_use.jinja": TOOL_TEMPLATE.encode(),
        "additional_chat_templates/rag.jinja": b"\xff not text",  # left out
        "additional_chat_templates/notes.txt": b"not a template"})
    config = load_model("org/tools").config  # the suite's Hub cannot be reached: the cache's
    assert templates(config) == {"default": CHAT_TEMPLATE, "tool_use": TOOL_TEMPLATE}
    assert config["bos_token"] == CHAT_CONFIG["bos_token"]
    # As transformers reads them: template files come before the config's template, even
    # when there is no chat_template.jinja among them.
    put_model(cache, "org/tools-only", {
        "tokenizer.json": llama3_file(), "tokenizer_config.json": config_file(),
        "additional_chat_templates/tool_use.jinja": TOOL_TEMPLATE.encode()})
    assert templates(load_model("org/tools-only").config) == {"tool_use": TOOL_TEMPLATE}


def test_named_chat_templates_are_listed_and_downloaded_with_a_new_model(cache,
                                                                         monkeypatch) -> None:
    downloaded = put_model(cache / "downloads", "org/new", {
        "tokenizer.json": llama2_file(), "chat_template.jinja": CHAT_TEMPLATE.encode()})
    tool = "additional_chat_templates/tool_use.jinja"  # (not yet beside the tokenizer.json)
    elsewhere = put_model(cache / "later", "org/new", {tool: TOOL_TEMPLATE.encode()})
    missing = hub_exception(errors.RemoteEntryNotFoundError, "404")
    calls = online_hub(monkeypatch, {"tokenizer_config.json": missing}, {
        "tokenizer.json": str(downloaded / "tokenizer.json"),
        "chat_template.jinja": str(downloaded / "chat_template.jinja"),
        tool: str(elsewhere / tool)})
    listed = []

    def tree(self, repo_id, path_in_repo=None, *, revision=None, **_):
        listed.append((repo_id, path_in_repo, revision))
        # (The Hub's RepoFile, in what is read of it; a file that is no template is passed over.)
        return iter([SimpleNamespace(path=tool), SimpleNamespace(path=f"{tool[:-6]}.md")])

    monkeypatch.setattr(huggingface_hub.HfApi, "list_repo_tree", tree)
    config = load_model("org/new").config
    assert config["chat_template"] == [{"name": "default", "template": CHAT_TEMPLATE},
                                       {"name": "tool_use", "template": TOOL_TEMPLATE}]
    assert listed == [("org/new", "additional_chat_templates", None)]
    assert calls[-1] == (tool, False)
