"""One table: every request about seats, watching, chat and closing.

Each public coroutine here is a message: callers run it on the table's task
with ``await table.ask(table.sit, ...)``, never directly. Playing the hand
(turns, the clock, bots, the end of a hand) is :mod:`app.table.dealer`;
state, storage and the one path chips take are :mod:`app.table.core`.
"""

from __future__ import annotations

import logging
import secrets
import unicodedata
from typing import Any

from app.poker.blinds import PlayerStatus
from app.poker.events import ActionKind
from app.poker.fairness import verify_client_seed
from app.table import projection
from app.table.actor import Handler
from app.table.bots import BotSeats
from app.table.core import TableCore, TableServices, person_of
from app.table.dealer import Dealer
from app.table.errors import (
    AlreadySeated,
    HandInProgress,
    InvalidBuyIn,
    InvalidPayload,
    InviteRequired,
    NoSuchSeat,
    SeatTaken,
    TableInUse,
    TournamentSeat,
)
from app.table.state import Player, Successor, TableState, Viewer
from app.table.store import Movement, Transfer
from app.table.waiting import WaitingList

log = logging.getLogger(__name__)


def clean_text(text: str) -> str:
    """Chat text without control characters, trimmed."""
    return "".join(c for c in unicodedata.normalize("NFC", text)
                   if unicodedata.category(c)[0] != "C").strip()


