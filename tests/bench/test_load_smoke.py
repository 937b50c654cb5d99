"""A bounded run of bench/load.py: every action acked, nothing refused, nobody dropped.

Correctness only; the numbers belong in bench/RESULTS.md, not in assertions.
"""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def free_ports(count: int = 4) -> int:
    """The first of ``count`` consecutive free ports (the bench's servers listen on port,
    port + 1, ...), below the range the system hands out to outgoing connections."""
    rng = random.Random()
    for _ in range(200):
        base = rng.randrange(20_000, 32_000 - count)
        try:
            for port in range(base, base + count):
                with socket.socket() as s:
                    s.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no free run of ports")


def run_load(*args: str) -> dict[str, Any]:
    command = [sys.executable, str(ROOT / "bench" / "load.py"), "--json",
               "--port", str(free_ports()), *args]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def assert_clean(result: dict[str, Any], players: int) -> None:
    assert result["connected"] == players
    assert result["connect_failures"] == 0
    assert result["seated"] == players
    assert result["sent"] > 0
    assert result["acked_ok"] == result["sent"], result["error_codes"]
    assert result["acked_error"] == 0 and result["unacked"] == 0
    assert result["error_codes"] == {}
    assert result["latency_ms"]["samples"] > 0


def test_bare_baseline_at_table_pace_over_two_generator_processes():
    result = run_load("--target", "bare", "--clients", "24", "--mode", "pace", "--pace", "0.2",
                      "--procs", "2", "--warmup", "0.5", "--duration", "2", "--no-deflate")
    assert_clean(result, 24)


def test_holdem_server_acks_every_action_of_two_full_tables():
    pytest.importorskip("app.realtime.dispatch", reason="needs the realtime layer")
    result = run_load("--target", "holdem", "--clients", "12", "--mode", "fast",
                      "--hand-delay", "0.2", "--warmup", "0.5", "--duration", "2")
    assert_clean(result, 12)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.parametrize(("route", "forwarded"), [
    # The seats of each table go round the two servers: about half the actions travel.
    ("seat", lambda share: share > 0.2),
    # Every table moved to the server its players reach before the measured window.
    ("table", lambda share: share == 0.0),
])
def test_holdem_on_two_processes_sharing_the_tables(
    route: str, forwarded: Callable[[float], bool]
) -> None:
    database, redis = os.environ.get("TEST_DATABASE_URL"), os.environ.get("TEST_REDIS_URL")
    if not (database and redis):
        pytest.skip("needs TEST_DATABASE_URL (PostgreSQL) and TEST_REDIS_URL")
    result = run_load("--target", "holdem", "--servers", "2", "--route", route,
                      "--database-url", database, "--redis-url", redis, "--clients", "24",
                      "--mode", "fast", "--warmup", "1", "--duration", "3",
                      "--hand-delay", "0.2", "--no-deflate")
    assert_clean(result, 24)
    assert result["servers"] == 2 and result["redis"] is True
    assert result["route"] == route and forwarded(result["forwarded_share"]), result

