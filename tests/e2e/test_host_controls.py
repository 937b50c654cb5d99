"""The host's controls of a home game (``table:host``), through a real server and real
clients: pause and resume, seat approval at a private table, removing a player, away,
the stakes and the clock, handing the table on. Every test ends with the chip audit (the
live server reconciles the ledger when it stops)."""

from __future__ import annotations

from typing import Any

import httpx

from app.config import Settings
from app.db.tables import HandRecord
from tests.conftest import Accounts, Mailbox
from tests.realtime.harness import (
    Client,
    LiveServer,
    PlayingTable,
    is_event,
    live_server,
    realtime_settings,
    seat_players,
)


def host(table_id: str, action: str, reason: str = "house rules", **args: Any
         ) -> dict[str, Any]:
    """A ``table:host`` payload."""
    return {"table_id": table_id, "reason": reason, "control": {"action": action, **args}}


def seq_of(client: Client, kind: str, table_id: str, **where: Any) -> int:
    """The seq of the first ``table:event`` of ``kind`` (with these fields) received."""
    return next(data["seq"] for name, data in client.received
                if name == "table:event" and data["table_id"] == table_id
                and data["event"]["type"] == kind
                and all(data["event"].get(k) == v for k, v in where.items()))


async def public_id_at(client: Client, table_id: str, seat: int) -> str:
    """The public id of the person who sat in ``seat``."""
    sat = await client.wait_for("table:event", lambda d: d["table_id"] == table_id
                                and d["event"]["type"] == "player_sat"
                                and d["event"]["seat"] == seat)
    return str(sat["event"]["player"]["public_id"])


async def fold_hand(table: PlayingTable) -> None:
    """Play the hand in play to its end: the first player to act folds."""
    ended = len(table.observer.received)
    await table.act("fold")
    await table.hand_ended(after=ended)



async def paused_between_hands(table: PlayingTable) -> None:
    """The host (seat 0) pauses in the first hand, which the other two fold to its end."""
    owner = table.seats[0]
    await owner.wait_for("table:event", is_event("hand_started", table.id))
    await owner.ok("table:host", host(table.id, "pause", "break"))
    await table.act("fold")
    await table.act("fold")
    await table.hand_ended()

async def test_only_the_host_may_use_the_host_controls(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500])
    guest = table.seats[1]
    refused = await guest.call("table:host", host(table.id, "pause"))
    assert refused["ok"] is False and refused["error"]["code"] == "not_host", refused
    unknown = await table.seats[0].call("table:host", host(table.id, "shuffle_up"))
    assert unknown["ok"] is False and unknown["error"]["code"] == "invalid_payload"
    no_reason = await table.seats[0].call("table:host", host(table.id, "pause", reason=""))
    assert no_reason["ok"] is False and no_reason["error"]["code"] == "invalid_payload"
    assert all(e["type"] != "host_control" for e in guest.events(table.id))


async def test_a_paused_table_deals_no_hand_until_the_host_resumes(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    alice, bob = [await players.player(verified=False) for _ in range(2)]
    owner, guest = await connect(alice), await connect(bob)
    created = await owner.ok("table:create", {"name": "home game", "small_blind": 5,
                                              "big_blind": 10})
    table_id = created["table"]["table_id"]
    await owner.ok("table:join", {"table_id": table_id})
    paused = await owner.ok("table:host", host(table_id, "pause", "waiting for carol"))
    assert paused["action"] == "pause"
    for seat, client in enumerate((owner, guest)):
        await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 500})
    control = await owner.wait_for("table:event", is_event("host_control", table_id))
    assert control["event"]["reason"] == "waiting for carol"
    assert control["event"]["by"]["name"] == alice.display_name
    assert control["event"]["at_hand_end"] is False
    snapshot = await guest.wait_for("table:snapshot", lambda s: s["table_id"] == table_id)
    assert snapshot["hosting"]["paused"] is True
    resumed = await owner.ok("table:host", host(table_id, "resume", "carol is here"))
    started = await guest.wait_for("table:event", is_event("hand_started", table_id))
    assert started["seq"] > resumed["seq"]
    assert seq_of(guest, "host_control", table_id, action="resume") == resumed["seq"]