class Table:
    """A live table: the requests players send it, over its core, waiting list, bots
    and dealer."""

    def __init__(self, table_id: str, state: TableState, services: TableServices) -> None:
        self.id = table_id
        self.core = TableCore(table_id, state, services)
        self.waiting = WaitingList(self.core)
        self.bots = BotSeats(self.core)
        self.dealer = Dealer(self.core, waiting=self.waiting, bots=self.bots)
        self.core.rearm = self._rearm

    # ---- plumbing -----------------------------------------------------------

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    @property
    def services(self) -> TableServices:
        """What every table shares."""
        return self.core.services

    @property
    def closed(self) -> bool:
        """Whether the table has closed (or is stopping)."""
        return self.core.mailbox.closed

    @property
    def watchers(self) -> dict[str, int | None]:
        """Sessions watching, with their user (None: anonymous)."""
        return self.core.watchers

    async def ask(self, handler: Handler, *args: Any) -> Any:
        """Run one of this table's requests on its task and return the answer."""
        return await self.core.ask(handler, *args)

    async def start(self) -> None:
        """Start the table's task and, when it can, the first hand."""
        self.core.mailbox.start()
        self.core.mailbox.post(self._resume)

    async def _resume(self) -> None:
        self.waiting.offer_free_seat()
        await self.dealer.after_seats_changed()
        # A restored hand in play: its player to act gets a fresh clock.
        self.dealer.rearm()

    def _rearm(self) -> None:
        self.waiting.rearm()
        self.dealer.rearm()

    def admitted(self, viewer: Viewer | None) -> bool:
        """Whether ``viewer`` may see and talk at this table (private: with the invite)."""
        if not self.state.config.private:
            return True
        if viewer is None:
            return False
        return (viewer.is_admin or self.state.has_seat(viewer.user_id)
                or viewer.user_id in self.core.watchers.values())

    def _check_invite(self, viewer: Viewer | None, code: str | None) -> None:
        if self.admitted(viewer):
            return
        code_ok = code is not None and secrets.compare_digest(
            code, self.state.config.invite_code or "")
        if not code_ok:
            raise InviteRequired("this table is private: ask for its invite code")

    # ---- watching -----------------------------------------------------------

    async def join(
        self, sid: str, viewer: Viewer | None, invite_code: str | None, since_seq: int | None
    ) -> dict[str, Any]:
        """Watch the table: a snapshot (or the missed events) now, every event after."""
        self._check_invite(viewer, invite_code)
        self._watch(sid, viewer)
        core, user_id = self.core, viewer.user_id if viewer else None
        missed = core.out.missed(since_seq, user_id) if since_seq is not None else None
        if missed is None:
            core.out.to_session(sid, "table:snapshot",
                                projection.snapshot(core, self.dealer, user_id))
        else:
            for name, body in missed:
                core.out.to_session(sid, name, body)
        player = self.state.player_of(user_id) if user_id is not None else None
        if player is not None and player.user_id in core.away:
            core.away.discard(player.user_id)
            core.event({"type": "player_connection", "seat": player.seat, "connected": True})
        return {"table_id": self.id, "seq": self.state.seq,
                "replayed": None if missed is None else len(missed)}

    def _watch(self, sid: str, viewer: Viewer | None) -> None:
        self.core.watchers[sid] = viewer.user_id if viewer else None

    async def unwatch(self, sid: str) -> dict[str, Any]:
        """Stop watching (a seat, if any, is kept: leave it with ``table:leave``)."""
        self.core.watchers.pop(sid, None)
        return {"table_id": self.id}

    async def disconnected(self, sid: str, user_id: int | None) -> None:
        """A session ended: the seat stays and its clock keeps running."""
        self.core.watchers.pop(sid, None)
        if user_id is None or self.core.connected(user_id):
            return
        player = self.state.player_of(user_id)
        if player is not None:
            self.core.away.add(user_id)
            self.core.event({"type": "player_connection", "seat": player.seat,
                             "connected": False})

    # ---- seats ----------------------------------------------------------------

    async def sit(
        self, sid: str, viewer: Viewer, seat: int, buy_in: int, invite_code: str | None
    ) -> dict[str, Any]:
        """Take a seat, buying in from the balance (a bot gives its seat up).

        A refused request changes nothing: the session starts watching only once
        the buy-in is committed."""
        self._check_invite(viewer, invite_code)
        self._refuse_at_tournament("take a seat")
        self._check_seat(viewer, seat, buy_in)
        await self.bots.check_cap(viewer.user_id)
        occupant = self.state.players.get(seat)
        watching = sid in self.core.watchers
        if not watching:
            self._watch(sid, viewer)
            self.core.out.to_session(sid, "table:snapshot",
                                     projection.snapshot(self.core, self.dealer,
                                                         viewer.user_id))
        try:
            balances = await self.core.move_chips(
                lambda: self._take_seat(viewer, seat, buy_in))
        except Exception:
            if not watching:
                await self.unwatch(sid)
            raise
        self.waiting.drop(viewer.user_id)
        self.dealer.schedule_start()
        return {"table_id": self.id, "seat": seat, "buy_in": buy_in,
                "balance": balances[viewer.user_id], "pending": occupant is not None}

    def _refuse_at_tournament(self, what: str) -> None:
        if self.state.config.tournament is not None:
            raise TournamentSeat(f"the tournament assigns seats here: you cannot {what}")

    def _check_seat(self, viewer: Viewer, seat: int, buy_in: int) -> None:
        config = self.state.config
        if self.state.has_seat(viewer.user_id):
            raise AlreadySeated("you already have a seat at this table")
        if not 0 <= seat < config.seats:
            raise NoSuchSeat(f"seats are numbered 0 to {config.seats - 1}, got {seat}")
        if not config.min_buy_in <= buy_in <= config.max_buy_in:
            raise InvalidBuyIn(f"buy in for {config.min_buy_in} to {config.max_buy_in}",
                               min=config.min_buy_in, max=config.max_buy_in)
        offer = self.state.offer
        if offer is not None and offer.seat == seat and offer.person.user_id != viewer.user_id:
            raise SeatTaken("that seat is offered to the first player on the waiting list")
        occupant = self.state.players.get(seat)
        if occupant is not None and (not occupant.is_bot or occupant.successor is not None):
            raise SeatTaken(f"seat {seat} is taken")

    def _take_seat(self, viewer: Viewer, seat: int, buy_in: int) -> Movement:
        person = person_of(viewer)
        bot = self.state.players.get(seat)
        payouts: tuple[Transfer, ...] = ()
        if bot is not None and self.state.in_hand(seat):
            bot.successor = Successor(person, buy_in)
            self.core.touch()
        else:
            if bot is not None:
                gone = self.core.vacate(bot)
                payouts = (gone,) if gone else ()
            player = Player(seat, person, buy_in, time_bank=self.core.settings.time_bank_seconds)
            self.state.players[seat] = player
            self.core.announce_sat(player)
        return Movement(buy_ins=(Transfer(viewer.user_id, buy_in),), payouts=payouts)

    async def leave(self, viewer: Viewer) -> dict[str, Any]:
        """Stand up: cashed out now, or when the hand you are in ends (at a tournament
        table: sit out, and be blinded away until you come back)."""
        if self.state.config.tournament is not None:
            return {**await self.sit_out(viewer), "cashed_out": None, "at_hand_end": False}
        claim = self.state.claim_of(viewer.user_id)
        if claim is not None and claim.successor is not None:
            refund = claim.successor.buy_in
            await self.core.move_chips(lambda: self._withdraw_claim(viewer.user_id))
            return {"table_id": self.id, "cashed_out": refund, "at_hand_end": False}
        player = self.core.player_for(viewer)
        if self.state.in_hand(player.seat):
            player.leaving = True
            self.core.touch()
            self.core.event({"type": "player_leaving", "seat": player.seat})
            self.dealer.act_for_absent()
            return {"table_id": self.id, "cashed_out": None, "at_hand_end": True}
        amount = player.stack
        await self.dealer.stand_up([player])
        return {"table_id": self.id, "cashed_out": amount, "at_hand_end": False}

    def _withdraw_claim(self, user_id: int) -> Movement:
        claim = self.state.claim_of(user_id)
        assert claim is not None and claim.successor is not None
        refund, claim.successor = claim.successor.buy_in, None
        self.core.touch()
        return Movement(payouts=(Transfer(user_id, refund),))

    async def sit_out(self, viewer: Viewer) -> dict[str, Any]:
        """Stop being dealt in (the seat is kept for a while, then cashed out)."""
        player = self.core.player_for(viewer)
        self.dealer.sit_out(player)
        return {"table_id": self.id, "status": player.status.value}

    async def sit_in(self, viewer: Viewer) -> dict[str, Any]:
        """Be dealt in again (from the next big blind)."""
        player = self.core.player_for(viewer)
        if player.status is PlayerStatus.SITTING_OUT:
            player.status = PlayerStatus.WAITING
            player.sat_out_at = None
            player.timeouts = 0
            self.core.mailbox.cancel(f"sit-out:{player.seat}")
            self.core.touch()
            self.core.event({"type": "player_sat_in", "seat": player.seat})
            self.dealer.schedule_start()
        return {"table_id": self.id, "status": player.status.value}

    async def top_up(self, viewer: Viewer, amount: int) -> dict[str, Any]:
        """Add credits to the stack between hands, up to the max buy-in."""
        self._refuse_at_tournament("top up")
        player = self.core.player_for(viewer)
        if self.state.in_hand(player.seat):
            raise HandInProgress("top up between hands")
        room = self.state.config.max_buy_in - player.stack
        if amount > room:
            raise InvalidBuyIn(f"you can add at most {max(room, 0)}", min=1, max=max(room, 0))
        seat = player.seat

        def change() -> Movement:
            held = self.state.players[seat]
            held.stack += amount
            self.core.event({"type": "stack_changed", "seat": seat, "stack": held.stack,
                             "added": amount})
            return Movement(buy_ins=(Transfer(viewer.user_id, amount),))

        balances = await self.core.move_chips(change)
        self.dealer.schedule_start()
        return {"table_id": self.id, "stack": self.state.players[seat].stack,
                "balance": balances[viewer.user_id]}

    # ---- chat ---------------------------------------------------------------------

    async def chat(self, viewer: Viewer, text: str) -> dict[str, Any]:
        """Say something to the table (rate-limited; the last 50 lines are kept)."""
        if not self.admitted(viewer):
            raise InviteRequired("this table is private: join it with its invite code first")
        self.services.limiter.hit_local("chat", str(viewer.user_id),
                                        self.core.settings.rate_limit_chat)
        cleaned = clean_text(text)
        if not cleaned:
            raise InvalidPayload("say something", problems=[])
        line = {"player": person_of(viewer).public(), "text": cleaned, "at": self.core.now()}
        self.state.add_chat(line)
        self.core.touch()
        seq = self.core.event({"type": "chat", **line})
        return {"table_id": self.id, "seq": seq}

    async def set_client_seed(self, viewer: Viewer, seed: str) -> dict[str, Any]:
        """Mix ``seed`` into the shuffle of every hand that starts from now on (see
        docs/FAIRNESS.md); the ack names the commitment of the next hand's server seed."""
        player = self.core.player_for(viewer)
        verify_client_seed(seed)
        player.client_seed = seed
        self.core.touch()
        return {"table_id": self.id, "seat": player.seat,
                "next_commitment": self.state.next_commitment}

    async def act(
        self, viewer: Viewer, hand_id: str, kind: ActionKind, amount: int | None
    ) -> dict[str, Any]:
        """Act in the hand in play (checked by the engine; see :meth:`Dealer.act`)."""
        return await self.dealer.act(viewer, hand_id, kind, amount)

    async def run_it_twice(self, viewer: Viewer, hand_id: str, agree: bool) -> dict[str, Any]:
        """Answer the run-it-twice question of the hand in play."""
        return await self.dealer.run_it_twice(viewer, hand_id, agree)

    async def wait(self, viewer: Viewer) -> dict[str, Any]:
        """Join the waiting list (of a private table: once admitted with its invite)."""
        if not self.admitted(viewer):
            raise InviteRequired("this table is private: join it with its invite code first")
        self._refuse_at_tournament("wait for a seat")
        return await self.waiting.wait(viewer)

    async def unwait(self, viewer: Viewer) -> dict[str, Any]:
        """Leave the waiting list."""
        return await self.waiting.unwait(viewer)

    # ---- closing ------------------------------------------------------------------

    async def close(self, reason: str) -> dict[str, Any]:
        """Close the table: void a hand in play, cash everyone out, stop."""
        paid: list[int] = []

        def change() -> Movement:
            self.dealer.void_hand("the table closed")
            payouts: list[Transfer] = []
            for player in list(self.state.players.values()):
                if player.successor is not None:
                    assert player.successor.person.user_id is not None
                    payouts.append(Transfer(player.successor.person.user_id,
                                            player.successor.buy_in))
                    player.successor = None
                payout = self.core.vacate(player)
                if payout is not None:
                    payouts.append(payout)
            self.state.waiting = []
            self.state.offer = None
            self.core.event({"type": "table_closed", "reason": reason})
            paid.append(sum(p.amount for p in payouts if p.user_id is not None))
            return Movement(payouts=tuple(payouts), closing=True)

        await self.core.move_chips(change)
        await self.core.out.flush()
        await self.services.on_summary(self.id, None)
        await self.core.stop()
        return {"table_id": self.id, "paid_out": paid[-1]}

    @property
    def in_use(self) -> bool:
        """Whether a person sits here or has claimed a bot's seat."""
        return bool(self.state.humans()) or any(
            p.successor is not None for p in self.state.players.values())

    async def close_unused(self, reason: str) -> dict[str, Any]:
        """Close the table unless it is :attr:`in_use` (:class:`TableInUse`): bots' stacks
        go back to the house, and people waiting or watching are told."""
        if self.in_use:
            raise TableInUse("people sit at this table: it stays open while they play")
        return await self.close(reason)

    async def remove_user(self, user_id: int, at_once: bool) -> None:
        """Take a player away (ban: at the end of the hand; deletion: ``at_once``)."""
        self.waiting.drop(user_id)
        claim = self.state.claim_of(user_id)
        if claim is not None and claim.successor is not None:
            await self.core.move_chips(lambda: self._withdraw_claim(user_id))
        player = self.state.player_of(user_id)
        if player is None:
            return
        if self.state.config.tournament is not None:
            self.dealer.sit_out(player)  # tournament chips are no credits to pay out
            return
        if not self.state.in_hand(player.seat):
            await self.dealer.stand_up([player])
            return
        player.leaving = True
        self.core.touch()
        if at_once:
            await self.dealer.pay_out_early(player)
        self.dealer.act_for_absent()
