"""The SDK's docstring examples run (the house style: examples in docs are doctests)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "hearts_bot",
    "hearts_bot.bot",
    "hearts_bot.cards",
    "hearts_bot.cli",
    "hearts_bot.convert",
    "hearts_bot.querycache",
    "hearts_bot.rules",
    "hearts_bot.server",
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted > 0
