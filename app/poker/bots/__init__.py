"""Bot players: a pure decision from what one seat may see, and what anyone may count.

A bot is a function, not an object with a hand reference: :func:`decide` takes the
seat's own projection of the hand (what :func:`app.poker.view.view` returns for
that seat), the legal actions and the public counts about the other players
(:class:`app.poker.tendencies.Tendencies`, kept by the table), and returns a
:class:`BotAction` the engine accepts. It never sees the deck or another seat's
hole cards because it is never given them. Randomness (the Monte Carlo seed, mixed
strategies) comes from an injected :class:`random.Random`; the same view, counts,
actions and RNG state give the same decision.

How it plays: facing a bet it compares its equity against the range the bettor has
shown with the price, before the flop from a shipped table of hand-class equities
(:mod:`app.poker.bots.preflop`), after it, and on every street of Omaha, by dealing
out the unseen cards (:mod:`app.poker.bots.postflop`). With 15 big blinds or fewer
it pushes or folds by a push/fold chart (:mod:`app.poker.pushfold`). Styles
(:mod:`app.poker.bots.styles`) differ in how many hands they open, limp and call
with, how much equity they want to raise, and how often they bluff. It never folds
when it can check, and at the showdown it mucks a beaten hand.

>>> from random import Random
>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> from app.poker.view import view
>>> hand, _ = Hand.start({1: 1000, 4: 1000}, button=1, stakes=Stakes(5, 10),
...                      deck=Deck.stacked("7c As 2h Ad 2d 3d 4d 5d 6d 7d 8d 9d"))
>>> choice = decide(view(hand, hand.actor), hand.legal_actions(), style=BotStyle.TIGHT,
...                 rng=Random(1))
>>> choice
BotAction(action=<ActionKind.RAISE: 'raise'>, amount=30)
>>> _ = hand.act(hand.actor, choice.action, choice.amount)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random
from typing import Any

from app.poker.betting import LegalAction
from app.poker.bots.postflop import decide_postflop
from app.poker.bots.preflop import decide_preflop
from app.poker.bots.spot import BotAction, Situation, legal_from_view, legal_map, read_view
from app.poker.bots.styles import PROFILES, BotStyle
from app.poker.events import ActionKind
from app.poker.tendencies import Tendencies

DEFAULT_ITERATIONS = 200

__all__ = ["DEFAULT_ITERATIONS", "BotAction", "BotStyle", "Situation", "decide",
           "legal_from_view", "read_view"]


def decide(
    view: Mapping[str, Any],
    legal: Sequence[LegalAction] | None = None,
    *,
    style: BotStyle = BotStyle.TIGHT,
    rng: Random,
    reads: Mapping[int, Tendencies] | None = None,
    iterations: int = DEFAULT_ITERATIONS,
) -> BotAction:
    """Choose the bot's action from its own view of the hand and the legal actions.

    ``view`` is the acting seat's projection, ``app.poker.view.view(hand, seat)``,
    taken when it is that seat's turn. ``legal`` is ``hand.legal_actions()``; left
    out, it is read from the view's ``legal_actions``. ``reads`` holds the public
    counts about the players at the table by seat (missing seats read as strangers).
    The result is always one of the legal actions, with a bet or raise amount
    inside its ``min``/``max``; apply it with ``hand.act(seat, choice.action,
    choice.amount)``. ``rng`` is the only source of randomness; ``iterations`` is
    the number of deals sampled after the flop (200 take well under a millisecond;
    heads-up on the river every opponent hand is counted instead).

    >>> from random import Random
    >>> from app.poker.betting import LegalAction
    >>> legal = (LegalAction(ActionKind.SHOW), LegalAction(ActionKind.MUCK))
    >>> decide({}, legal, rng=Random(0))
    BotAction(action=<ActionKind.MUCK: 'muck'>, amount=None)
    """
    kinds = legal_map(legal_from_view(view) if legal is None else legal)
    if not kinds:
        raise ValueError("expected at least one legal action, got none")
    if ActionKind.MUCK in kinds:
        return BotAction(ActionKind.MUCK)
    spot = read_view(view, kinds)
    profile = PROFILES[style]
    if spot.board or spot.game.omaha:
        return decide_postflop(spot, profile, reads or {}, rng, iterations)
    return decide_preflop(spot, profile, reads or {}, rng)
