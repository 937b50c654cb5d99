"""Whole random hands per second: our engine beside pokerkit, on the same action sequences.

    .venv/bin/python bench/engine.py [--hands 1000] [--seed 7]

Random hands are generated once with our engine (2 to 9 seats, deep and short
stacks, blinds 50/100, antes in a third of them, random legal actions: mostly
calls and checks, some folds and raises, a few all-ins). Then each engine
replays exactly those hands from the first blind to the last chip pushed: the
same seats, the same deck order, the same actions, the showdown settled by its
own evaluator. pokerkit also gets the free checks it asks for where our engine
has no decision to make. A third row has our engine deal the same hands and
choose the same random actions itself (``legal_actions()`` at every turn).
Each timing is the best of five, the runs taken in turn so that load from
other processes hits them alike. Prints a Markdown table for bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import Automation, Mode, NoLimitTexasHoldem

from app.poker.cards import Card, Deck
from app.poker.engine import Hand
from app.poker.events import ActionKind, BoardDealt, PlayerActed
from app.poker.state import Stakes

REPEATS = 5
AUTOMATIONS = (
    Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING,
)


Decision = tuple[int, ActionKind, int | None]


@dataclass(frozen=True)
class Recorded:
    """One random hand, ready to replay in either engine."""

    stacks: dict[int, int]
    button: int
    stakes: Stakes
    deck: tuple[Card, ...]
    actions: list[Decision]
    final: list[int]
    pokerkit_args: tuple[Any, ...]
    pokerkit_ops: list[tuple[str, Any]]


def play_random(rng: Random) -> tuple[Hand, tuple[Card, ...], list[Decision]]:
    """A hand of random legal actions (short stacks, but never a short big blind)."""
    n = rng.randint(2, 9)
    ante = rng.choice([0, 0, 10])
    stakes = Stakes(50, 100, ante, ante > 0 and rng.random() < 0.5)
    low = 100 + ante
    stacks = {seat: rng.choice([rng.randint(low, 600), rng.randint(1000, 20000)])
              for seat in rng.sample(range(10), n)}
    deck = Deck(rng=rng)
    cards = deck.cards
    hand, _ = Hand.start(stacks, button=rng.choice(list(stacks)), stakes=stakes, deck=deck)
    decisions: list[Decision] = []
    while not hand.is_complete:
        seat = hand.actor
        assert seat is not None
        kind, amount = choose(rng, hand)
        hand.act(seat, kind, amount)
        decisions.append((seat, kind, amount))
    return hand, cards, decisions


def random_hand(rng: Random) -> Recorded:
    """A random hand with what each engine needs to replay it."""
    hand, cards, decisions = play_random(rng)
    args, ops = pokerkit_plan(hand)
    stacks = {s.number: s.starting_stack for s in hand.seats}
    return Recorded(stacks, hand.button, hand.stakes, cards, decisions,
                    [s.stack for s in hand.seats], args, ops)


def choose(rng: Random, hand: Hand) -> tuple[ActionKind, int | None]:
    """Mostly calls and checks, some folds and raises, a few all-ins."""
    legal = {a.action: a for a in hand.legal_actions()}
    if ActionKind.SHOW in legal:
        return rng.choice([ActionKind.SHOW, ActionKind.MUCK]), None
    roll = rng.random()
    wager = legal.get(ActionKind.RAISE) or legal.get(ActionKind.BET)
    if wager is not None and roll > 0.75:
        if roll > 0.97:
            return ActionKind.ALL_IN, None
        assert wager.min is not None and wager.max is not None
        return wager.action, rng.randint(wager.min, min(wager.max, wager.min * 3))
    if roll < 0.15:
        return ActionKind.FOLD, None
    return (ActionKind.CALL if ActionKind.CALL in legal else ActionKind.CHECK), None


def pokerkit_plan(hand: Hand) -> tuple[tuple[Any, ...], list[tuple[str, Any]]]:
    """pokerkit's create_state arguments and its operations for ``hand``."""
    n = len(hand.seats)
    st = hand.stakes
    antes = [0] * n
    if st.big_blind_ante:
        antes[1] = st.ante
    elif st.ante:
        antes = [st.ante] * n
    blinds = [st.small_blind, st.big_blind] + [0] * (n - 2)
    args = (AUTOMATIONS, not st.big_blind_ante, antes, blinds,
            st.big_blind, [s.starting_stack for s in hand.seats], n)
    ops: list[tuple[str, Any]] = [("deal_hole", "".join(map(str, s.cards))) for s in hand.seats]
    position = {s.number: i for i, s in enumerate(hand.seats)}
    state = NoLimitTexasHoldem.create_state(*args, mode=Mode.CASH_GAME)
    for name, arg in ops:
        getattr(state, name)(arg)
    op: tuple[str, Any]
    for e in hand.history:
        if isinstance(e, PlayerActed):
            _free_checks(state, ops, position[e.seat])
            op = {ActionKind.FOLD: ("fold", None), ActionKind.CHECK: ("check_or_call", None),
                  ActionKind.CALL: ("check_or_call", None)}.get(e.action, ("cbr", e.total))
            _apply(state, op)
            ops.append(op)
        elif isinstance(e, BoardDealt):
            _free_checks(state, ops, None)
            op = ("deal_board", "".join(map(str, e.cards)))
            _apply(state, op)
            ops.append(op)
    _free_checks(state, ops, None)
    assert not state.status
    return args, ops


