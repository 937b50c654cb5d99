"""The suite as one run (a plugin of tests/conftest.py): tests that need a service the run
lacks are skipped when collected, the long tests start first, and the run ends with one
line per group of skipped tests saying why.

``make test`` spreads the tests over pytest-xdist workers; starting the long ones first
keeps one worker from being left alone with a long test at the end.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import pytest

POSTGRES_SKIP_REASON = (
    "PostgreSQL runs are off: set TEST_DATABASE_URL, e.g. "
    "TEST_DATABASE_URL=postgresql+asyncpg://postgres@127.0.0.1:5432/test "
    "(.ci/run sets it when a server answers on 127.0.0.1:5432)"
)
REDIS_SKIP_REASON = (
    "Redis runs are off: set TEST_REDIS_URL, e.g. TEST_REDIS_URL=redis://127.0.0.1:6379/0 "
    "(.ci/run sets it when a server answers on 127.0.0.1:6379)"
)
# What a skipped test is called in the summary, by its first marker found here.
KINDS = (("browser", "browser test"), ("postgres", "PostgreSQL test"), ("redis", "Redis test"))


@pytest.hookimpl(trylast=True)  # after tests/web/conftest.py has marked the browser tests
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Skip what needs a service that is not configured; start the long tests first."""
    for item in items:
        if item.get_closest_marker("postgres") and not os.environ.get("TEST_DATABASE_URL"):
            item.add_marker(pytest.mark.skip(reason=POSTGRES_SKIP_REASON))
        elif item.get_closest_marker("redis") and not os.environ.get("TEST_REDIS_URL"):
            item.add_marker(pytest.mark.skip(reason=REDIS_SKIP_REASON))
    order = start_order(items)
    items.sort(key=lambda item: order[item.nodeid])


def start_order(items: list[pytest.Item]) -> dict[str, tuple[int, float]]:
    """``slow`` tests first, then the browser tests, then the rest in file order.

    The slow tests of each file are spread evenly over the slow ones, so the workers do
    not all run one file's heavy set-up at once (three server processes per cluster
    test, whose leases need the CPU on time).
    """
    slow = [item for item in items if item.get_closest_marker("slow")]
    sizes = Counter(_module(item) for item in slow)
    turns: Counter[str] = Counter()
    order: dict[str, tuple[int, float]] = {}
    for item in slow:
        module = _module(item)
        order[item.nodeid] = (0, turns[module] / sizes[module])
        turns[module] += 1
    for item in items:
        order.setdefault(item.nodeid, (1 if item.get_closest_marker("browser") else 2, 0))
    return order


def _module(item: pytest.Item) -> str:
    return item.nodeid.split("::", 1)[0]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line per group of skipped tests: how many, what they are, and why."""
    groups: Counter[tuple[str, str]] = Counter(
        (kind_of(report.keywords), reason_of(report.longrepr))
        for report in terminalreporter.stats.get("skipped", ()))
    for (kind, reason), count in sorted(groups.items(), key=lambda group: -group[1]):
        terminalreporter.write_line(
            f"skipped {count} {kind}{'' if count == 1 else 's'}: {reason}")


def kind_of(keywords: Any) -> str:
    """What the summary calls a skipped test with these keywords (markers among them)."""
    return next((kind for marker, kind in KINDS if marker in keywords), "test")


def reason_of(longrepr: Any) -> str:
    """The reason of a skip report, whose ``longrepr`` is ``(path, line, "Skipped: reason")``
    (from an xdist worker too)."""
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)
