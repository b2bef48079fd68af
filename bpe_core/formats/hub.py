"""Models' tokenizers from the Hugging Face Hub, by model id, through ``huggingface_hub``.

``load_model("Qwen/Qwen3-8B")`` downloads the model's ``tokenizer.json``, its
``tokenizer_config.json``, its ``chat_template.jinja`` and its named templates
(``additional_chat_templates/<name>.jinja``; when it has them) once
(``hf_hub_download`` keeps them in the Hub cache, and sends ``HF_TOKEN`` when it is set) and
reads them into a :class:`HubModel`. A model already in the cache loads without the network.
Whatever goes wrong is a :class:`HubError` whose message is one sentence for the user: offline,
a gated model, an unknown id, no ``tokenizer.json``, a file over the size limit
(``size.too_big``), or a tokenizer that is not BPE.

>>> print(hub_error("a b", ValueError("Repo id must use alphanumeric chars")))
'a b' is not a model id: a Hub id looks like org/name, for example Qwen/Qwen3-8B.

``huggingface_hub`` is imported when a model is asked for, not with ``bpe_core``.
"""

from __future__ import annotations

import os
from urllib.parse import unquote, urlsplit
from dataclasses import dataclass, field
from typing import Any

import regex

from ..json_text import loads as json_loads
from ..tokenizer import Tokenizer
from . import loads
from .errors import TokenizerFileError
from .size import too_big

#: A few popular models whose tokenizer is BPE, model id -> a short name. Llama and Gemma are
#: gated: their licence has to be accepted on the Hub, and HF_TOKEN set.
CATALOGUE: dict[str, str] = {
    "meta-llama/Llama-3.2-1B-Instruct": "Llama 3.2 (gated)",
    "Qwen/Qwen3-8B": "Qwen 3",
    "google/gemma-3-1b-it": "Gemma 3 (gated)",
    "mistralai/Mistral-Nemo-Instruct-2407": "Mistral NeMo",
    "deepseek-ai/DeepSeek-V3": "DeepSeek V3",
    "openai/gpt-oss-20b": "GPT-OSS",
    "microsoft/phi-4": "Phi-4",
    "HuggingFaceTB/SmolLM3-3B": "SmolLM 3",
    # The first GPT (2018): Sennrich et al.'s BPE over lowercased words ending in </w>.
    "openai-community/openai-gpt": "GPT-1",
}

TOKENIZER_FILE, CONFIG_FILE = "tokenizer.json", "tokenizer_config.json"
#: The chat template in a file of its own: newer repositories (GPT-OSS, Qwen 3's later ones) keep
#: it there rather than in tokenizer_config.json.
TEMPLATE_FILE = "chat_template.jinja"
#: Named chat templates besides that one ("tool_use", "rag"), each ``<name>.jinja`` in this
#: folder, as transformers saves them: read as transformers reads them (``_chat_templates``).
TEMPLATE_DIR = "additional_chat_templates"
_EXAMPLE = "Qwen/Qwen3-8B"
#: A model page's address as the browser shows it: the Hub's host, then org/name, perhaps seen
#: at a revision (/tree/v1.0, /blob/main/tokenizer.json) or on a tab of its page (/discussions).
_PAGE = regex.compile(r"(?:https?://)?(?:www\.)?(?:huggingface\.co|hf\.co)(/.*)?", regex.I)
_AT_REVISION = frozenset({"tree", "blob", "resolve", "raw", "commit"})
#: A branch, tag or commit: what the Hub's revisions are written with (no '..', which the cache
#: would read as a folder above its own).
_REVISION = regex.compile(r"(?!.*\.\.)[\w.\-/]+")


@dataclass(frozen=True)
class HubModel:
    """A model's tokenizer and its ``tokenizer_config.json`` (``{}`` when it has none), which
    holds the chat template (``bpe_core.chat.templates``; the one of ``chat_template.jinja``
    when the model has that file) and the special tokens' roles."""

    repo_id: str
    tokenizer: Tokenizer
    config: dict[str, Any] = field(default_factory=dict, compare=False)


class HubError(RuntimeError):
    """A model's tokenizer could not be had from the Hub; the message says why, for the user."""


def cache_dir() -> str:
    """The folder where ``huggingface_hub`` keeps what it downloads (``HF_HUB_CACHE``)."""
    from huggingface_hub import constants

    return str(constants.HF_HUB_CACHE)


