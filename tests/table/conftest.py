"""Fixtures of the in-process table tests: the server's settings with a table's delays
made tiny (see :mod:`tests.table.live`)."""

from __future__ import annotations

import pytest

from app.config import Settings
from tests.table.live import quick


@pytest.fixture
def table_settings(settings: Settings) -> Settings:
    """The test's settings, a table's delays tiny."""
    return quick(settings)
