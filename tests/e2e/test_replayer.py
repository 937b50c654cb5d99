"""The hand replayer's API: every step of a stored hand, and no card anyone could not see."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.conftest import Accounts
from tests.e2e.test_hands import _cards_in
from tests.realtime.harness import LiveServer, seat_players

HOLES = {0: "7c2d", 1: "AsAh", 2: "KsKh"}
BOARD = "2c3d4h9s8c"


def cards(text: str) -> set[str]:
    return {text[i:i + 2] for i in range(0, len(text), 2)}


async def test_the_replayer_shows_each_player_only_the_cards_they_saw(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    server.decks.stack_seats(HOLES, BOARD)
    table = await seat_players(players, connect, [1000, 1000, 1000])
    await table.act("fold", seat=0)
    await table.act("call", seat=1)
    await table.act("check", seat=2)
    for seat in (1, 2, 1, 2, 1, 2):
        await table.act("check", seat=seat)
    await table.act("muck", seat=2)
    ended = await table.hand_ended()
    hand_id = ended["hand_id"]

    board = cards(BOARD)
    for seat, player in table.players.items():
        headers = {"Authorization": f"Bearer {player.token}"}
        replay = (await http.get(f"/hands/{hand_id}/replay", headers=headers)).json()
        assert replay["phh_url"] == f"/hands/{hand_id}.phh"
        frames = replay["frames"]
        allowed = board | cards(HOLES[seat]) | cards(HOLES[1])  # the winner showed
        assert _cards_in(frames) <= allowed, (seat, _cards_in(frames) - allowed)
        assert cards(HOLES[seat]) <= _cards_in(frames)
        before_show = next(i for i, f in enumerate(frames)
                           if any(e["type"] == "hand_shown" for e in f["events"]))
        hidden_then = cards(HOLES[1]) - cards(HOLES[seat])
        assert not _cards_in(frames[:before_show]) & hidden_then
        last = frames[-1]["hand"]
        assert last["phase"] == "complete" and last["board"] == [BOARD[i:i + 2]
                                                                for i in range(0, 10, 2)]
        assert {s["seat"]: s["stack"] for s in last["seats"]} == {0: 1000, 1: 1010, 2: 990}
        steps = [e["type"] for f in frames for e in f["events"]]
        assert steps.count("player_acted") == 9 and steps[-1] == "hand_ended"
        assert "hand_mucked" in steps

    stranger = await players.player(verified=False)
    refused = await http.get(f"/hands/{hand_id}/replay",
                             headers={"Authorization": f"Bearer {stranger.token}"})
    assert refused.status_code == 404
    assert json.loads(refused.text)["error"]["code"] == "hand_not_found"
