"""``POST /tools/equity`` and ``POST /tools/outs``: the CLI's numbers, ranges, bounds, limits."""

from __future__ import annotations

import json
from dataclasses import replace

import httpx
import pytest

from app.cli import main
from app.config import RateLimit, Settings
from app.main import create_app
from tests.conftest import running
from tests.test_cli import run_cli


async def test_equity_of_hands_agrees_with_the_cli(client: httpx.AsyncClient) -> None:
    body = {"hands": ["AhKh", "QsQd"], "board": "Qh Jh 2c"}
    answer = (await client.post("/tools/equity", json=body)).json()
    cli = json.loads(run_cli("equity", "--json", "--board", "Qh Jh 2c", "AhKh", "QsQd").stdout)
    assert answer["exact"] is cli["exact"] is True and answer["boards"] == cli["boards"]
    for mine, theirs in zip(answer["hands"], cli["hands"], strict=True):
        assert {k: mine[k] for k in theirs} == theirs
        assert mine["stderr"] == 0.0 and mine["combos"] is None
    win = cli["hands"][0]["win"]
    assert answer["hands"][0]["odds"] == f"{(1 - win) / win:.1f} : 1"


async def test_monte_carlo_equity_agrees_with_the_cli_seed_for_seed(
    client: httpx.AsyncClient
) -> None:
    body = {"hands": ["AhKh", "??", "??"], "iterations": 20_000, "seed": 7}
    answer = (await client.post("/tools/equity", json=body)).json()
    cli = json.loads(run_cli("equity", "--json", "--iterations", "20000", "--seed", "7",
                             "AhKh", "??", "??").stdout)
    assert answer["exact"] is False and answer["boards"] == 20_000
    assert [h["equity"] for h in answer["hands"]] == [h["equity"] for h in cli["hands"]]
    assert all(0 < h["stderr"] < 0.01 for h in answer["hands"])


async def test_range_against_range_preflop_is_exact(client: httpx.AsyncClient) -> None:
    body = {"hands": ["QQ+,AKs", "22+,A2s+"]}
    answer = (await client.post("/tools/equity", json=body)).json()
    assert answer["exact"] is True
    first, second = answer["hands"]
    assert (first["combos"], second["combos"]) == (22, 126)
    assert round(first["equity"], 6) == 0.704033
    assert abs(first["equity"] + second["equity"] - 1) < 1e-12


async def test_a_hand_against_a_range_preflop_is_exact_as_the_cli_says(
    client: httpx.AsyncClient
) -> None:
    answer = (await client.post("/tools/equity", json={"hands": ["AhKh", "QQ+,AKs"]})).json()
    cli = json.loads(run_cli("equity", "--json", "AhKh", "QQ+,AKs").stdout)
    assert answer["exact"] is cli["exact"] is True and answer["boards"] == cli["boards"]
    assert round(answer["hands"][0]["equity"], 6) == round(cli["hands"][0]["equity"], 6)
    assert [h["combos"] for h in answer["hands"]] == [1, 22]


