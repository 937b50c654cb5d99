"""The examples in the docstrings of the poker core, the tournament rules, the realtime
side (table placement, routing), the settle-up and the secret check run as written."""

import doctest
import importlib
import pkgutil

import pytest

import app.poker
import app.realtime
import app.settle_up
import app.tournaments

MODULES = sorted([
    *(info.name
      for package in (app.poker, app.tournaments, app.hosting, app.realtime, app.settle_up)
      for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")),
    "app.secret_strength",
    "app.chat.wordfilter",
    "app.table.clock",
    "app.table.events",
    "app.table.acks",
])


def test_every_module_of_the_core_the_tournaments_and_the_realtime_side_is_collected() -> None:
    assert {"app.poker.engine", "app.poker.range_equity", "app.tournaments.structure",
            "app.hosting.ownership", "app.settle_up.transfers",
            "app.secret_strength"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_run(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
