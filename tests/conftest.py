"""Shared pytest set-up for the whole suite.

Hypothesis profiles: "ci" (the default) runs ~100 examples with no deadline, because timing on a
shared 2-core machine is noisy and speed targets live in benchmarks/, not in tests. Pick another
with HYPOTHESIS_PROFILE=dev (quick) or HYPOTHESIS_PROFILE=thorough (slow, many examples).
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.register_profile("dev", max_examples=20, deadline=None)
settings.register_profile("thorough", max_examples=2_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO_ROOT = Path(__file__).resolve().parent.parent

# Merges recovered from rank files are kept in a folder of this run's own (see
# bpe_core/formats/merge_cache.py), not in the user's cache; the app a browser test starts
# inherits it.
os.environ["BPE_CACHE_DIR"] = tempfile.mkdtemp(prefix="bpe-cache-")
atexit.register(shutil.rmtree, os.environ["BPE_CACHE_DIR"], ignore_errors=True)


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """The repository's root folder (where app.py, assets/ and bpe_core/ live)."""
    return REPO_ROOT


@pytest.fixture(autouse=True)
def offline_with_no_reference_cache(monkeypatch, tmp_path_factory):
    """Tests never use the network, nor what this machine's tiktoken cache holds: an empty cache
    folder, and the check whether a reference encoding could be downloaded (a HEAD request to
    its host) finds the host unreachable, as on a fresh machine offline."""
    import requests

    def unreachable(url, **_):
        raise requests.ConnectionError(f"no network in tests ({url})")

    monkeypatch.setattr(requests, "head", unreachable)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "no-cache"))
    # A Hub model's named chat templates are listed by the Hub's API, which retries an
    # unreachable host for 20 s: it fails at once, as offline (tests that list mock it).
    from huggingface_hub import HfApi
    monkeypatch.setattr(HfApi, "list_repo_tree", lambda self, repo_id, *_, **__: unreachable(
        f"the Hub's listing of {repo_id}"))
