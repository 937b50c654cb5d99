"""The clock of one table's hand in play: whose turn it is, until when, and what happens
when nobody acts.

Each decision has the table's ``action_seconds`` (at the showdown, the server's
``showdown_seconds``); when they run out a connected player's time bank starts
(:mod:`app.table.time_bank`), then the turn times out: a check, else a fold (a muck at
the showdown). Two time-outs in a row sit the player out. A player disconnected on their
turn has a short grace (the table's ``disconnect_grace_seconds``, else the server's) to
come back, and the time bank
they were using is kept for their return. A player who left or sat out is acted for at
once. A bot moves after ``bot_delay_seconds``, deciding from its own view of the hand
only. A player who chose a pre-action (:mod:`app.table.preactions`) has it taken the
moment their turn comes, through the same checks as any action.

Run it twice: every contender asked has ``run_it_twice_seconds`` to answer; a time-out,
an absent player or a bot (bots keep it simple) declines, and the board is run once.

Every timer here is a message on the table's mailbox, named ``turn``, ``run-it-twice``
and ``run-it-twice-auto``. What acting means (the engine, the events, the next turn) is
the dealing's (:mod:`app.table.dealing`), given to the constructor as :class:`Hands`.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Protocol

from app.errors import HoldemError
from app.poker.blinds import PlayerStatus
from app.poker.bots import BotStyle, decide
from app.poker.events import ActionKind, Event
from app.poker.state import Phase
from app.poker.view import view
from app.table.core import TableCore
from app.table.events import PlayerTimedOut
from app.table.preactions import PreActions
from app.table.state import Player, TableState

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


class Hands(Protocol):
    """What the clock asks of the dealing when a turn is taken or timed out."""

    async def play(self, player: Player, kind: ActionKind, amount: int | None, *,
                   key: tuple[str, str, int | None]) -> None:
        """``player``'s action (here: their pre-action), checked by the engine."""

    async def progress(self, events: list[Event]) -> None:
        """Send what happened, then wait for the next decision or end the hand."""


class SitsOut(Protocol):
    """What the clock asks of the seats after time-outs."""

    def sit_out(self, player: Player) -> None:
        """Sit ``player`` out."""


def _grace(core: TableCore) -> float:
    """How long a player disconnected on their turn has to come back at ``core``'s table."""
    return core.state.config.grace(core.settings.disconnect_grace_seconds)


def absent(player: Player) -> bool:
    """Whether ``player`` left or sits out: acted for at once."""
    return player.leaving or player.status is PlayerStatus.SITTING_OUT


class Clock:
    """The turns and timers of one table's hand in play."""

    def __init__(self, core: TableCore, *, preactions: PreActions, hands: Hands,
                 seats: SitsOut) -> None:
        self.core = core
        self.preactions = preactions
        self.hands = hands
        self.seats = seats
        self.turn: Turn | None = None
        # When the run-it-twice question of the hand in play times out (None: not asked).
        self.question_deadline: float | None = None

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    # ---- turns ---------------------------------------------------------------------

    def begin_turn(self) -> None:
        """Announce the turn of the hand's actor and set its timer."""
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
            limit = min(limit, _grace(self.core))
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
        elif absent(player):
            self.core.mailbox.later("turn", 0, self._auto, turn.token)
        elif not turn.showdown and turn.seat in current.preactions:
            self.core.mailbox.later("turn", 0, self._preacted, turn.token)
        else:
            self._run_clock(turn)

    def _run_clock(self, turn: Turn) -> None:
        """Time ``turn`` out at its deadline."""
        self.core.mailbox.later("turn", turn.deadline - self.core.now(), self._timed_out,
                                turn.token)

    def stop(self, player: Player) -> None:
        """``player`` acted: their turn is over (what they used of their time bank is
        gone)."""
        if self.turn is not None:
            _spend_bank(self.turn, player, self.core.now())
        self.end_turn()

    def end_turn(self) -> None:
        """Forget the turn and its timer."""
        self.turn = None
        self.core.mailbox.cancel("turn")

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
                await self.hands.play(player, kind, None, key=(turn.hand_id, kind.value, None))
                return
            except HoldemError:
                log.exception("table %s: the pre-action of seat %s failed", self.core.id,
                              turn.seat)
        self._run_clock(turn)

    # ---- what viewers see of it ------------------------------------------------------

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

    # ---- running it twice ------------------------------------------------------------

    def track_question(self, asking: bool) -> None:
        """The hand asks the run-it-twice question (its deadline is set once), or no more."""
        if asking and self.question_deadline is None:
            self.question_deadline = self.core.now() + self.core.settings.run_it_twice_seconds
        elif not asking:
            self.drop_question()

    def drop_question(self) -> None:
        """Forget the run-it-twice question and its timer."""
        self.question_deadline = None
        self.core.mailbox.cancel("run-it-twice")

    def ask_run_it_twice(self) -> None:
        """Wait for the answers until the deadline; answer at once for bots and absent
        players (they decline)."""
        current = self.state.current
        assert current is not None and self.question_deadline is not None
        if not self.core.mailbox.has("run-it-twice"):
            self.core.mailbox.later("run-it-twice", self.question_deadline - self.core.now(),
                                    self._decline_for, current.id, None)
        for seat in current.hand.asked:
            player = self.state.players[seat]
            if player.is_bot or absent(player):
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
            await self.hands.progress(current.hand.run_once(asked[0] if seat is None else seat))

    # ---- time-outs, absent players and bots ------------------------------------------

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
            self.core.event(PlayerTimedOut(seat=player.seat),
                            hand_id=turn.hand_id)
            if player.timeouts >= TIMEOUTS_BEFORE_SIT_OUT:
                self.seats.sit_out(player)
        await self._auto_act(turn)

    def player_away(self, player: Player) -> None:
        """``player`` has no connection left: if it is their turn, it times out after the
        short grace (or sooner, as it would have), and the time bank they were using
        stops (what is left of it is kept for their return)."""
        turn = self.turn
        if turn is None or turn.seat != player.seat or turn.showdown or turn.grace:
            return
        now = self.core.now()
        _spend_bank(turn, player, now)
        turn.banking = False
        turn.deadline = min(turn.deadline, now + _grace(self.core))
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
        self.end_turn()
        await self.hands.progress(hand.act(turn.seat, kind))

    def act_for_absent(self) -> None:
        """If the player to act (or to answer the run-it-twice question) has left or sat
        out, act for them now."""
        turn = self.turn
        if turn is not None and absent(self.state.players[turn.seat]):
            self.core.mailbox.later("turn", 0, self._auto, turn.token)
        current = self.state.current
        if current is not None and current.hand.phase is Phase.RUN_IT_TWICE:
            self.ask_run_it_twice()

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
        await self.hands.progress(events)


def _spend_bank(turn: Turn, player: Player, now: float) -> None:
    """Take what ``player`` used of their time bank on ``turn`` until ``now``, if the
    turn had reached the bank."""
    if turn.banking:
        player.time_bank = max(0.0, player.time_bank - (now - turn.bank_started))
