"""Bots fill empty seats, play through the engine with their own view, and give seats to people."""

from __future__ import annotations

from typing import Any

from app.db import ledger
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable, is_event


async def _play_hands(table: PlayingTable, client: Client, hands: int) -> None:
    """Check (else fold) whenever it is the person's turn until ``hands`` hands have ended."""
    while len([e for e in client.events(table.id) if e["type"] == "hand_ended"]) < hands:
        turn = await client.wait_for("table:turn", lambda t: t["seq"] > table.last_turn
                                     and t["legal_actions"] is not None)
        table.last_turn = turn["seq"]
        kinds = {a["action"] for a in turn["legal_actions"]}
        choice = next(k for k in ("check", "muck", "fold") if k in kinds)
        ack = await client.call("table:action", {"table_id": table.id,
                                                 "hand_id": turn["hand_id"], "type": choice})
        assert ack["ok"] or ack["error"]["code"] in ("stale_action", "not_your_turn"), ack


async def test_bots_fill_seats_play_hands_and_never_reveal_their_cards(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    person = await players.player(verified=False)
    client: Client = await connect(person)
    created = await client.ok("table:create", {
        "name": "bots", "small_blind": 5, "big_blind": 10, "bots": True, "bot_count": 2,
        "bot_style": "loose"})
    table_id = created["table"]["table_id"]
    await client.ok("table:join", {"table_id": table_id})
    snapshot = await client.wait_for("table:snapshot")
    bots = [s for s in snapshot["seats"] if s["player"]["bot"] == "loose"]
    assert len(bots) == 2 and all(s["stack"] == 1000 for s in bots)
    await client.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 1000})
    table = PlayingTable(table_id, {0: client}, {0: person})
    await _play_hands(table, client, 3)
    for event in client.events(table_id):
        if event["type"] == "hole_cards_dealt" and event["seat"] != 0:
            assert event["cards"] is None
    # The table counted what every watcher saw of the person, for the bots to read.
    here = server.realtime.host.live.get(table_id).state
    counted = here.reads[here.players[0].person.public_id]
    assert counted.hands >= 3 and counted.raised == counted.shoved == 0
    listing = next(t for t in
               (await server.realtime.host.listing.tables()) if t["table_id"] == table_id)
    assert listing["bots"] == 2 and listing["seated"] == 3
    await client.ok("table:leave", {"table_id": table_id})
    notice = await client.wait_for("user:notice", lambda n: n["kind"] == "cashed_out")
    assert notice["amount"] >= 0
    live = server.realtime.host.live.get(table_id)
    assert all(p.is_bot for p in live.state.players.values())
    bots_stacks = sum(p.stack for p in live.state.players.values())
    async with server.database.sessions() as session:
        audit = await ledger.audit(session)
        assert audit.balanced, audit
        # What stays at the table is the bots' stacks: the house's credits.
        assert await ledger.escrowed_at(session, table_id) == bots_stacks


async def test_a_person_takes_a_bots_seat(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    owner: Client = await connect(await players.player(verified=False))
    created = await owner.ok("table:create", {
        "name": "bots", "small_blind": 5, "big_blind": 10, "seats": 2, "bots": True,
        "bot_count": 1})
    table_id = created["table"]["table_id"]
    await owner.ok("table:join", {"table_id": table_id})
    snapshot = await owner.wait_for("table:snapshot")
    (bot,) = snapshot["seats"]
    bot_seat = bot["seat"]
    assert bot["player"]["bot"] is not None
    await owner.ok("table:sit", {"table_id": table_id, "seat": 1 - bot_seat, "buy_in": 500})
    await owner.wait_for("table:event", is_event("hand_started", table_id))
    newcomer: Client = await connect(await players.player(verified=False))
    taken = await newcomer.ok("table:sit", {"table_id": table_id, "seat": bot_seat,
                                            "buy_in": 500})
    assert taken["seat"] == bot_seat and taken["pending"] is True
    await _play_hands(PlayingTable(table_id, {0: owner}, {}), owner, 1)
    left = await owner.wait_for("table:event", lambda d: is_event("player_left")(d)
                                and d["event"]["seat"] == bot_seat)
    assert left["event"]["player"]["bot"] is not None
    person = await owner.wait_for("table:event", lambda d: is_event("player_sat")(d)
                                  and d["seq"] > left["seq"])
    assert person["event"]["seat"] == bot_seat and person["event"]["player"]["bot"] is None
