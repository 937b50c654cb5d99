"""The Open Hand History object (spec 1.4.6, hh-specs.handhistory.org) as a JSON schema.

Written from the spec's pages: every field is required unless the spec marks it
optional or for tournaments only; ``additionalProperties`` is false so a field the spec
does not name fails. Cards are ``card_string``s: a rank of ``AKQJT98765432`` and a suit
of ``hsdc``.
"""

from __future__ import annotations

from typing import Any

_CARD: dict[str, Any] = {"type": "string", "pattern": "^[AKQJT2-9][hsdc]$"}
_CARDS: dict[str, Any] = {"type": ["array", "null"], "items": _CARD}
_AMOUNT: dict[str, Any] = {"type": "number", "minimum": 0}
_INT: dict[str, Any] = {"type": "integer", "minimum": 0}
_VERSION: dict[str, Any] = {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"}


def _object(required: dict[str, Any], optional: dict[str, Any] | None = None
            ) -> dict[str, Any]:
    return {"type": "object", "required": list(required),
            "properties": {**required, **(optional or {})}, "additionalProperties": False}


ACTIONS = ("Dealt Cards", "Mucks Cards", "Shows Cards", "Post Ante", "Post SB", "Post BB",
           "Straddle", "Post Dead", "Post Extra Blind", "Fold", "Check", "Bet", "Raise",
           "Call", "Added Chips", "Sits Down", "Stands Up", "Add to Pot")

PLAYER = _object(
    {"id": _INT, "seat": {"type": "integer", "minimum": 1}, "name": {"type": "string"},
     "display": {"type": "string"}, "starting_stack": _AMOUNT},
    {"player_bounty": {"type": ["number", "null"]}, "is_sitting_out": {"type": "boolean"}})

ACTION = _object(
    {"action_number": {"type": "integer", "minimum": 1}, "player_id": _INT,
     "action": {"enum": list(ACTIONS)}},
    {"amount": _AMOUNT, "is_allin": {"type": "boolean"}, "cards": _CARDS})

ROUND = _object({"id": _INT, "street": {"enum": ["Preflop", "Flop", "Turn", "River",
                                                 "Showdown"]},
                 "cards": _CARDS, "actions": {"type": "array", "items": ACTION}})

PLAYER_WINS = _object({"player_id": _INT, "win_amount": _AMOUNT},
                      {"cashout_amount": _AMOUNT, "cashout_fee": _AMOUNT,
                       "bonus_amount": _AMOUNT, "contributed_rake": _AMOUNT})

POT = _object({"number": _INT, "amount": _AMOUNT, "rake": _AMOUNT,
               "player_wins": {"type": "array", "items": PLAYER_WINS}},
              {"jackpot": _AMOUNT})

TOURNAMENT_INFO = _object(
    {"tournament_number": {"type": "string"}, "name": {"type": "string"},
     "start_date_utc": {"type": ["string", "null"]}, "currency": {"type": "string"},
     "buyin_amount": _AMOUNT, "fee_amount": _AMOUNT, "bounty_fee_amount": _AMOUNT,
     "initial_stack": {"type": ["number", "null"]},
     "type": {"enum": ["STT", "MTT", "SNG"]},
     "flags": {"type": "array", "items": {"type": "string"}},
     "speed": _object({"type": {"enum": ["Normal", "Semi-Turbo", "Turbo", "Super-Turbo",
                                          "Hyper-Turbo", "Ultra-Turbo"]},
                       "round_time": _INT})})

OHH = _object(
    {"spec_version": _VERSION, "site_name": {"type": "string"},
     "network_name": {"type": "string"}, "internal_version": _VERSION,
     "game_number": {"type": "string", "minLength": 1},
     "start_date_utc": {"type": "string",
                        "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$"},
     "table_name": {"type": "string"},
     "game_type": {"enum": ["Holdem", "Omaha", "OmahaHiLo", "Stud", "StudHiLo", "Draw"]},
     "bet_limit": _object({"bet_type": {"enum": ["NL", "PL", "FL"]}, "bet_cap": _AMOUNT}),
     "table_size": {"type": "integer", "minimum": 2}, "currency": {"type": "string"},
     "dealer_seat": {"type": "integer", "minimum": 1},
     "small_blind_amount": _AMOUNT, "big_blind_amount": _AMOUNT, "ante_amount": _AMOUNT,
     "hero_player_id": {"type": ["integer", "null"], "minimum": 0},
     "flags": {"type": "array", "items": {"type": "string"}},
     "players": {"type": "array", "minItems": 2, "items": PLAYER},
     "rounds": {"type": "array", "minItems": 1, "items": ROUND},
     "pots": {"type": "array", "items": POT}},
    {"tournament": {"type": "boolean"}, "tournament_info": TOURNAMENT_INFO,
     "table_handle": {"type": "string"}, "table_skin": {"type": "string"},
     "tournament_bounties": {"type": "array"}})

SCHEMA: dict[str, Any] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                          **_object({"ohh": OHH})}
