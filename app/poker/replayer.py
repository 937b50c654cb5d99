"""A stored hand step by step, as one viewer was allowed to see it.

The full hand history (PHH, every hole card) is replayed through the engine
with the table's seat numbers; after the deal and after each decision the hand
is projected with :func:`app.poker.view.view` for the viewer, so the replayer
shows a seat's hole cards only to that seat, or to everyone once they were
turned up at the showdown, exactly as at the table.
"""

from __future__ import annotations

import tomllib
from typing import Any

from app.poker.cards import Card, Deck
from app.poker.engine import Hand
from app.poker.errors import InvalidHandHistory
from app.poker.events import (
    ActionKind,
    Event,
    HandMucked,
    HandShown,
    PlayerActed,
    RunItTwiceChosen,
)
from app.poker.phh import replay
from app.poker.view import view, view_event


def replay_frames(text: str, viewer: int | None) -> list[dict[str, Any]]:
    """One frame per step: ``events`` (what the step did) and ``hand`` (the state after it),
    both as table seat ``viewer`` (None: a spectator) may see them."""
    full = replay(text).hand
    seats = [int(s) - 1 for s in tomllib.loads(text).get("seats") or range(1, len(full.seats) + 1)]
    if len(seats) != len(full.seats):
        raise InvalidHandHistory(f"expected {len(full.seats)} seats, got {len(seats)}")
    stacks = {seats[p]: s.starting_stack for p, s in enumerate(full.seats)}
    hand, events = Hand.start(stacks, button=seats[-1], stakes=full.stakes,
                              deck=Deck(_dealt_order(full)), bomb_pot=full.bomb_pot,
                              run_it_twice=full.run_it_twice, game=full.game)
    frames = [_frame(hand, events, viewer)]
    while not hand.is_complete:
        step = full.history[len(hand.history)]
        frames.append(_frame(hand, _apply(hand, step, seats), viewer))
    return frames


def _dealt_order(hand: Hand) -> list[Card]:
    """The deck as it was before the deal: hole cards round by round, then burn and
    street (of the board, then of a second board), then the rest."""
    order = [s.cards[r] for r in range(hand.game.hole_cards) for s in hand.seats]
    streets = [hand.board[:3], hand.board[3:4], hand.board[4:5]]
    shared = 5 - len(hand.second_board)
    again = hand.second_board
    streets += [again[: 3 - shared], again[3 - shared : 4 - shared], again[4 - shared :]
                ][{0: 0, 3: 1, 4: 2, 5: 3}[shared]:]
    for burn, street in zip(hand.burned, streets, strict=False):
        order += [burn, *street]
    return order + list(hand.deck)


def _apply(hand: Hand, step: Event, seats: list[int]) -> list[Event]:
    """Take the decision recorded in ``step`` (positions mapped to table seats)."""
    if isinstance(step, PlayerActed):
        seat = seats[step.seat]
        amount = step.total if step.action in (ActionKind.BET, ActionKind.RAISE) else None
        return hand.act(seat, step.action, amount)
    if isinstance(step, HandShown):
        return hand.show(seats[step.seat])
    if isinstance(step, HandMucked):
        return hand.muck(seats[step.seat])
    if isinstance(step, RunItTwiceChosen):
        seat = seats[step.seat]
        return hand.run_twice(seat) if step.agree else hand.run_once(seat)
    raise InvalidHandHistory(f"expected a decision, got {step.type}")


def _frame(hand: Hand, events: list[Event], viewer: int | None) -> dict[str, Any]:
    return {"events": [view_event(e, viewer) for e in events], "hand": view(hand, viewer)}
