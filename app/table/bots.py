"""Bots in a table's seats: seating them with the house's credits, rebuying, giving way.

A bot buys in from the house account like a person from their balance (see
:mod:`app.table.store`), through the table's one chip path. When the house
cannot cover a buy-in, no bot sits (and a busted bot stands up instead of
rebuying), so bot tables can never pay out credits the house does not have.

Stakes are bounded too: the most the house can lose at one table at once is a full
buy-in for each bot seat (``max_buy_in × bots``), and a bot sits or rebuys only while
that stays within ``HOUSE_TABLE_SHARE`` of the house's bankroll here (its balance plus
its bots' chips at this table). At higher stakes the table plays without bots.

And so is what one person takes from the house in a day: once what a person won from
the bots since 00:00 UTC, net (each hand's share, :func:`app.table.history.house_shares`),
reaches ``HOUSE_DAILY_WIN_CAP``, they cannot sit at a table with bots until the next day,
and where they already sit the bots stand up after the hand (their stacks back to the
house) and none sits while they stay. Nothing is taken from them: their chips are theirs.
How bots *play* is :mod:`app.poker.bots`.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from functools import partial

from sqlalchemy import select

from app.db.engine import StorageUnavailable
from app.db.ledger import InsufficientCredits
from app.db.models import User
from app.poker.bots import BotStyle
from app.table.core import TableCore
from app.table.errors import HouseCapReached
from app.table.events import StackChanged
from app.table.state import Person, Player
from app.table.store import Movement, Transfer

log = logging.getLogger(__name__)

def day_start(now: float) -> datetime:
    """00:00 UTC of the day ``now`` (Unix time) falls in: when the daily cap starts over."""
    return datetime.fromtimestamp(now, UTC).replace(hour=0, minute=0, second=0,
                                                     microsecond=0)


BOT_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Ken", "Dennis", "Frances")


class BotSeats:
    """The bots of one table."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def fill(self) -> None:
        """Seat bots in free seats up to the table's bot count, while the house can pay."""
        config = self.core.state.config
        wanted = config.bot_count if config.bots else 0
        if not (self._bots() < wanted and self.core.state.free_seats()
                and not self.core.state.waiting) or await self.capped_people():
            return  # no seat for a bot, or a person here has won the house's daily cap
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

    # ---- the daily cap on what one person wins from the house ----------------------------

    def _capped_here(self) -> bool:
        """Whether the daily cap applies at this table: bots play here with house credits."""
        config = self.core.state.config
        return (self.core.settings.house_daily_win_cap > 0 and config.bots
                and config.tournament is None)

    async def _won_today(self, user_ids: list[int]) -> dict[int, int]:
        day = day_start(self.core.now())
        return await self.core.services.store.won_from_house(user_ids, day)

    async def check_cap(self, user_id: int) -> None:
        """:class:`HouseCapReached` when ``user_id`` has won the daily cap from the house and
        bots play at this table."""
        if not self._capped_here():
            return
        cap = self.core.settings.house_daily_win_cap
        won = (await self._won_today([user_id])).get(user_id, 0)
        if won >= cap:
            resets = day_start(self.core.now()) + timedelta(days=1)
            raise HouseCapReached(
                f"you have won {won} from the house's bots today, its daily cap is {cap}: "
                "tables with bots seat you again from 00:00 UTC; tables without bots do now",
                cap=cap, won=won, resets_at=int(resets.timestamp()))

    async def capped_people(self) -> dict[int, int]:
        """The people seated here who have won the daily cap from the house, with what they
        won (none when no cap applies here, or while the database cannot be read)."""
        people = [p.user_id for p in self.core.state.humans() if p.user_id is not None]
        if not people or not self._capped_here():
            return {}
        try:
            won = await self._won_today(people)
        except StorageUnavailable:
            return {}  # seating a bot fails too, and the table waits for the database
        cap = self.core.settings.house_daily_win_cap
        return {user_id: won[user_id] for user_id in people if won.get(user_id, 0) >= cap}

    async def stand_down(self, capped: dict[int, int]) -> None:
        """Stand up every bot between hands, its stack back to the house, and tell the
        ``capped`` people (user id: won today) why."""
        state = self.core.state
        seats = [p.seat for p in state.players.values()
                 if p.is_bot and p.successor is None and not state.in_hand(p.seat)]
        if not seats:
            return
        cap = self.core.settings.house_daily_win_cap
        resets = int((day_start(self.core.now()) + timedelta(days=1)).timestamp())

        def change() -> Movement:
            transfers = [self.core.vacate(state.players[seat]) for seat in seats]
            for user_id, won in capped.items():
                self.core.out.to_user(user_id, "user:notice", {
                    "kind": "house_cap_reached", "table_id": self.core.id, "cap": cap,
                    "won": won, "resets_at": resets})
            return Movement(payouts=tuple(t for t in transfers if t))

        log.info("table %s: the bots leave, %d people here won the house's daily cap",
                 self.core.id, len(capped))
        await self.core.move_chips(change)

    async def within_bound(self, bots: int) -> bool:
        """Whether ``bots`` full buy-ins, the house's worst case at this table, stay within
        its share (``HOUSE_TABLE_SHARE``) of its bankroll here: its balance plus its bots'
        chips at this table."""
        at_table = sum(p.stack - p.paid_out for p in self.core.state.players.values()
                       if p.is_bot)
        try:
            balance = await self._house_balance()
        except StorageUnavailable:
            return True  # the buy-in itself fails, and the table waits for the database
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
                        time_bank=self.core.state.config.time_bank.seconds,
                        bought_in=successor.buy_in)
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
        self.core.event(StackChanged(seat=seat, stack=bot.stack, added=bot.stack))
        return Movement(buy_ins=(Transfer(None, bot.stack),))

    def _stand_up(self, seat: int) -> Movement:
        transfer = self.core.vacate(self.core.state.players[seat])
        return Movement(payouts=(transfer,) if transfer else ())