async def test_a_pause_asked_during_a_hand_takes_effect_when_it_ends(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500])
    owner = table.seats[0]
    await owner.wait_for("table:event", is_event("hand_started", table.id))
    paused = await owner.ok("table:host", host(table.id, "pause", "pizza"))
    control = await owner.wait_for("table:event", is_event("host_control", table.id))
    assert control["event"]["at_hand_end"] is True
    await fold_hand(table)
    resumed = await owner.ok("table:host", host(table.id, "resume", "back"))
    second = await owner.wait_for("table:event", lambda d: d["table_id"] == table.id
                                  and d["event"]["type"] == "hand_started"
                                  and d["event"]["number"] == 2)
    assert paused["seq"] < resumed["seq"] < second["seq"]


async def test_new_blinds_and_ante_apply_from_the_next_hand(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    owner, guest = table.seats[0], table.seats[1]
    first = await owner.wait_for("table:event", is_event("hand_started", table.id))
    changed = await owner.ok("table:host", host(table.id, "stakes", "level two",
                                                small_blind=10, big_blind=20, ante=2))
    control = await guest.wait_for("table:event", is_event("host_control", table.id))
    assert control["event"]["stakes"] == {"small_blind": 10, "big_blind": 20, "ante": 2}
    blinds_first = [e["amount"] for e in guest.events(table.id)
                    if e["type"] == "blind_posted"]
    assert sorted(blinds_first) == [5, 10]
    await fold_hand(table)
    second = await owner.wait_for("table:event", lambda d: d["table_id"] == table.id
                                  and d["event"]["type"] == "hand_started"
                                  and d["event"]["number"] == 2)
    assert first["seq"] < changed["seq"] < second["seq"]
    await owner.wait_for("table:turn", lambda t: t["table_id"] == table.id
                         and t["seq"] > second["seq"])
    later = [data["event"] for name, data in owner.received
             if name == "table:event" and data["seq"] > second["seq"]]
    assert sorted(e["amount"] for e in later if e["type"] == "blind_posted") == [10, 20]
    assert [e["amount"] for e in later if e["type"] == "ante_posted"] == [2, 2]
    bad = await owner.call("table:host", host(table.id, "stakes", small_blind=50,
                                              big_blind=20))
    assert bad["ok"] is False and bad["error"]["code"] == "invalid_payload"
    clock = await owner.ok("table:host", host(table.id, "clock", "speed it up",
                                              action_seconds=15.0))
    assert clock["action"] == "clock"
    watcher = await connect()
    await watcher.ok("table:join", {"table_id": table.id})
    snapshot = await watcher.wait_for("table:snapshot", lambda s: s["table_id"] == table.id)
    assert snapshot["config"]["action_seconds"] == 15.0
    assert (snapshot["config"]["small_blind"], snapshot["config"]["big_blind"],
            snapshot["config"]["ante"]) == (10, 20, 2)
    assert [line["action"] for line in snapshot["hosting"]["log"]] == ["stakes", "clock"]
    # The controls are notes of the next hand's history (its summary, and PHH's
    # `_host_notes`); the hand they were applied during carries none.
    await table.act("fold")
    second_end = await owner.wait_for("table:event", lambda d: d["hand_id"] == second["hand_id"]
                                      and d["event"]["type"] == "hand_ended")
    async with server.database.sessions() as session:
        first_record = await session.get(HandRecord, first["hand_id"])
        second_record = await session.get(HandRecord, second_end["hand_id"])
    assert first_record is not None and second_record is not None
    assert "host_notes" not in first_record.summary
    assert [note.split(": ", 1)[1] for note in second_record.summary["host_notes"]] == [
        "stakes (level two)"]
    assert "_host_notes = [" in second_record.phh and "stakes (level two)" in second_record.phh


async def test_a_player_removed_during_a_hand_stands_up_at_its_end_and_is_cashed_out(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500])
    owner, bob = table.seats[0], table.seats[1]
    first = await owner.wait_for("table:turn", lambda t: t["table_id"] == table.id)
    before = await server.balance(table.players[1].id)
    await owner.ok("table:host", host(table.id, "pause", "last hand"))
    removed = await owner.ok("table:host", host(table.id, "remove", "left for home", seat=1))
    control = await bob.wait_for("table:event", lambda d: d["table_id"] == table.id
                                 and d["event"].get("action") == "remove")
    assert control["event"]["seat"] == 1 and control["event"]["at_hand_end"] is True
    if first["seat"] == 0:
        await owner.ok("table:action", {"table_id": table.id, "hand_id": first["hand_id"],
                                        "type": "fold"})
    # Bob's turns are folded for him; the hand ends, then he stands up with his stack.
    left = await owner.wait_for("table:event", is_event("player_left", table.id))
    ended = seq_of(owner, "hand_ended", table.id)
    assert left["event"]["seat"] == 1 and removed["seq"] < ended < left["seq"]
    cashed = await bob.wait_for("user:notice", lambda n: n["kind"] == "cashed_out")
    assert cashed["amount"] == left["event"]["stack"] > 0
    assert await server.balance(table.players[1].id) == before + cashed["amount"]
    again = await owner.call("table:host", host(table.id, "remove", seat=1))
    assert again["ok"] is False and again["error"]["code"] == "no_such_seat"


