"""The engine's shape: imports flow one way, nothing reaches into private names, ``import
bpe_core`` stays light, and the package works on its own once installed."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "bpe_core"
# Layers, lowest first: a module may import its own layer and the ones below it. The pipeline
# (bpe_core/*.py) knows nothing of training, files or analysis; training and the file formats
# build on the pipeline, each on its own; analysis may use all of them; the package's public
# API and the command line sit on top.
LAYERS = {"training": 1, "formats": 1, "analysis": 2}
TOP = ("bpe_core", "bpe_core.__main__")


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["bpe_core", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


MODULES = modules()


def imports(name: str, path: Path) -> set[str]:
    """The bpe_core modules ``name`` imports anywhere in its code (inside functions too)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([base] if base else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t != name and not name.startswith(t + "."):
                found.add(t)
    return found


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def layer(name: str) -> int:
    if name in TOP:
        return 3
    parts = name.split(".")
    return LAYERS.get(parts[1], 0) if len(parts) > 1 else 0


def test_no_import_circles():
    # Depth-first search; a module met again while still on the path closes a circle.
    state: dict[str, int] = {}  # 1: on the path, 2: done
    circles = []

    def visit(m: str, path: list[str]) -> None:
        state[m] = 1
        for n in sorted(GRAPH[m]):
            if state.get(n) == 1:
                circles.append(path[path.index(n):] + [n])
            elif n not in state:
                visit(n, path + [n])
        state[m] = 2

    for m in sorted(GRAPH):
        if m not in state:
            visit(m, [m])
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


def test_imports_flow_down_the_layers():
    wrong = [f"{m} imports {n}" for m, targets in GRAPH.items() for n in targets
             if layer(n) > layer(m)
             or (layer(n) == layer(m) == 1 and n.split(".")[1] != m.split(".")[1])]
    assert not wrong, wrong


def test_the_textbook_loop_is_an_independent_oracle():
    """The loop that checks the fast trainer must not share its bookkeeping."""
    assert not GRAPH["bpe_core.training.textbook"] & {"bpe_core.training.trainer",
                                                       "bpe_core.training.pairs"}


def test_no_private_names_across_modules():
    """``obj._name`` only on ``self`` or ``cls``, and no ``from x import _name``."""
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))):
                found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
            if isinstance(node, ast.ImportFrom):
                found += [f"{name}:{node.lineno}: imports {a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__")]
    assert not found, found


def test_no_ui_libraries_in_the_engine():
    heavy = {"streamlit", "plotly", "pandas"}
    found = [f"{name} imports {a.name}" for name, path in MODULES.items()
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
             if isinstance(node, (ast.Import, ast.ImportFrom))
             for a in (node.names if isinstance(node, ast.Import) else [ast.alias(node.module or "")])
             if a.name.split(".")[0] in heavy]
    assert not found, found


def test_import_bpe_core_stays_light():
    code = ("import sys, bpe_core; heavy = {'pyarrow', 'pandas', 'streamlit', 'plotly', 'numpy'}; "
            "print(sorted(heavy & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         check=True).stdout.strip()
    assert out == "[]"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """bpe_core installed as pip installs the project (a wheel) into a bare folder. The build
    runs on a copy, so that it leaves nothing in the checkout."""
    source, target = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("site")
    for name in ("pyproject.toml", "README.md", "requirements-engine.txt"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(PACKAGE, source / "bpe_core",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                    "--disable-pip-version-check", "--target", str(target), str(source)],
                   check=True, capture_output=True)
    return target


def test_the_installed_package_works_on_its_own(installed, tmp_path):
    """Every docstring example passes from the installed copy, run from a folder with nothing
    else in it: nothing in bpe_core reads files outside the package."""
    assert not (installed / "assets").exists() and (installed / "bpe_core").is_dir()
    code = ("import doctest, importlib, pkgutil, bpe_core\n"
            "assert bpe_core.__file__.startswith(%r), bpe_core.__file__\n"
            "names = [m.name for m in pkgutil.walk_packages(bpe_core.__path__, 'bpe_core.')\n"
            "         if m.name != 'bpe_core.__main__']\n"
            "failed = sum(doctest.testmod(importlib.import_module(n), optionflags=doctest.ELLIPSIS)"
            ".failed for n in names)\n"
            "print(len(names), failed)\n") % str(installed)
    env = {**os.environ, "PYTHONPATH": str(installed)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    n, failed = map(int, out.stdout.split())
    assert n >= 30 and failed == 0, out.stdout[-3000:]


def test_the_installed_package_needs_only_the_engines_dependencies(installed):
    """``pip install .`` gives bpe_core, not the app: it pulled in streamlit, plotly and pandas
    (the package read the app's requirements.txt)."""
    metadata = next(installed.glob("*.dist-info")) / "METADATA"
    needs = {re.split(r"[<>=!~ ;\[]", line.split(":", 1)[1].strip())[0].lower()
             for line in metadata.read_text().splitlines() if line.startswith("Requires-Dist:")}
    assert needs == {"regex", "pyarrow", "tiktoken", "requests", "huggingface_hub", "langcodes",
                     "language_data", "jinja2"}
