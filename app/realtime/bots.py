"""Bots in a table's seats: seating them with the house's credits, rebuying, giving way.

A bot buys in from the house account like a person from their balance (see
:mod:`app.realtime.store`), through the table's one chip path. When the house
cannot cover a buy-in, no bot sits (and a busted bot stands up instead of
rebuying), so bot tables can never pay out credits the house does not have.

Stakes are bounded too: the most the house can lose at one table at once is a full
buy-in for each bot seat (``max_buy_in × bots``), and a bot sits or rebuys only while
that stays within ``HOUSE_TABLE_SHARE`` of the house's bankroll here (its balance plus
its bots' chips at this table). At higher stakes the table plays without bots.
How bots *play* is :mod:`app.poker.bots`.
"""

from __future__ import annotations

import logging
from functools import partial

from sqlalchemy import select

from app.db.engine import is_unavailable
from app.db.ledger import InsufficientCredits
from app.db.models import User
from app.poker.bots import BotStyle
from app.realtime.core import TableCore
from app.realtime.seating import Person, Player
from app.realtime.store import Movement, Transfer

log = logging.getLogger(__name__)

BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Frances")


class BotSeats:
    """The bots of one table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def fill(self) -> None:
        """Seat bots in free seats up to the table's bot count, while the house can pay."""
        config = self.core.state.config
        wanted = config.bot_count if config.bots else 0
        while (self._bots() < wanted and self.core.state.free_seats()
               and not self.core.state.waiting):
            if not await self.within_bound(self._bots() + 1):
                log.info("table %s: another bot would risk more than the house's share",
                         self.core.id)
                return
            try:
                await self.core.move_chips(self._seat_one)
            except InsufficientCredits:
                log.info("table %s: the house cannot cover another bot", self.core.id)
                return

    def _bots(self) -> int:
        return sum(1 for p in self.core.state.players.values() if p.is_bot)

    async def within_bound(self, bots: int) -> bool:
        """Whether ``bots`` full buy-ins, the house's worst case at this table, stay within
        its share (``HOUSE_TABLE_SHARE``) of its bankroll here: its balance plus its bots'
        chips at this table."""
        at_table = sum(p.stack - p.paid_out for p in self.core.state.players.values()
                       if p.is_bot)
        try:
            balance = await self._house_balance()
        except Exception as error:
            if is_unavailable(error):
                return True  # the buy-in itself fails, and the table waits for the database
            raise
        worst = self.core.state.config.max_buy_in * bots
        return worst <= self.core.settings.house_table_share * (balance + at_table)

    async def _house_balance(self) -> int:
        store = self.core.services.store
        house = await store.house()
        async with store.database.sessions() as session:
            balance = await session.scalar(select(User.balance).where(User.id == house))
        return int(balance or 0)

    def _seat_one(self) -> Movement:
        state = self.core.state
        config = state.config
        seat = state.free_seats()[-1]
        number = state.bots_seated = state.bots_seated + 1
        name = f"{BOT_NAMES[(number - 1) % len(BOT_NAMES)]} (bot)"
        styles = list(BotStyle)
        style = config.bot_style or styles[(number - 1) % len(styles)]
        person = Person(None, f"bot-{self.core.id}-{number}", name)
        state.players[seat] = Player(seat, person, config.max_buy_in, bot=style)
        self.core.announce_sat(state.players[seat])
        return Movement(buy_ins=(Transfer(None, config.max_buy_in),))

    def give_way(self, bot: Player) -> Transfer | None:
        """At the end of a hand, hand a claimed bot seat to the person who bought in for it
        (their buy-in is already at the table); the bot's stack goes back to the house."""
        successor = bot.successor
        assert successor is not None
        transfer = self.core.vacate(bot)
        player = Player(bot.seat, successor.person, successor.buy_in,
                        time_bank=self.core.settings.time_bank_seconds)
        self.core.state.players[bot.seat] = player
        self.core.announce_sat(player)
        return transfer

    async def rebuy_busted(self) -> None:
        """Busted bots buy in again from the house, or stand up when it cannot pay or the
        table's stakes have grown beyond the house's share of its bankroll."""
        busted = [p.seat for p in self.core.state.players.values() if p.is_bot and p.stack <= 0]
        for seat in busted:
            if not await self._rebought(seat):
                await self.core.move_chips(partial(self._stand_up, seat))

    async def _rebought(self, seat: int) -> bool:
        if not await self.within_bound(self._bots()):
            return False
        try:
            await self.core.move_chips(partial(self._rebuy, seat))
        except InsufficientCredits:
            return False
        return True

    def _rebuy(self, seat: int) -> Movement:
        bot = self.core.state.players[seat]
        bot.stack = self.core.state.config.max_buy_in
        self.core.event({"type": "stack_changed", "seat": seat, "stack": bot.stack,
                         "added": bot.stack})
        return Movement(buy_ins=(Transfer(None, bot.stack),))

    def _stand_up(self, seat: int) -> Movement:
        transfer = self.core.vacate(self.core.state.players[seat])
        return Movement(payouts=(transfer,) if transfer else ())
