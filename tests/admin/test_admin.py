"""Admin over HTTP: search, view, ban/unban, credit adjustments, the audit log."""

from __future__ import annotations

import httpx
import pytest

from app.db import ledger
from tests.conftest import Accounts

ADMIN_ROUTES = [
    ("GET", "/admin/users", None),
    ("GET", "/admin/users/1", None),
    ("GET", "/admin/users/1/ledger", None),
    ("POST", "/admin/users/1/ban", {"reason": "testing"}),
    ("POST", "/admin/users/1/unban", None),
    ("POST", "/admin/users/1/credits", {"amount": 5, "reason": "testing"}),
    ("POST", "/admin/users/1/demote", None),
    ("GET", "/admin/audit-log", None),
    ("GET", "/admin/audit", None),
    ("GET", "/admin/chat/words", None),
    ("POST", "/admin/chat/words", {"word": "heck"}),
    ("DELETE", "/admin/chat/words/heck", None),
    ("POST", "/admin/users/1/mute", {"minutes": 5, "reason": "testing"}),
    ("POST", "/admin/users/1/unmute", None),
    ("GET", "/admin/chat/lines", None),
    ("GET", "/admin/chat/reports", None),
    ("POST", "/admin/chat/reports/1/handle", None),
    ("GET", "/admin/users/1/linked", None),
    ("GET", "/admin/integrity/chip-flow", None),
    ("POST", "/admin/integrity/scan", None),
    ("GET", "/admin/integrity/flags", None),
    ("POST", "/admin/integrity/flags/1/dismiss", None),
    ("POST", "/admin/integrity/flags/1/action", {"claw_back": True}),
    ("POST", "/admin/announcements", {"text": "hello everyone"}),
    ("GET", "/admin/house", None),
    ("POST", "/admin/house/credits", {"amount": 5, "reason": "testing"}),
    ("GET", "/admin/tournaments/templates", None),
    ("POST", "/admin/tournaments/from-template", {"template": "heads_up"}),
    ("POST", "/admin/tournaments/abc/cancel", None),
    ("GET", "/admin/tournaments/schedules", None),
    ("POST", "/admin/tournaments/schedules", {"name": "x", "template": "turbo", "hour": 20}),
    ("POST", "/admin/tournaments/schedules/1/pause", None),
    ("POST", "/admin/tournaments/schedules/1/resume", None),
    ("DELETE", "/admin/tournaments/schedules/1", None),
]


@pytest.mark.parametrize(("method", "path", "body"), ADMIN_ROUTES)
async def test_players_get_403_on_every_admin_route(
    client: httpx.AsyncClient, accounts: Accounts, method: str, path: str, body: object
) -> None:
    player = await accounts.player()
    response = await client.request(method, path, json=body, headers=player.headers)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "admin_required"
    anonymous = await client.request(method, path, json=body)
    assert anonymous.status_code == 401


