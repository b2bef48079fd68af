"""The worked examples in every docstring of the Streamlit side (``ui``) must stay true, as
``test_doctests`` checks the engine's: one test for every module, so a new one is never left
out."""

import doctest
import importlib
import pkgutil

import pytest

import ui

MODULES = sorted(m.name for m in pkgutil.walk_packages(ui.__path__, "ui."))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_the_examples_are_found():
    # (A package moved or renamed would make walk_packages find nothing, and pass silently.)
    assert {"ui.shared.tokens", "ui.tokenize.data", "ui.vocabulary.data"} <= set(MODULES)
