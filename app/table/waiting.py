"""A full table's waiting list: joining it, and holding a freed seat for whoever is first.

When a seat frees up, the first person waiting is offered it (a ``user:notice``
``seat_offer``) and nobody else may take it until the offer expires; then it
passes to the next person. Runs on the table's task like every table request.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.table import commands as c
from app.table.acks import Unwaited, Waiting
from app.table.admission import check_admitted
from app.table.errors import AlreadySeated, NotWaiting, TournamentSeat
from app.table.events import WaitingListChanged
from app.table.state import Person, SeatOffer, TableState

if TYPE_CHECKING:
    from app.table.core import TableCore


class WaitingList:
    """The waiting list of one table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    @property
    def state(self) -> TableState:
        """The table's state (the list itself is ``state.waiting``)."""
        return self.core.state

    async def wait(self, command: c.Wait) -> Waiting:
        """Join the waiting list of a full table (of a private table: once admitted with
        its invite)."""
        viewer = command.viewer
        check_admitted(self.state, self.core.watchers, viewer)
        if self.state.config.tournament is not None:
            raise TournamentSeat("the tournament assigns seats here: you cannot wait for a seat")
        if self.state.has_seat(viewer.user_id):
            raise AlreadySeated("you already have a seat at this table")
        if self.state.free_seats() or self.state.bot_seats():
            raise NotWaiting("there is a free seat: sit down")
        if all(p.user_id != viewer.user_id for p in self.state.waiting):
            self.state.waiting.append(Person(viewer.user_id, viewer.public_id, viewer.name))
            self._announce()
        place = [p.user_id for p in self.state.waiting].index(viewer.user_id) + 1
        return Waiting(table_id=self.core.id, position=place)

    async def unwait(self, command: c.Unwait) -> Unwaited:
        """Leave the waiting list."""
        user_id = command.viewer.user_id
        if all(p.user_id != user_id for p in self.state.waiting):
            raise NotWaiting("you are not on the waiting list")
        self.drop(user_id)
        return Unwaited(table_id=self.core.id)

    def drop(self, user_id: int) -> None:
        """Take a person off the list (and withdraw a seat offered to them)."""
        before = len(self.state.waiting)
        self.state.waiting = [p for p in self.state.waiting if p.user_id != user_id]
        if self.state.offer is not None and self.state.offer.person.user_id == user_id:
            self.state.offer = None
            self.core.mailbox.cancel("offer")
        if len(self.state.waiting) != before:
            self._announce()

    def _announce(self) -> None:
        self.core.touch()
        self.core.event(WaitingListChanged(count=len(self.state.waiting)))

    def offer_free_seat(self) -> None:
        """Hold a free seat for the first waiting person, for a limited time."""
        if self.state.offer is not None or not self.state.waiting:
            return
        free = self.state.free_seats()
        if not free:
            return
        person, table = self.state.waiting[0], self.core
        seconds = table.settings.seat_offer_seconds
        expires = table.now() + seconds
        self.state.offer = SeatOffer(person, free[0], expires)
        table.touch()
        assert person.user_id is not None
        config = self.state.config
        table.out.to_user(person.user_id, "user:notice", {
            "kind": "seat_offer", "table_id": table.id, "seat": free[0], "expires_at": expires,
            "min_buy_in": config.min_buy_in, "max_buy_in": config.max_buy_in})
        table.mailbox.later("offer", seconds, self.offer_expired, person.user_id)

    def rearm(self) -> None:
        """Set the offer's expiry timer again from the state (after a restore)."""
        offer = self.state.offer
        if offer is not None and offer.person.user_id is not None:
            self.core.mailbox.later("offer", offer.expires_at - self.core.now(),
                                    self.offer_expired, offer.person.user_id)

    async def offer_expired(self, user_id: int) -> None:
        """The seat offered to ``user_id`` was not taken in time: offer it to the next."""
        offer = self.state.offer
        if offer is None or offer.person.user_id != user_id:
            return
        self.core.out.to_user(user_id, "user:notice", {
            "kind": "seat_offer_expired", "table_id": self.core.id, "seat": offer.seat})
        self.drop(user_id)
        self.offer_free_seat()