async def test_the_host_approves_and_refuses_seats_at_a_private_table(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    alice, bob, carol = [await players.player(verified=False) for _ in range(3)]
    owner = await connect(alice)
    created = await owner.ok("table:create", {"name": "club", "small_blind": 5,
                                              "big_blind": 10, "private": True})
    table_id, code = created["table"]["table_id"], created["invite_code"]
    await owner.ok("table:join", {"table_id": table_id, "invite_code": code})
    await owner.ok("table:host", host(table_id, "approval", "members only", required=True))
    await owner.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 500})
    bob_client, carol_client = await connect(bob), await connect(carol)
    bob_before = await server.balance(bob.id)
    asked = await bob_client.ok("table:sit", {"table_id": table_id, "seat": 1,
                                              "buy_in": 400, "invite_code": code})
    assert asked["requested"] is True and asked["balance"] is None
    assert await server.balance(bob.id) == bob_before
    await carol_client.ok("table:sit", {"table_id": table_id, "seat": 2, "buy_in": 400,
                                        "invite_code": code})
    request = await owner.wait_for("table:event", lambda d: d["table_id"] == table_id
                                   and d["event"]["type"] == "seat_requested"
                                   and d["event"]["player"]["name"] == carol.display_name)
    carol_id = request["event"]["player"]["public_id"]
    bob_request = next(e for e in owner.events(table_id) if e["type"] == "seat_requested")
    await owner.ok("table:host", host(table_id, "approve", "welcome",
                                      player=bob_request["player"]["public_id"]))
    sat = await bob_client.wait_for("table:event", is_event("player_sat", table_id))
    assert sat["event"]["seat"] == 1 and sat["event"]["stack"] == 400
    assert await server.balance(bob.id) == bob_before - 400
    carol_before = await server.balance(carol.id)
    await owner.ok("table:host", host(table_id, "refuse", "table is full tonight",
                                      player=carol_id))
    told = await carol_client.wait_for("user:notice", lambda n: n["kind"] == "seat_refused")
    assert told["reason"] == "table is full tonight"
    assert await server.balance(carol.id) == carol_before
    gone = await owner.call("table:host", host(table_id, "approve", player=carol_id))
    assert gone["ok"] is False and gone["error"]["code"] == "no_such_request"


async def test_the_host_role_can_be_handed_on(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500])
    owner, bob = table.seats[0], table.seats[1]
    bob_id = await public_id_at(owner, table.id, 1)
    await owner.ok("table:host", host(table.id, "hand_over", "going home", player=bob_id))
    control = await bob.wait_for("table:event", is_event("host_control", table.id))
    assert control["event"]["host"]["public_id"] == bob_id
    refused = await owner.call("table:host", host(table.id, "pause"))
    assert refused["ok"] is False and refused["error"]["code"] == "not_host"
    await bob.ok("table:host", host(table.id, "pause", "my table now"))


async def test_an_away_player_keeps_the_seat_until_the_hosts_time_runs_out(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500, 500])
    owner = table.seats[0]
    await paused_between_hands(table)
    away = await owner.ok("table:host", host(table.id, "away", "phone call", seat=2,
                                             seconds=0.5))
    sat_out = await owner.wait_for("table:event", lambda d: d["table_id"] == table.id
                                   and d["event"]["type"] == "player_sat_out"
                                   and d["event"]["seat"] == 2)
    assert sat_out["seq"] > away["seq"]
    ended = await owner.wait_for("table:event", is_event("away_ended", table.id))
    left = await owner.wait_for("table:event", lambda d: d["table_id"] == table.id
                                and d["event"]["type"] == "player_left"
                                and d["event"]["seat"] == 2)
    assert ended["seq"] < left["seq"]
    cashed = await table.seats[2].wait_for("user:notice", lambda n: n["kind"] == "cashed_out")
    assert cashed["amount"] == left["event"]["stack"]


