"""Playing a tournament to the end with the pure engine, a fast bot and an injected clock."""

from __future__ import annotations

from dataclasses import dataclass, field
from random import Random

from app.poker.blinds import Occupant, plan_next_hand
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import ActionKind
from app.tournaments.payouts import paid_places
from app.tournaments.rules import TournamentStatus
from app.tournaments.tournament import Tournament


def choose(hand: Hand, rng: Random) -> tuple[ActionKind, int | None]:
    """A quick, loose bot: checks or calls often and shoves sometimes, so tournaments end."""
    legal = {a.action: a for a in hand.legal_actions()}
    if ActionKind.MUCK in legal:
        return ActionKind.MUCK, None
    roll = rng.random()
    if ActionKind.ALL_IN in legal and roll < 0.03:
        return ActionKind.ALL_IN, None
    if ActionKind.CHECK in legal:
        return ActionKind.CHECK, None
    if ActionKind.CALL in legal and roll < 0.3:
        return ActionKind.CALL, None
    return ActionKind.FOLD, None


@dataclass
class Run:
    """What a simulated tournament did, for the tests' checks."""

    hands: int = 0
    rounds: int = 0
    balance_points: int = 0
    widest_gap: int = 0
    hand_for_hand_rounds: int = 0
    moves: int = 0
    reentries: int = 0
    bubble_rounds: int = 0
    chip_totals: list[int] = field(default_factory=list)


def play_round(t: Tournament, rng: Random, run: Run) -> None:
    """Every table that may deal starts a hand; the hands then end one table at a time."""
    hands: dict[int, tuple[Hand, int, int]] = {}
    for number in sorted(t.tables):
        if not t.can_deal(number):
            continue
        stacks = t.stacks(number)
        plan = plan_next_hand({s: Occupant(c) for s, c in stacks.items()},
                              previous_button=t.tables[number].button)
        assert plan is not None
        t.hand_started(number)
        hand, _ = Hand.start(plan.stacks({s: Occupant(c) for s, c in stacks.items()}),
                             button=plan.button, stakes=t.clock().level.stakes(),
                             deck=Deck(rng=rng))
        hands[number] = (hand, plan.button, sum(stacks.values()))
    if t.hand_for_hand and hands:
        run.hand_for_hand_rounds += 1
    for number, (hand, button, before) in hands.items():
        while not hand.is_complete:
            action, amount = choose(hand, rng)
            hand.act(hand.actor or 0, action, amount)
        after = hand.stacks()
        assert sum(after.values()) == before, "a hand created or destroyed chips"
        outcome = t.hand_finished(number, after, button=button, rng=rng)
        run.hands += 1
        run.moves += len(outcome.moves)
    run.rounds += 1


def chips_in_play(t: Tournament) -> int:
    """Every live entry's chips."""
    return sum(e.chips for e in t.entries.values() if not e.busted)


def play_to_the_end(t: Tournament, rng: Random, *, now: float, seconds_a_round: float = 45,
                    reenter: int = 0) -> Run:
    """Run rounds (advancing the clock) until one player is left; check invariants every round."""
    run = Run()
    while t.status is TournamentStatus.RUNNING:
        now += seconds_a_round
        t.tick(now)
        play_round(t, rng, run)
        total = chips_in_play(t)
        assert total == t.rules.structure.starting_stack * len(t.entries)
        run.chip_totals.append(total)
        if t.players_left == paid_places(len(t.entries)) + 1 and len(t.tables) > 1:
            run.bubble_rounds += 1
        if t.status is TournamentStatus.RUNNING and not t.in_hand:
            sizes = [len(s.seats) for s in t.tables.values()]
            run.balance_points += 1
            run.widest_gap = max(run.widest_gap, max(sizes) - min(sizes))
            for table in t.tables.values():
                for seat, entry in table.seats.items():
                    assert (t.entries[entry].table, t.entries[entry].seat) == (table.number, seat)
        while run.reentries < reenter and t.late_registration_open:
            out = [e for e in t.entries.values() if e.busted and e.number == 1
                   and not any(o.player == e.player and o.number == 2 for o in t.entries.values())]
            if not out:
                break
            t.register(out[0].player, rng=rng)
            run.reentries += 1
        assert run.rounds < 20_000, "the tournament never ended"
    return run
