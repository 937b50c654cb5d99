"""A raked hand in a real browser: the hand dialog names its rake, and the admin page's
economy section counts it on today's row."""

from __future__ import annotations

import re
import time

from playwright.async_api import expect
from sqlalchemy import select

from app.db.engine import Database
from app.db.models import User
from app.poker.bots import BotStyle
from app.poker.state import Stakes
from app.table.history import finished_hand
from app.table.state import HandInPlay, Person, Player, TableConfig, TableState
from app.table.store import Movement, TableStore, Transfer
from tests.conftest import Mailbox
from tests.poker.test_rake_exports import raked_heads_up
from tests.web.conftest import LiveServer, Visitors, as_admin, screenshot_path, signed_in


async def _store_a_raked_hand(database: Database, user_id: int) -> None:
    """A table where the person (seat 0, KK) lost a hand to a bot (seat 1, AA) whose pot of
    120 paid 3 rake, stored through the table store as a table stores it."""
    store = TableStore(database, house_bankroll=10_000)
    state = TableState(TableConfig(name="Raked", seats=6, stakes=Stakes(5, 10), min_buy_in=100,
                                   max_buy_in=2_000, action_seconds=30.0, bots=True,
                                   bot_count=1))
    await store.create("raked", None, state.config.to_dict(), state.to_dict())
    state.players[0] = Player(0, Person(user_id, "p", "Ivan"), 1_000)
    state.players[1] = Player(1, Person(None, "b", "Ada (bot)"), 1_000, bot=BotStyle.TIGHT)
    await store.commit("raked", Movement(buy_ins=(Transfer(user_id, 1_000),
                                                  Transfer(None, 1_000))), state.to_dict())
    hand = raked_heads_up()
    current = HandInPlay("0123456789abcdef0123456789abcdef", 1, hand, time.time())
    record = finished_hand("raked", current, state.players)
    assert record.rake == 3
    for seat in hand.seats:
        state.players[seat.number].stack = seat.stack
    await store.commit("raked", Movement(hand=record), state.to_dict())


async def test_the_hand_dialog_and_the_economy_show_the_rake(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, player = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Hana")
    await signed_in(player, mailbox, "Ivan")
    await as_admin(database, "Hana")
    async with database.sessions() as session:
        ivan = await session.scalar(select(User.id).where(User.display_name == "Ivan"))
    assert ivan is not None
    await _store_a_raked_hand(database, ivan)

    page = admin.page
    await page.goto("/admin#money")
    today = page.locator("#economy tbody tr").first
    await expect(today.locator("td").nth(1)).to_have_text("3")  # Rake
    await expect(today.locator("td").nth(2)).to_have_text("1")  # Raked hands
    await expect(page.locator("#economy tfoot")).to_contain_text("Total")
    await page.locator("#economy").screenshot(path=screenshot_path("admin-economy"))
    await page.get_by_role("tab", name="Hands").click()
    hand = page.locator("#hands tbody tr").first
    await hand.get_by_role("button", name="View").click()
    detail = page.locator("#detail-dialog")
    await expect(detail.locator(".hand-rake")).to_have_text(" · Rake 3")
    await detail.screenshot(path=screenshot_path("hand-dialog-rake"))
    await detail.get_by_text("Hand history (PHH)").click()
    await expect(detail.locator("pre")).to_contain_text("_rake = 3")


async def test_an_admin_opens_a_raked_table_from_the_lobby_and_its_header_names_the_rake(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, player = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Hana")
    await signed_in(player, mailbox, "Ivan")
    await as_admin(database, "Hana")
    await player.page.goto("/")
    await expect(player.page.locator("#create-rake")).to_be_hidden()

    page = admin.page
    await page.goto("/")
    form = page.locator("#create-form")
    await form.get_by_label("Name").fill("House game")
    await form.get_by_text("More settings").click()
    await expect(form.locator("#create-rake")).to_be_visible()
    await form.get_by_label("Rake %").fill("5")
    await form.get_by_label("Cap, 2 players").fill("8")
    await form.get_by_label("Cap, 3–4").fill("15")
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/"))
    await expect(page.locator("#table-stakes")).to_contain_text(
        "rake 5% (cap 8 from 2, 15 from 3 players)")
    await page.screenshot(path=screenshot_path("raked-table"))