async def test_a_restarted_server_keeps_the_pause_the_away_seat_and_the_host_log(
    settings: Settings, mailbox: Mailbox
) -> None:
    settings = realtime_settings(settings)
    clients: list[Client] = []

    async def connect(player: Any = None) -> Client:
        client = Client(first.url, player)
        clients.append(client)
        return await client.connect()

    async with live_server(settings) as first, httpx.AsyncClient(base_url=first.url) as http:
        table = await seat_players(Accounts(http, mailbox, first.app), connect,
                                   [500, 500, 500])
        owner = table.seats[0]
        await paused_between_hands(table)
        away = await owner.ok("table:host", host(table.id, "away", "phone call", seat=2,
                                                 seconds=600.0))
        control = await owner.wait_for("table:event", lambda d: d["seq"] == away["seq"])
        for client in clients:
            await client.disconnect()

    async with live_server(settings) as second:
        again = Client(second.url, table.players[0])
        await again.connect()
        try:
            await again.ok("table:join", {"table_id": table.id})
            snapshot = await again.wait_for("table:snapshot")
            hosting = snapshot["hosting"]
            assert hosting["paused"] is True
            assert hosting["away"] == [{"seat": 2, "until": control["event"]["until"]}]
            assert [line["action"] for line in hosting["log"]] == ["pause", "away"]
            held = {s["seat"]: s["status"] for s in snapshot["seats"]}
            assert held[2] == "sitting_out"
            resumed = await again.ok("table:host", host(table.id, "resume", "back"))
            started = await again.wait_for("table:event", is_event("hand_started", table.id))
            assert started["seq"] > resumed["seq"] and started["event"]["number"] == 2
            assert {s["seat"] for s in started["event"]["seats"]} == {0, 1}
        finally:
            await again.disconnect()


async def test_an_away_player_who_sits_in_again_is_no_longer_away(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [500, 500, 500])
    owner, carol = table.seats[0], table.seats[2]
    await paused_between_hands(table)
    await owner.ok("table:host", host(table.id, "away", "getting a drink", seat=2,
                                      seconds=600.0))
    await carol.wait_for("table:event", lambda d: d["table_id"] == table.id
                         and d["event"]["type"] == "player_sat_out")
    back = await carol.ok("table:sit-in", {"table_id": table.id})
    assert back["status"] != "sitting_out"
    watcher = await connect()
    await watcher.ok("table:join", {"table_id": table.id})
    snapshot = await watcher.wait_for("table:snapshot", lambda s: s["table_id"] == table.id)
    assert snapshot["hosting"]["away"] == []
    assert {s["seat"] for s in snapshot["seats"]} == {0, 1, 2}


async def test_a_night_the_host_pauses_removes_and_raises_the_blinds_settles_to_the_chip(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh", 2: "QsQh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500, 500])
    owner = table.seats[0]
    await owner.wait_for("table:event", is_event("hand_started", table.id))
    await owner.ok("table:host", host(table.id, "pause", "last hand at these stakes"))
    await owner.ok("table:host", host(table.id, "stakes", "level two", small_blind=10,
                                      big_blind=20, ante=0))
    first = await table.act("all_in")
    second = await table.act("call")
    third = await table.act("fold")
    await table.hand_ended()
    assert first["seat"] != third["seat"] != second["seat"]
    folded = third["seat"]
    removed = await owner.call("table:host", host(table.id, "remove", "time to go",
                                                  seat=folded))
    assert removed["ok"], removed
    left = await owner.wait_for("table:event", lambda d: d["table_id"] == table.id
                                and d["event"]["type"] == "player_left"
                                and d["event"]["seat"] == folded)
    stays = await owner.ok("table:leave", {"table_id": table.id})
    assert stays["cashed_out"] + left["event"]["stack"] == 1500
    ledger = await http.get(f"/tables/{table.id}/ledger", headers=table.players[0].headers)
    assert ledger.status_code == 200, ledger.text
    body = ledger.json()
    assert body["open"] is True and all(line["at_table"] == 0 for line in body["lines"])
    assert sum(line["net"] for line in body["lines"]) == 0
    assert sum(t["amount"] for t in body["transfers"]) == sum(
        line["net"] for line in body["lines"] if line["net"] > 0)
    # Everyone started with the same credits: each balance is that plus their net.
    nets = {line["public_id"]: line["net"] for line in body["lines"]}
    started = {await server.balance(p.id) - nets[p.public_id] for p in table.players.values()}
    assert len(started) == 1
