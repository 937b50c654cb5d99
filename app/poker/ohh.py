"""Hand histories in Open Hand History (OHH) JSON, the open standard of hh-specs.handhistory.org.

:func:`to_ohh` writes one finished hand as its reader may see it (see
:class:`~app.poker.hand_export.ExportView`) as the ``{"ohh": {...}}`` object of spec
version 1.4.6. :func:`ohh_file` joins several into one ``.ohh`` file: one object per
hand, separated by a blank line, as the spec's storage format asks.

Players' ``id`` is their position (0: the first seat left of the button); ``seat`` is the
table seat. Amounts are whole chips; a ``Raise`` or ``Call`` amount is the chips that
action put in, as the spec defines it. Every seat gets a ``Dealt Cards`` action, with its
cards only when the reader saw them (``hero_player_id`` is null in the admins' full view,
which carries every seat's cards). A bomb pot is a ``Post Ante`` from every seat and no
betting before the flop; a hand run twice has two ``Flop``/``Turn``/``River`` rounds
(the second board's) and two ``Showdown`` rounds. A pot's ``amount`` excludes any bet
returned uncalled and includes the pot's ``rake`` (each winner's ``contributed_rake`` is
the part of it their win paid, in proportion). Every game the engine deals is written: Hold'em with
``bet_type`` ``NL``, ``PL`` or ``FL``, Pot-Limit Omaha (four or five hole cards) as
``Omaha`` ``PL``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from app.poker.events import (
    ActionKind,
    AntePosted,
    BlindKind,
    BlindPosted,
    BoardDealt,
    Event,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
)
from app.poker.hand_export import ExportView, awards
from app.poker.rake import split_rake
from app.poker.state import Phase

SPEC_VERSION = "1.4.6"
SITE_NAME = "holdem-server"
_GAME = {"nlhe": ("Holdem", "NL"), "flhe": ("Holdem", "FL"), "plhe": ("Holdem", "PL"),
         "plo": ("Omaha", "PL"), "plo5": ("Omaha", "PL")}
#: The games this format writes: every game the engine deals.
GAMES = frozenset(_GAME)
_BLIND = {BlindKind.SMALL: "Post SB", BlindKind.BIG: "Post BB", BlindKind.STRADDLE: "Straddle"}
_ACTION = {ActionKind.FOLD: "Fold", ActionKind.CHECK: "Check", ActionKind.CALL: "Call",
           ActionKind.BET: "Bet", ActionKind.RAISE: "Raise"}
_STREET = {Phase.FLOP: "Flop", Phase.TURN: "Turn", Phase.RIVER: "River"}


def to_ohh(view: ExportView, *, internal_version: str = "1.0.0") -> dict[str, Any]:
    """The hand as an OHH ``{"ohh": {...}}`` object (JSON-safe data); ``internal_version``
    is the writing server's version (``x.y.z``)."""
    view.require(GAMES, "Open Hand History")
    facts, stakes = view.facts, view.stakes
    game_type, bet_type = _GAME[view.hand.game.value]
    ante = view.hand.bomb_pot or stakes.ante
    body: dict[str, Any] = {
        "spec_version": SPEC_VERSION, "site_name": SITE_NAME, "network_name": SITE_NAME,
        "internal_version": internal_version,
    }
    if facts.tournament is not None:
        body["tournament"] = True
        body["tournament_info"] = _tournament_info(view)
    body.update({
        "game_number": str(facts.number),
        "start_date_utc": facts.started_at.strftime("%Y-%m-%dT%H:%M:%S"),
        "table_name": facts.table_name, "game_type": game_type,
        "bet_limit": {"bet_type": bet_type, "bet_cap": 0},
        "table_size": facts.table_size, "currency": "Chips",
        "dealer_seat": view.button_seat,
        "small_blind_amount": stakes.small_blind, "big_blind_amount": stakes.big_blind,
        "ante_amount": ante, "hero_player_id": view.viewer, "flags": [],
        "players": [{"id": p, "seat": facts.seats[p], "name": facts.names[p],
                     "display": facts.names[p], "starting_stack": s.starting_stack}
                    for p, s in enumerate(view.hand.seats)],
        "rounds": _rounds(view), "pots": _pots(view),
    })
    return {"ohh": body}


