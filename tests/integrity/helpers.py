"""Playing chips from one account to another at a real table, and signing in from one
device."""

from __future__ import annotations

from typing import Any

from app.integrity.signins import DEVICE_COOKIE, new_device_token
from tests.conftest import Accounts, Player
from tests.realtime.harness import PlayingTable, is_event

DUMP_TO = 300


async def same_device(players: Accounts, *people: Player) -> str:
    """Log each of ``people`` in again from one browser (one device cookie)."""
    token = new_device_token()
    for person in people:
        players.client.cookies.set(DEVICE_COOKIE, token)
        response = await players.login(person)
        assert response.status_code == 200, response.text
    players.client.cookies.clear()
    return token


async def dump_hand(table: PlayingTable, dumper: int) -> dict[str, Any]:
    """Play one hand in which seat ``dumper`` calls twice and then folds to the other
    seat's bets of :data:`DUMP_TO`; its ``hand_ended``."""
    calls = 0
    hand_id = None
    while True:
        turn = await table.turn()
        if turn["hand_id"] != hand_id:
            hand_id, calls = turn["hand_id"], 0
        legal = {a["action"]: a for a in turn["legal_actions"]}
        payload: dict[str, Any] = {"table_id": table.id, "hand_id": turn["hand_id"]}
        if turn["seat"] == dumper:
            kind = "check" if "check" in legal else "call" if calls < 2 else "fold"
            calls += kind == "call"
        else:
            kind = next((k for k in ("raise", "bet") if k in legal), None) or (
                "check" if "check" in legal else "call")
            if kind in ("raise", "bet"):
                payload["amount"] = min(max(DUMP_TO, legal[kind]["min"]), legal[kind]["max"])
        ended = await table.seats[turn["seat"]].ok("table:action", {**payload, "type": kind})
        assert ended["hand_id"] == turn["hand_id"]
        if kind == "fold":
            return await _hand_ended(table, turn["hand_id"])


async def _hand_ended(table: PlayingTable, hand_id: str) -> dict[str, Any]:
    ended = is_event("hand_ended", table.id)
    return await table.observer.wait_for(  # type: ignore[no-any-return]
        "table:event", lambda e: ended(e) and e["hand_id"] == hand_id)
