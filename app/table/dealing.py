"""Dealing hands at one table: starting them, applying actions, moving the hand on.

Runs on the table's task (see :mod:`app.table.actor`). The engine decides what is
legal; this module decides *when*: a hand starts a few seconds after two players are
ready (bots never hold a table hostage: when only bots would be dealt in, people
waiting for the big blind are dealt in at once), and after every change of the hand
its events go out (each player's private part to that player only), pre-actions that
no longer hold are dropped, and the next decision is waited for, or the hand ends.

The dealing is made of three parts it builds and wires itself, each given what it
calls back as a constructor argument: the seats (:mod:`app.table.seats`, which ask it
to deal and to act for the absent), the clock (:mod:`app.table.clock`, which asks it
to play and progress the hand) and the settlement (:mod:`app.table.settlement`).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from app.poker.allin import RunoutEquity, runout_equities
from app.poker.blinds import HandPlan, Occupant, PlayerStatus, plan_next_hand
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import (
    ActionKind,
    Event,
    HandEnded,
    HandShown,
    RunItTwiceChosen,
    RunItTwiceOffered,
)
from app.poker.fairness import FairnessProof
from app.poker.state import Phase
from app.poker.view import view_event
from app.table import commands as c
from app.table.acks import Acted
from app.table.assigned import TournamentHands
from app.table.bots import BotSeats
from app.table.clock import Clock, absent
from app.table.core import TableCore
from app.table.errors import DuplicateAction
from app.table.events import HandStarted, SeatStack
from app.table.preactions import PreActions
from app.table.seats import Seats
from app.table.settlement import Settlement
from app.table.state import HandInPlay, Player, TableState
from app.table.topup import TopUps
from app.table.waiting import WaitingList


class Dealing:
    """Deals the hands of one table, over its seats, clock and settlement."""

    def __init__(self, core: TableCore, *, waiting: WaitingList, bots: BotSeats,
                 top_ups: TopUps, preactions: PreActions,
                 tournament: TournamentHands | None) -> None:
        self.core = core
        self.bots = bots
        self.preactions = preactions
        self.tournament = tournament
        self.seats = Seats(core, waiting=waiting, bots=bots, top_ups=top_ups,
                           tournament=tournament, play=self)
        self.clock = Clock(core, preactions=preactions, hands=self, seats=self.seats)
        self.settlement = Settlement(core, bots=bots, clock=self.clock, seats=self.seats,
                                     tournament=tournament)
        self._last_action: dict[int, tuple[str, str, int | None]] = {}
        # The first all-in equity of the hand in play (its id with it), for its all-in
        # adjusted results.
        self._all_in: tuple[str, RunoutEquity] | None = None

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    # ---- starting a hand ------------------------------------------------------

    def schedule_start(self) -> None:
        """Deal the next hand after the start delay, when two players are ready."""
        mailbox = self.core.mailbox
        if self.core.draining or self.state.desk.paused:
            return
        if self.state.current is None and self._plan() is not None and not mailbox.has("start"):
            mailbox.later("start", self.core.settings.hand_start_delay_seconds,
                          self._start_hand)

    async def start_when_ready(self) -> None:
        """:meth:`schedule_start`, as a message of the table's (dealing again after a
        drain was called off)."""
        self.schedule_start()

    async def take_assigned_seats(self, command: c.TakeAssignedSeats) -> None:
        """At a tournament table: take the seats the tournament assigns now (arrivals sit
        down during a hand too) and deal when a hand can start."""
        if self.tournament is not None:
            await self.seats.take_seats()
            self.schedule_start()

    def _plan(self) -> HandPlan | None:
        """The next hand; bots never hold a table hostage: when only bots would be dealt
        in, people waiting for the big blind are dealt in at once."""
        occupants = self.state.occupants()
        if self.tournament is not None:
            everyone = {n: Occupant(o.stack, PlayerStatus.PLAYING) for n, o in occupants.items()}
            return plan_next_hand(everyone, previous_button=self.state.button)
        plan = plan_next_hand(occupants, previous_button=self.state.button)
        if plan is not None and not self._only_bots(plan):
            return plan
        ready = {n: Occupant(o.stack, PlayerStatus.PLAYING)
                 if o.status is PlayerStatus.WAITING else o for n, o in occupants.items()}
        plan = plan_next_hand(ready, previous_button=self.state.button)
        return None if plan is None or self._only_bots(plan) else plan

    def _sat_out_before_big_blind(self, plan: HandPlan) -> bool:
        """Sit out the player due to post the big blind who asked to sit out then."""
        player = self.state.players[plan.big_blind]
        if not player.sit_out_next_big_blind:
            return False
        player.sit_out_next_big_blind = False
        self.seats.sit_out(player)
        return True

    def _only_bots(self, plan: HandPlan) -> bool:
        return all(self.state.players[s].is_bot for s in plan.dealt_in)

    async def _start_hand(self) -> None:
        if self.state.current is not None or self.core.draining or self.state.desk.paused:
            return
        tournament = self.tournament
        if tournament is None:
            await self.bots.fill()
        else:
            await self.seats.take_seats()
        plan = self._plan()
        if plan is not None and tournament is None and self._sat_out_before_big_blind(plan):
            plan = self._plan()
        # Draining may have begun while the seats were being filled: then no hand starts,
        # and nothing of one has changed yet.
        if plan is None or self.core.draining:
            return
        state = self.state
        stakes = state.config.stakes
        if tournament is not None:
            away = frozenset(s for s in plan.dealt_in if absent(state.players[s]))
            level = await tournament.begin_hand(plan.stacks(state.occupants()), away)
            # A tournament's tables drain with its director, whose standings go with it.
            if level is None or self.state.current is not None or self.core.draining:
                return
            stakes = level
        deck, proof = self._deck(plan)
        bomb_pot = state.config.bomb_pot(state.hand_number + 1) if tournament is None else 0
        hand, events = Hand.start(plan.stacks(state.occupants()), button=plan.button,
                                  stakes=stakes, deck=deck, bomb_pot=bomb_pot,
                                  run_it_twice=state.config.run_it_twice,
                                  game=state.config.game,
                                  rake=state.config.rake if tournament is None else None)
        for seat in plan.dealt_in:
            if state.players[seat].status is PlayerStatus.WAITING or tournament is None:
                state.players[seat].status = PlayerStatus.PLAYING
        state.button = plan.button
        state.hand_number += 1
        state.current = HandInPlay(uuid.uuid4().hex, state.hand_number, hand, self.core.now(),
                                   proof)
        bank = state.config.time_bank
        for seat in plan.dealt_in:
            dealt = state.players[seat]
            dealt.time_bank, dealt.bank_hands = bank.dealt_in(dealt.time_bank, dealt.bank_hands)
        self.core.event(HandStarted(
            number=state.hand_number, button=plan.button,
            small_blind_seat=plan.small_blind, big_blind_seat=plan.big_blind,
            seats=[SeatStack(seat=s.number, stack=s.starting_stack) for s in hand.seats],
            commitment=proof.commitment if proof else None, bomb_pot=bomb_pot,
            run_it_twice=hand.run_it_twice, game=hand.game.value,
            stakes=hand.stakes.to_dict(),
        ), hand_id=state.current.id)
        await self.progress(events)

    def _deck(self, plan: HandPlan) -> tuple[Deck, FairnessProof | None]:
        """The fair shuffle of the committed seed and the players' seeds (a test may stack
        the deck instead: that hand has no proof)."""
        stacked = self.core.services.deck_factory()
        if stacked is not None:
            return stacked, None
        proof = self.state.draw_proof(list(plan.dealt_in))
        return Deck(proof.deck()), proof

    # ---- acting -------------------------------------------------------------------

    async def act(self, command: c.Act) -> Acted:
        """A player's action, checked by the engine; out-of-turn, stale or repeated ones fail."""
        viewer, hand_id = command.viewer, command.hand_id
        player = self.core.player_for(viewer)
        current = self.state.hand_in_play(hand_id)
        key = (hand_id, command.type.value, command.amount)
        if current.hand.actor != player.seat and self._last_action.get(viewer.user_id) == key:
            raise DuplicateAction("that action was already taken")
        await self.play(player, command.type, command.amount, key=key, timed=True)
        return Acted(table_id=self.core.id, hand_id=hand_id, seq=self.state.seq)

    async def play(self, player: Player, kind: ActionKind, amount: int | None, *,
                   key: tuple[str, str, int | None], timed: bool = False) -> None:
        """The player's action (sent, or their pre-action), checked by the engine; a sent
        one on its turn (``timed``) has its time to act kept with the hand."""
        current = self.state.current
        assert current is not None
        events = current.hand.act(player.seat, kind, amount)
        turn = self.clock.turn
        if timed and turn is not None and turn.seat == player.seat and not turn.showdown:
            current.decisions.append((player.seat, round(self.core.now() - turn.began, 3)))
        if player.user_id is not None:
            self._last_action[player.user_id] = key
        self.clock.stop(player)
        player.timeouts = 0
        await self.progress(events)

    async def run_it_twice(self, command: c.RunItTwice) -> Acted:
        """A contender's answer to the run-it-twice question, checked by the engine."""
        player = self.core.player_for(command.viewer)
        hand = self.state.hand_in_play(command.hand_id).hand
        events = hand.run_twice(player.seat) if command.agree else hand.run_once(player.seat)
        player.timeouts = 0
        await self.progress(events)
        return Acted(table_id=self.core.id, hand_id=command.hand_id, seq=self.state.seq)

    def act_for_absent(self) -> None:
        """If the player to act (or to answer the run-it-twice question) has left or sat
        out, act for them now (see :meth:`Clock.act_for_absent`)."""
        self.clock.act_for_absent()

    async def progress(self, events: list[Event]) -> None:
        """Send what happened, then wait for the next decision or end the hand."""
        self.core.touch()
        current = self.state.current
        assert current is not None
        chances: list[tuple[int, RunoutEquity]] = []
        if any(isinstance(e, HandShown | RunItTwiceChosen) for e in events):
            # Exact run-out equities take up to a few tenths of a second: off the event loop.
            chances = await asyncio.to_thread(runout_equities, current.hand, events)
            if chances and (self._all_in is None or self._all_in[0] != current.id):
                self._all_in = (current.id, chances[0][1])
        asking = current.hand.phase is Phase.RUN_IT_TWICE
        self.clock.track_question(asking)
        self._send_hand_events(events, dict(chances))
        self.preactions.review()
        if current.hand.is_complete:
            await self.settlement.end_hand(self._first_all_in(current.id))
        elif asking:
            self.clock.ask_run_it_twice()
        else:
            self.clock.begin_turn()

    def _first_all_in(self, hand_id: str) -> RunoutEquity | None:
        """The first all-in equity of this hand, if it had one (and forget it)."""
        found, self._all_in = self._all_in, None
        return found[1] if found is not None and found[0] == hand_id else None

    def _send_hand_events(self, events: list[Event],
                          chances: dict[int, RunoutEquity] | None = None) -> None:
        current = self.state.current
        assert current is not None
        for index, event in enumerate(events):
            body = view_event(event, None)
            if isinstance(event, HandEnded):
                self._send_hand_ended(current, body)
                continue
            if isinstance(event, RunItTwiceOffered):
                body["deadline"] = self.clock.question_deadline
            public = {"hand_id": current.id, "event": body}
            seat = event.private_to
            owner = self.state.players[seat].user_id if seat is not None else None
            if seat is None or owner is None:
                self.core.out.send("table:event", public)
            else:
                private = {"hand_id": current.id, "event": view_event(event, seat)}
                self.core.out.send("table:event", public, owner=owner, private=private)
            if chances and index in chances:
                self.core.out.send("table:event", {"hand_id": current.id,
                                                    "event": chances[index].to_dict()})

    def _send_hand_ended(self, current: HandInPlay, body: dict[str, Any]) -> None:
        """``hand_ended`` with the next hand's commitment; the proof of the deck (the
        server seed, from which the whole deck follows) goes to the people dealt in only,
        and only once the hand is complete: spectators never get it (see docs/FAIRNESS.md)."""
        assert current.hand.is_complete
        event = {**body, "fairness": None, "next_commitment": self.state.next_commitment}
        public = {"hand_id": current.id, "event": event}
        dealt_in = {p.user_id for s in current.hand.seats
                    if (p := self.state.players.get(s.number)) is not None
                    and p.user_id is not None}
        if current.proof is None or not dealt_in:
            self.core.out.send("table:event", public)
            return
        private = {"hand_id": current.id,
                   "event": {**event, "fairness": current.proof.to_dict()}}
        self.core.out.send("table:event", public, owner=dealt_in, private=private)

    # ---- after a restore ------------------------------------------------------------

    def rearm(self) -> None:
        """Set every clock again from the state (after a restore or an outage): the player
        to act gets a fresh clock, sitting-out limits and the next hand are rescheduled."""
        current = self.state.current
        clock = self.clock
        turn = clock.turn
        if current is not None and current.hand.phase is Phase.RUN_IT_TWICE:
            clock.track_question(True)
            clock.ask_run_it_twice()
        elif current is not None and not current.hand.is_complete:
            if (turn is None or turn.hand_id != current.id or turn.seat != current.hand.actor
                    or not self.core.mailbox.has("turn")):
                self.core.mailbox.cancel("turn")
                clock.begin_turn()
        else:
            clock.end_turn()
            self.schedule_start()
        for player in self.state.players.values():
            self.seats.watch_sitting_out(player)
