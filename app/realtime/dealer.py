"""Playing hands at one table: starting them, turns and the clock, bots, the end of a hand.

Runs on the table's task (see :mod:`app.realtime.actor`). The engine decides
what is legal; this module decides *when*: a hand starts a few seconds after
two players are ready, each decision has a clock (then the player's time
bank), a time-out checks or folds, two time-outs in a row sit the player out,
bots act after a small delay with their own view of the hand only.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.errors import HoldemError
from app.poker.blinds import PlayerStatus, plan_next_hand
from app.poker.bots import BotStyle, decide
from app.poker.engine import Hand
from app.poker.events import ActionKind, Event
from app.poker.state import Phase
from app.poker.view import view, view_event
from app.realtime.errors import DuplicateAction, StaleAction
from app.realtime.history import finished_hand
from app.realtime.seating import HandInPlay, Player, TableState
from app.realtime.store import Payout

if TYPE_CHECKING:
    from app.realtime.connections import Viewer
    from app.realtime.table import Table

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


class Dealer:
    """Drives the hands of one :class:`~app.realtime.table.Table`."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.turn: Turn | None = None
        self._last_action: dict[int, tuple[str, str, int | None]] = {}

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.table.state

    # ---- starting a hand ------------------------------------------------------

    def schedule_start(self) -> None:
        """Deal the next hand after the start delay, when two players are ready."""
        if self.state.current is None and self._plan() is not None:
            self.table.mailbox.later("start", self.table.settings.hand_start_delay_seconds,
                                     self._start_hand)

    def _plan(self) -> Any:
        plan = plan_next_hand(self.state.occupants(), previous_button=self.state.button)
        if plan is None or all(self.state.players[s].is_bot for s in plan.dealt_in):
            return None
        return plan

    async def _start_hand(self) -> None:
        if self.state.current is not None:
            return
        self.table.fill_with_bots()
        plan = self._plan()
        if plan is None:
            return
        state = self.state
        hand, events = Hand.start(plan.stacks(state.occupants()), button=plan.button,
                                  stakes=state.config.stakes,
                                  deck=self.table.services.deck_factory())
        for seat in plan.dealt_in:
            state.players[seat].status = PlayerStatus.PLAYING
        state.button = plan.button
        state.hand_number += 1
        state.current = HandInPlay(uuid.uuid4().hex, state.hand_number, hand, self.table.now())
        self.table.event({
            "type": "hand_started", "number": state.hand_number, "button": plan.button,
            "small_blind_seat": plan.small_blind, "big_blind_seat": plan.big_blind,
            "seats": [{"seat": s.number, "stack": s.starting_stack} for s in hand.seats],
        }, hand_id=state.current.id)
        await self._progress(events)

    # ---- acting -------------------------------------------------------------------

    async def act(
        self, viewer: Viewer, hand_id: str, kind: ActionKind, amount: int | None
    ) -> dict[str, Any]:
        """A player's action, checked by the engine; out-of-turn, stale or repeated ones fail."""
        player = self.table.require_player(viewer)
        current = self.state.current
        if current is None or current.id != hand_id:
            raise StaleAction("that hand is over", hand_id=current.id if current else None)
        key = (hand_id, kind.value, amount)
        if current.hand.actor != player.seat and self._last_action.get(viewer.user_id) == key:
            raise DuplicateAction("that action was already taken")
        events = current.hand.act(player.seat, kind, amount)
        self._last_action[viewer.user_id] = key
        self._stop_clock(player)
        player.timeouts = 0
        await self._progress(events)
        return {"table_id": self.table.id, "hand_id": hand_id, "seq": self.state.seq}

    def _stop_clock(self, player: Player) -> None:
        turn = self.turn
        if turn is not None and turn.banking:
            used = self.table.now() - turn.bank_started
            player.time_bank = max(0.0, player.time_bank - used)
        self.turn = None
        self.table.mailbox.cancel("turn")

    async def _progress(self, events: list[Event]) -> None:
        """Send what happened, then wait for the next decision or end the hand."""
        self.table.touch()
        self._send_hand_events(events)
        current = self.state.current
        assert current is not None
        if current.hand.is_complete:
            await self._end_hand()
        else:
            self._begin_turn()

    def _send_hand_events(self, events: list[Event]) -> None:
        current = self.state.current
        assert current is not None
        for event in events:
            public = {"hand_id": current.id, "event": view_event(event, None)}
            seat = event.private_to
            owner = self.state.players[seat].user_id if seat is not None else None
            if seat is None or owner is None:
                self.table.out.send("table:event", public)
            else:
                private = {"hand_id": current.id, "event": view_event(event, seat)}
                self.table.out.send("table:event", public, owner=owner, private=private)

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
            limit = min(limit, self.table.settings.showdown_seconds)
        turn = Turn(current.id, seat, 0, self.table.now() + limit, showdown)
        self.turn = turn
        self._announce(turn)
        if player.is_bot:
            self.table.mailbox.later("turn", self.table.settings.bot_delay_seconds,
                                     self._bot_move, turn.token)
        elif _absent(player):
            self.table.mailbox.later("turn", 0, self._auto, turn.token)
        else:
            self.table.mailbox.later("turn", limit, self._timed_out, turn.token)

    def _announce(self, turn: Turn) -> None:
        public = {"hand_id": turn.hand_id, "seat": turn.seat, "deadline": turn.deadline,
                  "time_bank": turn.banking, "legal_actions": None, "to_call": None}
        owner = self.state.players[turn.seat].user_id
        private = {**public, **self._choices(turn)} if owner is not None else None
        turn.token = self.table.out.send("table:turn", public, owner=owner, private=private)

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
        out = {"table_id": self.table.id, "seq": turn.token, "hand_id": turn.hand_id,
               "seat": turn.seat, "deadline": turn.deadline, "time_bank": turn.banking,
               "legal_actions": None, "to_call": None}
        if user_id is not None and self.state.players[turn.seat].user_id == user_id:
            out.update(self._choices(turn))
        return out

    def hand_view(self, seat: int | None) -> dict[str, Any] | None:
        """The hand in play as ``seat`` (None: a spectator) may see it."""
        current = self.state.current
        return view(current.hand, seat) if current else None

    # ---- the clock, absent players and bots ------------------------------------------

    def _current_turn(self, token: int) -> Turn | None:
        turn = self.turn
        return turn if turn is not None and turn.token == token else None

    async def _timed_out(self, token: int) -> None:
        turn = self._current_turn(token)
        if turn is None:
            return
        player = self.state.players[turn.seat]
        if not turn.showdown and not turn.banking and player.time_bank > 0:
            turn.banking, turn.bank_started = True, self.table.now()
            turn.deadline = turn.bank_started + player.time_bank
            self._announce(turn)
            self.table.mailbox.later("turn", player.time_bank, self._timed_out, turn.token)
            return
        if turn.banking:
            player.time_bank = 0.0
        if not turn.showdown:
            player.timeouts += 1
            self.table.event({"type": "player_timed_out", "seat": player.seat},
                             hand_id=turn.hand_id)
            if player.timeouts >= TIMEOUTS_BEFORE_SIT_OUT:
                self.sit_out(player)
        await self._auto_act(turn)

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
        self.table.mailbox.cancel("turn")
        await self._progress(hand.act(turn.seat, kind))

    def act_for_absent(self) -> None:
        """If the player to act has left or sat out, act for them now."""
        turn = self.turn
        if turn is not None and _absent(self.state.players[turn.seat]):
            self.table.mailbox.later("turn", 0, self._auto, turn.token)

    async def _bot_move(self, token: int) -> None:
        turn = self._current_turn(token)
        current = self.state.current
        if turn is None or current is None:
            return
        hand, player = current.hand, self.state.players[turn.seat]
        try:
            choice = decide(view(hand, turn.seat), hand.legal_actions(),
                            style=player.bot or BotStyle.TIGHT, rng=self.table.services.bot_rng)
            events = hand.act(turn.seat, choice.action, choice.amount)
        except (HoldemError, ValueError):
            log.exception("table %s: bot at seat %s failed to act", self.table.id, turn.seat)
            await self._auto_act(turn)
            return
        self.turn = None
        await self._progress(events)

    @staticmethod
    def bot_styles() -> list[BotStyle]:
        """Styles bots take in turn when the table does not fix one."""
        return list(BotStyle)

    # ---- sitting out ----------------------------------------------------------------

    def sit_out(self, player: Player) -> None:
        """Sit a player out (by request or after time-outs); cashed out if out too long."""
        if player.status is PlayerStatus.SITTING_OUT:
            return
        player.status = PlayerStatus.SITTING_OUT
        player.sat_out_at = self.table.now()
        self.table.touch()
        self.table.event({"type": "player_sat_out", "seat": player.seat})
        self.watch_sitting_out(player)
        self.act_for_absent()

    def watch_sitting_out(self, player: Player) -> None:
        """Stand the player up once they have sat out longer than the limit."""
        if player.status is not PlayerStatus.SITTING_OUT or player.sat_out_at is None:
            return
        left = player.sat_out_at + self.table.settings.sit_out_limit_seconds - self.table.now()
        self.table.mailbox.later(f"sit-out:{player.seat}", left, self._sat_out_too_long,
                                 player.seat, player.sat_out_at)

    async def _sat_out_too_long(self, seat: int, since: float) -> None:
        player = self.state.players.get(seat)
        if player is None or player.status is not PlayerStatus.SITTING_OUT:
            return
        if player.sat_out_at != since:
            return
        if self.state.in_hand(seat):
            player.leaving = True
            self.table.touch()
            return
        await self.table.stand_up_now([player])

    # ---- ending a hand -----------------------------------------------------------------

    async def _end_hand(self) -> None:
        """Settle the hand: new stacks, the history, leavers paid out, the next hand."""
        current = self.state.current
        assert current is not None
        before = self.state.to_dict()
        self.turn = None
        self.table.mailbox.cancel("turn")
        people_won, record = self._settle(current)
        payouts = self._departures()
        try:
            await self.table.services.store.finish_hand(
                self.table.id, record, house_net=people_won, payouts=payouts,
                state=self.state.to_dict())
        except Exception:
            log.exception("table %s: storing hand %s failed; voiding it", self.table.id,
                          current.id)
            self.table.state = TableState.from_dict(before)
            self.void_hand("the hand could not be stored")
            raise
        self.table.waiting.offer_free_seat()
        self.table.fill_with_bots()
        self.schedule_start()

    def _settle(self, current: HandInPlay) -> tuple[int, Any]:
        people_won = 0
        for seat in current.hand.seats:
            player = self.state.players[seat.number]
            if not player.is_bot:
                people_won += seat.stack - seat.starting_stack
            player.stack = seat.stack - player.paid_out
            player.paid_out = 0
        record = finished_hand(self.table.id, current, self.state.players)
        self.state.current = None
        self.state.note_hand(self.table.now(), record.pot)
        return people_won, record

    def _departures(self) -> list[Payout]:
        """Stand up leavers and busted players; bots give seats to claimants or rebuy."""
        payouts: list[Payout] = []
        for player in sorted(self.state.players.values(), key=lambda p: p.seat):
            if player.is_bot:
                self._bot_after_hand(player)
            elif player.leaving or player.stack <= 0:
                payout = self.table.stand_up(player)
                if payout is not None and payout.amount > 0:
                    payouts.append(payout)
        return payouts

    def _bot_after_hand(self, bot: Player) -> None:
        successor = bot.successor
        if successor is not None:
            self.table.stand_up(bot)
            person = successor.person
            player = Player(bot.seat, person, successor.buy_in,
                            time_bank=self.table.settings.time_bank_seconds)
            self.state.players[bot.seat] = player
            self.table.announce_sat(player)
        elif bot.stack <= 0:
            bot.stack = self.state.config.max_buy_in
            self.table.event({"type": "stack_changed", "seat": bot.seat, "stack": bot.stack,
                              "added": bot.stack})

    async def pay_out_early(self, player: Player) -> None:
        """Cash out the chips behind of a player taken away mid-hand (they fold)."""
        current = self.state.current
        if current is None or player.user_id is None:
            return
        behind = current.hand.seat(player.seat).stack - player.paid_out
        if behind <= 0:
            return
        player.paid_out += behind
        await self.table.services.store.cash_out(
            self.table.id, [Payout(player.user_id, behind)], self.state.to_dict())

    async def recover(self) -> None:
        """After a restart (before the table's task runs): void an interrupted hand and
        settle whoever was leaving, so the stored seats match the credits held."""
        self.void_hand("the server restarted")
        self.state.offer = None
        payouts = self._departures()
        await self.table.services.store.cash_out(self.table.id, payouts, self.state.to_dict())

    def void_hand(self, reason: str) -> None:
        """Drop the hand in play: every seat keeps the stack it started the hand with."""
        current = self.state.current
        if current is None:
            return
        self.turn = None
        self.table.mailbox.cancel("turn")
        self.state.current = None
        for player in self.state.players.values():
            player.stack -= player.paid_out
            player.paid_out = 0
        self.table.touch()
        self.table.event({"type": "hand_voided", "reason": reason}, hand_id=current.id)


def _absent(player: Player) -> bool:
    return player.leaving or player.status is PlayerStatus.SITTING_OUT
