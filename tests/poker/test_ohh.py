"""Hands in Open Hand History JSON: valid against the spec's structure, and every action,
amount, card and pot the same as our own PHH of the same hand, for every reader."""

from __future__ import annotations

import dataclasses
import json
import tomllib
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.engine import Hand
from app.poker.events import UncalledBetReturned
from app.poker.hand_export import ExportView, TournamentFacts
from app.poker.ohh import ohh_file, to_ohh
from app.poker.phh import phh_for_viewer, to_phh
from app.poker.state import Stakes
from tests.poker.export_checks import (
    KINDS,
    OTHER_GAMES,
    Kind,
    assert_no_hidden_card,
    facts_for,
    random_hands,
    stored,
)
from tests.poker.ohh_schema import SCHEMA
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.poker.test_pokerstars import folded_shown_and_mucked_hand, side_pot_hand
from tests.poker.test_run_it_twice_history import three_way_run_twice

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
_CODES = {"Fold": "f", "Check": "cc", "Call": "cc", "Bet": "cbr", "Raise": "cbr"}


def exported(hand: Hand, viewer: int | None, **facts: Any) -> tuple[dict[str, Any], ExportView]:
    view = ExportView(stored(hand), dataclasses.replace(facts_for(hand), **facts), viewer)
    return to_ohh(view), view


def _phh_betting(phh: dict[str, Any], hand: Hand) -> list[str]:
    """Our decisions: the PHH's actions without the checks it writes before a bomb pot's
    flop for PHH readers (OHH writes no betting before a bomb pot's flop)."""
    actions: list[str] = phh["actions"]
    if hand.bomb_pot:
        flop = next((i for i, a in enumerate(actions) if a.startswith("d db")), len(actions))
        actions = actions[flop:]
    return [a for a in actions if not a.startswith("d ") and " sm" not in a]


def check_ohh(data: dict[str, Any], view: ExportView) -> None:
    """``data`` is valid OHH and records the hand our PHH records, as ``view`` sees it."""
    VALIDATOR.validate(json.loads(json.dumps(data)))
    ohh, hand = data["ohh"], view.hand
    viewer = None if view.viewer is None else view.viewer + 1
    ours = tomllib.loads(phh_for_viewer(to_phh(hand, players=list(view.facts.names)), viewer))
    assert ohh["hero_player_id"] == view.viewer
    assert [p["starting_stack"] for p in ohh["players"]] == ours["starting_stacks"]
    assert [p["seat"] for p in ohh["players"]] == list(view.facts.seats)
    assert ohh["dealer_seat"] == view.facts.seats[-1]
    actions = [(r["street"], a) for r in ohh["rounds"] for a in r["actions"]]
    assert [a["action_number"] for _, a in actions] == list(range(1, len(actions) + 1))
    assert [r["id"] for r in ohh["rounds"]] == list(range(len(ohh["rounds"])))
    assert _betting(ohh) == _phh_betting(ours, hand), "actions"
    holes = [len(s.cards) for s in hand.seats]
    dealt = [f"d dh p{a['player_id'] + 1} " + "".join(
        a.get("cards") or ["??"] * holes[a["player_id"]])
        for _, a in actions if a["action"] == "Dealt Cards"]
    assert dealt == [a for a in ours["actions"] if a.startswith("d dh")], "hole cards"
    shown = {f"p{a['player_id'] + 1} sm {''.join(a['cards'])}"
             for _, a in actions if a["action"] == "Shows Cards"}
    assert shown == {a for a in ours["actions"] if " sm " in a}, "shown hands"
    boards = [r["cards"] for r in ohh["rounds"] if r["street"] in ("Flop", "Turn", "River")]
    first = ["d db " + "".join(c) for c in boards[:3]]
    assert first == [a for a in ours["actions"] if a.startswith("d db")], "board"
    assert ["".join(c) for c in boards[3:]] == ours.get("_second_board", []), "second board"
    _check_chips(ohh, hand, ours)


def _betting(ohh: dict[str, Any]) -> list[str]:
    """The betting as PHH writes it: ``cbr`` to the street total a bet or raise makes."""
    out = []
    for r in ohh["rounds"]:
        street: dict[int, int] = {}
        for a in r["actions"]:
            player = a["player_id"]
            if a["action"] in ("Post SB", "Post BB", "Straddle"):
                street[player] = a["amount"]
            code = _CODES.get(a["action"])
            if code is None:
                continue
            street[player] = street.get(player, 0) + a.get("amount", 0)
            total = f" {street[player]}" if code == "cbr" else ""
            out.append(f"p{player + 1} {code}{total}")
    return out


def _check_chips(ohh: dict[str, Any], hand: Hand, ours: dict[str, Any]) -> None:
    """Every chip: what the actions put in, less what came back uncalled, is the pots; each
    player's stack after the pots are won is their PHH finishing stack."""
    put_in = [0] * len(hand.seats)
    for r in ohh["rounds"]:
        for a in r["actions"]:
            put_in[a["player_id"]] += a.get("amount", 0)
    back = [0] * len(hand.seats)
    for e in hand.history:
        if isinstance(e, UncalledBetReturned):
            back[[s.number for s in hand.seats].index(e.seat)] += e.amount
    assert sum(p["amount"] for p in ohh["pots"]) == sum(put_in) - sum(back)
    won = [0] * len(hand.seats)
    for pot in ohh["pots"]:
        assert sum(w["win_amount"] for w in pot["player_wins"]) == pot["amount"]
        for w in pot["player_wins"]:
            won[w["player_id"]] += w["win_amount"]
    finish = [p["starting_stack"] - i + b + w
              for p, i, b, w in zip(ohh["players"], put_in, back, won, strict=True)]
    assert finish == ours["finishing_stacks"]


