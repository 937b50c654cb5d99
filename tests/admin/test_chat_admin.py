"""Chat safety over HTTP: admins keep the word list, mute players and read the chat log;
players keep their ignore list. Every admin change is audited."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import httpx
from fastapi import FastAPI
from sqlalchemy import insert, select

from app.db.chat import ChatLine
from tests.conftest import Accounts


async def test_the_word_list_starts_with_the_built_in_words_and_is_edited_by_admins(
    client: httpx.AsyncClient, accounts: Accounts, app: FastAPI
) -> None:
    admin = await accounts.admin()
    listed = (await client.get("/admin/chat/words", headers=admin.headers)).json()
    assert "shit" in [w["word"] for w in listed["items"]] and listed["count"] == 18
    too_short = await client.post("/admin/chat/words", json={"word": "x"},
                                  headers=admin.headers)
    assert too_short.status_code == 422
    added = await client.post("/admin/chat/words", json={"word": " Heck "},
                              headers=admin.headers)
    assert added.status_code == 201 and added.json()["word"] == "heck"
    assert app.state.realtime.chat.safety.filter.mask("h3ck off") == "**** off"
    unknown = await client.delete("/admin/chat/words/nothing", headers=admin.headers)
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "chat_word_not_found"
    assert (await client.delete("/admin/chat/words/heck",
                                headers=admin.headers)).status_code == 204
    assert app.state.realtime.chat.safety.filter.mask("heck off") == "heck off"
    log = (await client.get("/admin/audit-log", headers=admin.headers)).json()["items"]
    assert [(e["action"], e["details"]) for e in log[:2]] == [
        ("chat_word_remove", {"word": "heck"}), ("chat_word_add", {"word": "heck"})]


async def test_a_mute_needs_a_duration_and_a_reason_and_shows_on_the_account(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    admin, player = await accounts.admin(), await accounts.player()
    for body in ({"minutes": 0, "reason": "spam"}, {"minutes": 5}, {"minutes": "5",
                                                                    "reason": "spam"}):
        refused = await client.post(f"/admin/users/{player.id}/mute", json=body,
                                    headers=admin.headers)
        assert refused.status_code == 422, body
    before = datetime.now(UTC)
    muted = await client.post(f"/admin/users/{player.id}/mute",
                              json={"minutes": 90, "reason": "spam"}, headers=admin.headers)
    until = datetime.fromisoformat(muted.json()["muted_until"])
    assert before + timedelta(minutes=89) < until < before + timedelta(minutes=91)
    shown = (await client.get(f"/admin/users/{player.id}", headers=admin.headers)).json()
    assert shown["mute_reason"] == "spam"
    await client.post(f"/admin/users/{player.id}/unmute", headers=admin.headers)
    # Unmuting someone not muted changes nothing and records nothing.
    await client.post(f"/admin/users/{player.id}/unmute", headers=admin.headers)
    log = (await client.get("/admin/audit-log", headers=admin.headers)).json()["items"]
    assert [e["action"] for e in log] == ["unmute", "mute"]


async def test_a_player_keeps_an_ignore_list_of_other_players(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    me, rude, loud = (await accounts.player(), await accounts.player(),
                      await accounts.player())
    for other in (rude, loud, rude):
        response = await client.post("/users/me/ignored", json={"public_id": other.public_id},
                                     headers=me.headers)
        assert response.status_code == 201
    assert [p["public_id"] for p in response.json()["items"]] == [rude.public_id,
                                                                   loud.public_id]
    assert response.json()["items"][0]["name"] == rude.display_name
    myself = await client.post("/users/me/ignored", json={"public_id": me.public_id},
                               headers=me.headers)
    assert myself.status_code == 422 and myself.json()["error"]["code"] == "cannot_ignore_self"
    nobody = await client.post("/users/me/ignored", json={"public_id": "0" * 32},
                               headers=me.headers)
    assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "player_not_found"
    malformed = await client.post("/users/me/ignored", json={"public_id": "x"},
                                  headers=me.headers)
    assert malformed.status_code == 422
    assert (await client.delete(f"/users/me/ignored/{rude.public_id}",
                                headers=me.headers)).status_code == 204
    listed = (await client.get("/users/me/ignored", headers=me.headers)).json()
    assert [p["public_id"] for p in listed["items"]] == [loud.public_id]
    theirs = (await client.get("/users/me/ignored", headers=loud.headers)).json()
    assert theirs["count"] == 0
    assert (await client.get("/users/me/ignored")).status_code == 401


async def test_the_chat_log_pages_and_filters_and_old_lines_are_pruned(
    client: httpx.AsyncClient, accounts: Accounts, app: FastAPI
) -> None:
    admin, one, two = (await accounts.admin(), await accounts.player(),
                       await accounts.player())
    now = datetime.now(UTC)
    rows = [{"table_id": table, "user_id": user.id, "said": f"{table} {n}",
             "shown": f"{table} {n}", "created_at": now - timedelta(minutes=n)}
            for n, (table, user) in enumerate([("t1", one), ("t1", two), ("t2", one)])]
    rows.append({"table_id": "t1", "user_id": one.id, "said": "ancient", "shown": "ancient",
                 "created_at": now - timedelta(days=31)})
    await accounts.execute(insert(ChatLine).values(rows))

    def said(body: dict[str, object]) -> list[str]:
        return [item["said"] for item in body["items"]]  # type: ignore[attr-defined,index]

    everything = (await client.get("/admin/chat/lines?per_page=2",
                                   headers=admin.headers)).json()
    assert everything["count"] == 4 and said(everything) == ["ancient", "t2 2"]
    mine = (await client.get(f"/admin/chat/lines?user_id={one.id}&table_id=t1",
                             headers=admin.headers)).json()
    assert said(mine) == ["ancient", "t1 0"]
    assert mine["items"][1]["user"] == {"id": one.id, "public_id": one.public_id,
                                        "name": one.display_name}
    assert (await client.get("/admin/chat/lines?table_id=bad%20id",
                             headers=admin.headers)).status_code == 422

    assert await app.state.realtime.chat.log.prune() == 1
    async with accounts.database.sessions() as session:
        left = (await session.scalars(select(ChatLine.said))).all()
    assert sorted(left) == ["t1 0", "t1 1", "t2 2"]
