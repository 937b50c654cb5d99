"""In the browser: your seat says what this sitting has won or lost, from the chips you
bought in, and the figure follows the hands."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, LiveServer, Visitors
from tests.web.test_actions import button_and_blind, heads_up


async def test_the_seat_badge_shows_what_the_sitting_has_won_or_lost(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    game = await heads_up(visitors, mailbox, DESKTOP)
    button, blind = await button_and_blind(game)
    for page in (button, blind):
        await expect(page.locator("#table-role")).to_have_text(re.compile(r"^Seat \d · even$"))
    await button.locator("#act-fold").click()
    # The button folded its small blind to the big blind.
    lost = button.locator("#table-role")
    await expect(lost).to_have_text(re.compile(r"^Seat \d · −\d+$"))
    amount = (await lost.text_content() or "").rsplit("−", 1)[1]
    await expect(blind.locator("#table-role")).to_have_text(re.compile(rf"^Seat \d · \+{amount}$"))
    # Reloading reads the sitting's buy-in from the server (the next hand is not over:
    # nobody acts in it).
    await blind.reload()
    await expect(blind.locator("#table-role")).to_have_text(re.compile(rf"^Seat \d · \+{amount}$"))
