"""The examples in the docstrings of the poker core and the tournament rules run as written."""

import doctest
import importlib
import pkgutil

import pytest

import app.poker
import app.tournaments

MODULES = sorted(
    info.name
    for package in (app.poker, app.tournaments)
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
)


def test_every_module_of_the_core_and_the_tournaments_is_collected() -> None:
    assert {"app.poker.engine", "app.poker.range_equity", "app.tournaments.structure"} <= set(
        MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
