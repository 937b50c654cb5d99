"""Playing hands at one table: starting them, turns and the clock, bots, the end of a hand.

Runs on the table's task (see :mod:`app.table.actor`). The engine decides
what is legal; this module decides *when*: a hand starts a few seconds after
two players are ready, each decision has a clock (then the player's time
bank), a time-out checks or folds, two time-outs in a row sit the player out,
bots act after a small delay with their own view of the hand only. A player who chose a
pre-action (:mod:`app.table.preactions`) has it taken the moment their turn comes,
through the same checks as any action. A player disconnected on their turn has a short
grace to come back, and their time bank is kept for their return (:mod:`app.table.clock`).

Run it twice: when the engine asks the contenders (a table option), every one of
them has ``run_it_twice_seconds`` to answer; a time-out, an absent player or a bot
(bots keep it simple) declines, and the board is run once.

The end of a hand is one chip movement (see :mod:`app.table.core`): the
hand history, the new stacks and every seat that stands up with its cash-out
commit together, or not at all.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.errors import HoldemError
from app.poker.allin import RunoutEquity, runout_equities
from app.poker.blinds import HandPlan, Occupant, PlayerStatus, plan_next_hand
from app.poker.bots import BotStyle, decide
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
from app.poker.view import view, view_event
from app.table.assigned import TournamentHands, take_assigned_seats
from app.table.bots import BotSeats
from app.table.core import TableCore
from app.table.errors import DuplicateAction, StaleAction
from app.table.history import finished_hand
from app.table.preactions import PreActions
from app.table.state import HandInPlay, Player, TableState
from app.table.store import Movement, Transfer, Write
from app.table.topup import TopUps
from app.table.waiting import WaitingList

if TYPE_CHECKING:
    from app.table.state import Viewer

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_SIT_OUT = 2


@dataclass(slots=True)
class Turn:
    """The decision being waited for; ``token`` is the ``seq`` of its ``table:turn``."""

    hand_id: str
    seat: int
    token: int
    deadline: float
    showdown: bool
    banking: bool = False
    bank_started: float = 0.0
    # The player is disconnected: the turn times out at the end of a short grace.
    grace: bool = False
    # When it began (the table's clock): a decision's time is measured from here.
    began: float = 0.0


class Dealer:
    """Drives the hands of one table."""

    def __init__(self, core: TableCore, *, waiting: WaitingList, bots: BotSeats,
                 top_ups: TopUps, preactions: PreActions) -> None:
        self.core = core
        self.waiting = waiting
        self.bots = bots
        self.top_ups = top_ups
        self.preactions = preactions
        self.turn: Turn | None = None
        self.tournament: TournamentHands | None = None
        self._last_action: dict[int, tuple[str, str, int | None]] = {}
        # When the run-it-twice question of the hand in play times out (None: not asked).
        self.question_deadline: float | None = None
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
        self.sit_out(player)
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
            await self.take_seats()
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
            absent = frozenset(s for s in plan.dealt_in if _absent(state.players[s]))
            level = await tournament.begin_hand(plan.stacks(state.occupants()), absent)
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
        self.core.event({
            "type": "hand_started", "number": state.hand_number, "button": plan.button,
            "small_blind_seat": plan.small_blind, "big_blind_seat": plan.big_blind,
            "seats": [{"seat": s.number, "stack": s.starting_stack} for s in hand.seats],
            "commitment": proof.commitment if proof else None, "bomb_pot": bomb_pot,
            "run_it_twice": hand.run_it_twice, "game": hand.game.value,
            "stakes": hand.stakes.to_dict(),
        }, hand_id=state.current.id)
        await self._progress(events)

    def _deck(self, plan: HandPlan) -> tuple[Deck, FairnessProof | None]:
        """The fair shuffle of the committed seed and the players' seeds (a test may stack
        the deck instead: that hand has no proof)."""
        stacked = self.core.services.deck_factory()
        if stacked is not None:
            return stacked, None
        proof = self.state.draw_proof(list(plan.dealt_in))
        return Deck(proof.deck()), proof

    # ---- acting -------------------------------------------------------------------

    async def act(
        self, viewer: Viewer, hand_id: str, kind: ActionKind, amount: int | None
    ) -> dict[str, Any]:
        """A player's action, checked by the engine; out-of-turn, stale or repeated ones fail."""
        player = self.core.player_for(viewer)
        current = self.state.current
        if current is None or current.id != hand_id:
            raise StaleAction("that hand is over", hand_id=current.id if current else None)
        key = (hand_id, kind.value, amount)
        if current.hand.actor != player.seat and self._last_action.get(viewer.user_id) == key:
            raise DuplicateAction("that action was already taken")
        await self._apply(player, kind, amount, key=key, timed=True)
        return {"table_id": self.core.id, "hand_id": hand_id, "seq": self.state.seq}

    async def _apply(self, player: Player, kind: ActionKind, amount: int | None, *,
                     key: tuple[str, str, int | None], timed: bool = False) -> None:
        """The player's action (sent, or their pre-action), checked by the engine; a sent
        one on its turn (``timed``) has its time to act kept with the hand."""
        current = self.state.current
        assert current is not None
        events = current.hand.act(player.seat, kind, amount)
        turn = self.turn
        if timed and turn is not None and turn.seat == player.seat and not turn.showdown:
            current.decisions.append((player.seat, round(self.core.now() - turn.began, 3)))
        if player.user_id is not None:
            self._last_action[player.user_id] = key
        self._stop_clock(player)
        player.timeouts = 0
        await self._progress(events)

    def _first_all_in(self, hand_id: str) -> RunoutEquity | None:
        """The first all-in equity of this hand, if it had one (and forget it)."""
        found, self._all_in = self._all_in, None
        return found[1] if found is not None and found[0] == hand_id else None

    def _stop_clock(self, player: Player) -> None:
        turn = self.turn
        if turn is not None and turn.banking:
            used = self.core.now() - turn.bank_started
            player.time_bank = max(0.0, player.time_bank - used)
        self.turn = None
        self.core.mailbox.cancel("turn")

    async def _progress(self, events: list[Event]) -> None:
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
        if asking and self.question_deadline is None:
            self.question_deadline = self.core.now() + self.core.settings.run_it_twice_seconds
        elif not asking:
            self.question_deadline = None
            self.core.mailbox.cancel("run-it-twice")
        self._send_hand_events(events, dict(chances))
        self.preactions.review()
        if current.hand.is_complete:
            await self._end_hand()
        elif asking:
            self._ask_run_it_twice()
        else:
            self._begin_turn()

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
                body["deadline"] = self.question_deadline
            public = {"hand_id": current.id, "event": body}
            seat = event.private_to
            owner = self.state.players[seat].user_id if seat is not None else None
            if seat is None or owner is None:
                self.core.out.send("table:event", public)
            else:
                private = {"hand_id": current.id, "event": view_event(event, seat)}
                self.core.out.send("table:event", public, owner=owner, private=private)
            if chances and index in chances:
                self.core.event(chances[index].to_dict(), hand_id=current.id)

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

    def _begin_turn(self) -> None:
        current = self.state.current
        assert current is not None
        hand = current.hand
        seat = hand.actor
        assert seat is not None
        player = self.state.players[seat]
        showdown = hand.phase is Phase.SHOWDOWN
        limit = self.state.config.action_seconds
        if showdown:
            limit = min(limit, self.core.settings.showdown_seconds)
        away = not showdown and player.user_id in self.core.away
        if away:
            grace = self.state.config.grace(self.core.settings.disconnect_grace_seconds)
            limit = min(limit, grace)
        now = self.core.now()
        turn = Turn(current.id, seat, 0, now + limit, showdown, grace=away, began=now)
        self.turn = turn
        if showdown and player.auto_muck and not player.is_bot:
            # At the showdown only a hand already beaten is asked: auto-muck mucks it
            # without asking (nobody is shown a turn).
            self.core.mailbox.later("turn", 0, self._auto, turn.token)
            return
        self._announce(turn)
        self._arm(turn)

    def _arm(self, turn: Turn) -> None:
        """Set the timer of the announced ``turn``: a bot's move, the move for an absent
        player, a pre-action taken at once, or the clock."""
        current = self.state.current
        assert current is not None
        player = self.state.players[turn.seat]
        if player.is_bot:
            self.core.mailbox.later("turn", self.core.settings.bot_delay_seconds,
                                     self._bot_move, turn.token)
        elif _absent(player):
            self.core.mailbox.later("turn", 0, self._auto, turn.token)
        elif not turn.showdown and turn.seat in current.preactions:
            self.core.mailbox.later("turn", 0, self._preacted, turn.token)
        else:
            self._run_clock(turn)

    def _run_clock(self, turn: Turn) -> None:
        """Time ``turn`` out at its deadline."""
        self.core.mailbox.later("turn", turn.deadline - self.core.now(), self._timed_out,
                                 turn.token)

    async def _preacted(self, token: int) -> None:
        """Take the pre-action of the player whose turn it is, if it still holds; else
        their clock runs as usual."""
        turn = self._current_turn(token)
        current = self.state.current
        if turn is None or current is None:
            return
        player = self.state.players[turn.seat]
        chosen = self.preactions.take(turn.seat)
        if chosen is not None:
            kind = chosen.action(current.hand.to_call(turn.seat))
            try:
                await self._apply(player, kind, None, key=(turn.hand_id, kind.value, None))
                return
            except HoldemError:
                log.exception("table %s: the pre-action of seat %s failed", self.core.id,
                              turn.seat)
        self._run_clock(turn)

    def _announce(self, turn: Turn) -> None:
        public = self._public_turn(turn)
        owner = self.state.players[turn.seat].user_id
        private = {**public, **self._choices(turn)} if owner is not None else None
        turn.token = self.core.out.send("table:turn", public, owner=owner, private=private)

    def _public_turn(self, turn: Turn) -> dict[str, Any]:
        """What everyone is told of ``turn`` (its choices are the actor's alone)."""
        return {"hand_id": turn.hand_id, "seat": turn.seat, "deadline": turn.deadline,
                "time_bank": turn.banking, "bank": self.state.players[turn.seat].time_bank,
                "grace": turn.grace, "legal_actions": None, "to_call": None}

    def _choices(self, turn: Turn) -> dict[str, Any]:
        current = self.state.current
        assert current is not None
        hand = current.hand
        return {"legal_actions": [a.to_dict() for a in hand.legal_actions()],
                "to_call": 0 if turn.showdown else hand.to_call(turn.seat)}

    def turn_for(self, user_id: int | None) -> dict[str, Any] | None:
        """The current ``table:turn`` as ``user_id`` may see it (legal actions: actor only)."""
        turn = self.turn
        if turn is None:
            return None
        out = {"table_id": self.core.id, "seq": turn.token, **self._public_turn(turn)}
        if user_id is not None and self.state.players[turn.seat].user_id == user_id:
            out.update(self._choices(turn))
        return out

    def hand_view(self, seat: int | None) -> dict[str, Any] | None:
        """The hand in play as ``seat`` (None: a spectator) may see it, with the deadline
        of the run-it-twice question while it is asked."""
        current = self.state.current
        if current is None:
            return None
        out = view(current.hand, seat)
        if current.hand.phase is Phase.RUN_IT_TWICE:
            out["run_it_twice_deadline"] = self.question_deadline
        return out

    # ---- running it twice ---------------------------------------------------------

    async def run_it_twice(self, viewer: Viewer, hand_id: str, agree: bool) -> dict[str, Any]:
        """A contender's answer to the run-it-twice question, checked by the engine."""
        player = self.core.player_for(viewer)
        current = self.state.current
        if current is None or current.id != hand_id:
            raise StaleAction("that hand is over", hand_id=current.id if current else None)
        hand = current.hand
        events = hand.run_twice(player.seat) if agree else hand.run_once(player.seat)
        player.timeouts = 0
        await self._progress(events)
        return {"table_id": self.core.id, "hand_id": hand_id, "seq": self.state.seq}

    def _ask_run_it_twice(self) -> None:
        """Wait for the answers until the deadline; answer at once for bots and absent
        players (they decline)."""
        current = self.state.current
        assert current is not None and self.question_deadline is not None
        if not self.core.mailbox.has("run-it-twice"):
            self.core.mailbox.later("run-it-twice", self.question_deadline - self.core.now(),
                                     self._decline_for, current.id, None)
        for seat in current.hand.asked:
            player = self.state.players[seat]
            if player.is_bot or _absent(player):
                self.core.mailbox.later("run-it-twice-auto", 0, self._decline_for,
                                         current.id, seat)
                return

    async def _decline_for(self, hand_id: str, seat: int | None) -> None:
        """Run it once for ``seat`` (None: the question timed out, for the first seat still
        to answer)."""
        current = self.state.current
        if (current is None or current.id != hand_id
                or current.hand.phase is not Phase.RUN_IT_TWICE):
            return
        asked = current.hand.asked
        if seat is None or seat in asked:
            await self._progress(current.hand.run_once(asked[0] if seat is None else seat))

    # ---- the clock, absent players and bots ------------------------------------------

    def _current_turn(self, token: int) -> Turn | None:
        turn = self.turn
        return turn if turn is not None and turn.token == token else None

    async def _timed_out(self, token: int) -> None:
        turn = self._current_turn(token)
        if turn is None:
            return
        player = self.state.players[turn.seat]
        there = player.user_id not in self.core.away
        if not turn.showdown and not turn.banking and player.time_bank > 0 and there:
            turn.banking, turn.bank_started = True, self.core.now()
            turn.deadline = turn.bank_started + player.time_bank
            self._announce(turn)
            self.core.mailbox.later("turn", player.time_bank, self._timed_out, turn.token)
            return
        if turn.banking:
            player.time_bank = 0.0
        if not turn.showdown:
            player.timeouts += 1
            self.core.event({"type": "player_timed_out", "seat": player.seat},
                             hand_id=turn.hand_id)
            if player.timeouts >= TIMEOUTS_BEFORE_SIT_OUT:
                self.sit_out(player)
        await self._auto_act(turn)

    def player_away(self, player: Player) -> None:
        """``player`` has no connection left: if it is their turn, it times out after the
        short grace (or sooner, as it would have), and the time bank they were using
        stops (what is left of it is kept for their return)."""
        turn = self.turn
        if turn is None or turn.seat != player.seat or turn.showdown or turn.grace:
            return
        now = self.core.now()
        if turn.banking:
            player.time_bank = max(0.0, player.time_bank - (now - turn.bank_started))
            turn.banking = False
        grace = self.state.config.grace(self.core.settings.disconnect_grace_seconds)
        turn.deadline = min(turn.deadline, now + grace)
        turn.grace = True
        self._announce(turn)
        self._arm(turn)

    def player_back(self, player: Player) -> None:
        """``player`` is connected again: if it is their turn, its clock runs on to the
        same deadline, and then their time bank starts as usual."""
        turn = self.turn
        if turn is None or turn.seat != player.seat or not turn.grace:
            return
        turn.grace = False
        self._announce(turn)
        self._arm(turn)

    async def _auto(self, token: int) -> None:
        turn = self._current_turn(token)
        if turn is not None:
            await self._auto_act(turn)

    async def _auto_act(self, turn: Turn) -> None:
        """Act for a player who is not there: muck, else check, else fold."""
        current = self.state.current
        assert current is not None
        hand = current.hand
        if turn.showdown:
            kind = ActionKind.MUCK
        else:
            kind = ActionKind.CHECK if hand.can_check(turn.seat) else ActionKind.FOLD
        self.turn = None
        self.core.mailbox.cancel("turn")
        await self._progress(hand.act(turn.seat, kind))

    def act_for_absent(self) -> None:
        """If the player to act (or to answer the run-it-twice question) has left or sat
        out, act for them now."""
        turn = self.turn
        if turn is not None and _absent(self.state.players[turn.seat]):
            self.core.mailbox.later("turn", 0, self._auto, turn.token)
        current = self.state.current
        if current is not None and current.hand.phase is Phase.RUN_IT_TWICE:
            self._ask_run_it_twice()

    async def _bot_move(self, token: int) -> None:
        turn = self._current_turn(token)
        current = self.state.current
        if turn is None or current is None:
            return
        hand, player = current.hand, self.state.players[turn.seat]
        try:
            # Dealing out boards takes milliseconds: off the event loop other tables share
            # (the table's own queue waits, so nothing here changes meanwhile).
            choice = await asyncio.to_thread(
                decide, view(hand, turn.seat), hand.legal_actions(),
                style=player.bot or BotStyle.TIGHT, rng=self.core.services.bot_rng,
                reads=self.state.reads_by_seat())
            events = hand.act(turn.seat, choice.action, choice.amount)
        except (HoldemError, ValueError):
            log.exception("table %s: bot at seat %s failed to act", self.core.id, turn.seat)
            await self._auto_act(turn)
            return
        self.turn = None
        await self._progress(events)

    # ---- sitting out ----------------------------------------------------------------

    def sit_out(self, player: Player) -> None:
        """Sit a player out (by request or after time-outs); cashed out if out too long."""
        if player.status is PlayerStatus.SITTING_OUT:
            return
        player.status = PlayerStatus.SITTING_OUT
        player.sat_out_at = self.core.now()
        self.core.touch()
        self.core.event({"type": "player_sat_out", "seat": player.seat})
        self.watch_sitting_out(player)
        self.act_for_absent()

    def watch_sitting_out(self, player: Player) -> None:
        """Stand the player up once they have sat out longer than the limit (never at a
        tournament table: an absent player is blinded away)."""
        if (player.status is not PlayerStatus.SITTING_OUT or player.sat_out_at is None
                or self.tournament is not None):
            return
        left = player.sat_out_at + self.core.settings.sit_out_limit_seconds - self.core.now()
        self.core.mailbox.later(f"sit-out:{player.seat}", left, self._sat_out_too_long,
                                 player.seat, player.sat_out_at)

    async def _sat_out_too_long(self, seat: int, since: float) -> None:
        player = self.state.players.get(seat)
        if player is None or player.status is not PlayerStatus.SITTING_OUT:
            return
        if player.sat_out_at != since:
            return
        if self.state.in_hand(seat):
            player.leaving = True
            self.core.touch()
            return
        await self.stand_up([player])

    async def stand_up(self, players: list[Player]) -> None:
        """Free seats (of players not in a hand) and cash them out in one commit, then
        offer the seats and deal when a hand can start."""
        seats = [p.seat for p in players]

        def change() -> Movement:
            payouts = [self.core.vacate(self.state.players[seat]) for seat in seats]
            return Movement(payouts=tuple(p for p in payouts if p))

        await self.core.move_chips(change)
        for seat in seats:
            self.core.mailbox.cancel(f"sit-out:{seat}")
        await self.after_seats_changed()

    async def take_seats(self) -> None:
        """At a tournament table: make the seats those the tournament assigns now (see
        :mod:`app.table.assigned`)."""
        wanted = self.tournament.seats() if self.tournament is not None else None
        if wanted is not None:
            await take_assigned_seats(self.core, wanted)

    async def after_seats_changed(self) -> None:
        """Offer freed seats, seat bots, rebuy busted ones (or stand them all up while a
        person who reached the house's daily cap sits here), and deal when a hand can
        start."""
        if self.tournament is not None:
            self.schedule_start()
            return
        self.waiting.offer_free_seat()
        capped = await self.bots.capped_people()
        if capped:
            await self.bots.stand_down(capped)
        else:
            await self.bots.rebuy_busted()
            await self.bots.fill()
        await self.top_ups.before_hand()
        self.schedule_start()

    # ---- ending a hand -----------------------------------------------------------------

    async def _end_hand(self) -> None:
        """Settle the hand: new stacks, the history, leavers paid out, in one commit (at a
        tournament table, with the tournament's standings; then the seats it assigns)."""
        current = self.state.current
        assert current is not None
        self.turn = None
        self.core.mailbox.cancel("turn")
        hand_id = current.id
        stacks = {s.number: s.stack for s in current.hand.seats}
        button = current.hand.button

        async def commit(writes: tuple[Write, ...]) -> None:
            def change() -> Movement:
                live = self.state.current
                assert live is not None and live.id == hand_id
                record = self._settle(live)
                return Movement(payouts=tuple(self._departures()), hand=record, writes=writes)

            await self.core.move_chips(change)

        tournament = self.tournament
        if tournament is None:
            await commit(())
        else:
            await tournament.hand_ended(stacks, button, commit)
            await self.take_seats()
            await tournament.after_hand()
        await self.after_seats_changed()

    def _settle(self, current: HandInPlay) -> Any:
        self.state.count_hand(current.hand)
        for seat in current.hand.seats:
            player = self.state.players[seat.number]
            player.stack = seat.stack - player.paid_out
            player.paid_out = 0
        record = finished_hand(self.core.id, current, self.state.players,
                               house_bots=self.tournament is None,
                               all_in=self._first_all_in(current.id),
                               notes=self.state.desk.notes_of(current.number))
        self.state.current = None
        self.state.note_hand(self.core.now(), record.pot)
        return record

    def _departures(self) -> list[Transfer]:
        """Stand up leavers and busted players; claimed bot seats go to their claimants."""
        payouts: list[Transfer | None] = []
        for player in sorted(self.state.players.values(), key=lambda p: p.seat):
            if player.is_bot and player.successor is not None:
                payouts.append(self.bots.give_way(player))
            elif ((not player.is_bot or self.tournament is not None)
                  and (player.leaving or player.stack <= 0)):
                payouts.append(self.core.vacate(player))
        return [p for p in payouts if p]

    async def pay_out_early(self, player: Player) -> None:
        """Cash out the chips behind of a player taken away mid-hand (they fold)."""
        current = self.state.current
        if current is None or player.user_id is None:
            return
        seat, user_id = player.seat, player.user_id

        def change() -> Movement:
            live = self.state.current
            assert live is not None
            held = self.state.players[seat]
            behind = live.hand.seat(seat).stack - held.paid_out
            if behind <= 0:
                return Movement()
            held.paid_out += behind
            self.core.touch()
            return Movement(payouts=(Transfer(user_id, behind),))

        await self.core.move_chips(change)

    async def recover(self, *, reason: str = "the server restarted") -> None:
        """After a restart or a move to another process (before the table's task runs),
        or once the table goes on from a state it did not know it stored: the stored hand
        in play goes on where it stood (its clock starts again, :meth:`rearm`); a hand
        that cannot go on is void (``hand_voided``, for ``reason``). Between hands,
        whoever was leaving is settled, so the stored seats match the credits held."""
        current = self.state.current
        resumed = current is not None and self._resumable(current)

        def change() -> Movement:
            if not resumed:
                self.void_hand(reason)
            self.state.offer = None
            if self.state.current is not None:
                return Movement()
            return Movement(payouts=tuple(self._departures()))

        await self.core.move_chips(change)

    def _resumable(self, current: HandInPlay) -> bool:
        """Whether a stored hand can go on: it waits for a decision (an action or the
        run-it-twice answers) and every seat dealt in is still taken. A tournament's hand
        is voided instead: its standings are the tournament's, restored apart from the
        table's, and are only known to agree with the table at a hand boundary."""
        hand = current.hand
        waiting = hand.phase is Phase.RUN_IT_TWICE or hand.actor is not None
        return (self.state.config.tournament is None and not hand.is_complete and waiting
                and all(seat.number in self.state.players for seat in hand.seats))

    def rearm(self) -> None:
        """Set every clock again from the state (after a restore or an outage): the player
        to act gets a fresh clock, sitting-out limits and the next hand are rescheduled."""
        current = self.state.current
        turn = self.turn
        if current is not None and current.hand.phase is Phase.RUN_IT_TWICE:
            if self.question_deadline is None:
                self.question_deadline = self.core.now() + self.core.settings.run_it_twice_seconds
            self._ask_run_it_twice()
        elif current is not None and not current.hand.is_complete:
            if (turn is None or turn.hand_id != current.id or turn.seat != current.hand.actor
                    or not self.core.mailbox.has("turn")):
                self.core.mailbox.cancel("turn")
                self._begin_turn()
        else:
            self.turn = None
            self.schedule_start()
        for player in self.state.players.values():
            self.watch_sitting_out(player)

    def void_hand(self, reason: str) -> None:
        """Drop the hand in play: every seat keeps the stack it started the hand with."""
        current = self.state.current
        if current is None:
            return
        self.turn = None
        self.core.mailbox.cancel("turn")
        self.question_deadline = None
        self.core.mailbox.cancel("run-it-twice")
        self.state.current = None
        for player in self.state.players.values():
            player.stack -= player.paid_out
            player.paid_out = 0
        self.core.touch()
        self.core.event({"type": "hand_voided", "reason": reason}, hand_id=current.id)


def _absent(player: Player) -> bool:
    return player.leaving or player.status is PlayerStatus.SITTING_OUT
