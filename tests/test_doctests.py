"""The worked examples in every bpe_core docstring must stay true."""

import doctest
import importlib
import pkgutil

import pytest

import bpe_core

MODULES = sorted(m.name for m in pkgutil.walk_packages(bpe_core.__path__, "bpe_core.")
                 if m.name != "bpe_core.__main__")


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


def test_package_examples():
    assert doctest.testmod(bpe_core).failed == 0
