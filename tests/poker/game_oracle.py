"""pokerkit as the oracle of every game: random hands played in lockstep with pokerkit.

Each hand is dealt by our engine and played with random actions. Before each of our
decisions pokerkit is asked the same question: may this seat bet or raise, from how
much to how much, and is each of a few probed amounts (below the minimum, the
minimum, in between, the maximum, above it) accepted? Every answer must agree, or be
one of the documented rule differences of :mod:`app.poker.limits`; after a
difference the hands play on differently, so pokerkit is no longer consulted (our
hand is still checked against ``reference_stacks``). A hand that stays in agreement
must settle to pokerkit's stacks (up to the two settlement differences of
``test_engine_differential``: odd chips one at a time, and pots that pokerkit
re-forms when it mucks a beaten all-in hand).

pokerkit 0.7.7 has no Pot-Limit Texas Hold'em nor five-card Omaha class; both are
built here from its own pieces (pot-limit betting with hold'em or Omaha hands).
"""

from __future__ import annotations

import warnings
from collections import defaultdict
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar

from pokerkit import (
    ChipsPushing,
    Deck,
    FixedLimitTexasHoldem,
    Mode,
    NoLimitTexasHoldem,
    OmahaHoldemHand,
    PotLimitOmahaHoldem,
    State,
)
from pokerkit.games import PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem

from app.poker import betting, limits
from app.poker import cards as our_cards
from app.poker.engine import Hand
from app.poker.events import ActionKind, BlindPosted, BoardDealt, PlayerActed, PotAwarded
from app.poker.state import Game, Phase, SeatStatus, Stakes
from tests.poker.pokerkit_oracle import AUTOMATIONS, Divergence, _free_checks, pokerkit_shares
from tests.poker.pokerkit_oracle import _act as act_at
from tests.poker.random_hands import reference_stacks


class PotLimitTexasHoldem(PotLimitPokerMixin, TexasHoldemMixin, UnfixedLimitHoldem):
    """Pot-Limit Texas Hold'em from pokerkit's parts."""


class PotLimitFiveCardOmahaHoldem(PotLimitPokerMixin, UnfixedLimitHoldem):
    """Five-card Pot-Limit Omaha from pokerkit's parts."""

    deck: ClassVar[Deck] = Deck.STANDARD
    hand_types = (OmahaHoldemHand,)
    hole_dealing_count: ClassVar[int] = 5


# The rule differences of app.poker.limits, by name.
HEADS_UP_UNCAPPED = "limit: heads-up raising is not capped (pokerkit caps at four)"
BLIND_IS_THE_BET = "limit: before the flop the big blind is the first bet (pokerkit: four raises)"
HALF_BET_REOPENS = "limit: an all-in of half a bet reopens the betting (pokerkit: a full bet)"
SHORT_FIRST_RAISE = ("a short all-in raise before the flop does not reopen the betting (pokerkit "
                     "measures it against no raise at all and reopens)")
ODD_CHIPS = "settlement: odd chips one at a time"
POTS_REFORMED = "settlement: pokerkit re-forms the pots after mucking a beaten all-in hand"


_NOT_REOPENED = "an all-in for less than a full raise did not reopen the betting"


@dataclass(frozen=True)
class Setup:
    """Everything a hand starts from."""

    game: Game
    stacks: dict[int, int]
    button: int
    stakes: Stakes
    seed: int

    def start(self) -> Hand:
        deck = our_cards.Deck(rng=Random(self.seed))
        hand, _ = Hand.start(self.stacks, button=self.button, stakes=self.stakes, deck=deck,
                             game=self.game)
        return hand


