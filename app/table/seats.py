"""The seats of one table: sitting down (or asking the host to), leaving, sitting out and
in, standing up whoever sat out too long, topping up, the seat's preferences and shuffle
seed, and what follows any change of seats.

Chips move only through the table's one path (:meth:`TableCore.move_chips`): a buy-in
commits with the seat it pays for, and a seat is freed in the commit that cashes it out.
A person may take a bot's seat: they buy in now and sit down when the bot's hand ends
(the bot's stack goes back to the house then, :mod:`app.table.bots`).

A player who sits out keeps the seat for ``sit_out_limit_seconds`` (never stood up at a
tournament table: an absent player is blinded away there), then is cashed out. After any
change of seats the table offers a freed seat to the waiting list, seats or rebuys bots
(or stands them up while a person who won the house's daily cap sits here), tops up
whoever asked, and deals when a hand can start.

What starting a hand and acting for an absent player mean is the dealing's
(:mod:`app.table.dealing`), given to the constructor as :class:`Play`.
"""

from __future__ import annotations

from typing import Protocol

from app.integrity.errors import LinkedAccountSeated
from app.integrity.signins import apart_from_linked
from app.poker.blinds import PlayerStatus
from app.poker.fairness import verify_client_seed
from app.table import commands as c
from app.table.acks import (
    Left,
    LeftSittingOut,
    Preferred,
    Sat,
    SeatAsked,
    Seeded,
    Standing,
    ToppedUp,
)
from app.table.assigned import TournamentHands, take_assigned_seats
from app.table.bots import BotSeats
from app.table.core import TableCore, person_of
from app.table.errors import (
    AlreadySeated,
    InvalidBuyIn,
    NoSuchSeat,
    SeatTaken,
    TournamentSeat,
)
from app.table.events import PlayerLeaving, PlayerSatIn, PlayerSatOut, SeatRequested
from app.table.host_desk import SeatRequest
from app.table.state import Player, Successor, TableState, Viewer
from app.table.store import Movement, Transfer, Write, within_seated_limit
from app.table.topup import TopUps
from app.table.waiting import WaitingList


class Play(Protocol):
    """What the seats ask of the dealing."""

    def schedule_start(self) -> None:
        """Deal the next hand after the start delay, when two players are ready."""

    def act_for_absent(self) -> None:
        """Act now for the player to act if they left or sat out."""


