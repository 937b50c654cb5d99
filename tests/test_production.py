"""Production refuses settings that would expose players, and shows anonymous callers only
what they need."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.config import ConfigError, Settings
from tests.conftest import production, production_env
from tests.realtime.harness import live_server
from tests.test_cli_server import holdem, one_error_line

WEAK_SETTINGS: list[tuple[dict[str, Any], str]] = [
    ({"smtp_host": ""}, "SMTP_HOST is empty"),
    ({"smtp_host": "mail.example.com", "smtp_security": "none"}, "SMTP_SECURITY is none"),
    ({"rate_limits_enabled": False}, "RATE_LIMITS_ENABLED is off"),
    ({"argon2_memory_kib": 8, "argon2_time_cost": 3}, "ARGON2_MEMORY_KIB 8"),
    ({"argon2_memory_kib": 19_456, "argon2_time_cost": 1}, "ARGON2_MEMORY_KIB 19456"),
    ({"metrics_token": ""}, "METRICS_TOKEN is empty"),
    ({"forwarded_allow_ips": "*"}, "FORWARDED_ALLOW_IPS is *"),
    ({"forwarded_allow_ips": "10.0.0.0/8, *"}, "FORWARDED_ALLOW_IPS is *"),
]


@pytest.mark.parametrize(("changes", "named"), WEAK_SETTINGS)
def test_production_refuses_each_weak_setting(
    settings: Settings, changes: dict[str, Any], named: str
) -> None:
    strong = production(settings)
    strong.check()
    with pytest.raises(ConfigError, match=named.replace("*", r"\*")):
        replace(strong, **changes).check()
    replace(strong, env="development", **changes).check()  # development allows them


@pytest.mark.parametrize("changes", [
    {"smtp_host": "127.0.0.1", "smtp_security": "none"},
    {"smtp_host": "localhost", "smtp_security": "none"},
    {"smtp_host": "mail.example.com", "smtp_security": "starttls"},
    {"metrics_enabled": False, "metrics_token": ""},
    {"argon2_memory_kib": 47_104, "argon2_time_cost": 1},
    {"forwarded_allow_ips": "172.30.250.0/24"},
])
def test_production_accepts_the_safe_forms(settings: Settings, changes: dict[str, Any]) -> None:
    replace(production(settings), **changes).check()


def test_holdem_serve_names_every_weak_setting_in_one_line(tmp_path: Path) -> None:
    refused = holdem(tmp_path, "serve", "--port", "1", **{
        **production_env(), "SMTP_HOST": "", "RATE_LIMITS_ENABLED": "false",
        "ARGON2_MEMORY_KIB": "8", "ARGON2_TIME_COST": "3", "METRICS_TOKEN": "",
        "FORWARDED_ALLOW_IPS": "*"})
    line = one_error_line(refused, "serve")
    for named in ("SMTP_HOST", "RATE_LIMITS_ENABLED", "ARGON2_MEMORY_KIB", "METRICS_TOKEN",
                  "FORWARDED_ALLOW_IPS"):
        assert named in line, line


async def test_health_names_the_process_only_to_the_metrics_token_holder(
    settings: Settings,
) -> None:
    prod = production(settings)
    async with live_server(prod) as server, httpx.AsyncClient(base_url=server.url) as http:
        anonymous = await http.get("/health")
        operator = await http.get("/health", headers={
            "Authorization": f"Bearer {prod.metrics_token}"})
        metrics = await http.get("/metrics")
    assert anonymous.status_code == 200 and anonymous.json()["status"] == "ok"
    assert "process" not in anonymous.json()
    assert server.realtime.host.leases.process_id not in anonymous.text
    assert operator.json()["process"] == server.realtime.host.leases.process_id
    assert metrics.status_code == 401
