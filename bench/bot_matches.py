"""Bots against simple exploit strategies, hand by hand through the engine.

A match is a six-seat table where every hand starts from the same stacks (``depth``
big blinds) and the button moves on one seat; the deck of hand ``n`` is shuffled from
``seed + n``. Bots decide with :func:`app.poker.bots.decide` from their own view and
the public counts of :mod:`app.poker.tendencies`, kept exactly as a table keeps them
(:func:`app.poker.tendencies.observe` after every hand). Other seats play one
:class:`Exploit` every time. Every bot decision before the flop is recorded with
what it faced and how long it took.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from math import sqrt
from random import Random
from statistics import fmean, stdev

from app.poker.bots import DEFAULT_ITERATIONS, BotStyle, decide, read_view
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import ActionKind
from app.poker.hand_class import class_of
from app.poker.state import Game, Phase, Stakes
from app.poker.tendencies import Tendencies, observe
from app.poker.view import view

STAKES = Stakes(5, 10)
BIG_BLIND = STAKES.big_blind
SEATS = 6


class Exploit(StrEnum):
    """One simple strategy played every hand."""

    SHOVE = "shove every hand"
    CALL_DOWN = "call every bet"
    MIN_RAISE = "min-raise every street"
    FOLD = "fold to every bet"


Player = BotStyle | Exploit


@dataclass(frozen=True, slots=True)
class Decision:
    """One bot decision: the hand class, what it chose, the spot, and its time."""

    seat: int
    style: BotStyle
    hand_class: int
    action: ActionKind
    preflop: bool
    unopened: bool
    effective_bb: float
    behind: int
    facing_shove_by: int | None  # the seat whose all-in the bot faces
    heads_up: bool  # nobody else is left in the hand
    shover_behind: int  # seats that were to act after that all-in, the bot's included
    shoves_seen: int  # hands that seat has moved all-in in, by the counts
    hands_seen: int
    seconds: float


@dataclass(frozen=True, slots=True)
class Match:
    """What each seat won per hand (big blinds) and every bot decision."""

    players: Mapping[int, Player]
    nets: tuple[tuple[float, ...], ...]  # per hand, per seat in seat order
    decisions: tuple[Decision, ...]

    def per_100(self, seats: tuple[int, ...]) -> tuple[float, float]:
        """Big blinds per 100 hands won by ``seats`` together (averaged per seat), and
        the half-width of its 95% confidence interval."""
        order = sorted(self.players)
        per_hand = [fmean(row[order.index(s)] for s in seats) for row in self.nets]
        spread = stdev(per_hand) if len(per_hand) > 1 else 0.0
        return 100 * fmean(per_hand), 100 * 1.96 * spread / sqrt(len(per_hand))

    def seats_of(self, player: Player) -> tuple[int, ...]:
        """The seats ``player`` (a style or an exploit) holds."""
        return tuple(s for s, p in sorted(self.players.items()) if p == player)


def exploit_action(exploit: Exploit, hand: Hand) -> tuple[ActionKind, int | None]:
    """What ``exploit`` does now (it mucks a beaten hand at the showdown). In a pot- or
    fixed-limit game, where a shove is rarely legal, "shove" bets or raises the most
    the limit allows."""
    legal = {a.action: a for a in hand.legal_actions()}
    if ActionKind.MUCK in legal:
        return ActionKind.MUCK, None
    wanted = {
        Exploit.SHOVE: (ActionKind.ALL_IN, ActionKind.RAISE, ActionKind.BET, ActionKind.CALL,
                        ActionKind.CHECK),
        Exploit.CALL_DOWN: (ActionKind.CHECK, ActionKind.CALL, ActionKind.ALL_IN),
        Exploit.MIN_RAISE: (ActionKind.RAISE, ActionKind.BET, ActionKind.CALL,
                            ActionKind.CHECK, ActionKind.ALL_IN),
        Exploit.FOLD: (ActionKind.CHECK, ActionKind.FOLD),
    }[exploit]
    kind = next(k for k in wanted if k in legal)
    if kind not in (ActionKind.RAISE, ActionKind.BET):
        return kind, None
    return kind, legal[kind].max if exploit is Exploit.SHOVE else legal[kind].min


def play_match(players: Mapping[int, Player], *, hands: int, depth_bb: float, seed: int,
               iterations: int = DEFAULT_ITERATIONS, game: Game = Game.NLHE) -> Match:
    """Play ``hands`` hands of ``game`` at a table of ``players`` (seat -> style or
    exploit)."""
    rng = Random(seed)
    reads: dict[str, Tendencies] = {}
    names = {seat: str(seat) for seat in players}
    stack = round(depth_bb * BIG_BLIND)
    order = sorted(players)
    nets: list[tuple[float, ...]] = []
    decisions: list[Decision] = []
    for n in range(hands):
        hand, _ = Hand.start(dict.fromkeys(order, stack), button=order[n % len(order)],
                             stakes=STAKES, deck=Deck(rng=Random(seed * 100_003 + n)),
                             game=game)
        by_seat = {seat: reads[names[seat]] for seat in order if names[seat] in reads}
        while not hand.is_complete:
            seat = hand.actor
            assert seat is not None
            player = players[seat]
            if isinstance(player, Exploit):
                kind, amount = exploit_action(player, hand)
            else:
                kind, amount = _bot_turn(hand, seat, player, by_seat, rng, iterations,
                                         decisions)
            hand.act(seat, kind, amount)
        reads = observe(reads, hand, names)
        stacks = hand.stacks()
        nets.append(tuple((stacks[s] - stack) / BIG_BLIND for s in order))
    return Match(dict(players), tuple(nets), tuple(decisions))


def _bot_turn(hand: Hand, seat: int, style: BotStyle, reads: Mapping[int, Tendencies],
              rng: Random, iterations: int, out: list[Decision]
              ) -> tuple[ActionKind, int | None]:
    own, legal = view(hand, seat), hand.legal_actions()
    started = time.perf_counter()
    choice = decide(own, legal, style=style, rng=rng, reads=reads, iterations=iterations)
    seconds = time.perf_counter() - started
    if hand.phase is not Phase.SHOWDOWN:
        out.append(_decision(own, legal, seat, style, choice.action, reads, seconds))
    return choice.action, choice.amount


def _decision(own: Mapping[str, object], legal: object, seat: int, style: BotStyle,
              action: ActionKind, reads: Mapping[int, Tendencies], seconds: float
              ) -> Decision:
    spot = read_view(own, {a.action: a for a in legal})  # type: ignore[attr-defined]
    shover = spot.aggressor if spot.aggressor is not None and spot.aggressor.all_in else None
    counts = reads.get(shover.seat, Tendencies()) if shover is not None else Tendencies()
    return Decision(
        seat, style, class_of(spot.hole), action, not spot.board,
        spot.level <= spot.big_blind, spot.effective_bb, spot.behind,
        shover.seat if shover is not None else None, len(spot.others) == 1,
        shover.behind_at_start if shover is not None else 0, counts.shoved, counts.hands, seconds,
    )
