"""The ``holdem eval``, ``equity`` and ``outs`` commands: output, JSON contract and bad input."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.cli import main
from app.poker.cards import parse_cards
from app.poker.evaluator import evaluate

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m app.cli ARGS`` in a real process."""
    return subprocess.run([sys.executable, "-m", "app.cli", *args], input=stdin, cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_eval_json_names_the_category_rank_and_best_five(capsys):
    assert main(["eval", "--json", "Ah Kh Qh Jh Th 2c 3d"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert set(line) == {"cards", "category", "rank", "best"}
    assert line["cards"] == ["Ah", "Kh", "Qh", "Jh", "Th", "2c", "3d"]
    assert line["category"] == "royal flush"
    assert line["best"] == ["Ah", "Kh", "Qh", "Jh", "Th"]
    assert line["rank"] == evaluate(parse_cards("AhKhQhJhTh")).rank


def test_eval_without_json_prints_one_readable_line_per_hand(capsys):
    assert main(["eval", "As Ad Kc Kd 2s", "5h 4d 3c 2c Ah"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("As Ad Kc Kd 2s: two pair")
    assert "straight, best 5h 4d 3c 2c Ah" in out[1]


def test_eval_reads_one_hand_per_line_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("Ah Ad Kc Kd 2s\n\n9c 9d 9h 2s 2c 7h\n"))
    assert main(["eval", "--json", "-"]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["category"] for x in lines] == ["two pair", "full house"]
    assert lines[0]["rank"] < lines[1]["rank"]


def test_equity_json_has_the_stable_fields(capsys):
    assert main(["equity", "--json", "--board", "Qh Jh 2c 3d", "AhKh", "QsQd"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert set(result) == {"exact", "boards", "hands"}
    assert result["exact"] is True and result["boards"] == 44
    assert [set(h) for h in result["hands"]] == [{"hand", "win", "tie", "equity"}] * 2
    assert [h["hand"] for h in result["hands"]] == ["AhKh", "QsQd"]
    assert result["hands"][0]["equity"] == pytest.approx(10 / 44)
    assert all(0 <= h[k] <= 1 for h in result["hands"] for k in ("win", "tie", "equity"))


def test_equity_with_a_random_hand_is_seeded_monte_carlo(capsys):
    args = ["equity", "--json", "--iterations", "2000", "--seed", "9", "AsAd", "??"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["exact"] is False and first["boards"] == 2000
    assert first["hands"][1]["hand"] == "??"


def test_equity_text_shows_exactness_and_percentages(capsys):
    assert main(["equity", "--board", "Qh Jh 2c 3d", "--dead", "9s", "AhKh", "QsQd"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "exact: 43 boards"
    assert out[1].startswith("AhKh") and "equity" in out[1] and "%" in out[1]


def test_outs_json_lists_the_cards_and_odds(capsys):
    assert main(["outs", "--json", "--board", "7c 6s 2d", "9h8d", "AsAc"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["outs"] == ["5c", "5d", "5h", "5s", "Tc", "Td", "Th", "Ts"]
    assert found["count"] == 8 and found["unseen"] == 45
    assert found["odds"] == "4.6 : 1"
    assert found["by_river"] == pytest.approx(1 - 666 / 990)


def test_outs_text_reads_like_a_player_would_say_it(capsys):
    assert main(["outs", "--board", "Kh 7h 2c 3s", "6h5h", "QcQd"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "12 outs of 44 unseen" in out[0]  # nine hearts and three more fours
    assert out[1] == "next card 27.3% (2.7 : 1)"


@pytest.mark.parametrize("args", [
    ["eval", "Ah Kd"],
    ["eval", "Ah Kd Zz 2c 3c"],
    ["equity", "AhKh", "AhQd"],
    ["equity", "AhKh"],
    ["equity", "--board", "2c 3c", "AhKh", "QsQd"],
    ["equity", "--iterations", "many", "AhKh", "QsQd"],
    ["equity", "--seed", "-1", "AhKh", "QsQd"],
    ["outs", "--board", "7c 6s 2d 4h 3h", "9h8d"],
    ["outs", "--board", "7c 6s 2d", "9h8d", "??"],
])
def test_bad_input_prints_one_line_and_exits_2(args, capsys):
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert len(captured.err.splitlines()) == 1
    assert captured.err.startswith(f"holdem {args[0]}: error: ")


def test_a_real_process_speaks_the_equity_json_contract():
    done = run_cli("equity", "--json", "--board", "Ks 7d 2c 9h 3s", "AsAd", "??")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["exact"] is True and result["boards"] == 990
    assert sum(h["equity"] for h in result["hands"]) == pytest.approx(1.0)


def test_a_real_process_evaluates_hands_from_stdin():
    done = run_cli("eval", "--json", "-", stdin="Ah Kh Qh Jh Th\n2c 3d 4h 5s 7c\n")
    assert done.returncode == 0, done.stderr
    assert [json.loads(x)["category"] for x in done.stdout.splitlines()] == [
        "royal flush", "high card"]


def test_a_real_process_rejects_bad_cards_with_one_line_and_status_2():
    done = run_cli("equity", "AhKh", "Q?Qd")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "Q?" in done.stderr


def test_eval_refuses_a_joker_unless_wild_cards_are_asked_for(capsys):
    assert main(["eval", "XxKh QhJhTh"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == ("holdem eval: error: 'Xx' is a joker, a wild card: "
                            "ask for wild cards with --wild\n")
    assert main(["eval", "--wild", "--json", "XxKh QhJhTh"]) == 0
    assert json.loads(capsys.readouterr().out)["category"] == "royal flush"


@pytest.mark.parametrize("args", [
    ["eval", "Ah Kh Qh Jh Xx"],
    ["eval", "-"],
    ["equity", "XxKh", "QsQd"],
    ["outs", "--board", "Kh 7h 2c", "Xx5h"],
])
def test_no_command_takes_a_joker_without_wild_cards(args, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("2c 3d 4h 5s 7c\nXx Xx Ah Kh Qh\n"))
    assert main(args) == 2
    captured = capsys.readouterr()
    assert len(captured.err.splitlines()) == 1 and "Xx" in captured.err
