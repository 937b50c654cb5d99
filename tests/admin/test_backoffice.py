"""The back office over HTTP: tournaments from templates, recurring tournaments, the
audit log's filters; each change audit-logged, each bad request refused unchanged."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.conftest import Accounts

SCHEDULE = {"name": "Nightly turbo", "template": "turbo", "hour": 20, "minute": 0}


async def _log(client: httpx.AsyncClient, headers: dict[str, str], **query: Any
               ) -> dict[str, Any]:
    response = await client.get("/admin/audit-log", params=query, headers=headers)
    assert response.status_code == 200, response.text
    return dict(response.json())


async def test_templates_list_their_structure_and_a_tournament_is_created_from_one(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    templates = (await client.get("/admin/tournaments/templates",
                                  headers=admin.headers)).json()
    by_key = {t["key"]: t for t in templates["data"]}
    assert set(by_key) == {"turbo", "regular", "deep_stack", "heads_up"}
    assert by_key["deep_stack"]["starting_stack"] == 10_000
    assert by_key["heads_up"]["table_size"] == 2 and by_key["heads_up"]["kind"] == "sit_and_go"

    created = await client.post("/admin/tournaments/from-template", headers=admin.headers,
                                json={"template": "heads_up", "name": "Duel", "buy_in": 20})
    assert created.status_code == 201, created.text
    body = created.json()
    assert (body["name"], body["buy_in"], body["fee"], body["table_size"]) == ("Duel", 20, 5, 2)
    assert body["structure"]["starting_stack"] == 500
    log = await _log(client, admin.headers, action="create_tournament")
    assert log["items"][0]["details"] == {"tournament_id": body["id"], "name": "Duel",
                                          "template": "heads_up"}


@pytest.mark.parametrize(("body", "where"), [
    ({"template": "turbo"}, []),  # a multi-table template needs a start
    ({"template": "monster"}, ["template"]),
    ({"template": "turbo", "starts_at": 2e9, "buy_in": -1}, ["buy_in"]),
    ({"template": "turbo", "starts_at": 2e9, "extra": 1}, ["extra"]),
    ({"template": "heads_up", "name": ""}, ["name"]),
])
async def test_a_bad_template_request_is_refused_and_creates_nothing(
    client: httpx.AsyncClient, accounts: Accounts, body: dict[str, Any], where: list[str]
) -> None:
    admin = await accounts.admin()
    refused = await client.post("/admin/tournaments/from-template", json=body,
                                headers=admin.headers)
    assert refused.status_code == 422, refused.text
    error = refused.json()["error"]
    assert error["code"] == "invalid_payload"
    if where:
        assert where[0] in str(error["problems"])
    assert (await client.get("/tournaments")).json()["count"] == 0
    assert (await _log(client, admin.headers))["count"] == 0


async def test_a_schedule_is_added_listed_paused_resumed_and_deleted_audit_logged(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    added = await client.post("/admin/tournaments/schedules", headers=admin.headers,
                              json={**SCHEDULE, "weekday": 5, "lead_minutes": 30})
    assert added.status_code == 201, added.text
    schedule = added.json()
    assert (schedule["buy_in"], schedule["fee"], schedule["paused"]) == (50, 5, False)
    assert schedule["next_start"] - schedule["opens_at"] == 30 * 60
    assert schedule["next_start"] % 86_400 == 20 * 3_600  # 20:00 UTC
    # 1970-01-01 was a Thursday: a Saturday is 2 days on, modulo a week.
    assert (schedule["next_start"] // 86_400 - 2) % 7 == 0

    path = f"/admin/tournaments/schedules/{schedule['id']}"
    paused = await client.post(f"{path}/pause", headers=admin.headers)
    assert paused.json()["paused"] is True
    listed = (await client.get("/admin/tournaments/schedules", headers=admin.headers)).json()
    assert [(s["id"], s["paused"]) for s in listed["data"]] == [(schedule["id"], True)]
    assert (await client.post(f"{path}/resume", headers=admin.headers)).json()["paused"] is False
    assert (await client.delete(path, headers=admin.headers)).status_code == 204
    assert (await client.get("/admin/tournaments/schedules",
                             headers=admin.headers)).json()["count"] == 0

    actions = [e["action"] for e in (await _log(client, admin.headers))["items"]]
    assert actions == ["delete_schedule", "resume_schedule", "pause_schedule",
                       "create_schedule"]
    for verb in ("pause", "resume"):
        missing = await client.post(f"{path}/{verb}", headers=admin.headers)
        assert missing.status_code == 404
        assert missing.json()["error"]["code"] == "schedule_not_found"
    assert (await client.delete(path, headers=admin.headers)).status_code == 404


@pytest.mark.parametrize("change", [
    {"hour": 24}, {"minute": 60}, {"weekday": 7}, {"lead_minutes": 0},
    {"lead_minutes": 1441}, {"template": "monster"}, {"name": ""}, {"hour": "20"},
    {"fee": -1}, {"every": "day"},
])
async def test_a_bad_schedule_is_refused_and_stores_nothing(
    client: httpx.AsyncClient, accounts: Accounts, change: dict[str, Any]
) -> None:
    admin = await accounts.admin()
    refused = await client.post("/admin/tournaments/schedules", headers=admin.headers,
                                json={**SCHEDULE, **change})
    assert refused.status_code == 422
    assert refused.json()["error"]["code"] == "invalid_payload"
    assert (await client.get("/admin/tournaments/schedules",
                             headers=admin.headers)).json()["count"] == 0


async def test_the_audit_log_filters_by_action_admin_and_account_a_page_at_a_time(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    first, second = await accounts.admin(), await accounts.admin()
    player = await accounts.player(logged_in=False)
    for amount in (5, 6, 7):
        await client.post(f"/admin/users/{player.id}/credits", headers=first.headers,
                          json={"amount": amount, "reason": "testing"})
    await client.post("/admin/house/credits", headers=second.headers,
                      json={"amount": 100, "reason": "bankroll"})

    everything = await _log(client, first.headers, per_page=2)
    assert everything["count"] == 4 and len(everything["items"]) == 2
    assert everything["actions"] == ["adjust_credits", "fund_house"]
    by_second = await _log(client, first.headers, admin_id=second.id)
    assert [e["action"] for e in by_second["items"]] == ["fund_house"]
    about = await _log(client, first.headers, user_id=player.id, page=2, per_page=2)
    assert about["count"] == 3 and [e["details"]["amount"] for e in about["items"]] == [5]
    assert (await _log(client, first.headers, action="ban"))["count"] == 0
    for bad in ({"action": "DROP TABLE"}, {"admin_id": 0}, {"user_id": "x"}):
        response = await client.get("/admin/audit-log", params=bad, headers=first.headers)
        assert response.status_code == 422
