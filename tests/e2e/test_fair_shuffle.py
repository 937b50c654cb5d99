"""The fair shuffle at a live table: commitments first, seeds revealed only at the end and
only to the players dealt in (never to spectators), and every stored hand verifiable by
its players and by ``holdem verify-hand``."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.poker.cards import parse_cards
from app.poker.fairness import FairnessProof, ShuffleMismatch, dealt_positions
from app.poker.phh import verify_history
from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable, is_event

ROOT = Path(__file__).resolve().parents[2]


async def play_to_the_end(table: PlayingTable, *, fold: bool = False) -> dict[str, Any]:
    """Act for whoever is to act (fold, or check/call down, mucking a beaten hand) until
    the hand ends; the ``hand_ended`` message."""
    observer = table.observer
    start = len(observer.received)
    while True:
        for name, data in observer.received[start:]:
            if name == "table:event" and is_event("hand_ended", table.id)(data):
                return data  # type: ignore[no-any-return]
        pending = [d for name, d in observer.received
                   if name == "table:turn" and d["seq"] > table.last_turn]
        if not pending:
            await asyncio.sleep(0.01)
            continue
        turn = await table.turn()
        kinds = {a["action"] for a in turn["legal_actions"]}
        kind = ("fold" if fold and "fold" in kinds else "check" if "check" in kinds
                else "call" if "call" in kinds else "muck")
        await table.seats[turn["seat"]].ok(
            "table:action", {"table_id": table.id, "hand_id": turn["hand_id"], "type": kind})


async def sit(client: Client, table_id: str, seat: int) -> None:
    await client.ok("table:sit", {"table_id": table_id, "seat": seat, "buy_in": 1000})


async def test_seeds_are_committed_before_and_revealed_only_when_each_hand_ends(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    people = [await players.player(verified=False) for _ in range(3)]
    alice, bob, spy = [await connect(p) for p in people]
    created = await alice.ok("table:create", {"name": "fair", "small_blind": 5,
                                              "big_blind": 10})
    table_id = created["table"]["table_id"]
    await spy.ok("table:join", {"table_id": table_id})
    snapshot = await spy.wait_for("table:snapshot")
    first_commitment = snapshot["fairness"]["next_commitment"]
    await sit(alice, table_id, 0)
    ack = await alice.ok("table:seed", {"table_id": table_id, "seed": "alice-1"})
    assert ack["seat"] == 0 and ack["next_commitment"] == first_commitment
    await sit(bob, table_id, 1)
    table = PlayingTable(table_id, {0: alice, 1: bob}, dict(enumerate(people[:2])))

    started = await spy.wait_for("table:event", is_event("hand_started", table_id))
    assert started["event"]["commitment"] == first_commitment
    # Bob's seed arrives during the first hand: it counts from the second.
    await bob.ok("table:seed", {"table_id": table_id, "seed": "bob_2"})
    first = await play_to_the_end(table, fold=True)
    second_started = await spy.wait_for(
        "table:event", lambda d: is_event("hand_started", table_id)(d) and d["seq"] > first["seq"])
    second = await play_to_the_end(table)

    for ended, seeds in ((first, {0: "alice-1"}), (second, {0: "alice-1", 1: "bob_2"})):
        fairness = ended["event"]["fairness"]
        proof = FairnessProof.from_dict(fairness)
        assert proof.client_seeds == seeds
        assert hashlib.sha256(proof.server_seed.encode()).hexdigest() == fairness["commitment"]
        for client in (alice, bob):
            _assert_secret_until(client, proof.server_seed, ended)
            _assert_deal_matches(client, proof, ended["hand_id"], table_id)
        # A spectator could rebuild every hole card from the seed: it never gets it.
        watched = await spy.wait_for("table:event", lambda d, e=ended: d["seq"] == e["seq"])
        assert watched["event"]["fairness"] is None
        assert watched["event"]["next_commitment"] == ended["event"]["next_commitment"]
        assert proof.server_seed not in json.dumps(spy.received)
    # Nor in the replay a reconnecting spectator asks for; a player's replay has it.
    for client, sees in ((spy, False), (alice, True)):
        mark = len(client.received)
        await client.ok("table:join", {"table_id": table_id, "since_seq": first["seq"] - 1})
        replayed = await client.wait_for("table:event", lambda d: d["seq"] == first["seq"],
                                         after=mark)
        assert (replayed["event"]["fairness"] == first["event"]["fairness"]) is sees
        assert (first["event"]["fairness"]["server_seed"] in json.dumps(
            client.received[mark:])) is sees
    assert first["event"]["fairness"]["commitment"] == first_commitment
    assert first["event"]["next_commitment"] == second_started["event"]["commitment"]
    assert second["event"]["fairness"]["commitment"] == second_started["event"]["commitment"]


def _assert_secret_until(client: Client, server_seed: str, ended: dict[str, Any]) -> None:
    """No message before ``ended`` holds the seed (as text anywhere in it)."""
    cut = next(i for i, (_, data) in enumerate(client.received)
               if isinstance(data, dict) and data.get("seq") == ended["seq"]
               and data.get("table_id") == ended["table_id"])
    before = json.dumps([data for _, data in client.received[:cut]])
    assert server_seed not in before
    assert server_seed in json.dumps(client.received[cut][1])


def _assert_deal_matches(client: Client, proof: FairnessProof, hand_id: str,
                         table_id: str) -> None:
    """Every card this client saw in the hand is where the revealed seeds put it."""
    deck = proof.deck()
    events = [d["event"] for name, d in client.received
              if name == "table:event" and d.get("hand_id") == hand_id
              and d["table_id"] == table_id]
    order = [e["seat"] for e in events if e["type"] == "hole_cards_dealt"]
    holes, board = dealt_positions(len(order))
    for event in events:
        if event["type"] == "hole_cards_dealt" and event["cards"] is not None:
            a, b = holes[order.index(event["seat"])]
            assert parse_cards(event["cards"]) == (deck[a], deck[b])
    dealt = [c for e in events if e["type"] == "board_dealt" for c in parse_cards(e["cards"])]
    assert dealt == [deck[p] for p in board[: len(dealt)]]


async def test_a_stored_hand_verifies_from_its_history_and_fails_with_any_card_altered(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient,
    tmp_path: Path,
) -> None:
    people = [await players.player(verified=False) for _ in range(2)]
    clients = [await connect(p) for p in people]
    created = await clients[0].ok("table:create", {"name": "fair", "small_blind": 5,
                                                   "big_blind": 10})
    table_id = created["table"]["table_id"]
    for seat, client in enumerate(clients):
        await sit(client, table_id, seat)
    table = PlayingTable(table_id, dict(enumerate(clients)), dict(enumerate(people)))
    ended = await play_to_the_end(table)
    hand_id = ended["hand_id"]

    headers = {"Authorization": f"Bearer {people[0].token}"}
    detail = (await http.get(f"/hands/{hand_id}", headers=headers)).json()
    assert detail["summary"]["fairness"] == ended["event"]["fairness"]
    phh = (await http.get(f"/hands/{hand_id}.phh", headers=headers)).text
    proof, checked = verify_history(phh)
    assert proof.server_seed == ended["event"]["fairness"]["server_seed"]
    assert checked == 2 + 2 + 5  # own cards, the opponent's shown cards, the board

    stored = tmp_path / "hand.phh"
    stored.write_text(phh, encoding="utf-8")
    assert (await _verify_hand(str(stored), server))[0] == 0
    code, out = await _verify_hand(hand_id, server)
    assert code == 0 and f"{2 * 2 + 5} cards match" in out
    board = ended_board(phh)
    altered = phh.replace(f"d db {board}", f"d db {_other_cards(phh, board)}")
    with pytest.raises(ShuffleMismatch):
        verify_history(altered)
    stored.write_text(altered, encoding="utf-8")
    code, out = await _verify_hand(str(stored), server)
    assert code == 1 and out.startswith("FAIL")


def ended_board(phh: str) -> str:
    """The flop of a PHH history, as written there."""
    return phh.split('"d db ', 1)[1].split('"', 1)[0]


def _other_cards(phh: str, flop: str) -> str:
    """The flop with its first card swapped for a card nowhere in the history."""
    unused = next(c for c in ("2c", "7h", "Ks", "9d", "4s") if c not in phh)
    return unused + flop[2:]


async def _verify_hand(source: str, server: LiveServer) -> tuple[int, str]:
    env = {**os.environ, "DATABASE_URL": str(server.database.engine.url.render_as_string(
        hide_password=False))}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "app.cli", "verify-hand", source, cwd=ROOT, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await process.communicate()
    return int(process.returncode or 0), out.decode()


async def test_a_client_seed_is_refused_from_a_spectator_or_outside_its_alphabet(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    owner, watcher = [await connect(await players.player(verified=False)) for _ in range(2)]
    created = await owner.ok("table:create", {"name": "fair", "small_blind": 5,
                                              "big_blind": 10})
    table_id = created["table"]["table_id"]
    await sit(owner, table_id, 0)
    await watcher.ok("table:join", {"table_id": table_id})
    refused = await watcher.call("table:seed", {"table_id": table_id, "seed": "abc"})
    assert refused["error"]["code"] == "not_seated"
    for seed in ("", "x" * 65, "two words", "colon:seed", 42):
        refused = await owner.call("table:seed", {"table_id": table_id, "seed": seed})
        assert refused["error"]["code"] == "invalid_payload", seed
    state = server.realtime.host.live.get(table_id).state
    assert state.players[0].client_seed is None
