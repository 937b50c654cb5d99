"""One table: its actor, and every request about seats, watching, chat and closing.

Each public coroutine here is a message: callers run it on the table's task
with ``await table.ask(table.sit, ...)``, never directly. Playing the hand
(turns, the clock, bots, the end of a hand) is :mod:`app.realtime.dealer`.
"""

from __future__ import annotations

import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

import socketio

from app.accounts.ratelimit import RateLimiter
from app.config import Settings
from app.poker.blinds import PlayerStatus
from app.poker.cards import Deck
from app.realtime import projection
from app.realtime.actor import Handler, Mailbox
from app.realtime.broadcast import Broadcaster
from app.realtime.connections import Connections, Viewer, table_room
from app.realtime.dealer import Dealer
from app.realtime.errors import (
    AlreadySeated,
    HandInProgress,
    InvalidBuyIn,
    InvalidPayload,
    InviteRequired,
    NoSuchSeat,
    NotSeated,
    SeatTaken,
)
from app.realtime.seating import Person, Player, Successor, TableState
from app.realtime.store import Payout, TableStore
from app.realtime.waiting import WaitingList

log = logging.getLogger(__name__)

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Frances")


@dataclass
class TableServices:
    """What every table shares: sockets, storage, settings, and injectable sources."""

    sio: socketio.AsyncServer
    connections: Connections
    store: TableStore
    settings: Settings
    limiter: RateLimiter
    deck_factory: Callable[[], Deck] = Deck
    bot_rng: Random = field(default_factory=lambda: Random(secrets.randbits(64)))
    now: Callable[[], float] = time.time
    on_summary: Callable[[str, dict[str, Any] | None], Awaitable[None]] = field(
        default=lambda _id, _summary: _nothing())


async def _nothing() -> None:
    return None


def person_of(viewer: Viewer) -> Person:
    """How a connected user appears at a table."""
    return Person(viewer.user_id, viewer.public_id, viewer.name)


def clean_text(text: str) -> str:
    """Chat text without control characters, trimmed."""
    return "".join(c for c in unicodedata.normalize("NFC", text)
                   if unicodedata.category(c)[0] != "C").strip()