async def test_admins_search_users_page_by_page(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    players = [await accounts.player(logged_in=False) for _ in range(3)]
    everyone = (await client.get("/admin/users?per_page=2", headers=admin.headers)).json()
    assert everyone["count"] == 4 and len(everyone["items"]) == 2
    second = (await client.get("/admin/users?per_page=2&page=2", headers=admin.headers)).json()
    assert [u["id"] for u in second["items"]] == [players[1].id, players[2].id]

    by_name = await client.get("/admin/users", params={"q": players[0].display_name.upper()},
                               headers=admin.headers)
    assert [u["id"] for u in by_name.json()["items"]] == [players[0].id]
    by_email = await client.get("/admin/users", params={"q": players[2].email[:9]},
                                headers=admin.headers)
    assert players[2].id in [u["id"] for u in by_email.json()["items"]]
    by_role = await client.get("/admin/users?role=admin", headers=admin.headers)
    assert [u["id"] for u in by_role.json()["items"]] == [admin.id]
    no_match = await client.get("/admin/users", params={"q": "100%_nobody"},
                                headers=admin.headers)
    assert no_match.json()["count"] == 0


async def test_admins_view_one_user_and_unknown_ids_are_404(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    response = await client.get(f"/admin/users/{player.id}", headers=admin.headers)
    assert response.status_code == 200
    assert response.json()["email"] == player.email
    assert response.json()["ban_reason"] is None
    missing = await client.get("/admin/users/999999", headers=admin.headers)
    assert missing.status_code == 404
    assert missing.json()["error"]["code"] == "user_not_found"


async def test_a_ban_ends_sessions_and_logins_until_lifted(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    banned = await client.post(f"/admin/users/{player.id}/ban", json={"reason": "chip dumping"},
                               headers=admin.headers)
    assert banned.status_code == 200
    assert banned.json()["status"] == "banned"
    assert banned.json()["ban_reason"] == "chip dumping"
    assert (await client.get("/users/me", headers=player.headers)).status_code == 401
    login = await accounts.login(player)
    assert login.status_code == 403 and login.json()["error"]["reason"] == "chip dumping"

    lifted = await client.post(f"/admin/users/{player.id}/unban", headers=admin.headers)
    assert lifted.json()["status"] == "active"
    assert (await accounts.login(player)).status_code == 200


async def test_a_ban_runs_the_after_ban_hooks(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    disconnected: list[int] = []

    async def disconnect(user_id: int) -> None:
        disconnected.append(user_id)

    accounts.app.state.account_hooks.after_ban.append(disconnect)
    await client.post(f"/admin/users/{player.id}/ban", json={"reason": "abuse"},
                      headers=admin.headers)
    assert disconnected == [player.id]


async def test_admins_cannot_be_banned(client: httpx.AsyncClient, accounts: Accounts) -> None:
    admin = await accounts.admin()
    response = await client.post(f"/admin/users/{admin.id}/ban", json={"reason": "oops"},
                                 headers=admin.headers)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "cannot_moderate_admin"


async def test_a_demoted_admin_is_a_player_who_can_then_be_banned(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, other = await accounts.admin(), await accounts.admin()
    demoted = await client.post(f"/admin/users/{other.id}/demote", headers=admin.headers)
    assert demoted.status_code == 200, demoted.text
    assert demoted.json()["role"] == "player"
    assert (await client.get("/admin/users", headers=other.headers)).status_code == 401
    await accounts.login(other)
    assert (await client.get("/admin/users", headers=other.headers)).status_code == 403
    banned = await client.post(f"/admin/users/{other.id}/ban", json={"reason": "abuse"},
                               headers=admin.headers)
    assert banned.status_code == 200, banned.text
    log = (await client.get("/admin/audit-log", headers=admin.headers)).json()
    assert [(e["action"], e["admin_id"], e["target_user_id"], e["details"])
            for e in log["items"]] == [
        ("ban", admin.id, other.id, {"reason": "abuse"}),
        ("demote_admin", admin.id, other.id, {"via": "api"}),
    ]


async def test_only_admins_are_demoted_and_never_by_themselves(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    again = await client.post(f"/admin/users/{player.id}/demote", headers=admin.headers)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "not_an_admin"
    itself = await client.post(f"/admin/users/{admin.id}/demote", headers=admin.headers)
    assert itself.status_code == 409
    assert itself.json()["error"]["code"] == "cannot_demote_self"
    view = await client.get(f"/admin/users/{admin.id}", headers=admin.headers)
    assert view.json()["role"] == "admin"
    assert (await client.get("/admin/audit-log", headers=admin.headers)).json()["count"] == 0


async def test_the_house_account_of_the_bots_cannot_be_banned(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    house = (await client.get("/admin/house", headers=admin.headers)).json()["user_id"]
    response = await client.post(f"/admin/users/{house}/ban", json={"reason": "it wins"},
                                 headers=admin.headers)
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "cannot_moderate_house"
    view = await client.get(f"/admin/users/{house}", headers=admin.headers)
    assert view.json()["status"] == "active"
    assert (await client.get("/admin/audit-log", headers=admin.headers)).json()["count"] == 0


async def test_credit_adjustments_go_through_the_ledger(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    added = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                              json={"amount": 2_500, "reason": "tournament prize"})
    assert added.status_code == 200, added.text
    assert added.json()["balance"] == 12_500
    removed = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                                json={"amount": -500, "reason": "refund reversal"})
    assert removed.json()["balance"] == 12_000

    history = (await client.get(f"/admin/users/{player.id}/ledger",
                                headers=admin.headers)).json()
    assert [(e["amount"], e["reason"], e["reference"]) for e in history["items"][:2]] == [
        (-500, "admin_adjustment", "refund reversal"),
        (2_500, "admin_adjustment", "tournament prize"),
    ]
    async with accounts.database.sessions() as session:
        assert (await ledger.audit(session)).balanced


async def test_a_removal_beyond_the_balance_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    response = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                                 json={"amount": -10_001, "reason": "too much"})
    assert response.status_code == 409
    assert response.json()["error"] | {"code": "insufficient_credits", "balance": 10_000} == \
        response.json()["error"]
    zero = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                             json={"amount": 0, "reason": "nothing"})
    assert zero.status_code == 422


async def test_deleted_accounts_can_be_viewed_but_not_changed(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    await client.request("DELETE", "/users/me", headers=player.headers,
                         json={"password": player.password})
    view = await client.get(f"/admin/users/{player.id}", headers=admin.headers)
    assert view.json()["status"] == "deleted" and view.json()["email"] is None
    credit = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                               json={"amount": 5, "reason": "late prize"})
    assert credit.status_code == 409
    assert credit.json()["error"]["code"] == "account_deleted"


async def test_every_admin_action_is_in_the_audit_log(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                      json={"amount": 100, "reason": "bonus"})
    await client.post(f"/admin/users/{player.id}/ban", headers=admin.headers,
                      json={"reason": "abuse"})
    await client.post(f"/admin/users/{player.id}/unban", headers=admin.headers)
    log = (await client.get("/admin/audit-log", headers=admin.headers)).json()
    assert log["count"] == 3
    assert [(e["action"], e["admin_id"], e["target_user_id"]) for e in log["items"]] == [
        ("unban", admin.id, player.id),
        ("ban", admin.id, player.id),
        ("adjust_credits", admin.id, player.id),
    ]
    assert log["items"][2]["details"] == {"amount": 100, "reason": "bonus",
                                          "balance_after": 10_100}


BEYOND_INT4 = 2**31


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", f"/admin/users/{BEYOND_INT4}", None),
    ("GET", f"/admin/users/{BEYOND_INT4}/ledger", None),
    ("POST", f"/admin/users/{BEYOND_INT4}/ban", {"reason": "testing"}),
    ("POST", f"/admin/users/{BEYOND_INT4}/unban", None),
    ("POST", f"/admin/users/{BEYOND_INT4}/credits", {"amount": 5, "reason": "testing"}),
    ("GET", f"/admin/users/{10**30}", None),
], ids=["read", "ledger", "ban", "unban", "credits", "huge"])
async def test_user_ids_beyond_the_id_column_are_refused_not_500(
    client: httpx.AsyncClient, accounts: Accounts, method: str, path: str, body: object
) -> None:
    admin = await accounts.admin()
    response = await client.request(method, path, json=body, headers=admin.headers)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["code"] == "invalid_payload"


@pytest.mark.parametrize("q", ["nul\0here", "\u202e", "   ", str(BEYOND_INT4)])
async def test_a_search_with_control_characters_is_refused_and_a_huge_id_matches_nobody(
    client: httpx.AsyncClient, accounts: Accounts, q: str
) -> None:
    admin = await accounts.admin()
    response = await client.get("/admin/users", params={"q": q}, headers=admin.headers)
    if q.isdigit():
        assert response.status_code == 200 and response.json()["count"] == 0
    else:
        assert response.status_code == 422, response.text
        assert response.json()["error"]["code"] == "invalid_payload"


@pytest.mark.parametrize(("path", "body"), [
    ("ban", {"reason": "spam\0"}),
    ("ban", {"reason": "\u202edesrever"}),
    ("ban", {"reason": "      "}),
    ("credits", {"amount": 5, "reason": "gift\0"}),
    ("credits", {"amount": 5, "reason": "a\nb\nc"}),
])
async def test_reasons_with_control_characters_are_refused_and_change_nothing(
    client: httpx.AsyncClient, accounts: Accounts, path: str, body: dict[str, object]
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    response = await client.post(f"/admin/users/{player.id}/{path}", json=body,
                                 headers=admin.headers)
    assert response.status_code == 422, response.text
    after = (await client.get(f"/admin/users/{player.id}", headers=admin.headers)).json()
    assert after["status"] == "active" and after["balance"] == 10_000
    log = (await client.get("/admin/audit-log", headers=admin.headers)).json()
    assert log["count"] == 0


@pytest.mark.parametrize("amount", [True, "5", 5.0, "1e3"], ids=["true", "string", "float",
                                                                  "exponent"])
async def test_credit_amounts_must_be_json_integers(
    client: httpx.AsyncClient, accounts: Accounts, amount: object
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    response = await client.post(f"/admin/users/{player.id}/credits", headers=admin.headers,
                                 json={"amount": amount, "reason": "coercion probe"})
    assert response.status_code == 422, response.text
    balance = (await client.get(f"/admin/users/{player.id}", headers=admin.headers)).json()
    assert balance["balance"] == 10_000


async def test_a_hand_search_by_a_malformed_table_id_is_refused_not_500(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin = await accounts.admin()
    response = await client.get("/admin/hands", params={"table_id": "ab\0cd"},
                                headers=admin.headers)
    assert response.status_code == 422, response.text
