"""``holdem house`` as a real process: it shows the bots' bankroll, and funds it only in an
admin's name (a ``house_funding`` ledger entry and an audit-log line)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from sqlalchemy import select

from app.db.engine import Database
from app.db.models import AuditLogEntry
from tests.test_cli_server import holdem, one_error_line


async def _logged(url: str) -> list[tuple[str, dict[str, object]]]:
    database = Database(url)
    try:
        async with database.sessions() as session:
            rows = await session.scalars(select(AuditLogEntry).order_by(AuditLogEntry.id))
            return [(row.action, row.details) for row in rows]
    finally:
        await database.dispose()


@pytest.mark.slow
def test_house_shows_the_initial_grant_and_funds_it_in_an_admins_name(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'holdem.sqlite3'}"
    env = {"DATABASE_URL": url, "HOUSE_INITIAL_BANKROLL": "50000"}
    assert holdem(tmp_path, "migrate", **env).returncode == 0
    shown = holdem(tmp_path, "house", **env)
    assert shown.returncode == 0, shown.stderr
    house = json.loads(shown.stdout)
    assert house["balance"] == 50_000 and house["funded"] == 50_000 and house["result"] == 0
    assert [g["reference"] for g in house["grants"]] == ["initial bankroll"]

    refused = holdem(tmp_path, "house", "--fund", "1000", "--reason", "more bots",
                     "--admin", "nobody@example.com", **env)
    assert "is not an admin account" in one_error_line(refused, "house")
    too_short = holdem(tmp_path, "house", "--fund", "1000", "--reason", "x",
                       "--admin", "nobody@example.com", **env)
    assert "invalid --reason 'x': " in one_error_line(too_short, "house")

    made = holdem(tmp_path, "create-admin", "ops@example.com", "--password",
                  "a long enough password", **env)
    assert made.returncode == 0, made.stderr
    funded = holdem(tmp_path, "house", "--fund", "1000", "--reason", "more bots",
                    "--admin", "ops@example.com", **env)
    assert funded.returncode == 0, funded.stderr
    house = json.loads(funded.stdout)
    assert house["balance"] == 51_000 and house["funded"] == 51_000
    assert [g["reference"] for g in house["grants"]] == ["more bots", "initial bankroll"]
    logged = asyncio.run(_logged(url))
    assert ("fund_house", {"amount": 1000, "reason": "more bots"}) in logged


def test_house_names_the_option_that_is_missing_or_invalid_and_changes_nothing(
    tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'holdem.sqlite3'}"
    env = {"DATABASE_URL": url, "HOUSE_INITIAL_BANKROLL": "50000"}
    assert holdem(tmp_path, "migrate", **env).returncode == 0
    made = holdem(tmp_path, "create-admin", "ops@example.com", "--password",
                  "a long enough password", **env)
    assert made.returncode == 0, made.stderr
    admin = ("--admin", "ops@example.com")
    refusals = {
        ("--fund", "5000"): "--fund needs --reason",
        ("--fund", "5000", "--reason", "more bots"): "--fund needs --admin EMAIL",
        ("--fund", "5000", *admin): "--fund needs --reason",
        ("--fund", "0", "--reason", "more bots", *admin): "invalid --fund 0: ",
        ("--fund", "-5", "--reason", "more bots", *admin): "invalid --fund -5: ",
        ("--fund", "5000", "--reason", "  ", *admin): "invalid --reason '  ': ",
        ("--reason", "more bots", *admin): "--reason and --admin go with --fund",
        admin: "--reason and --admin go with --fund",
    }
    for args, said in refusals.items():
        line = one_error_line(holdem(tmp_path, "house", *args, **env), "house")
        assert said in line, (args, line)
        assert "String should" not in line.partition(said)[0], line
    shown = holdem(tmp_path, "house", **env)
    assert shown.returncode == 0, shown.stderr
    house = json.loads(shown.stdout)
    assert house["balance"] == 50_000 and house["funded"] == 50_000
    assert [g["reference"] for g in house["grants"]] == ["initial bankroll"]
    assert [action for action, _ in asyncio.run(_logged(url))] == ["create_admin"]