@pytest.mark.parametrize(("hands", "options"), [
    (["QQ+,AKs", "AhKd"], {"board": "Ks 7d 2c"}),
    (["AKs", "JJ-99"], {"board": "Qh Jh 2c", "dead": "9s"}),
    (["QQ+", "AK", "T9s"], {"iterations": 4_000, "seed": 3}),
])
async def test_the_cli_takes_the_ranges_the_tool_takes_with_the_same_answer(
    client: httpx.AsyncClient, hands: list[str], options: dict[str, str | int],
    capsys: pytest.CaptureFixture[str],
) -> None:
    answer = (await client.post("/tools/equity", json={"hands": hands, **options})).json()
    flags = [text for name, value in options.items() for text in (f"--{name}", str(value))]
    assert main(["equity", "--json", *flags, *hands]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert answer["exact"] is cli["exact"] and answer["boards"] == cli["boards"]
    for mine, theirs in zip(answer["hands"], cli["hands"], strict=True):
        assert {k: mine[k] for k in theirs} == theirs


async def test_omaha_hands_are_counted_as_omaha_exactly_as_the_cli_says(
    client: httpx.AsyncClient
) -> None:
    body = {"hands": ["AhKhQcJc", "8s8d2c3d"], "board": "9h 6h 4h 8h"}
    answer = (await client.post("/tools/equity", json=body)).json()
    cli = json.loads(run_cli("equity", "--json", "--board", "9h 6h 4h 8h",
                             "AhKhQcJc", "8s8d2c3d").stdout)
    assert answer["exact"] is cli["exact"] is True and answer["boards"] == cli["boards"] == 40
    assert [h["equity"] for h in answer["hands"]] == [h["equity"] for h in cli["hands"]]
    # Ah Kh and three hearts of the board: the nut flush, beaten only when the river
    # pairs the board (a full house for the set of eights: nine cards) or is the last
    # eight (quads): 30 rivers of 40.
    assert answer["hands"][0]["win"] == 0.75


async def test_omaha_hands_must_all_be_known_and_of_one_size(
    client: httpx.AsyncClient
) -> None:
    for hands in (["AhAdKhKd", "??"], ["AhAdKhKd", "QsQd"], ["AhAdKhKd", "2c3c4d5d6s"]):
        response = await client.post("/tools/equity", json={"hands": hands})
        assert response.status_code in (400, 422), (hands, response.text)
        assert response.json()["error"]["code"] == "invalid_hole_cards", (hands, response.text)


async def test_outs_agree_with_the_cli(client: httpx.AsyncClient) -> None:
    body = {"hand": "6h5h", "board": "Kh 7h 2c", "vs": ["QcQd"]}
    answer = (await client.post("/tools/outs", json=body)).json()
    cli = json.loads(run_cli("outs", "--json", "--board", "Kh 7h 2c", "6h5h", "QcQd").stdout)
    assert answer == cli
    assert answer["count"] == 9 and answer["odds"] == "4.0 : 1"


async def test_a_request_over_the_work_bound_is_refused(client: httpx.AsyncClient) -> None:
    response = await client.post("/tools/equity", json={"hands": ["AhKh", "??"],
                                                        "iterations": 5_000_000})
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "work_too_large" and error["max_iterations"] == 1_000_000
    assert "at most 1,000,000" in error["message"]


async def test_bad_input_gets_a_typed_error(client: httpx.AsyncClient) -> None:
    cases = [
        ({"hands": ["AhKh"]}, "invalid_payload"),
        ({"hands": ["AhKh", "QQs"]}, "invalid_range"),
        ({"hands": ["AhKh", "AhQd"]}, "duplicate_card"),
        ({"hands": ["AhKh", "QsQd"], "board": "2c 3c"}, "invalid_board"),
        ({"hands": ["AhKh", "QsQd"], "iterations": "10"}, "invalid_payload"),
        ({"hands": ["AhKh", "QsQd"], "extra": 1}, "invalid_payload"),
        ({"hands": ["AA", "AhAd,AsAc"], "board": "Ah"}, "invalid_board"),
        ({"hands": ["KK", "AA"], "dead": "Kc Kd Kh"}, "range_conflict"),
    ]
    for body, code in cases:
        response = await client.post("/tools/equity", json=body)
        assert response.status_code in (400, 422), (body, response.text)
        assert response.json()["error"]["code"] == code, (body, response.text)
    response = await client.post("/tools/outs", json={"hand": "AhKh", "board": "2c"})
    assert response.json()["error"]["code"] == "invalid_board"


async def test_the_tools_are_rate_limited_per_address(settings: Settings) -> None:
    tight = replace(settings, rate_limit_tools=RateLimit(2, 60))
    async with running(create_app(tight)) as app:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
            body = {"hand": "6h5h", "board": "Kh 7h 2c"}
            for _ in range(2):
                assert (await web.post("/tools/outs", json=body)).status_code == 200
            limited = await web.post("/tools/outs", json=body)
            assert limited.status_code == 429 and limited.json()["error"]["code"] == "rate_limited"
