"""A stand-in for the Hugging Face Hub: models put in a cache folder laid out as
``huggingface_hub`` lays out its own, and the errors its downloads raise.

``put_model(cache, "org/name", {"tokenizer.json": data})`` writes
``models--org--name/refs/main`` (the revision "main" points at) and
``models--org--name/snapshots/<revision>/tokenizer.json``, which is where
``hf_hub_download(..., local_files_only=True)`` finds a file.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from tokenizers import Tokenizer as HFTokenizer
from tokenizers import models
from tokenizers import pre_tokenizers as P

#: A tokenizer_config.json in the shape of a chat model's: its template and special tokens.
CHAT_CONFIG = {
    "bos_token": "<|begin_of_text|>",
    "chat_template": "{% for m in messages %}<|start|>{{ m['role'] }}\n{{ m['content'] }}"
                     "<|end|>{% endfor %}",
}
#: A chat_template.jinja: the template in a file of its own, as newer repositories keep it.
CHAT_TEMPLATE = ("{{ bos_token }}{% for m in messages %}<|{{ m['role'] }}|>{{ m['content'] }}"
                 "<|end|>{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}\n")


def put_model(cache: Path, repo_id: str, files: dict[str, bytes],
              absent: tuple[str, ...] = (), ref: str = "main") -> Path:
    """Put ``files`` (name -> bytes) in ``cache`` as the Hub cache keeps ``repo_id``'s files at
    the branch or tag ``ref``, and the cache's note that the repository has none of ``absent``
    (``.no_exist``, written when the Hub answered 404); the snapshot folder."""
    folder = cache / f"models--{repo_id.replace('/', '--')}"
    revision = hashlib.sha1(f"{repo_id}@{ref}".encode()).hexdigest()  # any 40 hex digits do
    (folder / "refs").mkdir(parents=True, exist_ok=True)
    (folder / "refs" / ref).write_text(revision)
    snapshot = folder / "snapshots" / revision
    snapshot.mkdir(parents=True, exist_ok=True)
    for name, data in files.items():  # a name may be a path: additional_chat_templates/x.jinja
        (snapshot / name).parent.mkdir(parents=True, exist_ok=True)
        (snapshot / name).write_bytes(data)
    for name in absent:
        (folder / ".no_exist" / revision).mkdir(parents=True, exist_ok=True)
        (folder / ".no_exist" / revision / name).touch()
    return snapshot


def config_file(config: dict = CHAT_CONFIG) -> bytes:
    return json.dumps(config).encode("utf-8")


@lru_cache(maxsize=None)
def wordpiece_file() -> bytes:
    """A BERT-like tokenizer.json: a WordPiece model, which is not BPE."""
    tok = HFTokenizer(models.WordPiece({"[UNK]": 0, "hug": 1, "##s": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = P.Whitespace()
    return tok.to_str().encode("utf-8")


@lru_cache(maxsize=None)
def unigram_file() -> bytes:
    """A T5-like tokenizer.json: a SentencePiece Unigram model, which is not BPE."""
    tok = HFTokenizer(models.Unigram([("<unk>", 0.0), ("▁hug", -1.0), ("s", -2.0)], unk_id=0))
    tok.pre_tokenizer = P.Metaspace()
    return tok.to_str().encode("utf-8")


def hub_exception(cls: type[Exception], message: str) -> Exception:
    """An instance of one of ``huggingface_hub``'s errors, as its downloads raise them. Their
    constructors want the HTTP response of the version's HTTP library; what is caught is the
    class and the message, so the instance is made without one."""
    exc = cls.__new__(cls)
    Exception.__init__(exc, message)
    return exc
