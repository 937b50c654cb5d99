"""Hand histories for trackers over REST, through a real server: PokerStars text and Open
Hand History for one hand and for a date range, each reader seeing only their own cards."""

from __future__ import annotations

import asyncio
import io
import json
import zipfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

from tests.conftest import Accounts
from tests.e2e.test_hands_api import _fold_one_hand
from tests.poker.export_checks import check_stars_against_phh, parse_stars
from tests.realtime.harness import LiveServer, seat_players
from tests.test_cli_server import holdem, one_error_line


def _range() -> dict[str, str]:
    now = datetime.now(UTC)
    return {"since": (now - timedelta(days=1)).isoformat(),
            "until": (now + timedelta(days=1)).isoformat()}


async def test_each_player_reads_the_hand_with_only_the_cards_they_saw(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _fold_one_hand(server, players, connect)
    winner, loser = table.players[0], table.players[1]
    (hand,) = (await http.get("/hands", headers=winner.headers)).json()["items"]

    mine = await http.get(f"/hands/{hand['id']}.txt", headers=winner.headers)
    assert mine.status_code == 200 and mine.headers["content-type"].startswith("text/plain")
    (parsed,) = parse_stars(mine.text)
    assert parsed.players == [loser.display_name, winner.display_name]
    assert parsed.starting_stacks == [500, 500]
    assert [a for a in parsed.actions if not a.startswith("d ")] == ["p2 cbr 30", "p1 f"]
    assert f"Dealt to {winner.display_name} [As Ah]" in mine.text
    assert "Ks" not in mine.text and "Kh" not in mine.text
    theirs = (await http.get(f"/hands/{hand['id']}.txt", headers=loser.headers)).text
    assert f"Dealt to {loser.display_name} [Ks Kh]" in theirs
    assert "As" not in theirs and "Ah" not in theirs

    ohh = (await http.get(f"/hands/{hand['id']}.ohh", headers=loser.headers)).json()["ohh"]
    assert ohh["hero_player_id"] == 0 and ohh["players"][0]["name"] == loser.display_name
    dealt = {a["player_id"]: a.get("cards") for a in ohh["rounds"][0]["actions"]
             if a["action"] == "Dealt Cards"}
    assert dealt == {0: ["Ks", "Kh"], 1: None}

    stranger = await players.player(verified=False)
    for suffix in (".txt", ".ohh"):
        response = await http.get(f"/hands/{hand['id']}{suffix}", headers=stranger.headers)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "hand_not_found"
        assert (await http.get(f"/hands/{hand['id']}{suffix}")).status_code == 401
    admin = await players.admin()
    full = (await http.get(f"/hands/{hand['id']}.txt", headers=admin.headers)).text
    assert "[As Ah]" in full and "[Ks Kh]" in full


async def test_a_hand_played_to_the_showdown_reads_back_as_its_phh_for_each_player(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh", 2: "QsQh"}, "2c3d4h9s8c")
    table = await seat_players(players, connect, [1000, 1000, 1000])
    for action in ("call", "fold", "raise"):  # the button calls, the small blind folds
        await table.act(action, 40 if action == "raise" else None)
    await table.act("call")
    for _ in range(6):
        await table.act("check")
    await table.hand_ended()
    for player in table.players.values():
        (hand,) = (await http.get("/hands", headers=player.headers)).json()["items"]
        text = (await http.get(f"/hands/{hand['id']}.txt", headers=player.headers)).text
        phh = (await http.get(f"/hands/{hand['id']}.phh", headers=player.headers)).text
        check_stars_against_phh(text, phh)
        assert "*** SHOW DOWN ***" in text


async def test_a_date_range_exports_as_one_file_or_a_zip_and_only_the_readers_hands(
    server: LiveServer, players: Accounts, connect: Any, http: httpx.AsyncClient
) -> None:
    table = await _fold_one_hand(server, players, connect)
    winner = table.players[0]
    response = await http.get("/hands/export", params=_range(), headers=winner.headers)
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment; filename=\"hands-")
    assert (response.headers["x-hands"], response.headers["x-hands-left-out"]) == ("1", "0")
    (parsed,) = parse_stars(response.text)
    assert "Ks" not in response.text

    ohh = await http.get("/hands/export", params={**_range(), "format": "ohh"},
                         headers=winner.headers)
    (hand,) = [json.loads(chunk) for chunk in ohh.text.split("\n\n") if chunk]
    assert hand["ohh"]["game_number"] == str(parsed.hand)

    zipped = await http.get("/hands/export", params={**_range(), "archive": "zip"},
                            headers=winner.headers)
    assert zipped.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(zipped.content)) as archive:
        (name,) = archive.namelist()
        assert name.endswith(f"-{table.id[:8]}.txt") and name.isascii()
        assert archive.read(name).decode() == response.text

    stranger = await players.player(verified=False)
    nothing = await http.get("/hands/export", params=_range(), headers=stranger.headers)
    assert nothing.status_code == 200 and nothing.text == ""


async def test_a_bad_range_or_format_is_refused_with_a_stable_code(
    server: LiveServer, players: Accounts, http: httpx.AsyncClient
) -> None:
    reader = await players.player(verified=False)
    now = datetime.now(UTC).isoformat()
    cases = [({"since": now, "until": now}, "export_range_invalid"),
             ({"since": "2020-01-01T00:00:00Z", "until": "2022-01-01T00:00:00Z"},
              "export_range_invalid"),
             ({**_range(), "format": "hm2"}, "invalid_payload"),
             ({**_range(), "archive": "rar"}, "invalid_payload"),
             ({"until": now}, "invalid_payload")]
    for params, code in cases:
        response = await http.get("/hands/export", params=params, headers=reader.headers)
        assert response.status_code == 422, params
        assert response.json()["error"]["code"] == code, params
    assert (await http.get("/hands/export", params=_range())).status_code == 401


async def test_holdem_hands_export_writes_a_players_hands_from_the_database(
    server: LiveServer, players: Accounts, connect: Any, database_url: str, tmp_path: Path
) -> None:
    table = await _fold_one_hand(server, players, connect)
    loser = table.players[1]
    window = _range()
    args = ("hands", "export", "--user", loser.email, "--since", window["since"],
            "--until", window["until"])
    text = await asyncio.to_thread(holdem, tmp_path, *args, DATABASE_URL=database_url)
    assert text.returncode == 0, text.stderr
    (parsed,) = parse_stars(text.stdout)
    assert f"Dealt to {loser.display_name} [Ks Kh]" in text.stdout and "As" not in text.stdout
    zipped = await asyncio.to_thread(holdem, tmp_path, *args, "--format", "ohh", "--zip",
                                     "--output", "hands.zip", DATABASE_URL=database_url)
    assert zipped.returncode == 0, zipped.stderr
    with zipfile.ZipFile(tmp_path / "hands.zip") as archive:
        (name,) = archive.namelist()
        assert name.endswith(".ohh")
        assert json.loads(archive.read(name))["ohh"]["game_number"] == str(parsed.hand)
    for bad, says in ((("--user", "nobody@example.com"), "no account"),
                      (("--zip",), "a zip needs --output")):
        refused = await asyncio.to_thread(holdem, tmp_path, *args, *bad,
                                          DATABASE_URL=database_url)
        assert says in one_error_line(refused, "hands export")
