"""pokerkit as a test oracle: replay one of our finished hands through pokerkit.

The replay is strict: pokerkit must agree on who acts and on every call
amount; the only thing it may add is a free check our engine skips (a seat
with nothing to call when no one else can bet). pokerkit runs its own
showdown (it shows hands that can win and mucks the others).
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass

from pokerkit import Automation, ChipsPushing, Mode, NoLimitTexasHoldem, State

from app.poker.engine import Hand
from app.poker.events import (
    ActionKind,
    BoardDealt,
    PlayerActed,
    PotAwarded,
)

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


class Divergence(AssertionError):
    """pokerkit and our engine disagree about the play of the hand."""


@dataclass(frozen=True)
class Outcome:
    """pokerkit's final stacks (our seat order) and the pot amounts it pushed."""

    stacks: list[int]
    pots: list[int]


def pokerkit_state(hand: Hand) -> State:
    """A fresh pokerkit state with the same seats, stakes and hole cards."""
    n = len(hand.seats)
    st = hand.stakes
    antes: list[int] = [0] * n
    if st.big_blind_ante:
        antes[1] = st.ante
    else:
        antes = [st.ante] * n
    blinds = [st.small_blind, st.big_blind] + [0] * (n - 2)
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, not st.big_blind_ante, antes, blinds, st.big_blind,
        [s.starting_stack for s in hand.seats], n, mode=Mode.CASH_GAME,
    )
    for s in hand.seats:
        state.deal_hole("".join(map(str, s.cards)))
    return state


def big_blind_is_short(hand: Hand) -> bool:
    """Whether pokerkit would see the big blind post less than a full big blind."""
    st = hand.stakes
    s = hand.seats[hand.big_blind_position]
    return s.starting_stack - st.ante < st.big_blind


def replay(hand: Hand) -> Outcome:
    """pokerkit's outcome for our finished hand."""
    position = {s.number: i for i, s in enumerate(hand.seats)}
    state = pokerkit_state(hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for event in hand.history:
            if isinstance(event, PlayerActed):
                _act(state, position[event.seat], event)
            elif isinstance(event, BoardDealt):
                _free_checks(state, None)
                state.deal_board("".join(map(str, event.cards)))
        _free_checks(state, None)
        if state.status:
            raise Divergence(f"pokerkit's hand is not over: {state.operations[-3:]}")
    pots: dict[int, int] = defaultdict(int)
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            pots[op.pot_index] += sum(op.amounts)
    return Outcome(list(state.stacks), [pots[k] for k in sorted(pots)])


def _free_checks(state: State, actor: int | None) -> None:
    while state.actor_index is not None and state.actor_index != actor:
        if state.checking_or_calling_amount != 0:
            raise Divergence(
                f"pokerkit wants p{state.actor_index + 1} to call "
                f"{state.checking_or_calling_amount}, we moved on (to p{actor})"
            )
        state.check_or_call()


def _act(state: State, pos: int, event: PlayerActed) -> None:
    _free_checks(state, pos)
    if state.actor_index != pos:
        raise Divergence(f"pokerkit has no actor, we have p{pos + 1} {event}")
    if event.action is ActionKind.FOLD:
        state.fold()
    elif event.action in (ActionKind.CHECK, ActionKind.CALL):
        if state.checking_or_calling_amount != event.amount:
            raise Divergence(f"pokerkit calls {state.checking_or_calling_amount}, we {event}")
        state.check_or_call()
    else:
        try:
            state.complete_bet_or_raise_to(event.total)
        except ValueError as exc:
            raise Divergence(f"pokerkit refuses {event}: {exc}") from exc


def pokerkit_shares(hand: Hand) -> list[int]:
    """Our final stacks with every split pot's odd chips given as pokerkit does."""
    position = {s.number: i for i, s in enumerate(hand.seats)}
    stacks = [s.stack for s in hand.seats]
    for award in (e for e in hand.history if isinstance(e, PotAwarded)):
        share, odd = divmod(award.amount, len(award.seats))
        for k, (seat, ours) in enumerate(zip(award.seats, award.amounts, strict=True)):
            stacks[position[seat]] += share + (odd if k == 0 else 0) - ours
    return stacks