class Seats:
    """The seats of one table (requests run on the table's task)."""

    def __init__(self, core: TableCore, *, waiting: WaitingList, bots: BotSeats,
                 top_ups: TopUps, tournament: TournamentHands | None, play: Play) -> None:
        self.core = core
        self.waiting = waiting
        self.bots = bots
        self.top_ups = top_ups
        self.tournament = tournament
        self.play = play

    @property
    def state(self) -> TableState:
        """The table's state."""
        return self.core.state

    # ---- sitting down ----------------------------------------------------------------

    def check(self, viewer: Viewer, seat: int, buy_in: int) -> None:
        """Refuse a seat ``viewer`` may not take (a tournament's, a taken or offered one,
        a buy-in out of bounds)."""
        config = self.state.config
        if config.tournament is not None:
            raise TournamentSeat("the tournament assigns seats here: you cannot take a seat")
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

    async def sit(self, viewer: Viewer, seat: int, buy_in: int) -> Sat | SeatAsked:
        """Seat ``viewer`` (checked already), or at a private table whose host approves
        seats, queue their request for the host."""
        if self._needs_approval(viewer):
            return self._request_seat(viewer, seat, buy_in)
        return await self.seat(viewer, seat, buy_in)

    async def seat(self, viewer: Viewer, seat: int, buy_in: int) -> Sat:
        """Seat ``viewer`` (who may sit here), buying in from their balance (the ack of
        ``table:sit``)."""
        self.check(viewer, seat, buy_in)
        await self.bots.check_cap(viewer.user_id)
        occupant = self.state.players.get(seat)
        try:
            balances = await self.core.move_chips(lambda: self._take_seat(viewer, seat, buy_in))
        except LinkedAccountSeated as refused:
            await self.core.services.store.flag_refused_seat(viewer.user_id, refused.linked_ids,
                                                             self.core.id)
            raise
        self.waiting.drop(viewer.user_id)
        self.play.schedule_start()
        return Sat(table_id=self.core.id, seat=seat, buy_in=buy_in,
                   balance=balances[viewer.user_id], pending=occupant is not None)

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
        limit = within_seated_limit(viewer.user_id, self.core.id,
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

    def _needs_approval(self, viewer: Viewer) -> bool:
        """Whether ``viewer``'s ``table:sit`` becomes a request to the host."""
        desk, config = self.state.desk, self.state.config
        return (desk.approval and config.private and not config.hosted_by(viewer.user_id)
                and not viewer.is_admin)

    def _request_seat(self, viewer: Viewer, seat: int, buy_in: int) -> SeatAsked:
        """Queue ``viewer``'s seat request for the host (a new one replaces theirs)."""
        core, desk = self.core, self.state.desk
        request = SeatRequest(viewer.user_id, viewer.public_id, viewer.name, seat, buy_in,
                              core.now())
        desk.requests = [r for r in desk.requests if r.user_id != viewer.user_id]
        desk.requests.append(request)
        core.touch()
        core.event(SeatRequested(**request.public()))
        return SeatAsked(table_id=core.id, seat=seat, buy_in=buy_in)

    # ---- leaving ---------------------------------------------------------------------

    async def leave(self, command: c.Leave) -> Left | LeftSittingOut:
        """Stand up: cashed out now, or when the hand you are in ends (at a tournament
        table: sit out, and be blinded away until you come back)."""
        viewer = command.viewer
        if self.state.config.tournament is not None:
            player = self.core.player_for(viewer)
            self.sit_out(player)
            return LeftSittingOut(table_id=self.core.id, status=player.status.value)
        claim = self.state.claim_of(viewer.user_id)
        if claim is not None and claim.successor is not None:
            refund = claim.successor.buy_in
            await self.withdraw_claim(viewer.user_id)
            return Left(table_id=self.core.id, cashed_out=refund, at_hand_end=False)
        player = self.core.player_for(viewer)
        if self.state.in_hand(player.seat):
            player.leaving = True
            self.core.touch()
            self.core.event(PlayerLeaving(seat=player.seat))
            self.play.act_for_absent()
            return Left(table_id=self.core.id, cashed_out=None, at_hand_end=True)
        amount = player.stack
        await self.stand_up([player])
        return Left(table_id=self.core.id, cashed_out=amount, at_hand_end=False)

    async def withdraw_claim(self, user_id: int) -> None:
        """Give back the buy-in of ``user_id``'s claim on a bot's seat, if they hold one."""
        claim = self.state.claim_of(user_id)
        if claim is None or claim.successor is None:
            return

        def change() -> Movement:
            held = self.state.claim_of(user_id)
            assert held is not None and held.successor is not None
            refund, held.successor = held.successor.buy_in, None
            self.core.touch()
            return Movement(payouts=(Transfer(user_id, refund),))

        await self.core.move_chips(change)

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

    # ---- sitting out and in ----------------------------------------------------------

    async def sit_out_asked(self, command: c.SitOut) -> Standing:
        """Stop being dealt in (the seat is kept for a while, then cashed out)."""
        player = self.core.player_for(command.viewer)
        self.sit_out(player)
        return Standing(table_id=self.core.id, status=player.status.value)

    def sit_out(self, player: Player) -> None:
        """Sit a player out (by request or after time-outs); cashed out if out too long."""
        if player.status is PlayerStatus.SITTING_OUT:
            return
        player.status = PlayerStatus.SITTING_OUT
        player.sat_out_at = self.core.now()
        self.core.touch()
        self.core.event(PlayerSatOut(seat=player.seat))
        self.watch_sitting_out(player)
        self.play.act_for_absent()

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

    async def sit_in(self, command: c.SitIn) -> Standing:
        """Be dealt in again (from the next big blind)."""
        player = self.core.player_for(command.viewer)
        if player.status is PlayerStatus.SITTING_OUT:
            player.status = PlayerStatus.WAITING
            player.sat_out_at = None
            player.timeouts = 0
            self.core.mailbox.cancel(f"sit-out:{player.seat}")
            if self.state.desk.away.pop(player.seat, None) is not None:
                self.core.mailbox.cancel(f"away:{player.seat}")
            self.core.touch()
            self.core.event(PlayerSatIn(seat=player.seat))
            self.play.schedule_start()
        return Standing(table_id=self.core.id, status=player.status.value)

    # ---- the seat's own chips and settings ---------------------------------------------

    async def top_up(self, command: c.TopUp) -> ToppedUp:
        """Add credits to the stack between hands, up to the max buy-in."""
        result = await self.top_ups.top_up(command.viewer, command.amount)
        self.play.schedule_start()
        return result

    async def preferences(self, command: c.Preferences) -> Preferred:
        """Set some of your seat's preferences (auto-muck, auto top-up, sitting out
        before your next big blind); auto top-up turned on between hands tops up now."""
        result = self.top_ups.preferences(command.viewer, command.changes)
        if command.changes.get("auto_top_up"):
            await self.top_ups.before_hand()
            self.play.schedule_start()
        return result

    async def seed(self, command: c.Seed) -> Seeded:
        """Mix the seed into the shuffle of every hand that starts from now on (see
        docs/FAIRNESS.md); the ack names the commitment of the next hand's server seed."""
        player = self.core.player_for(command.viewer)
        verify_client_seed(command.seed)
        player.client_seed = command.seed
        self.core.touch()
        return Seeded(table_id=self.core.id, seat=player.seat,
                      next_commitment=self.state.next_commitment)

    # ---- after seats changed ---------------------------------------------------------

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
            self.play.schedule_start()
            return
        self.waiting.offer_free_seat()
        capped = await self.bots.capped_people()
        if capped:
            await self.bots.stand_down(capped)
        else:
            await self.bots.rebuy_busted()
            await self.bots.fill()
        await self.top_ups.before_hand()
        self.play.schedule_start()
