"""Hypothesis strategies for whole random hands: seats, stacks, stakes, deck, actions."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from random import Random

from hypothesis import strategies as st

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import ActionKind, Event
from app.poker.omaha import hand_rank
from app.poker.state import SeatStatus, Stakes

MAX_STEPS = 400
# The ``slow`` property tests run this many hands: bounded by default so that
# ``make test`` stays quick; ENGINE_SLOW_EXAMPLES=5000 for a long run.
SLOW_EXAMPLES = int(os.environ.get("ENGINE_SLOW_EXAMPLES", "300"))


@dataclass(frozen=True)
class Setup:
    """Everything a hand starts from."""

    stacks: dict[int, int]
    button: int
    stakes: Stakes
    seed: int

    def start(self) -> tuple[Hand, list[Event]]:
        deck = Deck(rng=Random(self.seed))
        return Hand.start(self.stacks, button=self.button, stakes=self.stakes, deck=deck)


@st.composite
def setups(draw: st.DrawFn, *, small_blind_below_big: bool = True) -> Setup:
    """2-10 seats on any seat numbers; many short stacks so side pots are common."""
    n = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True))
    bb = draw(st.sampled_from([2, 10, 100]))
    sbs = [bb // 2, max(1, bb // 5)] if small_blind_below_big else [0, bb // 2, bb]
    sb = draw(st.sampled_from(sbs))
    ante = draw(st.sampled_from([0, 0, 1, max(1, bb // 10), bb]))
    bb_ante = ante > 0 and draw(st.booleans())
    stack = st.one_of(st.integers(1, 4 * bb), st.integers(bb, 200 * bb))
    stacks = {s: draw(stack) for s in seats}
    button = draw(st.sampled_from(seats))
    order = sorted(seats)
    big_blind = order[(order.index(button) + (1 if n == 2 else 2)) % n]
    if draw(st.integers(0, 3)):  # a short big blind in about one hand in four at most
        stacks[big_blind] = max(stacks[big_blind], bb + ante + draw(st.integers(0, 50 * bb)))
    return Setup(stacks, button, Stakes(sb, bb, ante, bb_ante), draw(st.integers(0, 2**32 - 1)))


def play(
    data: st.DataObject, setup: Setup, on_step: Callable[[Hand, list[Event]], None]
) -> Hand:
    """Play random legal actions to the end, calling ``on_step`` after every transition."""
    hand, events = setup.start()
    on_step(hand, events)
    for _ in range(MAX_STEPS):
        if hand.is_complete:
            return hand
        legal = {a.action: a for a in hand.legal_actions()}
        assert legal, "the actor has no legal action"
        kind, amount = _choose(data, legal)
        on_step(hand, hand.act(hand.actor, kind, amount))
    raise AssertionError(f"the hand did not end in {MAX_STEPS} actions")


def _choose(data: st.DataObject, legal: dict) -> tuple[ActionKind, int | None]:
    if ActionKind.SHOW in legal:
        return data.draw(st.sampled_from([ActionKind.SHOW, ActionKind.MUCK])), None
    roll = data.draw(st.integers(0, 9))
    wager = legal.get(ActionKind.RAISE) or legal.get(ActionKind.BET)
    if roll >= 6 and wager is not None:
        if roll == 9:
            return ActionKind.ALL_IN, None
        amount = data.draw(
            st.one_of(st.sampled_from([wager.min, wager.max]), st.integers(wager.min, wager.max))
        )
        return wager.action, amount
    if roll == 0:
        return ActionKind.FOLD, None
    return (ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK), None


def reference_stacks(hand: Hand) -> list[int]:
    """Final stacks by our written rules, recomputed from contributions alone.

    Pots by contribution level among seats that did not fold (a muck gives up
    the claim but does not re-form the pots), best hand among those that did
    not muck, odd chips one at a time clockwise from the left of the button.
    """
    seats = hand.seats
    final = [s.starting_stack - s.contributed - s.dead for s in seats]
    paid = [s.contributed for s in seats]
    reached = [s.status is not SeatStatus.FOLDED for s in seats]
    pots: list[tuple[int, list[int]]] = []
    previous = 0
    for level in sorted({c for c, r in zip(paid, reached, strict=True) if r and c}):
        amount = sum(max(0, min(c, level) - previous) for c in paid)
        eligible = [i for i, c in enumerate(paid) if reached[i] and c >= level]
        if pots and pots[-1][1] == eligible:
            amount += pots.pop()[0]
        pots.append((amount, eligible))
        previous = level
    if not pots:  # every live chip went back uncalled; dead money may remain
        pots = [(0, [i for i, r in enumerate(reached) if r])]
    pots[-1] = (pots[-1][0] + sum(max(0, c - previous) for c in paid), pots[-1][1])
    pots[0] = (pots[0][0] + sum(s.dead for s in seats), pots[0][1])
    for amount, eligible in pots:
        if not amount:
            continue
        claim = [i for i in eligible if seats[i].status is not SeatStatus.MUCKED]
        if len(claim) > 1:
            ranks = {i: hand_rank(seats[i].cards, hand.board, omaha=hand.game.omaha)
                     for i in claim}
            claim = [i for i in claim if ranks[i] == max(ranks.values())]
        share, odd = divmod(amount, len(claim))
        for k, i in enumerate(claim):
            final[i] += share + (k < odd)
    return final