def model_name(text: str) -> str:
    """The model ``text`` names, as it is called here: its id, then ``@`` and its revision
    unless that is main. ``text`` is an id as typed (spaces around it and a trailing slash
    left out, ``@revision`` after it), or a model page's address copied from the browser.

    >>> model_name(" https://huggingface.co/Qwen/Qwen3-8B "), model_name("Qwen/Qwen3-8B/")
    ('Qwen/Qwen3-8B', 'Qwen/Qwen3-8B')
    >>> model_name("https://huggingface.co/Qwen/Qwen3-8B/blob/v1.0/tokenizer.json?x=1")
    'Qwen/Qwen3-8B@v1.0'
    >>> model_name("Qwen/Qwen3-8B@main"), model_name("hf.co/gpt2/tree/main")
    ('Qwen/Qwen3-8B', 'gpt2')
    >>> model_name("https://huggingface.co/datasets/org/corpus")
    Traceback (most recent call last):
    bpe_core.formats.hub.HubError: https://huggingface.co/datasets/org/corpus is the address of a \
data set on the Hugging Face Hub, not of a model: give a model's id (org/name, for example \
Qwen/Qwen3-8B) or the address of its page.
    """
    text = text.strip()
    page = _PAGE.fullmatch(text)
    if page:  # (its path split before its escapes are read: a revision may hold a %2F)
        parts = [unquote(p) for p in urlsplit("//hub" + (page[1] or "")).path.split("/") if p]
        if not parts or parts[0] in ("datasets", "spaces"):
            what = {"datasets": "a data set", "spaces": "a Space"}.get(parts[0] if parts else "")
            raise HubError(f"{text} is the address of {what or 'no model'} on the Hugging Face "
                           f"Hub{', not of a model' if what else ''}: give a model's id "
                           f"(org/name, for example {_EXAMPLE}) or the address of its page.")
        view = next((k for k, p in enumerate(parts[:3]) if p in _AT_REVISION), len(parts))
        repo_id, revision = "/".join(parts[:min(view, 2)]), ([*parts[view + 1:], ""])[0]
    else:
        repo_id, _, revision = text.rstrip("/").partition("@")
    if revision in ("", "main"):
        return repo_id
    if not _REVISION.fullmatch(revision):
        raise HubError(f"{revision!r} is not a revision of a model: a branch, a tag or a "
                       f"commit, such as main.")
    return f"{repo_id}@{revision}"


def load_model(text: str) -> HubModel:
    """The tokenizer of the Hub model ``text`` names (``model_name``: an id, an id@revision or
    the address of its page), from the Hub cache or downloaded into it, called by that name.

    Raises :class:`HubError` with one sentence for the user when it cannot be had.
    """
    repo_id = model_name(text)
    path, cached = _download(repo_id, TOKENIZER_FILE)
    try:
        # The file says what it is: a WordPiece or Unigram model is refused here, with why.
        tok = loads(_read(repo_id, TOKENIZER_FILE, path), source=f"{repo_id}'s {TOKENIZER_FILE}")
    except TokenizerFileError as exc:
        raise HubError(f"{exc}.") from None
    beside, online = _beside(repo_id, downloaded=not cached)
    config = _read_config(_read(repo_id, CONFIG_FILE, beside[CONFIG_FILE]))
    files = {"default": _read(repo_id, TEMPLATE_FILE, beside[TEMPLATE_FILE]),
             **_named_templates(repo_id, os.path.dirname(path), online=online)}
    found = _chat_templates(files)
    if found:
        config["chat_template"] = found
    return HubModel(repo_id, tok.renamed(repo_id), config)


def _chat_templates(files: dict[str, bytes | None]) -> str | list[dict[str, str]] | None:
    """The chat template the template files give, as transformers reads them: they come before
    the config's (a repository saved with them keeps the template out of tokenizer_config.json,
    or leaves an older one there); one "default" is a string, named ones a list as a config
    writes them; None when there are none. A file that is not text is left out, as an
    unreadable config is.

    >>> _chat_templates({"default": b"a", "tool_use": b"b"})
    [{'name': 'default', 'template': 'a'}, {'name': 'tool_use', 'template': 'b'}]
    >>> _chat_templates({"default": b"\\xef\\xbb\\xbfa", "rag": b"\\xff"}), _chat_templates({})
    ('a', None)
    """
    texts = {}
    for name, data in files.items():
        try:
            if data is not None:
                texts[name] = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
    if list(texts) == ["default"]:
        return texts["default"]
    return [{"name": name, "template": text} for name, text in texts.items()] or None


def _named_templates(repo_id: str, snapshot: str, *, online: bool) -> dict[str, bytes | None]:
    """name -> bytes of each ``additional_chat_templates/<name>.jinja``: those the Hub lists
    when it is asked anyway (``online``: what the cache lacks is downloaded), else those the
    cache holds in ``snapshot``, the folder of the tokenizer.json (offline, transformers reads
    those too)."""
    folder = os.path.join(snapshot, TEMPLATE_DIR)
    names = _listed_templates(repo_id) if online else None
    if names is None:
        try:
            names = sorted(n[:-len(".jinja")] for n in os.listdir(folder) if n.endswith(".jinja"))
        except OSError:  # no such folder: the usual case
            return {}
    found = {}
    for name in names:
        filename, path = f"{TEMPLATE_DIR}/{name}.jinja", os.path.join(folder, f"{name}.jinja")
        if not os.path.isfile(path):
            path = _download_beside(repo_id, filename) if online else None
        found[name] = _read(repo_id, filename, path)
    return found


