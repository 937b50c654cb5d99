"""Player stats and notes over REST, from hands played at a live table."""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import func, select

from app.db.players import PlayerNote
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, PlayingTable, is_event, seat_players


async def _raise_and_fold(server: LiveServer, players: Accounts, connect: Any) -> PlayingTable:
    """Seat 0 raises, seat 1 folds."""
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    await table.act("raise", 30, seat=0)
    await table.act("fold", seat=1)
    await table.hand_ended()
    return table


def _values(stats: dict[str, Any]) -> dict[str, Any]:
    return {name: stats[name]["value"] for name in ("vpip", "pfr", "three_bet", "wtsd")}


async def test_each_player_reads_their_own_stats_and_their_opponents_from_hands_they_shared(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _raise_and_fold(server, players, connect)
    raiser, folder = table.players[0], table.players[1]

    mine = (await http.get("/stats/me", headers=raiser.headers)).json()
    assert mine["public_id"] == raiser.public_id and mine["hands"] == 1
    assert _values(mine) == {"vpip": 100.0, "pfr": 100.0, "three_bet": None, "wtsd": None}
    assert mine["vpip"]["sample"] == 1

    hud = await http.get("/stats/players", params={"ids": [raiser.public_id, folder.public_id]},
                         headers=folder.headers)
    assert hud.status_code == 200, hud.text
    about_raiser, about_me = hud.json()["items"]
    assert about_raiser["public_id"] == raiser.public_id
    assert _values(about_raiser) == _values(mine)
    assert about_me["vpip"] == {"value": 0.0, "sample": 1}
    assert about_me["three_bet"] == {"value": 0.0, "sample": 1}

    stranger = await players.player(verified=False)
    unseen = (await http.get("/stats/players", params={"ids": [raiser.public_id]},
                             headers=stranger.headers)).json()["items"][0]
    assert unseen["hands"] == 0 and unseen["vpip"] == {"value": None, "sample": 0}


async def test_the_results_graph_runs_over_your_hands_with_a_running_total(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _raise_and_fold(server, players, connect)
    results = (await http.get("/stats/me/results", headers=table.players[1].headers)).json()
    assert results["count"] == 1
    (point,) = results["items"]
    assert (point["net"], point["total"]) == (-10, -10)
    assert (point["all_in_net"], point["all_in_total"]) == (-10, -10)


async def test_stats_ask_for_known_players_only(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    me = await players.player(verified=False)
    unknown = await http.get("/stats/players", params={"ids": ["0" * 32]}, headers=me.headers)
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "player_not_found"
    malformed = await http.get("/stats/players", params={"ids": ["x"]}, headers=me.headers)
    assert malformed.status_code == 422
    assert (await http.get("/stats/me")).status_code == 401


async def test_notes_are_private_to_their_author_validated_and_deleted(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    ann, bob, cat = [await players.player(verified=False) for _ in range(3)]
    path = f"/notes/{bob.public_id}"
    written = await http.put(path, json={"text": "  calls too much ", "color": "red"},
                             headers=ann.headers)
    assert written.status_code == 200, written.text
    assert (written.json()["text"], written.json()["color"]) == ("calls too much", "red")
    assert (await http.get(path, headers=ann.headers)).json()["text"] == "calls too much"
    listed = (await http.get("/notes", headers=ann.headers)).json()
    assert listed["count"] == 1 and listed["items"][0]["public_id"] == bob.public_id

    theirs = await http.get(path, headers=cat.headers)
    assert theirs.status_code == 404 and theirs.json()["error"]["code"] == "note_not_found"
    assert (await http.get("/notes", headers=cat.headers)).json()["count"] == 0

    for body, code in [({"text": "x" * 1001}, 422), ({"color": "pink"}, 422),
                       ({"text": "  "}, 422), ({"text": "a", "extra": 1}, 422)]:
        refused = await http.put(path, json=body, headers=ann.headers)
        assert refused.status_code == code, (body, refused.text)
    assert (await http.get(path, headers=ann.headers)).json()["color"] == "red"
    empty = await http.put(path, json={"text": ""}, headers=ann.headers)
    assert empty.json()["error"]["code"] == "note_empty"

    unknown = await http.put(f"/notes/{'0' * 32}", json={"text": "a"}, headers=ann.headers)
    assert unknown.json()["error"]["code"] == "player_not_found"

    assert (await http.delete(path, headers=ann.headers)).status_code == 204
    assert (await http.get(path, headers=ann.headers)).status_code == 404
    assert (await http.delete(path, headers=ann.headers)).status_code == 404


async def test_an_all_in_counts_in_the_results_graph_as_played_and_as_its_equity_was_worth(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    # Aces all in against Kings before the flop (about 82% to win), and the Kings hit.
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "Kd7c2s9h3d")
    table = await seat_players(players, connect, [500, 500])
    await table.act("all_in", seat=0)
    await table.act("call", seat=1)
    await table.hand_ended()
    aces, kings = table.players[0], table.players[1]
    (unlucky,) = (await http.get("/stats/me/results", headers=aces.headers)).json()["items"]
    (lucky,) = (await http.get("/stats/me/results", headers=kings.headers)).json()["items"]
    assert (unlucky["net"], lucky["net"]) == (-500, 500)
    assert 300 < unlucky["all_in_net"] < 340 and unlucky["all_in_total"] == unlucky["all_in_net"]
    assert lucky["all_in_net"] == -unlucky["all_in_net"]

    mine = (await http.get("/stats/me", headers=kings.headers)).json()
    # All in before the flop, both see it and go to the showdown; the Kings won there.
    assert (mine["wtsd"], mine["wsd"]) == ({"value": 100.0, "sample": 1},
                                           {"value": 100.0, "sample": 1})
    theirs = (await http.get("/stats/players", params={"ids": [aces.public_id]},
                             headers=kings.headers)).json()["items"][0]
    assert (theirs["wsd"], theirs["pfr"]["value"]) == ({"value": 0.0, "sample": 1}, 100.0)


async def _checked_down(server: LiveServer, players: Accounts, connect: Any,
                        subject_cards: str) -> PlayingTable:
    """Heads-up, called and checked down; seat 0 (``subject_cards``), first to decide at
    the showdown, mucks unseen, and seat 1's Aces take the pot."""
    server.decks.stack_seats({0: subject_cards, 1: "AsAh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [500, 500])
    await table.act("call", seat=0)
    for seat in (1, 1, 0, 1, 0, 1, 0):
        await table.act("check", seat=seat)
    await table.act("muck", seat=0)
    ended = await table.hand_ended()
    # The table deals its next hand from the next deck stacked: a random one, and wait
    # for it, so the next table's stacked deck is its own.
    server.decks.stack([])
    await table.observer.wait_for("table:event", lambda b: is_event("hand_started", table.id)(b)
                                  and b["hand_id"] != ended["hand_id"])
    return table


async def test_a_viewers_stats_about_a_player_never_depend_on_the_cards_they_mucked(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    seen: list[dict[str, Any]] = []
    for mucked in ("7c2d", "KsKh"):
        table = await _checked_down(server, players, connect, mucked)
        viewer, subject = table.players[1], table.players[0]
        about = (await http.get("/stats/players", params={"ids": [subject.public_id]},
                                headers=viewer.headers)).json()["items"][0]
        seen.append({k: v for k, v in about.items() if k != "public_id"})
    assert seen[0] == seen[1]
    # The mucked hand counts for playing it and going to the showdown, not for winning.
    assert seen[0]["vpip"] == {"value": 100.0, "sample": 1}
    assert seen[0]["wtsd"] == {"value": 100.0, "sample": 1}
    assert seen[0]["wsd"] == {"value": 0.0, "sample": 1}


async def test_a_deleted_account_takes_its_notes_and_the_notes_about_it_away(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    ann, bob = [await players.player(verified=False) for _ in range(2)]
    for author, subject in ((ann, bob), (bob, ann)):
        written = await http.put(f"/notes/{subject.public_id}", json={"color": "blue"},
                                 headers=author.headers)
        assert written.status_code == 200, written.text
    gone = await http.request("DELETE", "/users/me", headers=ann.headers,
                              json={"password": ann.password})
    assert gone.status_code == 204, gone.text
    assert (await http.get("/notes", headers=bob.headers)).json()["count"] == 0
    async with server.database.sessions() as session:
        assert await session.scalar(select(func.count()).select_from(PlayerNote)) == 0