def ohh_file(hands: Iterable[dict[str, Any]]) -> str:
    """Several OHH objects as one ``.ohh`` file: one per hand, a blank line between."""
    return "".join(json.dumps(h, separators=(",", ":")) + "\n\n" for h in hands)


def _tournament_info(view: ExportView) -> dict[str, Any]:
    tour = view.facts.tournament
    assert tour is not None
    return {"tournament_number": str(tour.number), "name": tour.name,
            "start_date_utc": None, "currency": "Chips", "buyin_amount": tour.buy_in,
            "fee_amount": tour.fee, "bounty_fee_amount": 0,
            "initial_stack": tour.starting_stack, "type": "STT" if tour.sit_and_go else "MTT",
            "flags": ["SNG"] if tour.sit_and_go else [],
            "speed": {"type": "Normal", "round_time": 0}}


class _Rounds:
    """Collects the rounds and numbers the actions across the hand."""

    def __init__(self) -> None:
        self.rounds: list[dict[str, Any]] = []
        self.number = 0

    def open(self, street: str, cards: list[str]) -> None:
        self.rounds.append({"id": len(self.rounds), "street": street, "cards": cards,
                            "actions": []})

    def add(self, player: int, action: str, **extra: Any) -> None:
        self.number += 1
        self.rounds[-1]["actions"].append(
            {"action_number": self.number, "player_id": player, "action": action, **extra})


def _rounds(view: ExportView) -> list[dict[str, Any]]:
    out = _Rounds()
    out.open("Preflop", [])
    history = view.hand.history
    for e in [*(e for e in history if isinstance(e, AntePosted)),
              *(e for e in history if not isinstance(e, AntePosted))]:
        _add(view, out, e)
    reveals = [e for e in history if isinstance(e, HandShown | HandMucked)]
    for _ in view.hand.boards() if reveals else []:
        out.open("Showdown", [])
        for e in reveals:
            player = view.position(e.seat)
            if isinstance(e, HandShown):
                out.add(player, "Shows Cards", cards=[str(c) for c in e.cards])
            else:
                out.add(player, "Mucks Cards")
    return out.rounds


def _add(view: ExportView, out: _Rounds, e: Event) -> None:
    if isinstance(e, AntePosted):
        out.add(view.position(e.seat), "Post Ante", amount=e.amount, is_allin=e.all_in)
    elif isinstance(e, BlindPosted):
        out.add(view.position(e.seat), _BLIND[e.blind], amount=e.amount, is_allin=e.all_in)
    elif isinstance(e, HoleCardsDealt):
        cards = view.cards_of(view.position(e.seat))
        extra = {"cards": [str(c) for c in cards]} if cards is not None else {}
        out.add(view.position(e.seat), "Dealt Cards", **extra)
    elif isinstance(e, BoardDealt):
        out.open(_STREET[e.street], [str(c) for c in e.cards])
    elif isinstance(e, PlayerActed):
        amount = {"amount": e.amount} if e.action in (
            ActionKind.CALL, ActionKind.BET, ActionKind.RAISE) else {}
        out.add(view.position(e.seat), _ACTION[e.action], **amount, is_allin=e.all_in)


def _pots(view: ExportView) -> list[dict[str, Any]]:
    pots: dict[int, dict[int, int]] = {}
    amounts: dict[int, int] = {}
    rakes: dict[int, int] = {}
    for e in awards(view.hand):
        amounts[e.pot] = amounts.get(e.pot, 0) + e.amount + e.rake
        rakes[e.pot] = rakes.get(e.pot, 0) + e.rake
        wins = pots.setdefault(e.pot, {})
        for seat, won in zip(e.seats, e.amounts, strict=True):
            position = view.position(seat)
            wins[position] = wins.get(position, 0) + won
    return [_pot(pot, amounts[pot], rakes[pot], pots[pot]) for pot in sorted(pots)]


def _pot(number: int, amount: int, rake: int, wins: dict[int, int]) -> dict[str, Any]:
    won = sorted((p, w) for p, w in wins.items() if w)
    paid = split_rake(rake, [w for _, w in won]) if won else []
    return {"number": number, "amount": amount, "rake": rake, "jackpot": 0,
            "player_wins": [{"player_id": p, "win_amount": w, "contributed_rake": r}
                            for (p, w), r in zip(won, paid, strict=True)]}

