"""What one viewer may see of a hand: the only way hand state leaves the server.

A seated player sees its own hole cards (also after folding or mucking: they
were dealt to it); everybody sees hands turned up at the showdown; nobody
else ever sees a folded, mucked or unshown hand, and nobody sees the deck or
the burned cards.

>>> from random import Random
>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> hand, events = Hand.start({0: 500, 1: 500}, button=0, stakes=Stakes(5, 10),
...                           deck=Deck(rng=Random(1)))
>>> view(hand, 1)["seats"][1]["cards"] is None, len(view(hand, 1)["seats"][0]["cards"])
(True, 2)
>>> view_event(events[2], None)
{'type': 'hole_cards_dealt', 'seat': 1, 'cards': None}
"""

from __future__ import annotations

from typing import Any

from app.poker.engine import Hand
from app.poker.events import BoardDealt, Event, PlayerActed
from app.poker.state import Phase, Seat


def view(hand: Hand, viewer: int | None) -> dict[str, Any]:
    """The hand as seat ``viewer`` (or a spectator, ``None``) may see it.

    Legal actions are included only when the viewer is the one to act. ``boards`` is
    ``[board]``, or both boards of a hand run twice; ``run_it_twice`` lists the seats
    still to answer the run-it-twice question (empty when nobody is asked).
    """
    actor = hand.actor
    pots = hand.pots()
    acted = last_actions(hand)
    out: dict[str, Any] = {
        "viewer": viewer,
        "phase": hand.phase.value,
        "game": hand.game.value,
        "button": hand.button,
        "small_blind_seat": hand.seats[hand.small_blind_position].number,
        "big_blind_seat": hand.seats[hand.big_blind_position].number,
        "stakes": hand.stakes.to_dict(),
        "board": [str(c) for c in hand.board],
        "boards": [[str(c) for c in board] for board in hand.boards()],
        "run_it_twice": list(hand.asked),
        "pots": [{"amount": p.amount, "seats": list(p.eligible)} for p in pots],
        "pot_total": sum(s.contributed + s.dead for s in hand.seats),
        "level": hand.level if hand.phase is not Phase.COMPLETE else 0,
        "min_raise": hand.min_raise,
        "actor": actor,
        "seats": [_seat(s, viewer, hand.phase, acted) for s in hand.seats],
        "legal_actions": None,
    }
    if actor is not None and actor == viewer:
        out["legal_actions"] = [a.to_dict() for a in hand.legal_actions()]
        out["to_call"] = hand.to_call(viewer) if hand.phase is not Phase.SHOWDOWN else 0
    return out


def last_actions(hand: Hand) -> dict[int, dict[str, Any]]:
    """Each seat's last betting action of the street being played (or the last one
    played): ``{"action", "total"}``, the total being the seat's street bet after it.

    >>> from random import Random
    >>> from app.poker.cards import Deck
    >>> from app.poker.engine import Hand
    >>> from app.poker.state import Stakes
    >>> hand, _ = Hand.start({0: 500, 1: 500}, button=0, stakes=Stakes(5, 10),
    ...                      deck=Deck(rng=Random(1)))
    >>> _ = hand.raise_to(0, 30)
    >>> last_actions(hand)
    {0: {'action': 'raise', 'total': 30}}
    """
    acted: dict[int, dict[str, Any]] = {}
    for event in hand.history:
        if isinstance(event, BoardDealt):
            acted = {}
        elif isinstance(event, PlayerActed):
            acted[event.seat] = {"action": event.action.value, "total": event.total}
    return acted


def _seat(seat: Seat, viewer: int | None, phase: Phase,
          acted: dict[int, dict[str, Any]]) -> dict[str, Any]:
    visible = seat.shown or seat.number == viewer
    out: dict[str, Any] = {
        "seat": seat.number,
        "stack": seat.stack,
        "bet": seat.bet,
        "status": seat.status.value,
        "cards": [str(c) for c in seat.cards] if visible else None,
        "shown": seat.shown,
        "last_action": acted.get(seat.number),
    }
    if phase is Phase.COMPLETE:
        out["won"] = seat.won
        out["net"] = seat.stack - seat.starting_stack
    return out


def view_event(event: Event, viewer: int | None) -> dict[str, Any]:
    """An event record as ``viewer`` may see it: private cards only for their owner."""
    data = event.to_dict()
    if event.private_to is not None and event.private_to != viewer:
        data["cards"] = None
    return data
