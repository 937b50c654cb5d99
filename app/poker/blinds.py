"""Between hands: where the button goes, who posts the blinds, who is dealt in.

The rule (a moving button, and "wait for the big blind" for missed blinds):

- A seat takes part when it has chips and is not sitting out. A player who
  is new at the table or comes back from sitting out is *waiting*: it is
  dealt in only when the big blind reaches its seat, and it posts that big
  blind like anyone else. So nobody ever owes a missed blind and there are no
  dead blinds.
- The button moves one seat clockwise to the next seat that plays this hand
  (never to a waiting seat). The small blind is the next playing seat after
  the button, the big blind the next seat after that, waiting seats included.
- Heads-up the button posts the small blind and the other seat the big blind.
- With no previous button (the table's first hand), or fewer than two seats
  that are not waiting, every ready seat is dealt in and nobody waits; the
  button starts on the lowest ready seat.

Seat 5 has just sat down: heads-up between 0 and 3 it waits, and it comes in
when the big blind reaches it.

>>> seats = {0: Occupant(100), 3: Occupant(100), 5: Occupant(100, PlayerStatus.WAITING)}
>>> plan_next_hand(seats, previous_button=0)
HandPlan(button=3, small_blind=3, big_blind=0, dealt_in=(0, 3))
>>> plan_next_hand(seats, previous_button=3)
HandPlan(button=0, small_blind=3, big_blind=5, dealt_in=(0, 3, 5))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum


class PlayerStatus(StrEnum):
    """A seated player's standing between hands."""

    PLAYING = "playing"
    SITTING_OUT = "sitting_out"
    WAITING = "waiting_for_big_blind"


@dataclass(frozen=True, slots=True)
class Occupant:
    """Who sits in a seat between hands: their stack and status."""

    stack: int
    status: PlayerStatus = PlayerStatus.PLAYING


@dataclass(frozen=True, slots=True)
class HandPlan:
    """The next hand's button, blinds (seat numbers) and the seats dealt in."""

    button: int
    small_blind: int
    big_blind: int
    dealt_in: tuple[int, ...]

    def stacks(self, seats: Mapping[int, Occupant]) -> dict[int, int]:
        """The ``stacks`` argument of :meth:`app.poker.engine.Hand.start`."""
        return {n: seats[n].stack for n in self.dealt_in}


def plan_next_hand(
    seats: Mapping[int, Occupant], *, previous_button: int | None
) -> HandPlan | None:
    """Plan the next hand (``seats``: seat number to occupant; empty seats left out).

    Returns None when fewer than two seats can play. After the hand starts,
    every seat in ``dealt_in`` is no longer waiting.
    """
    ready = sorted(
        n for n, o in seats.items() if o.stack > 0 and o.status is not PlayerStatus.SITTING_OUT
    )
    playing = [n for n in ready if seats[n].status is PlayerStatus.PLAYING]
    if previous_button is None or len(playing) < 2:
        if len(ready) < 2:
            return None
        button = ready[0] if previous_button is None else _after(ready, previous_button)
        return _plan(button, ready)
    button = _after(playing, previous_button)
    big_blind = _after(ready, _after(playing, button))
    return _plan(button, sorted(set(playing) | {big_blind}))


def _after(seats: Sequence[int], seat: int) -> int:
    """The first of the sorted ``seats`` clockwise strictly after ``seat``."""
    return next((n for n in seats if n > seat), seats[0])


def _plan(button: int, dealt_in: list[int]) -> HandPlan:
    if len(dealt_in) == 2:
        return HandPlan(button, button, _after(dealt_in, button), tuple(dealt_in))
    small_blind = _after(dealt_in, button)
    return HandPlan(button, small_blind, _after(dealt_in, small_blind), tuple(dealt_in))