def _listed_templates(repo_id: str) -> list[str] | None:
    """The names of the model's named templates on the Hub; None when it cannot say now."""
    from huggingface_hub import HfApi

    repo, revision = _repo(repo_id)
    try:
        entries = list(HfApi().list_repo_tree(repo, TEMPLATE_DIR, revision=revision))
    except Exception:  # noqa: BLE001 - no such folder (404), or not now: the cache's then
        return None
    return sorted(e.path.rsplit("/", 1)[-1][:-len(".jinja")] for e in entries
                  if e.path.endswith(".jinja"))


def in_cache(name: str) -> bool:
    """Whether the Hub cache holds the tokenizer.json of the model called ``name`` (as
    :func:`model_name` calls it; False for a name that is no model's), asking no network."""
    from huggingface_hub import try_to_load_from_cache

    repo, revision = _repo(name)
    try:
        return isinstance(try_to_load_from_cache(repo, TOKENIZER_FILE, revision=revision), str)
    except ValueError:  # not a model id: a trained or uploaded tokenizer's name
        return False


def _read(repo_id: str, filename: str, path: str | None) -> bytes | None:
    """The bytes of one of the model's files (None for no path), after its size is checked:
    a repository may hold anything under a tokenizer's name."""
    if path is None:
        return None
    try:
        problem = too_big(f"{repo_id}'s {filename}", os.path.getsize(path))
        if problem:
            raise HubError(problem)
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise HubError(f"Could not read {repo_id}'s {filename} in the Hugging Face cache "
                       f"({exc.strerror or exc}).") from None


def _read_config(data: bytes | None) -> dict[str, Any]:
    """The parsed tokenizer_config.json; {} when there is none or it is unreadable, as the
    tokenizer works without it (only the chat template and special tokens' roles are lost)."""
    if data is None:
        return {}
    try:
        config = json_loads(data.decode("utf-8-sig"))
    except ValueError:
        return {}
    return config if isinstance(config, dict) else {}


def _repo(name: str) -> tuple[str, str | None]:
    """The repository and revision (None: main) of a model called ``name`` here."""
    repo_id, _, revision = name.partition("@")
    return repo_id, revision or None


def _download(repo_id: str, filename: str) -> tuple[str, bool]:
    """``(path, True)`` for a file already in the cache, else ``(path, False)`` once downloaded.

    The cache is looked at first, without the network: a cached model loads offline at once,
    where asking the Hub first would retry an unreachable host for half a minute.
    """
    from huggingface_hub import constants, hf_hub_download, try_to_load_from_cache
    from huggingface_hub.errors import LocalEntryNotFoundError

    repo, revision = _repo(repo_id)
    try:
        return hf_hub_download(repo, filename, revision=revision, local_files_only=True), True
    except LocalEntryNotFoundError:
        pass
    except Exception as exc:  # an id that is no id, before any file is looked for
        raise HubError(hub_error(repo_id, exc)) from None
    why = "HF_HUB_OFFLINE is set" if constants.HF_HUB_OFFLINE else unreachable()
    if why and try_to_load_from_cache(repo, filename, revision=revision) is not None:
        # Not a path: the cache's note that the Hub said the repository has no such file (as
        # transformers leaves it for a model with only a tokenizer.model). Downloading it once
        # with internet, as said below, would not help.
        raise HubError(_no_file(repo_id))
    spelt = _spelt_otherwise(repo_id) if why else None
    if spelt:
        raise HubError(f"{repo_id} is not in the Hugging Face cache ({cache_dir()}), which holds "
                       f"{spelt}: give the id as the Hub writes it, capitals too.")
    if why:
        # (A model whose other files were fetched, by transformers say, is there in part; at
        # another revision, it is not there.)
        held = revision is None and os.path.isdir(
            os.path.join(cache_dir(), "models--" + repo.replace("/", "--")))
        where = (f"is in the Hugging Face cache ({cache_dir()}) without its {filename}" if held
                 else f"is not in the Hugging Face cache ({cache_dir()})")
        raise HubError(f"{repo_id} {where} and cannot be downloaded ({why}); {_INSTEAD}")
    try:
        return hf_hub_download(repo, filename, revision=revision), False
    except Exception as exc:  # every failure of the download says why in one sentence
        raise HubError(hub_error(repo_id, exc)) from None


