"""Small ``tokenizer.json`` files in the shapes of real models, for the page and browser tests.

Made with the ``tokenizers`` library by the builders of ``test_pipeline_exact``, then changed
where the tests need a shape those builders do not give:

- ``llama2_file``: Prepend("▁") + Replace(" ", "▁"), byte fallback (``<0xNN>``), fuse_unk, a
  BOS template (Llama 2, Mistral 7B);
- ``llama2_no_fallback_file``: the same without byte fallback, so unknown text becomes ``<unk>``;
- ``llama3_file``: byte-level with ignore_merges and a BOS template, its ids shuffled so that
  they no longer follow the merge order (Llama 3, GPT-OSS);
- ``nfkc_file``: NFKC before a byte-level model (Claude's shape);
- ``char_bpe_file``: ``tokenizers``' CharBPETokenizer, lowercased (the first GPT's shape,
  but its accents kept);
- ``nul_files``: two vocabularies that differ only in where a NUL character sits between their
  first two tokens (``a\x00`` + ``b`` and ``a`` + ``\x00b``), each merging them to ``a\x00b``;
- ``catastrophic_file``: a model of the printable ASCII characters whose Split pre-tokenizer,
  normalizer Replace or decoder Replace is ``(?:a|aa)+$``, which takes minutes on
  ``"a" * 46 + "!"`` unbounded.

Each returns the file's bytes, built once per test process.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from tokenizers import Regex
from tokenizers import Tokenizer as HFTokenizer
from tokenizers import decoders as D
from tokenizers import models
from tokenizers import normalizers as N
from tokenizers import pre_tokenizers as P
from tokenizers.implementations import CharBPETokenizer

from tests.test_pipeline_exact import gpt2_style, llama2_style, llama3_style


def _bytes(tok: HFTokenizer) -> bytes:
    return tok.to_str().encode("utf-8")


@lru_cache(maxsize=None)
def llama2_file() -> bytes:
    return _bytes(llama2_style())


@lru_cache(maxsize=None)
def llama2_no_fallback_file() -> bytes:
    d = json.loads(llama2_file())
    d["model"]["byte_fallback"] = False
    return json.dumps(d).encode("utf-8")


@lru_cache(maxsize=None)
def llama3_file() -> bytes:
    d = json.loads(_bytes(llama3_style()))
    vocab = d["model"]["vocab"]
    fixed = {t["content"] for t in d["added_tokens"]}  # the template and added tokens keep theirs
    movable = [t for t in vocab if t not in fixed]
    ids = [vocab[t] for t in movable]
    random.Random(3).shuffle(ids)
    vocab.update(zip(movable, ids))
    return json.dumps(d, ensure_ascii=False).encode("utf-8")


@lru_cache(maxsize=None)
def nfkc_file() -> bytes:
    tok = gpt2_style()
    tok.normalizer = N.NFKC()
    return _bytes(tok)


@lru_cache(maxsize=None)
def char_bpe_file() -> bytes:
    """``tokenizers``' CharBPETokenizer (Sennrich et al.'s BPE, as the first GPT has it: BERT's
    normalizer, its pre-tokenizer, words ending in ``</w>``), lowercased after BERT's normalizer,
    which keeps accents here (the first GPT's strips them), trained on a few sentences."""
    tok = CharBPETokenizer(lowercase=True)
    tok.train_from_iterator(["The lowest newest widest low lower. Ünïcödé café, 中文分词!"] * 3,
                            vocab_size=120, min_frequency=2, show_progress=False)
    return tok.to_str().encode("utf-8")


CATASTROPHIC = r"(?:a|aa)+$"


@lru_cache(maxsize=None)
def catastrophic_file(stage: str) -> bytes:
    """``stage`` "split": the pattern is the pre-tokenizer (Isolated); "replace": a normalizer
    that replaces its matches with "b"; "decoder": a decoder that does, and the vocabulary has
    the token ``"a" * 46 + "!"``."""
    vocab = {"[UNK]": 0, **{chr(c): c - 31 for c in range(32, 127)}}
    if stage == "decoder":
        vocab["a" * 46 + "!"] = len(vocab)
    tok = HFTokenizer(models.BPE(vocab=vocab, merges=[], unk_token="[UNK]"))
    if stage == "split":
        tok.pre_tokenizer = P.Split(Regex(CATASTROPHIC), "isolated")
    elif stage == "replace":
        tok.normalizer = N.Replace(Regex(CATASTROPHIC), "b")
    else:
        tok.decoder = D.Replace(Regex(CATASTROPHIC), "b")
    return _bytes(tok)


@lru_cache(maxsize=None)
def nul_files() -> tuple[bytes, bytes]:
    """See the module docstring: two tokenizers whose tokens, joined by NUL, read alike."""
    return tuple(_bytes(HFTokenizer(models.BPE({left: 0, right: 1, "a\x00b": 2}, [(left, right)])))
                 for left, right in (("a\x00", "b"), ("a", "\x00b")))


def hf(data: bytes) -> HFTokenizer:
    """The ``tokenizers`` library's reading of a file: the oracle for ids."""
    return HFTokenizer.from_str(data.decode("utf-8"))
