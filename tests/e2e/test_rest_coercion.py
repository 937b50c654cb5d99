"""Every REST request body refuses a value of the wrong JSON type in every field: a string
for a number, ``true`` for a number, a number for a string, ``null`` where null is not
allowed, a list, an object. Each answer is 422 ``invalid_payload`` with the documented
error body naming that field, and nothing in the database changes.

The bodies are enumerated from the app's own OpenAPI schema, so a new request model is
covered as soon as it has a valid example in ``VALID`` (a test fails until it has).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from app.config import Settings
from app.db.models import Base
from app.errors import ErrorBody
from app.main import create_app
from tests.conftest import Accounts, Mailbox, Player, random_secret
from tests.realtime.harness import Client, LiveServer, live_server, realtime_settings

# A body that passes validation for each request model (whatever the route then decides).
VALID: dict[str, dict[str, Any]] = {
    "UserCreate": {"email": "someone@example.com", "password": "a password",
                   "display_name": "someone"},
    "TokenRequest": {"token": "token"},
    "EmailRequest": {"email": "someone@example.com"},
    "LoginRequest": {"email": "someone@example.com", "password": "a password"},
    "PasswordReset": {"token": "token", "new_password": "a new password"},
    "AccountDelete": {"password": "a password"},
    "UserUpdate": {"display_name": "someone"},
    "PasswordChange": {"current_password": "a password", "new_password": "a new password"},
    "EmailChange": {"current_password": "a password", "new_email": "new@example.com"},
    "TableCloseRequest": {"reason": "closing"},
    "HouseFunding": {"amount": 1_000, "reason": "more bots"},
    "BanRequest": {"reason": "cheating"},
    "CreditAdjustment": {"amount": 1_000, "reason": "a gift"},
    "TournamentCreate": {"name": "Sunday", "kind": "sit_and_go", "buy_in": 100},
    "EquityRequest": {"hands": ["AhKh", "QsQd"]},
    "OutsRequest": {"hand": "AhKh", "board": "2c3d4h"},
    "LeaderboardChoice": {"listed": True},
    "NoteUpdate": {"text": "calls too much", "color": "red"},
    "PlayerSettingsUpdate": {"auto_muck": False},
    "IgnoredCreate": {"public_id": "0" * 32},
    "MuteRequest": {"minutes": 10, "reason": "abuse in chat"},
    "ChatWordCreate": {"word": "grommet"},
    "AnnouncementCreate": {"text": "the server restarts at noon", "level": "info"},
    "FlagAction": {"claw_back": True},
    "TournamentFromTemplate": {"template": "heads_up"},
    "ScheduleCreate": {"name": "Nightly", "template": "turbo", "hour": 20},
}
# One value of each JSON type, and the schema types that would accept it.
VALUES: list[tuple[Any, set[str]]] = [
    ("40", {"string"}), (True, {"boolean"}), (7, {"integer", "number"}), (None, {"null"}),
    ([], {"array"}), ({}, {"object"}),
]
HEARTBEATS = {"server_processes"}  # each process's liveness, renewed every second


def _spec() -> dict[str, Any]:
    settings = Settings(env="development", database_url="sqlite+aiosqlite:///:memory:",
                        secret_key=random_secret())
    spec: dict[str, Any] = create_app(settings).openapi()
    return spec


def _types(prop: dict[str, Any], schemas: dict[str, Any]) -> set[str]:
    """The JSON types a property's schema accepts."""
    if "$ref" in prop:
        return _types(schemas[prop["$ref"].split("/")[-1]], schemas)
    if "anyOf" in prop or "oneOf" in prop or "allOf" in prop:
        options = prop.get("anyOf") or prop.get("oneOf") or prop["allOf"]
        return set().union(*(_types(option, schemas) for option in options))
    if "type" in prop:
        kinds = prop["type"] if isinstance(prop["type"], list) else [prop["type"]]
        return set(kinds) | ({"number"} if "integer" in kinds else set())
    if "enum" in prop:
        return {"string"}
    return {"string", "boolean", "integer", "number", "null", "array", "object"}


def _bodies(spec: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(method, path, model)`` of every JSON request body in the schema."""
    found = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            if "application/json" in content:
                model = content["application/json"]["schema"]["$ref"].split("/")[-1]
                found.append((method, path, model))
    return found


def _cases() -> list[tuple[str, str, str, str, Any]]:
    spec = _spec()
    schemas = spec["components"]["schemas"]
    cases = []
    for method, path, model in _bodies(spec):
        for field, prop in schemas[model]["properties"].items():
            accepted = _types(prop, schemas)
            for value, kinds in VALUES:
                if not kinds & accepted:
                    cases.append((method, path, model, field, value))
    return cases


SPEC = _spec()
CASES = _cases()


def test_every_request_body_has_a_valid_example_and_wrong_type_cases() -> None:
    models = {model for _, _, model in _bodies(SPEC)}
    assert models == set(VALID), models ^ set(VALID)
    fields = {(model, field) for _, _, model, field, _ in CASES}
    schemas = SPEC["components"]["schemas"]
    assert fields == {(m, f) for m in models for f in schemas[m]["properties"]}
    assert len(CASES) >= 150


async def _database_rows(server: LiveServer) -> dict[str, list[tuple[Any, ...]]]:
    rows = {}
    async with server.database.sessions() as session:
        for table in Base.metadata.sorted_tables:
            if table.name in HEARTBEATS:
                continue
            columns = [c.name for c in table.columns]
            result = await session.execute(text(
                f"SELECT {', '.join(columns)} FROM {table.name} ORDER BY 1"))
            rows[table.name] = [tuple(row) for row in result]
    return rows


def _path(path: str, values: dict[str, str]) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: values[m.group(1)], path)


@pytest.fixture
async def running(settings: Settings, mailbox: Mailbox) -> Any:
    tuned = dataclasses.replace(realtime_settings(settings), rate_limits_enabled=False)
    async with live_server(tuned) as server:
        yield server


async def test_every_wrong_type_in_every_rest_body_is_refused_and_changes_nothing(
    running: LiveServer, mailbox: Mailbox
) -> None:
    async with httpx.AsyncClient(base_url=running.url, timeout=30) as http:
        accounts = Accounts(http, mailbox, running.app)
        admin: Player = await accounts.admin()
        target = await accounts.player()
        owner = await Client(running.url, target).connect()
        try:
            created = await owner.ok("table:create", {"name": "open", "small_blind": 1,
                                                      "big_blind": 2})
        finally:
            await owner.disconnect()
        ids = {"user_id": str(target.id), "table_id": created["table"]["table_id"],
               "public_id": target.public_id, "flag_id": "1"}
        before = await _database_rows(running)
        wrong: list[str] = []
        for method, path, model, field, value in CASES:
            body = {**VALID[model], field: value}
            response = await http.request(method.upper(), _path(path, ids), json=body,
                                          headers=admin.headers)
            where = f"{method.upper()} {path} {field}={value!r}"
            if response.status_code != 422:
                wrong.append(f"{where}: {response.status_code} {response.text[:200]}")
                continue
            error = ErrorBody.model_validate(response.json()).error
            problems = getattr(error, "problems", None) or []
            located = [p for p in problems if p["location"][:2] == ["body", field]]
            if error.code != "invalid_payload" or not located or len(problems) != len(located):
                wrong.append(f"{where}: {response.json()}")
        assert not wrong, "\n".join(wrong[:20])
        assert await _database_rows(running) == before