def _spelt_otherwise(repo_id: str) -> str | None:
    """The id of a model in the cache that differs from ``repo_id``'s only in case, if there is
    one: the Hub takes 'qwen/qwen3-8b' for Qwen/Qwen3-8B, its cache's folders do not."""
    folder = "models--" + _repo(repo_id)[0].replace("/", "--")  # ('--' is in no id)
    try:
        held = os.listdir(cache_dir())
    except OSError:
        return None
    return next((name.removeprefix("models--").replace("--", "/")
                 for name in held if name.lower() == folder.lower() and name != folder), None)


def unreachable(*, timeout: float = 3.0) -> str | None:
    """Why the Hub cannot be reached now, in a few words; None when it answers. One quick
    request: ``hf_hub_download`` itself retries an unreachable host for half a minute."""
    import requests  # as tiktoken's references are checked; only this check needs it
    from huggingface_hub import constants

    try:
        requests.head(constants.ENDPOINT, timeout=timeout)
    except requests.RequestException as exc:
        return (f"offline: {urlsplit(constants.ENDPOINT).hostname} cannot be reached, "
                f"{type(exc).__name__}")
    return None


def _beside(repo_id: str, *, downloaded: bool) -> tuple[dict[str, str | None], bool]:
    """Where the model's tokenizer_config.json and chat_template.jinja are, each None when the
    repository has no such file (normal: the tokenizer works without them); and whether the
    Hub was asked (or the tokenizer.json was just downloaded from it).

    Each is looked for in the cache, which also remembers a file the Hub said it does not have;
    one the cache knows nothing of is downloaded when the Hub can be reached, even for a
    tokenizer.json read from the cache (an earlier download may have kept only that), and
    left out when it cannot.
    """
    from huggingface_hub import constants, try_to_load_from_cache

    (repo, revision), found, unknown = _repo(repo_id), {}, []
    for name in (CONFIG_FILE, TEMPLATE_FILE):
        where = try_to_load_from_cache(repo, name, revision=revision)
        if where is None:
            unknown.append(name)
        found[name] = where if isinstance(where, str) else None  # else: known to be absent
    online = downloaded or bool(unknown) and not (constants.HF_HUB_OFFLINE or unreachable())
    if unknown and online:
        for name in unknown:
            found[name] = _download_beside(repo_id, name)
    return found, online


def _download_beside(repo_id: str, filename: str) -> str | None:
    """The path of ``filename`` downloaded from the model's repository; None when it has none,
    or when it cannot be had now (a dropped connection, a server error, a token that no longer
    has access): the tokenizer, already in hand, works without it."""
    from huggingface_hub import hf_hub_download

    repo, revision = _repo(repo_id)
    try:
        return hf_hub_download(repo, filename, revision=revision)
    except Exception:  # noqa: BLE001 - not in the repository (the cache remembers it), or not now
        return None


_INSTEAD = ("download its tokenizer.json once with internet, or upload the file under "
            "“Upload a file”.")


def _no_file(repo_id: str) -> str:
    return (f"{repo_id} has no tokenizer.json (an older model may ship only a SentencePiece "
            f"tokenizer.model or a vocab file), so it cannot be read here.")


def hub_error(repo_id: str, exc: Exception) -> str:
    """The one sentence telling a user why ``huggingface_hub`` failed with ``exc``."""
    from huggingface_hub import errors

    repo, revision = _repo(repo_id)
    if isinstance(exc, errors.GatedRepoError):
        token = ("the account of your HF_TOKEN has no access yet" if os.environ.get("HF_TOKEN")
                 else "HF_TOKEN is not set")
        return (f"{repo} is a gated model and {token}: accept its licence on "
                f"https://huggingface.co/{repo}, then start the app with HF_TOKEN set to a "
                f"token of that account.")
    if isinstance(exc, errors.RepositoryNotFoundError):
        return (f"There is no model {repo} on the Hugging Face Hub (or it is private): check "
                f"the id, which looks like org/name, for example {_EXAMPLE}.")
    if isinstance(exc, errors.RevisionNotFoundError):
        return (f"{repo} has no {'revision ' + revision if revision else 'such revision'} on "
                f"the Hugging Face Hub.")
    if isinstance(exc, errors.LocalEntryNotFoundError):  # the Hub could not be reached
        return (f"The Hugging Face Hub cannot be reached (offline?) and {repo_id} is not in the "
                f"Hugging Face cache ({cache_dir()}); {_INSTEAD}")
    if isinstance(exc, errors.EntryNotFoundError):
        return _no_file(repo_id)
    if isinstance(exc, (errors.HFValidationError, ValueError)):
        return (f"{repo_id!r} is not a model id: a Hub id looks like org/name, for example "
                f"{_EXAMPLE}.")
    said = (str(exc).splitlines() or [""])[0]
    said = said if len(said) <= 100 else said[:99] + "…"
    return (f"The Hugging Face Hub did not give {repo_id}'s tokenizer "
            f"({type(exc).__name__}: {said}).")