class Table:
    """A live table: its state, its mailbox, the watchers, and the dealer."""

    def __init__(self, table_id: str, state: TableState, services: TableServices) -> None:
        self.id = table_id
        self.state = state
        self.services = services
        self.mailbox = Mailbox(table_id, after_each=self._after_each)
        self.out = Broadcaster(services.sio, services.connections, table_id,
                               next_seq=self._next_seq)
        self.watchers: dict[str, int | None] = {}
        self.away: set[int] = set()
        self.dealer = Dealer(self)
        self.waiting = WaitingList(self)
        self._dirty = False

    # ---- plumbing -----------------------------------------------------------

    @property
    def settings(self) -> Settings:
        """The server's settings."""
        return self.services.settings

    def now(self) -> float:
        """Wall-clock time (deadlines are sent to clients as Unix times)."""
        return self.services.now()

    async def ask(self, handler: Handler, *args: Any) -> Any:
        """Run one of this table's requests on its task and return the answer."""
        return await self.mailbox.call(handler, *args)

    def touch(self) -> None:
        """Mark the state changed: it is saved after the current message."""
        self._dirty = True

    def _next_seq(self) -> int:
        self.state.seq += 1
        self._dirty = True
        return self.state.seq

    def event(self, body: dict[str, Any], *, hand_id: str | None = None) -> int:
        """Queue a public ``table:event``."""
        return self.out.send("table:event", {"hand_id": hand_id, "event": body})

    async def _after_each(self) -> None:
        if self._dirty and not self.mailbox.closed:
            self._dirty = False
            await self.services.store.save(self.id, self.state.to_dict())
        await self.out.flush()
        if not self.mailbox.closed:
            await self.services.on_summary(self.id, projection.summary(self))

    async def start(self) -> None:
        """Start the table's task and, when it can, the first hand."""
        self.mailbox.start()
        self.mailbox.post(self._resume)

    async def _resume(self) -> None:
        self.waiting.offer_free_seat()
        self.fill_with_bots()
        self.dealer.schedule_start()
        for player in self.state.players.values():
            self.dealer.watch_sitting_out(player)

    # ---- watching -----------------------------------------------------------

    def _check_invite(self, viewer: Viewer | None, code: str | None) -> None:
        config = self.state.config
        if not config.private or (viewer and (viewer.is_admin
                                              or self.state.has_seat(viewer.user_id))):
            return
        if code is None or not secrets.compare_digest(code, config.invite_code or ""):
            raise InviteRequired("this table is private: ask for its invite code")

    async def join(
        self, sid: str, viewer: Viewer | None, invite_code: str | None, since_seq: int | None
    ) -> dict[str, Any]:
        """Watch the table: a snapshot (or the missed events) now, every event after."""
        self._check_invite(viewer, invite_code)
        await self.services.sio.enter_room(sid, table_room(self.id))
        self.watchers[sid] = viewer.user_id if viewer else None
        user_id = viewer.user_id if viewer else None
        missed = self.out.missed(since_seq, user_id) if since_seq is not None else None
        if missed is None:
            self.out.to_session(sid, "table:snapshot", projection.snapshot(self, user_id))
        else:
            for name, body in missed:
                self.out.to_session(sid, name, body)
        player = self.state.player_of(user_id) if user_id is not None else None
        if player is not None and player.user_id in self.away:
            self.away.discard(player.user_id)
            self.event({"type": "player_connection", "seat": player.seat, "connected": True})
        return {"table_id": self.id, "seq": self.state.seq,
                "replayed": None if missed is None else len(missed)}

    async def unwatch(self, sid: str) -> dict[str, Any]:
        """Stop watching (a seat, if any, is kept: leave it with ``table:leave``)."""
        self.watchers.pop(sid, None)
        await self.services.sio.leave_room(sid, table_room(self.id))
        return {"table_id": self.id}

    async def disconnected(self, sid: str, user_id: int | None) -> None:
        """A session ended: the seat stays and its clock keeps running."""
        self.watchers.pop(sid, None)
        if user_id is None or self.services.connections.is_connected(user_id):
            return
        player = self.state.player_of(user_id)
        if player is not None:
            self.away.add(user_id)
            self.event({"type": "player_connection", "seat": player.seat, "connected": False})

    # ---- seats ----------------------------------------------------------------

    async def sit(
        self, sid: str, viewer: Viewer, seat: int, buy_in: int, invite_code: str | None
    ) -> dict[str, Any]:
        """Take a seat, buying in from the balance (a bot gives its seat up)."""
        self._check_invite(viewer, invite_code)
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
        if sid not in self.watchers:
            await self.join(sid, viewer, invite_code, None)
        balance = await self._buy_in(viewer, seat, buy_in, occupant)
        self.dealer.schedule_start()
        return {"table_id": self.id, "seat": seat, "buy_in": buy_in, "balance": balance,
                "pending": occupant is not None}

    async def _buy_in(
        self, viewer: Viewer, seat: int, buy_in: int, bot: Player | None
    ) -> int:
        person = person_of(viewer)
        before = self.state.to_dict()
        if bot is not None and self.state.in_hand(seat):
            bot.successor = Successor(person, buy_in)
        else:
            if bot is not None:
                self.stand_up(bot)
            self.state.players[seat] = Player(seat, person, buy_in,
                                              time_bank=self.settings.time_bank_seconds)
        self.waiting.drop(viewer.user_id)
        try:
            balance = await self.services.store.buy_in(self.id, viewer.user_id, buy_in,
                                                       self.state.to_dict())
        except Exception:
            self.state = type(self.state).from_dict(before)
            raise
        if bot is None or not self.state.in_hand(seat):
            self.announce_sat(self.state.players[seat])
        return balance

    def announce_sat(self, player: Player) -> None:
        """Tell the table someone sat down."""
        self.event({"type": "player_sat", "seat": player.seat,
                    "player": player.person.public(player.bot), "stack": player.stack,
                    "status": player.status.value})

    def stand_up(self, player: Player) -> Payout | None:
        """Free the seat (between hands for this seat) and say what the player takes home."""
        del self.state.players[player.seat]
        self.mailbox.cancel(f"sit-out:{player.seat}")
        self.event({"type": "player_left", "seat": player.seat,
                    "player": player.person.public(player.bot), "stack": player.stack})
        if player.user_id is None:
            return None
        amount = player.stack - player.paid_out
        self.out.to_user(player.user_id, "user:notice", {
            "kind": "cashed_out", "table_id": self.id, "amount": amount})
        return Payout(player.user_id, amount)

    async def stand_up_now(self, players: list[Player]) -> None:
        """Cash out and free several seats in one transaction, then offer them."""
        payouts = [p for p in (self.stand_up(player) for player in players) if p]
        await self.services.store.cash_out(self.id, [p for p in payouts if p.amount],
                                           self.state.to_dict())
        self.waiting.offer_free_seat()
        self.fill_with_bots()

    async def leave(self, viewer: Viewer) -> dict[str, Any]:
        """Stand up: cashed out now, or when the hand you are in ends."""
        claim = self.state.claim_of(viewer.user_id)
        if claim is not None and claim.successor is not None:
            refund = claim.successor.buy_in
            claim.successor = None
            await self.services.store.cash_out(self.id, [Payout(viewer.user_id, refund)],
                                               self.state.to_dict())
            return {"table_id": self.id, "cashed_out": refund, "at_hand_end": False}
        player = self.require_player(viewer)
        if self.state.in_hand(player.seat):
            player.leaving = True
            self.touch()
            self.event({"type": "player_leaving", "seat": player.seat})
            self.dealer.act_for_absent()
            return {"table_id": self.id, "cashed_out": None, "at_hand_end": True}
        amount = player.stack
        await self.stand_up_now([player])
        self.dealer.schedule_start()
        return {"table_id": self.id, "cashed_out": amount, "at_hand_end": False}

    def require_player(self, viewer: Viewer) -> Player:
        player = self.state.player_of(viewer.user_id)
        if player is None:
            raise NotSeated("you have no seat at this table")
        return player

    async def sit_out(self, viewer: Viewer) -> dict[str, Any]:
        """Stop being dealt in (the seat is kept for a while, then cashed out)."""
        player = self.require_player(viewer)
        self.dealer.sit_out(player)
        return {"table_id": self.id, "status": player.status.value}

    async def sit_in(self, viewer: Viewer) -> dict[str, Any]:
        """Be dealt in again (from the next big blind)."""
        player = self.require_player(viewer)
        if player.status is PlayerStatus.SITTING_OUT:
            player.status = PlayerStatus.WAITING
            player.sat_out_at = None
            player.timeouts = 0
            self.mailbox.cancel(f"sit-out:{player.seat}")
            self.touch()
            self.event({"type": "player_sat_in", "seat": player.seat})
            self.dealer.schedule_start()
        return {"table_id": self.id, "status": player.status.value}

    async def top_up(self, viewer: Viewer, amount: int) -> dict[str, Any]:
        """Add credits to the stack between hands, up to the max buy-in."""
        player = self.require_player(viewer)
        if self.state.in_hand(player.seat):
            raise HandInProgress("top up between hands")
        room = self.state.config.max_buy_in - player.stack
        if amount > room:
            raise InvalidBuyIn(f"you can add at most {max(room, 0)}", min=1, max=max(room, 0))
        player.stack += amount
        try:
            balance = await self.services.store.buy_in(self.id, viewer.user_id, amount,
                                                       self.state.to_dict())
        except Exception:
            player.stack -= amount
            raise
        self.event({"type": "stack_changed", "seat": player.seat, "stack": player.stack,
                    "added": amount})
        self.dealer.schedule_start()
        return {"table_id": self.id, "stack": player.stack, "balance": balance}

    # ---- bots -------------------------------------------------------------------

    def fill_with_bots(self) -> None:
        """Seat bots in free seats up to the table's bot count."""
        config = self.state.config
        wanted = config.bot_count if config.bots else 0
        present = sum(1 for p in self.state.players.values() if p.is_bot)
        styles = self.dealer.bot_styles()
        while present < wanted and self.state.free_seats() and not self.state.waiting:
            seat = self.state.free_seats()[-1]
            number = self.state.bots_seated = self.state.bots_seated + 1
            name = f"{BOT_NAMES[(number - 1) % len(BOT_NAMES)]} (bot)"
            style = config.bot_style or styles[(number - 1) % len(styles)]
            person = Person(None, f"bot-{self.id}-{number}", name)
            self.state.players[seat] = Player(seat, person, config.max_buy_in, bot=style)
            self.announce_sat(self.state.players[seat])
            present += 1

    # ---- chat ---------------------------------------------------------------------

    async def chat(self, viewer: Viewer, text: str) -> dict[str, Any]:
        """Say something to the table (rate-limited; the last 50 lines are kept)."""
        self.services.limiter.hit("chat", str(viewer.user_id), self.settings.rate_limit_chat)
        cleaned = clean_text(text)
        if not cleaned:
            raise InvalidPayload("say something", problems=[])
        line = {"player": person_of(viewer).public(), "text": cleaned, "at": self.now()}
        self.state.add_chat(line)
        self.touch()
        seq = self.event({"type": "chat", **line})
        return {"table_id": self.id, "seq": seq}

    # ---- closing ------------------------------------------------------------------

    async def close(self, reason: str) -> dict[str, Any]:
        """Close the table: void a hand in play, cash everyone out, stop."""
        self.dealer.void_hand("the table closed")
        payouts: list[Payout] = []
        for player in list(self.state.players.values()):
            if player.successor is not None:
                assert player.successor.person.user_id is not None
                payouts.append(Payout(player.successor.person.user_id,
                                      player.successor.buy_in))
                player.successor = None
            payout = self.stand_up(player)
            if payout is not None and payout.amount:
                payouts.append(payout)
        self.state.waiting = []
        self.state.offer = None
        self.event({"type": "table_closed", "reason": reason})
        await self.services.store.close(self.id, payouts, self.state.to_dict())
        self._dirty = False
        await self.out.flush()
        await self.services.on_summary(self.id, None)
        await self.mailbox.stop()
        await self.services.sio.close_room(table_room(self.id))
        return {"table_id": self.id, "paid_out": sum(p.amount for p in payouts)}

    async def remove_user(self, user_id: int, at_once: bool) -> None:
        """Take a player away (ban: at the end of the hand; deletion: ``at_once``)."""
        self.waiting.drop(user_id)
        claim = self.state.claim_of(user_id)
        if claim is not None and claim.successor is not None:
            refund, claim.successor = claim.successor.buy_in, None
            await self.services.store.cash_out(self.id, [Payout(user_id, refund)],
                                               self.state.to_dict())
        player = self.state.player_of(user_id)
        if player is None:
            return
        if not self.state.in_hand(player.seat):
            await self.stand_up_now([player])
            return
        player.leaving = True
        self.touch()
        if at_once:
            await self.dealer.pay_out_early(player)
        self.dealer.act_for_absent()
