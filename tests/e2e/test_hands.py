"""Whole hands over real Socket.IO connections: showdowns, side pots, cashing out."""

from __future__ import annotations

from typing import Any

from app.db import ledger
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable, is_event, seat_players


async def balance_of(server: LiveServer, user_id: int) -> int:
    """A user's balance as stored."""
    from app.db.models import User

    async with server.database.sessions() as session:
        user = await session.get(User, user_id)
        assert user is not None
        return user.balance


async def assert_ledger_balanced(server: LiveServer) -> None:
    """Balances plus chips at tables equal the credits granted."""
    async with server.database.sessions() as session:
        result = await ledger.audit(session)
    assert result.balanced, result


async def everyone_leaves(table: PlayingTable) -> dict[int, int]:
    """Every player leaves; returns what each seat was cashed out with."""
    marks = {seat: len(client.received) for seat, client in table.seats.items()}
    for client in table.seats.values():
        await client.ok("table:leave", {"table_id": table.id})
    paid: dict[int, int] = {}
    for seat, client in table.seats.items():
        notice = await client.wait_for("user:notice", lambda n: n["kind"] == "cashed_out",
                                       after=marks[seat])
        paid[seat] = notice["amount"]
    return paid


async def test_heads_up_hand_checked_down_goes_to_the_best_hand(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000])
    await table.act("call", seat=0)
    for seat in (1, 1, 0, 1, 0, 1, 0):
        await table.act("check", seat=seat)
    ended = await table.hand_ended()
    stacks = dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True))
    assert stacks == {0: 1010, 1: 990}
    events = [e["type"] for e in table.observer.events(table.id)]
    assert events.count("board_dealt") == 3
    assert events.count("hand_shown") == 2
    awarded = next(e for e in table.observer.events(table.id) if e["type"] == "pot_awarded")
    assert awarded["seats"] == [0] and awarded["amount"] == 20
    paid = await everyone_leaves(table)
    assert sum(paid.values()) == 2000
    for seat, player in table.players.items():
        assert await balance_of(server, player.id) == 10_000 - 1000 + paid[seat]
    await assert_ledger_balanced(server)


async def test_three_way_all_in_builds_a_side_pot_won_by_the_short_stack_and_the_middle(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    # Seat 0 is the button: seat 1 posts the small blind, seat 2 the big blind.
    server.decks.stack_seats({0: "QsQh", 1: "AsAh", 2: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 200, 500])
    await table.act("all_in", seat=0)
    await table.act("all_in", seat=1)
    await table.act("call", seat=2)
    ended = await table.hand_ended()
    stacks = dict(zip(ended["event"]["seats"], ended["event"]["stacks"], strict=True))
    assert stacks == {0: 500, 1: 600, 2: 600}
    pots = [e for e in table.observer.events(table.id) if e["type"] == "pot_awarded"]
    assert [(p["amount"], p["seats"]) for p in pots] == [(600, [1]), (600, [2])]
    paid = await everyone_leaves(table)
    assert sum(paid.values()) == 1700
    await assert_ledger_balanced(server)


async def test_a_spectator_and_the_other_players_never_see_hidden_hole_cards(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    holes = {0: "7c2d", 1: "AsKs", 2: "QhJh"}
    server.decks.stack_seats(holes, "2c3d4h9s8c")
    spectator_player = await players.player(verified=False)
    table = await seat_players(players, connect, [1000, 1000, 1000])
    spectator: Client = await connect(spectator_player)
    await spectator.ok("table:join", {"table_id": table.id})
    await table.act("fold", seat=0)
    await table.act("call", seat=1)
    await table.act("check", seat=2)
    for seat in (1, 2, 1, 2, 1, 2):
        await table.act("check", seat=seat)
    await table.act("show", seat=2)  # beaten by ace high: shows by choice
    await table.hand_ended(spectator)
    shown_at = {seat: _first_index(client, "hand_shown") for seat, client in table.seats.items()}
    for seat, client in table.seats.items():
        hidden = {card for other, cards in holes.items() if other != seat
                  for card in (cards[:2], cards[2:])}
        before_showdown = [d for _, d in client.received[: shown_at[seat]]]
        assert not _cards_in(before_showdown) & hidden, seat
        mine = next(e for e in client.events(table.id)
                    if e["type"] == "hole_cards_dealt" and e["seat"] == seat)
        assert mine["cards"] == [holes[seat][:2], holes[seat][2:]]
    folded = {"7c", "2d"}
    assert not _cards_in(spectator.payloads()) & folded
    for seat in (1, 2):
        assert not _cards_in(table.seats[seat].payloads()) & folded
    shown = _cards_in([d for _, d in spectator.received[_first_index(spectator, "hand_shown"):]])
    assert {"As", "Ks", "Qh", "Jh"} <= shown
    assert not _cards_in([d for _, d in spectator.received[: _first_index(spectator, "hand_shown")]]
                         ) & {"As", "Ks", "Qh", "Jh"}
    turns = [d for name, d in spectator.received if name == "table:turn"]
    assert turns and all(t["legal_actions"] is None for t in turns)


def _first_index(client: Client, kind: str) -> int:
    for i, (name, data) in enumerate(client.received):
        if name == "table:event" and data["event"]["type"] == kind:
            return i
    raise AssertionError(f"no {kind} event")


def _cards_in(payloads: list[Any]) -> set[str]:
    """Every two-character card string anywhere in these payloads."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and len(value) == 2 and value[1] in "cdhs":
            found.add(value)

    for payload in payloads:
        walk(payload)
    return found


async def test_the_hand_history_is_stored_with_each_players_result(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    await table.act("raise", 30, seat=0)
    await table.act("fold", seat=1)
    ended = await table.hand_ended()
    hand_id = ended["hand_id"]
    from app.db.tables import HandPlayer, HandRecord

    async with server.database.sessions() as session:
        record = await session.get(HandRecord, hand_id)
        assert record is not None
        assert record.pot == 20 and "p2 cbr 30" in record.phh and "p1 f" in record.phh
        rows = {(await session.get(HandPlayer, (hand_id, p.id))) for p in table.players.values()}
    nets = sorted(row.net for row in rows if row is not None)
    assert nets == [-10, 10]
    assert is_event("hand_ended", table.id)(ended)