def random_setup(rng: Random, game: Game) -> Setup:
    """2 to 9 seats (8 in five-card Omaha), deep and short stacks, antes in some hands;
    the big blind always covers its blind and ante (pokerkit calls a short big blind
    differently, a difference the No-Limit test covers)."""
    n = rng.randint(2, 8 if game is Game.PLO5 else 9)
    seats = rng.sample(range(10), n)
    bb = rng.choice([2, 10, 100])
    sb = rng.choice([bb // 2, max(1, bb // 5)])
    ante = rng.choice([0, 0, 1, max(1, bb // 10), bb])
    bb_ante = ante > 0 and rng.random() < 0.5
    stacks = {s: rng.randint(1, 4 * bb) if rng.random() < 0.4 else rng.randint(bb, 100 * bb)
              for s in seats}
    button = rng.choice(seats)
    order = sorted(seats)
    big_blind = order[(order.index(button) + (1 if n == 2 else 2)) % n]
    stacks[big_blind] = max(stacks[big_blind], bb + ante + rng.randint(1, 50 * bb))
    return Setup(game, stacks, button, Stakes(sb, bb, ante, bb_ante), rng.getrandbits(32))


def pokerkit_state(hand: Hand) -> State:
    """A fresh pokerkit state of the hand's game, seats, stakes and hole cards."""
    n, st = len(hand.seats), hand.stakes
    antes = [0] * n
    if st.big_blind_ante:
        antes[1] = st.ante
    else:
        antes = [st.ante] * n
    blinds = [st.small_blind, st.big_blind] + [0] * (n - 2)
    stacks = [s.starting_stack for s in hand.seats]
    head: tuple[Any, ...] = (AUTOMATIONS, not st.big_blind_ante, antes, blinds)
    if hand.game is Game.FLHE:
        state = FixedLimitTexasHoldem.create_state(*head, st.big_blind, 2 * st.big_blind,
                                                   stacks, n, mode=Mode.CASH_GAME)
    else:
        kind: Any = {Game.NLHE: NoLimitTexasHoldem, Game.PLHE: PotLimitTexasHoldem,
                     Game.PLO: PotLimitOmahaHoldem, Game.PLO5: PotLimitFiveCardOmahaHoldem
                     }[hand.game]
        state = kind(*head, st.big_blind, mode=Mode.CASH_GAME)(stacks, n)
    for s in hand.seats:
        state.deal_hole("".join(map(str, s.cards)))
    return state


@dataclass
class Verdict:
    """How one hand compared: the decisions and probes that agreed, the documented
    differences met, and whether the hands then went different ways (we made a raise
    that pokerkit refuses): pokerkit is not consulted after that."""

    decisions: int = 0
    probes: int = 0
    differences: set[str] = field(default_factory=set)
    diverged: bool = False
    kit_refuses_raise: bool = False


def play(setup: Setup, rng: Random) -> tuple[Hand, Verdict]:
    """Play one random hand in lockstep with pokerkit; raise :class:`Divergence` on any
    disagreement that is not a documented rule difference."""
    hand = setup.start()
    state = pokerkit_state(hand)
    verdict, fed = Verdict(), 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while not hand.is_complete:
            fed = feed(state, hand, fed, verdict)
            if not verdict.diverged and hand.phase in (Phase.PREFLOP, Phase.FLOP,
                                                              Phase.TURN, Phase.RIVER):
                _compare(state, hand, verdict, rng)
            _random_action(hand, rng)
        fed = feed(state, hand, fed, verdict)
        if not verdict.diverged:
            _free_checks(state, None)
    assert [s.stack for s in hand.seats] == reference_stacks(hand)
    if not verdict.diverged:
        settled = _settlement(state, hand)
        if settled is not None:
            verdict.differences.add(settled)
    return hand, verdict


def feed(state: State, hand: Hand, fed: int, verdict: Verdict) -> int:
    """Give pokerkit our events since ``fed`` (actions and board cards)."""
    for event in hand.history[fed:]:
        if verdict.diverged:
            break
        if isinstance(event, PlayerActed):
            if event.action in (ActionKind.BET, ActionKind.RAISE) and verdict.kit_refuses_raise:
                verdict.diverged = True
                break
            _act(state, hand, event)
        elif isinstance(event, BoardDealt) and event.run == 0:
            _free_checks(state, None)
            state.deal_board("".join(map(str, event.cards)))
    return len(hand.history)


def _act(state: State, hand: Hand, event: PlayerActed) -> None:
    act_at(state, next(i for i, s in enumerate(hand.seats) if s.number == event.seat), event)


def _compare(state: State, hand: Hand, verdict: Verdict, rng: Random) -> None:
    """Ask both engines whether and how much the actor may bet or raise."""
    pos = hand.to_act[0]
    _free_checks(state, pos)
    if state.actor_index != pos:
        raise Divergence(f"pokerkit has p{(state.actor_index or 0) + 1} to act, we p{pos + 1}")
    ours = next((a for a in hand.legal_actions()
                 if a.action in (ActionKind.BET, ActionKind.RAISE)), None)
    theirs = state.can_complete_bet_or_raise_to()
    verdict.decisions += 1
    verdict.kit_refuses_raise = ours is not None and not theirs
    if (ours is not None) != theirs:
        verdict.differences.add(_explain_refusal(state, hand, pos, ours is not None))
        return
    if ours is None:
        return
    low, high = state.min_completion_betting_or_raising_to_amount, \
        state.max_completion_betting_or_raising_to_amount
    if (ours.min, ours.max) != (low, high):
        raise Divergence(f"p{pos + 1} may raise from {ours.min} to {ours.max}, pokerkit from "
                         f"{low} to {high} ({hand.game.value})")
    assert ours.min is not None and ours.max is not None
    number = hand.seats[pos].number
    for amount in {ours.min - 1, ours.min, rng.randint(ours.min, ours.max), ours.max,
                   ours.max + 1}:
        if hand.can_act(number, ours.action, amount) != state.can_complete_bet_or_raise_to(
                amount):
            raise Divergence(f"p{pos + 1} raising to {amount}: we and pokerkit disagree")
        verdict.probes += 1


def _explain_refusal(state: State, hand: Hand, pos: int, we_allow: bool) -> str:
    """The documented difference behind a disagreement about raising, or Divergence."""
    if not we_allow and hand.phase is Phase.PREFLOP and (
            0 < state.completion_betting_or_raising_amount < hand.stakes.big_blind) and (
            betting.raise_closed(hand, pos) == _NOT_REOPENED):
        return SHORT_FIRST_RAISE
    if hand.game is Game.FLHE:
        active = sum(1 for s in hand.seats if s.status is SeatStatus.ACTIVE)
        kit_count = state.completion_betting_or_raising_count
        if we_allow and kit_count == 4 and not hand.capped and (active <= 2 or (
                hand.phase is Phase.PREFLOP and hand.street_bets == 4)):
            return HEADS_UP_UNCAPPED if active <= 2 else BLIND_IS_THE_BET
        if not we_allow and hand.capped and hand.phase is Phase.PREFLOP and kit_count == 3:
            return BLIND_IS_THE_BET
        if we_allow and "all-in" in _refusal(state) and _last_wager_was_short_all_in(hand):
            return HALF_BET_REOPENS
    raise Divergence(f"p{pos + 1} {'may' if we_allow else 'may not'} raise here, pokerkit "
                     f"disagrees ({hand.game.value}, {hand.phase.value})")


def _refusal(state: State) -> str:
    try:
        state.verify_completion_betting_or_raising_to()
    except ValueError as exc:
        return str(exc)
    return ""


def _last_wager_was_short_all_in(hand: Hand) -> bool:
    """Whether the street's last bet or raise was an all-in of at least half a bet but less
    than a full bet above the bet before it."""
    level, short = 0, False
    for event in hand.history:
        if isinstance(event, BoardDealt):
            level, short = 0, False
        elif isinstance(event, PlayerActed) and event.action in (ActionKind.BET,
                                                                 ActionKind.RAISE):
            grown, level = event.total - level, event.total
            short = event.all_in and 2 * grown >= limits.street_bet(hand) > grown
        elif isinstance(event, BlindPosted):
            level = max(level, event.amount)
    return short


def _random_action(hand: Hand, rng: Random) -> None:
    """Mostly calls and checks, some folds, bets and raises (any legal size), a few all-ins."""
    legal = {a.action: a for a in hand.legal_actions()}
    actor = hand.actor
    assert actor is not None and legal, "the actor has no legal action"
    if ActionKind.SHOW in legal:
        hand.act(actor, rng.choice([ActionKind.SHOW, ActionKind.MUCK]))
        return
    roll = rng.randrange(10)
    wager = legal.get(ActionKind.RAISE) or legal.get(ActionKind.BET)
    if roll >= 6 and wager is not None and wager.min is not None and wager.max is not None:
        if roll == 9 and ActionKind.ALL_IN in legal:
            hand.act(actor, ActionKind.ALL_IN)
            return
        amount = rng.choice([wager.min, wager.max, rng.randint(wager.min, wager.max)])
        hand.act(actor, wager.action, amount)
    elif roll == 0:
        hand.act(actor, ActionKind.FOLD)
    else:
        hand.act(actor, ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK)


def _settlement(state: State, hand: Hand) -> str | None:
    """None when pokerkit's stacks are ours, else the settlement difference that explains it."""
    if state.status:
        raise Divergence(f"pokerkit's hand is not over: {state.operations[-3:]}")
    ours = [s.stack for s in hand.seats]
    if list(state.stacks) == ours:
        return None
    pots: dict[int, int] = defaultdict(int)
    for op in state.operations:
        if isinstance(op, ChipsPushing):
            pots[op.pot_index] += sum(op.amounts)
    if [pots[k] for k in sorted(pots)] != [e.amount for e in hand.history
                                           if isinstance(e, PotAwarded)]:
        assert any(s.status is SeatStatus.ALL_IN for s in hand.seats)
        assert sum(state.stacks) == sum(ours)
        return POTS_REFORMED
    if list(state.stacks) != pokerkit_shares(hand):
        raise Divergence(f"pokerkit settles {list(state.stacks)}, we {ours}")
    return ODD_CHIPS