def every_view(hand: Hand) -> list[tuple[dict[str, Any], ExportView]]:
    return [exported(hand, v) for v in [None, *range(len(hand.seats))]]


def test_a_hand_with_antes_side_pots_and_an_uncalled_bet_is_written_to_the_spec() -> None:
    data, view = exported(side_pot_hand(), 1)
    ohh = data["ohh"]
    assert (ohh["spec_version"], ohh["game_type"], ohh["bet_limit"]["bet_type"]) == (
        "1.4.6", "Holdem", "NL")
    assert (ohh["small_blind_amount"], ohh["big_blind_amount"], ohh["ante_amount"]) == (5, 10, 2)
    assert ohh["game_number"] == "4242" and ohh["start_date_utc"] == "2026-03-08T07:30:05"
    preflop = ohh["rounds"][0]["actions"]
    assert [a["action"] for a in preflop[:5]] == ["Post Ante"] * 3 + ["Post SB", "Post BB"]
    raises = [a for a in preflop if a["action"] == "Raise"]
    assert [(a["player_id"], a["amount"], a["is_allin"]) for a in raises] == [(2, 898, True)]
    assert [(p["number"], p["amount"], p["player_wins"]) for p in ohh["pots"]] == [
        (0, 180, [{"player_id": 0, "win_amount": 180, "contributed_rake": 0}]),
        (1, 680, [{"player_id": 1, "win_amount": 680, "contributed_rake": 0}])]
    for data, view in every_view(side_pot_hand()):
        check_ohh(data, view)


def test_a_player_gets_only_their_own_cards_and_the_cards_shown() -> None:
    for data, view in every_view(folded_shown_and_mucked_hand()):
        check_ohh(data, view)
        text = json.dumps(data)
        assert '"Ks"' in text
        assert ('"Ah"' in text) == (view.viewer in (None, 0))
        assert ('"Qs"' in text) == (view.viewer in (None, 2))


def test_straddles_bomb_pots_and_hands_run_twice() -> None:
    straddled, _ = Hand.start({0: 500, 1: 500, 2: 500, 3: 500}, button=3,
                              stakes=Stakes(5, 10, straddle=20),
                              deck=stacked_deck(["AhAd", "KsKc", "QsQd", "JsJd"]))
    straddled.raise_to(3, 60)
    for seat in (0, 1, 2):
        straddled.fold(seat)
    bomb, _ = Hand.start({0: 500, 1: 500, 2: 15}, button=0, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQd"]), bomb_pot=20)
    while not bomb.is_complete:
        actor = bomb.actor
        assert actor is not None
        (bomb.check if bomb.can_check(actor) else bomb.show)(actor)
    twice = three_way_run_twice(twice_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c",
                                           "Qh 8s 5d Jc 6h"))
    data, _ = exported(straddled, 2)
    assert data["ohh"]["rounds"][0]["actions"][2]["action"] == "Straddle"
    data, _ = exported(bomb, 0)
    assert data["ohh"]["ante_amount"] == 20
    assert [a["action"] for a in data["ohh"]["rounds"][0]["actions"]].count("Post Ante") == 3
    data, _ = exported(twice, 0)
    streets = [r["street"] for r in data["ohh"]["rounds"]]
    assert streets == ["Preflop", "Flop", "Turn", "River", "Flop", "Turn", "River",
                       "Showdown", "Showdown"]
    for hand in (straddled, bomb, twice):
        for data, view in every_view(hand):
            check_ohh(data, view)


def test_a_tournament_hand_carries_its_tournament() -> None:
    tour = TournamentFacts(number=77, name="Sunday", buy_in=100, fee=10, level=4,
                           starting_stack=1500, sit_and_go=True)
    data, view = exported(side_pot_hand(), 0, tournament=tour)
    ohh = data["ohh"]
    assert ohh["tournament"] is True
    assert ohh["tournament_info"]["tournament_number"] == "77"
    assert (ohh["tournament_info"]["type"], ohh["tournament_info"]["buyin_amount"]) == (
        "STT", 100)
    check_ohh(data, view)


def test_a_file_of_many_hands_is_one_object_per_hand_with_a_blank_line_between() -> None:
    hands = [exported(side_pot_hand(), v)[0] for v in range(3)]
    chunks = ohh_file(hands).split("\n\n")
    assert chunks[-1] == "" and [json.loads(c) for c in chunks[:-1]] == hands


def test_the_schema_refuses_what_the_spec_does_not_allow() -> None:
    data, _ = exported(side_pot_hand(), 0)
    data["ohh"]["rounds"][0]["actions"][0]["action"] = "Posts Ante"
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate(data)


@settings(max_examples=200, deadline=None, suppress_health_check=_QUIET)
@given(data=st.data(), kind=st.sampled_from(KINDS + OTHER_GAMES))
def test_random_hands_of_every_kind_and_game_match_our_phh_for_every_reader(
    data: st.DataObject, kind: Kind
) -> None:
    hand = data.draw(random_hands(kind))
    for ohh, view in every_view(hand):
        assert_no_hidden_card(json.dumps(ohh), view)
        check_ohh(ohh, view)
