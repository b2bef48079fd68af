"""Shared set-up for the page tests (Streamlit's AppTest)."""

from __future__ import annotations

import functools

import pytest
from streamlit.components.v2 import manifest_scanner


@pytest.fixture(scope="session", autouse=True)
def one_component_scan():
    """Every new AppTest scans the metadata of every installed package for Streamlit components
    (about 0.2 s of CPU for 141 packages, a fifth of a typical page test), as a server does once
    when it starts; the packages do not change during a test run, so the scan is made once."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(manifest_scanner, "scan_component_manifests",
                   functools.cache(manifest_scanner.scan_component_manifests))
        yield
