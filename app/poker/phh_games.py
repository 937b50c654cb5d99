"""Which PHH variant a game is written as, and which game a PHH history is.

PHH names its variants with codes: ``NT`` No-Limit Texas Hold'em, ``FT`` Fixed-Limit
Texas Hold'em (with ``small_bet`` and ``big_bet`` instead of ``min_bet``) and ``PO``
Pot-Limit Omaha. The PHH specification (and pokerkit 0.7, which reads it) has no code
for Pot-Limit Texas Hold'em nor for five-card Omaha, so those two are written in the
nearest documented form with the user-defined field ``_game`` naming the game:

- Pot-Limit Hold'em as ``NT`` with ``_game = "plhe"``: every pot-limit action is a
  legal no-limit action, so a reader that ignores ``_game`` replays the same hand to
  the same stacks;
- five-card Pot-Limit Omaha as ``PO`` with ``_game = "plo5"`` and five cards in each
  ``d dh`` line: pokerkit's ``PO`` deals four, so it refuses such a history rather
  than play it under other rules.

>>> variant_fields(Game.FLHE, 10)
{'variant': 'FT', 'small_bet': 10, 'big_bet': 20}
>>> game_of({"variant": "NT", "_game": "plhe"})
<Game.PLHE: 'plhe'>
"""

from __future__ import annotations

from typing import Any

from app.poker.errors import InvalidHandHistory
from app.poker.state import Game

VARIANTS = {Game.NLHE: "NT", Game.FLHE: "FT", Game.PLHE: "NT", Game.PLO: "PO", Game.PLO5: "PO"}
_DEFAULT = {"NT": Game.NLHE, "FT": Game.FLHE, "PO": Game.PLO}
_NAMED = {Game.PLHE, Game.PLO5}  # the games that need ``_game`` beside their variant


def variant_fields(game: Game, big_blind: int) -> dict[str, Any]:
    """The PHH fields that name the game and its bet sizes."""
    out: dict[str, Any] = {"variant": VARIANTS[game]}
    if game.fixed_limit:
        out |= {"small_bet": big_blind, "big_bet": 2 * big_blind}
    else:
        out["min_bet"] = big_blind
    if game in _NAMED:
        out["_game"] = game.value
    return out


def game_of(data: dict[str, Any]) -> Game:
    """The game of a parsed PHH history, from its ``variant`` (and ``_game``)."""
    variant = data.get("variant")
    if variant not in _DEFAULT:
        raise InvalidHandHistory(
            f"expected variant 'NT', 'FT' or 'PO' (No-Limit or Fixed-Limit Texas Hold'em, "
            f"Pot-Limit Omaha), got {variant!r}", variant=variant)
    named = data.get("_game")
    if named is None:
        return _DEFAULT[variant]
    game = next((g for g in Game if g.value == named), None)
    if game is None or VARIANTS[game] != variant:
        raise InvalidHandHistory(f"expected _game to be a game of variant {variant!r}, got "
                                 f"{named!r}", variant=variant)
    return game


def min_bet_of(data: dict[str, Any], game: Game) -> Any:
    """The history's smallest bet: ``min_bet``, or ``small_bet`` in Fixed-Limit (whose
    ``big_bet`` must be twice that: the engine's big bet)."""
    if not game.fixed_limit:
        return data.get("min_bet")
    small, big = data.get("small_bet"), data.get("big_bet")
    if not isinstance(small, int) or isinstance(small, bool) or big != 2 * small:
        raise InvalidHandHistory(f"expected a big_bet twice the small_bet, got {small!r} and "
                                 f"{big!r}")
    return small
