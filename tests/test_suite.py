"""The run as a whole (tests/suite.py): what a run without PostgreSQL or Redis skips and
says it skipped, and which tests start first."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.suite import POSTGRES_SKIP_REASON, REDIS_SKIP_REASON

ROOT = Path(__file__).resolve().parents[1]
SOME_TESTS = """
import pytest

@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql",
                                                            marks=pytest.mark.postgres)])
@pytest.mark.parametrize("n", range(3))
def test_twins(backend, n):
    pass

@pytest.mark.redis
def test_shared_limits():
    pass

@pytest.mark.browser
def test_a_page():
    pytest.skip("no Chromium here")

def test_plain():
    pass
"""


INI = """
[pytest]
asyncio_default_fixture_loop_scope = function
markers =
    slow
    postgres
    redis
    browser
"""


@pytest.fixture
def without_services(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run of its own (the project's plugin importable) with neither PostgreSQL nor Redis."""
    monkeypatch.delenv("TEST_DATABASE_URL", raising=False)
    monkeypatch.delenv("TEST_REDIS_URL", raising=False)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    pytester.makeini(INI)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one process", "two workers"])
def test_the_run_ends_with_one_line_per_group_of_skipped_tests(
    pytester: pytest.Pytester, without_services: None, workers: list[str]
) -> None:
    pytester.makepyfile(test_some=SOME_TESTS)
    result = pytester.runpytest("-p", "tests.suite", "-q", "-p", "no:cacheprovider", *workers)
    result.assert_outcomes(passed=4, skipped=5)
    lines = [line for line in result.outlines if line.startswith("skipped ")]
    assert lines[0] == f"skipped 3 PostgreSQL tests: {POSTGRES_SKIP_REASON}"  # most first
    assert sorted(lines[1:]) == ["skipped 1 Redis test: " + REDIS_SKIP_REASON,
                                 "skipped 1 browser test: no Chromium here"]


def test_slow_tests_start_first_each_files_spread_over_the_others(
    pytester: pytest.Pytester, without_services: None
) -> None:
    pytester.makepyfile(
        test_a="import pytest\n\ndef test_a_quick(): pass\n\n"
               + "".join(f"@pytest.mark.slow\ndef test_a_long_{n}(): pass\n\n" for n in range(4)),
        test_b="import pytest\n\ndef test_b_quick(): pass\n\n"
               "@pytest.mark.browser\ndef test_b_page(): pass\n\n"
               "@pytest.mark.slow\ndef test_b_long(): pass\n")
    result = pytester.runpytest("-p", "tests.suite", "--collect-only", "-q",
                                "-p", "no:cacheprovider")
    order = [line.split("::")[1] for line in result.outlines if "::" in line]
    assert order == ["test_a_long_0", "test_b_long", "test_a_long_1", "test_a_long_2",
                     "test_a_long_3", "test_b_page", "test_a_quick", "test_b_quick"]