def _free_checks(state: Any, ops: list[tuple[str, Any]], actor: int | None) -> None:
    while state.actor_index is not None and state.actor_index != actor:
        assert state.checking_or_calling_amount == 0
        state.check_or_call()
        ops.append(("check_or_call", None))


def _apply(state: Any, op: tuple[str, Any]) -> None:
    name, arg = op
    if name == "cbr":
        state.complete_bet_or_raise_to(arg)
    elif arg is None:
        getattr(state, name)()
    else:
        getattr(state, name)(arg)


def simulate(seed: int, count: int) -> Callable[[], None]:
    """Our engine alone dealing the same hands and choosing the same random actions."""

    def run() -> None:
        rng = Random(seed)
        for _ in range(count):
            play_random(rng)

    return run


def check(hands: list[Recorded]) -> None:
    """Both replays end every hand with the recorded stacks (up to pokerkit's odd chips)."""
    for h in hands:
        hand, _ = Hand.start(h.stacks, button=h.button, stakes=h.stakes, deck=Deck(h.deck))
        for seat, kind, amount in h.actions:
            hand.act(seat, kind, amount)
        assert [s.stack for s in hand.seats] == h.final
        state = NoLimitTexasHoldem.create_state(*h.pokerkit_args, mode=Mode.CASH_GAME)
        for op in h.pokerkit_ops:
            _apply(state, op)
        assert sum(state.stacks) == sum(h.final)
        # Only odd chips may differ: pokerkit gives a pot's whole remainder to one winner.
        assert max(abs(a - b) for a, b in zip(state.stacks, h.final, strict=True)) < len(h.final)


def replay_ours(hands: list[Recorded]) -> Callable[[], None]:
    def run() -> None:
        for h in hands:
            hand, _ = Hand.start(h.stacks, button=h.button, stakes=h.stakes, deck=Deck(h.deck))
            for seat, kind, amount in h.actions:
                hand.act(seat, kind, amount)

    return run


def replay_ours_with_json(hands: list[Recorded]) -> Callable[[], None]:
    def run() -> None:
        for h in hands:
            hand, _ = Hand.start(h.stacks, button=h.button, stakes=h.stakes, deck=Deck(h.deck))
            for seat, kind, amount in h.actions:
                hand.act(seat, kind, amount)
                hand.to_json()

    return run


def replay_pokerkit(hands: list[Recorded]) -> Callable[[], None]:
    def run() -> None:
        for h in hands:
            state = NoLimitTexasHoldem.create_state(*h.pokerkit_args, mode=Mode.CASH_GAME)
            for op in h.pokerkit_ops:
                _apply(state, op)

    return run


def best_times(runs: list[Callable[[], None]]) -> list[float]:
    """The fastest of ``REPEATS`` timings of each run, taken in turn so load hits all alike."""
    best = [float("inf")] * len(runs)
    for _ in range(REPEATS):
        for k, run in enumerate(runs):
            start = time.perf_counter()
            run()
            best[k] = min(best[k], time.perf_counter() - start)
    return best


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    python = platform.python_version()
    return f"{cpu}, {os.cpu_count()} cores (load average {load}); Python {python}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rng = Random(args.seed)
    warnings.simplefilter("ignore")

    hands = [random_hand(rng) for _ in range(args.hands)]
    actions = sum(len(h.actions) for h in hands) / len(hands)
    showdowns = sum(any(op[0] == "deal_board" for op in h.pokerkit_ops) for h in hands)

    check(hands)
    ours, with_json, generate, theirs = best_times([
        replay_ours(hands), replay_ours_with_json(hands), simulate(args.seed, args.hands),
        replay_pokerkit(hands),
    ])
    n = len(hands)
    print(f"{n} hands, {actions:.1f} actions each on average, {showdowns / n:.0%} see a flop")
    print(f"machine: {machine()}; pokerkit {version('pokerkit')}")
    print(f"command: .venv/bin/python bench/engine.py --hands {args.hands} --seed {args.seed}\n")
    print("| engine | hands/s | vs pokerkit |")
    print("|---|---:|---:|")
    print(f"| ours (replay) | {n / ours:,.0f} | {theirs / ours:.1f}x |")
    print(f"| ours + `to_json()` after every action | {n / with_json:,.0f} | "
          f"{theirs / with_json:.1f}x |")
    print(f"| ours, choosing random legal actions | {n / generate:,.0f} | "
          f"{theirs / generate:.1f}x |")
    print(f"| pokerkit {version('pokerkit')} (replay) | {n / theirs:,.0f} | 1.0x |")


if __name__ == "__main__":
    main()
