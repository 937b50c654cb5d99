"""Chat safety through a real server: ignore lists follow a player to every table and
device, admins mute and unmute, reports carry the table's chat and hand, and a word added
to the list is masked at once."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.conftest import Accounts, Player
from tests.realtime.harness import Client, LiveServer, is_event, seat_players


async def _table(client: Client, name: str) -> str:
    created = await client.ok("table:create", {"name": name, "small_blind": 5,
                                               "big_blind": 10})
    return str(created["table"]["table_id"])


def _chat_texts(client: Client, table_id: str) -> list[str]:
    return [event["text"] for event in client.events(table_id) if event["type"] == "chat"]


async def _chat_log(http: httpx.AsyncClient, admin: Player, lines: int, **filters: Any
                    ) -> dict[str, Any]:
    """The admins' chat log once ``lines`` lines are stored (written every second)."""
    for _ in range(100):
        body: dict[str, Any] = (await http.get("/admin/chat/lines", params=filters,
                                               headers=admin.headers)).json()
        if body["count"] >= lines:
            return body
        await asyncio.sleep(0.1)
    raise AssertionError(f"no chat line logged for {filters}")


async def test_an_ignored_players_chat_never_reaches_the_ignorer_at_any_table(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    rude, polite, ignorer = [await players.player() for _ in range(3)]
    speaker: Client = await connect(rude)
    other: Client = await connect(polite)
    reader: Client = await connect(ignorer)
    first, second = await _table(speaker, "First"), await _table(other, "Second")
    for table_id in (first, second):
        for client in (speaker, other, reader):
            await client.ok("table:join", {"table_id": table_id})
    await speaker.ok("table:chat", {"table_id": first, "text": "said before the ignore"})
    await reader.wait_for("table:event", is_event("chat", first))

    response = await http.post("/users/me/ignored", json={"public_id": rude.public_id},
                               headers=ignorer.headers)
    assert response.status_code == 201, response.text
    assert [p["public_id"] for p in response.json()["items"]] == [rude.public_id]

    for table_id in (first, second):
        await speaker.ok("table:chat", {"table_id": table_id, "text": "you all play badly"})
        await other.ok("table:chat", {"table_id": table_id, "text": "good luck everyone"})
        # The polite line came after the rude one: had the rude one been sent, it is here.
        await reader.wait_for("table:event", lambda d, t=table_id: d["table_id"] == t and d[
            "event"].get("text") == "good luck everyone")
        assert "you all play badly" not in _chat_texts(reader, table_id)
        assert "you all play badly" in _chat_texts(other, table_id)
        # In its place, under the same seq: neither speaker nor text.
        withheld = [e for e in reader.events(table_id) if e["type"] == "chat_withheld"]
        assert withheld == [{"type": "chat_withheld"}]
    # Game actions are never hidden: the ignored player sitting down reaches the ignorer.
    await speaker.ok("table:sit", {"table_id": second, "seat": 0, "buy_in": 500})
    await reader.wait_for("table:event", is_event("player_sat", second))

    # Another device of the ignorer: the snapshot's chat leaves the ignored lines out.
    tablet: Client = await connect(ignorer)
    await tablet.ok("table:join", {"table_id": first})
    snapshot = await tablet.wait_for("table:snapshot", lambda d: d["table_id"] == first)
    assert [line["text"] for line in snapshot["chat"]] == ["good luck everyone"]
    # Replayed messages too: the reader reconnects asking for what it missed.
    replay: Client = await connect(ignorer)
    await replay.ok("table:join", {"table_id": first, "since_seq": 0})
    assert "you all play badly" not in repr(replay.payloads())

    response = await http.delete(f"/users/me/ignored/{rude.public_id}",
                                 headers=ignorer.headers)
    assert response.status_code == 204
    listed = await http.get("/users/me/ignored", headers=ignorer.headers)
    assert listed.json() == {"items": [], "count": 0}
    await speaker.ok("table:chat", {"table_id": first, "text": "sorry about that"})
    await reader.wait_for("table:event", lambda d: d["event"].get("text") == "sorry about that")


async def test_a_muted_player_is_refused_until_an_admin_unmutes_them(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    admin, loud = await players.admin(), await players.player()
    speaker: Client = await connect(loud)
    table_id = await _table(speaker, "Quiet please")
    await speaker.ok("table:chat", {"table_id": table_id, "text": "before the mute"})

    muted = await http.post(f"/admin/users/{loud.id}/mute",
                            json={"minutes": 30, "reason": "spamming the table"},
                            headers=admin.headers)
    assert muted.status_code == 200, muted.text
    assert muted.json()["muted_until"] is not None
    ack = await speaker.call("table:chat", {"table_id": table_id, "text": "still here"})
    assert ack["ok"] is False and ack["error"]["code"] == "muted"
    assert "until" in ack["error"]["message"] and ack["error"]["until"] > 0

    # At every table: a new one, and from a new connection.
    again: Client = await connect(loud)
    other = await _table(again, "Elsewhere")
    ack = await again.call("table:chat", {"table_id": other, "text": "hello?"})
    assert ack["error"]["code"] == "muted"

    unmuted = await http.post(f"/admin/users/{loud.id}/unmute", headers=admin.headers)
    assert unmuted.status_code == 200 and unmuted.json()["muted_until"] is None
    await speaker.ok("table:chat", {"table_id": table_id, "text": "thanks, I will behave"})
    log = (await http.get("/admin/audit-log", headers=admin.headers)).json()["items"]
    assert [e["action"] for e in log[:2]] == ["unmute", "mute"]
    assert log[1]["details"]["reason"] == "spamming the table"
    assert all(e["target_user_id"] == loud.id for e in log[:2])


async def test_a_report_is_stored_with_the_tables_chat_and_hand(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await seat_players(players, connect, [500, 500])
    started = await table.observer.wait_for("table:event", is_event("hand_started", table.id))
    hand_id = started["hand_id"]
    rude, victim = table.players[0], table.players[1]
    await table.seats[0].ok("table:chat", {"table_id": table.id, "text": "you donkey"})
    await table.seats[1].wait_for("table:event", is_event("chat", table.id))

    ack = await table.seats[1].ok("table:report", {
        "table_id": table.id, "public_id": rude.public_id, "reason": "insults me"})
    refused = await table.seats[1].call("table:report", {
        "table_id": table.id, "public_id": victim.public_id, "reason": "me"})
    assert refused["error"]["code"] == "cannot_report_self"

    admin = await players.admin()
    reports = (await http.get("/admin/chat/reports", headers=admin.headers)).json()
    assert reports["count"] == 1
    report = reports["items"][0]
    assert report["id"] == ack["report_id"]
    assert (report["reporter"]["id"], report["reported"]["id"]) == (victim.id, rude.id)
    assert (report["table_id"], report["hand_id"]) == (table.id, hand_id)
    assert [(line["public_id"], line["text"]) for line in report["chat"]] == [
        (rude.public_id, "you donkey")]
    assert report["reason"] == "insults me" and report["handled_at"] is None

    handled = await http.post(f"/admin/chat/reports/{report['id']}/handle",
                              headers=admin.headers)
    assert handled.status_code == 200 and handled.json()["handled_by"] == admin.id
    assert (await http.get("/admin/chat/reports", headers=admin.headers)).json()["count"] == 0
    done = (await http.get("/admin/chat/reports?status=handled",
                           headers=admin.headers)).json()
    assert [r["id"] for r in done["items"]] == [report["id"]]
    log = (await http.get("/admin/audit-log", headers=admin.headers)).json()["items"]
    assert log[0]["action"] == "report_handled"
    assert log[0]["details"]["report_id"] == report["id"]


async def test_a_player_not_at_the_table_cannot_be_reported_and_reports_are_rate_limited(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    someone_else = await players.player()
    table = await seat_players(players, connect, [500, 500])
    stranger = await table.seats[1].call("table:report", {
        "table_id": table.id, "public_id": someone_else.public_id, "reason": "who?"})
    assert stranger["error"]["code"] == "not_at_table"
    limit = server.realtime.settings.rate_limit_reports.count
    for _ in range(limit):
        await table.seats[1].ok("table:report", {
            "table_id": table.id, "public_id": table.players[0].public_id, "reason": "x"})
    over = await table.seats[1].call("table:report", {
        "table_id": table.id, "public_id": table.players[0].public_id, "reason": "x"})
    assert over["error"]["code"] == "rate_limited"


async def test_a_word_added_to_the_list_is_masked_at_once_and_the_log_keeps_both_forms(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    admin, talker, listener = (await players.admin(), await players.player(),
                               await players.player())
    speaker: Client = await connect(talker)
    hearer: Client = await connect(listener)
    table_id = await _table(speaker, "Words")
    await hearer.ok("table:join", {"table_id": table_id})
    added = await http.post("/admin/chat/words", json={"word": "Grommet"},
                            headers=admin.headers)
    assert added.status_code == 201 and added.json()["word"] == "grommet"
    again = await http.post("/admin/chat/words", json={"word": "GR0MMMET"},
                            headers=admin.headers)
    assert again.status_code == 409 and again.json()["error"]["code"] == "chat_word_exists"

    await speaker.ok("table:chat", {"table_id": table_id, "text": "what a gr0mmet move"})
    line = await hearer.wait_for("table:event", is_event("chat", table_id))
    assert line["event"]["text"] == "what a ******* move"

    removed = await http.delete("/admin/chat/words/grommet", headers=admin.headers)
    assert removed.status_code == 204
    await speaker.ok("table:chat", {"table_id": table_id, "text": "grommet again"})
    await hearer.wait_for("table:event", lambda d: d["event"].get("text") == "grommet again")
    actions = [e["action"] for e in (await http.get(
        "/admin/audit-log", headers=admin.headers)).json()["items"][:2]]
    assert actions == ["chat_word_remove", "chat_word_add"]

    log = await _chat_log(http, admin, 2, table_id=table_id)
    assert [(item["said"], item["shown"]) for item in log["items"]] == [
        ("grommet again", "grommet again"), ("what a gr0mmet move", "what a ******* move")]
    assert {item["user"]["id"] for item in log["items"]} == {talker.id}
    by_someone_else = (await http.get("/admin/chat/lines", params={"user_id": listener.id},
                                      headers=admin.headers)).json()
    assert by_someone_else["count"] == 0
