"""One table: every request about seats, watching, chat and closing, and the table's
face to the code that hosts it.

Each public coroutine here is a message: callers run it on the table's task
with ``await table.ask(table.sit, ...)`` (waiting for its answer) or
``table.tell(table.disconnected, ...)`` (not waiting), never directly. Playing
the hand (turns, the clock, bots, the end of a hand) is :mod:`app.table.dealer`;
state, storage and the one path chips take are :mod:`app.table.core`.

Code outside ``app/table`` uses a table only through :class:`Table`'s face
(``tests/test_layers.py`` holds it to that):

- opening and restoring: ``Table(id, state, services, lease=, draining=)`` for a new
  table, :meth:`Table.restore` for one as it was committed; then :meth:`Table.start`;
- posting: :meth:`Table.ask` and :meth:`Table.tell`;
- dealing and stopping here: :meth:`Table.drain`, :meth:`Table.deal_again`,
  :meth:`Table.give_up`, :meth:`Table.stop`;
- a tournament's table: :meth:`Table.attach_tournament`, :meth:`Table.take_assigned_seats`;
- reading: :attr:`Table.state`, :attr:`Table.lease`, :attr:`Table.closed`,
  :attr:`Table.lost`, :attr:`Table.unavailable`, :meth:`Table.summary`,
  :meth:`Table.seats`.

What a table emits (its messages, its lobby summary, losing its lease) goes to the
callbacks of the :class:`TableServices` it is opened with.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from typing import Any

from app.errors import HoldemError
from app.integrity.errors import LinkedAccountSeated
from app.integrity.signins import apart_from_linked
from app.poker.blinds import PlayerStatus
from app.poker.events import ActionKind
from app.poker.fairness import verify_client_seed
from app.poker.preactions import Intent
from app.table import projection
from app.table.actor import Handler
from app.table.assigned import TournamentHands
from app.table.bots import BotSeats
from app.table.chat import TableChat
from app.table.core import TableCore, TableServices, person_of
from app.table.dealer import Dealer
from app.table.errors import (
    AlreadySeated,
    InvalidBuyIn,
    InviteRequired,
    NoSuchSeat,
    SeatTaken,
    TableInUse,
    TournamentSeat,
)
from app.table.host import HostControls
from app.table.preactions import PreActions
from app.table.state import Player, Successor, TableState, Viewer
from app.table.store import Movement, Transfer, Write, within_seated_limit
from app.table.topup import TopUps
from app.table.waiting import WaitingList

# What code outside app/table takes from here (TableServices: what opening a table takes).
__all__ = ["Attach", "Table", "TableServices"]

log = logging.getLogger(__name__)

Attach = Callable[["Table"], None]
"""Called with a table before it does anything, by a feature that runs it (a tournament
attaches its tables: :meth:`Table.attach_tournament`)."""


class Table:
    """A live table: the requests players send it, over its core, waiting list, bots
    and dealer."""

    def __init__(self, table_id: str, state: TableState, services: TableServices, *,
                 lease: int | None = None, draining: bool = False) -> None:
        """A table over ``state``, not started yet (see :meth:`start`); ``lease``: the
        fencing token every write of it carries (see :mod:`app.realtime.leases`);
        ``draining``: deal no new hand (see :meth:`drain`)."""
        self.id = table_id
        self.core = TableCore(table_id, state, services)
        self.core.lease = lease
        self.core.draining = draining
        self.waiting = WaitingList(self.core)
        self.bots = BotSeats(self.core)
        self.top_ups = TopUps(self.core)
        self.preactions = PreActions(self.core)
        self.talk = TableChat(self.core)
        self.dealer = Dealer(self.core, waiting=self.waiting, bots=self.bots,
                             top_ups=self.top_ups, preactions=self.preactions)
        self.hosting = HostControls(self.core, dealer=self.dealer, seat=self.seat,
                                    remove=self.remove_user)
        self.core.rearm = self._rearm
        self.core.reload = self._reload

    @classmethod
    async def restore(cls, table_id: str, state: TableState, services: TableServices, *,
                      lease: int, draining: bool, attach: Attach | None = None) -> Table:
        """A table as it was committed, after a restart or a move to this process, ready to
        :meth:`start`: once ``attach`` ran, the stored hand in play goes on where it stood
        or is void (``hand_voided``), and between hands whoever was leaving is paid out
        (see :meth:`Dealer.recover`). Raises :class:`TableMoved` if the lease was lost
        meanwhile."""
        table = cls(table_id, state, services, lease=lease, draining=draining)
        if attach is not None:
            attach(table)
        await table.dealer.recover()
        return table

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
    def lease(self) -> int | None:
        """The fencing token of this process's lease on the table (None: no lease)."""
        return self.core.lease

    @property
    def lost(self) -> bool:
        """Whether the table was given up here: another process runs it now."""
        return self.core.lost

    @property
    def unavailable(self) -> bool:
        """Whether the table's storage is unreachable (requests are refused meanwhile)."""
        return self.core.unavailable

    @property
    def watchers(self) -> dict[str, int | None]:
        """Sessions watching, with their user (None: anonymous)."""
        return self.core.watchers

    async def ask(self, handler: Handler, *args: Any) -> Any:
        """Run one of this table's requests on its task and return the answer."""
        return await self.core.ask(handler, *args)

    def tell(self, handler: Handler, *args: Any) -> None:
        """Queue one of this table's messages on its task without waiting for it."""
        self.core.mailbox.tell(handler, *args)

    async def caught_up(self) -> None:
        """Return once what this table was given to do before has run, and the messages
        it made have been sent (refused, as any request, once the table is closed)."""
        await self.core.mailbox.ask(_caught_up)

    def summary(self) -> dict[str, Any]:
        """The table as the lobby lists it (``TableSummary``)."""
        return projection.summary(self.core)

    def seats(self) -> list[dict[str, Any]]:
        """Every taken seat as ``SeatPublic``."""
        return projection.seats_public(self.core)

    # ---- running here ---------------------------------------------------------

    async def start(self) -> None:
        """Start the table's task and, when it can, the first hand."""
        self.core.mailbox.start()
        self.core.mailbox.tell(self._resume)

    async def _resume(self) -> None:
        self.waiting.offer_free_seat()
        await self.dealer.after_seats_changed()
        # A restored hand in play: its player to act gets a fresh clock.
        self.dealer.rearm()
        self.hosting.rearm()

    def _rearm(self) -> None:
        self.waiting.rearm()
        self.dealer.rearm()
        self.hosting.rearm()

    async def _reload(self, stored: dict[str, Any]) -> None:
        """Go on from ``stored``, the table as the database holds it, which this table did
        not know it stored (a commit whose answer was lost), as a restart does: recover
        it, resume, and give every watcher a fresh snapshot."""
        self.core.take_stored(stored)
        try:
            if self.dealer.tournament is not None:
                await self._tournament_stored_after_all(self.dealer.tournament)
            await self.dealer.recover(reason="the table was restored from storage")
            await self._resume()
        finally:
            # Even if recovering failed: the state is then the stored one again. Like every
            # message, the snapshots are sent once the state they show is stored.
            for sid, user_id in self.core.watchers.items():
                self._snapshot_to(sid, user_id)

    async def _tournament_stored_after_all(self, tournament: TournamentHands) -> None:
        # Failing (the database gone again), the tournament assigns no seats until it has
        # read its standings, which its next change does.
        try:
            await tournament.stored_after_all()
        except Exception:
            log.exception("table %s: its tournament could not take the stored result yet",
                          self.id)

    def drain(self) -> None:
        """Deal no new hand here (the hand in play goes on): the process lets the table go."""
        self.core.draining = True
        self.core.mailbox.cancel("start")

    def deal_again(self) -> None:
        """The table stays after all: deal new hands again (undoes :meth:`drain`)."""
        self.core.draining = False
        self.tell(self._schedule_start)

    async def _schedule_start(self) -> None:
        self.dealer.schedule_start()

    def give_up(self) -> asyncio.Future[None] | None:
        """Another process owns the table now: stop here at once, sending nothing more
        (see :meth:`TableCore.give_up`); the work of leaving it, if not given up already."""
        return self.core.give_up()

    async def stop(self, *, refusal: Callable[[], HoldemError] | None = None) -> None:
        """Stop the table's task and timers here, after the messages already queued (its
        state is stored); requests still waiting, and any after, get ``refusal()`` when
        given (say, ``table_moved``), else what they got before."""
        if refusal is not None:
            self.core.mailbox.refusal = refusal
        await self.core.stop()

    # ---- a tournament's table ---------------------------------------------------

    def attach_tournament(self, hands: TournamentHands) -> None:
        """Make this a table of the tournament ``hands`` speaks for: it assigns the seats
        and the stakes, and hears of every hand (before the table starts or restores)."""
        self.dealer.tournament = hands

    async def take_assigned_seats(self) -> None:
        """At a tournament table: take the seats the tournament assigns now (arrivals sit
        down during a hand too) and deal when a hand can start."""
        if self.dealer.tournament is not None:
            await self.dealer.take_seats()
            self.dealer.schedule_start()

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
            self._snapshot_to(sid, user_id)
        else:
            for name, body in missed:
                core.out.to_session(sid, name, body)
            if user_id is not None:
                self.preactions.resend(sid, user_id)
        player = self.state.player_of(user_id) if user_id is not None else None
        if player is not None and player.user_id in core.away:
            core.away.discard(player.user_id)
            core.event({"type": "player_connection", "seat": player.seat, "connected": True})
            self.dealer.player_back(player)
        return {"table_id": self.id, "seq": self.state.seq,
                "replayed": None if missed is None else len(missed)}

    def _snapshot_to(self, sid: str, user_id: int | None) -> None:
        self.core.out.to_session(sid, "table:snapshot",
                                 projection.snapshot(self.core, self.dealer, user_id,
                                                     chat=self.talk.lines_for(user_id)))

    def _watch(self, sid: str, viewer: Viewer | None) -> None:
        self.core.watchers[sid] = viewer.user_id if viewer else None

    async def unwatch(self, sid: str) -> dict[str, Any]:
        """Stop watching (a seat, if any, is kept: leave it with ``table:leave``)."""
        self.core.watchers.pop(sid, None)
        return {"table_id": self.id}

    async def disconnected(self, sid: str, user_id: int | None) -> None:
        """A session ended: the seat stays; on the player's turn, a short grace to come
        back starts (see :meth:`Dealer.player_away`)."""
        self.core.watchers.pop(sid, None)
        if user_id is None or self.core.connected(user_id):
            return
        player = self.state.player_of(user_id)
        if player is not None:
            self.core.away.add(user_id)
            self.core.event({"type": "player_connection", "seat": player.seat,
                             "connected": False})
            self.dealer.player_away(player)

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
        watching = sid in self.core.watchers
        if not watching:
            self._watch(sid, viewer)
            self.core.out.to_session(sid, "table:snapshot",
                                     projection.snapshot(
                                         self.core, self.dealer, viewer.user_id,
                                         chat=self.talk.lines_for(viewer.user_id)))
        if self.hosting.needs_approval(viewer):
            return self.hosting.request_seat(viewer, seat, buy_in)
        try:
            return await self.seat(viewer, seat, buy_in)
        except Exception:
            if not watching:
                await self.unwatch(sid)
            raise

    async def seat(self, viewer: Viewer, seat: int, buy_in: int) -> dict[str, Any]:
        """Seat ``viewer`` (who may sit here), buying in from their balance (the ack of
        ``table:sit``)."""
        self._check_seat(viewer, seat, buy_in)
        await self.bots.check_cap(viewer.user_id)
        occupant = self.state.players.get(seat)
        try:
            balances = await self.core.move_chips(lambda: self._take_seat(viewer, seat, buy_in))
        except LinkedAccountSeated as refused:
            await self.core.services.store.flag_refused_seat(viewer.user_id, refused.linked_ids,
                                                             self.id)
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
            player = Player(seat, person, buy_in,
                            time_bank=self.state.config.time_bank.seconds, bought_in=buy_in)
            self.state.players[seat] = player
            self.core.announce_sat(player)
        # Counted where every process sees it, in the transaction that seats the person.
        limit = within_seated_limit(viewer.user_id, self.id,
                                    self.core.settings.max_seated_tables_per_user)
        return Movement(buy_ins=(Transfer(viewer.user_id, buy_in),), payouts=payouts,
                        writes=(limit, *self._apart_from_linked(viewer.user_id)))

    def _apart_from_linked(self, user_id: int) -> tuple[Write, ...]:
        """At a public cash table (with ``SEPARATE_LINKED_ACCOUNTS``): the check that no
        account linked to ``user_id`` sits here, in the transaction that seats them."""
        config, settings = self.state.config, self.core.settings
        if config.private or config.tournament is not None \
                or not settings.separate_linked_accounts:
            return ()
        others = {p.user_id for p in self.state.players.values() if p.user_id is not None}
        others |= {p.successor.person.user_id for p in self.state.players.values()
                   if p.successor is not None and p.successor.person.user_id is not None}
        others.discard(user_id)
        if not others:
            return ()
        return (apart_from_linked(user_id, sorted(others),
                                  days=settings.sign_in_record_days),)

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
            if self.state.desk.away.pop(player.seat, None) is not None:
                self.core.mailbox.cancel(f"away:{player.seat}")
            self.core.touch()
            self.core.event({"type": "player_sat_in", "seat": player.seat})
            self.dealer.schedule_start()
        return {"table_id": self.id, "status": player.status.value}

    async def top_up(self, viewer: Viewer, amount: int) -> dict[str, Any]:
        """Add credits to the stack between hands, up to the max buy-in."""
        result = await self.top_ups.top_up(viewer, amount)
        self.dealer.schedule_start()
        return result

    async def preferences(self, viewer: Viewer, changes: dict[str, bool]) -> dict[str, Any]:
        """Set some of your seat's preferences (auto-muck, auto top-up, sitting out
        before your next big blind); auto top-up turned on between hands tops up now."""
        result = self.top_ups.preferences(viewer, changes)
        if changes.get("auto_top_up"):
            await self.top_ups.before_hand()
            self.dealer.schedule_start()
        return result

    # ---- chat ---------------------------------------------------------------------

    async def chat(self, viewer: Viewer, text: str) -> dict[str, Any]:
        """Say something to the table (refused while muted, rate-limited, filtered; the
        last 50 lines are kept; see :meth:`TableChat.say`)."""
        if not self.admitted(viewer):
            raise InviteRequired("this table is private: join it with its invite code first")
        return self.talk.say(viewer, text)

    async def report(self, viewer: Viewer, public_id: str) -> dict[str, Any]:
        """What a report about ``public_id`` carries from here: the last chat lines and
        the hand (see :meth:`TableChat.evidence`)."""
        if not self.admitted(viewer):
            raise InviteRequired("this table is private: join it with its invite code first")
        return self.talk.evidence(viewer, public_id)

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

    async def preact(self, viewer: Viewer, hand_id: str, intent: Intent | None,
                     amount: int | None) -> dict[str, Any]:
        """Choose (or clear, with None) what to do when your turn comes in the hand in play
        (see :mod:`app.table.preactions`); only you hear of it."""
        return self.preactions.choose(viewer, hand_id, intent, amount)

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
        await self.core.end()
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


async def _caught_up() -> None:
    """Nothing, run on the table's task after what was queued before it."""
