"""In the browser: two players all-in agree to run it twice and both see both boards
and the result of each."""

from __future__ import annotations

import re

from playwright.async_api import expect

from app.realtime.lobby import TableService
from tests.conftest import Mailbox
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_all_in_equity import first_to_act
from tests.web.test_table import sit


async def test_players_all_in_agree_to_run_it_twice_and_see_both_boards_and_results(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # Aces against kings, the aces winning on both boards: the kings bust and leave, so the
    # finished hand stays on the table (no next hand replaces it).
    tables: TableService = live_server.server.config.app.state.realtime.tables
    tables.services.deck_factory = lambda: twice_deck(
        ["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "5h 8s 5d Jc Qc")
    ivy, jon = await visitors.new(), await visitors.new()
    await signed_in(ivy, mailbox, "Ivy")
    await signed_in(jon, mailbox, "Jon")
    await ivy.page.goto("/")
    form = ivy.page.locator("#create-form")
    await form.get_by_label("Name").fill("Twice")
    await form.get_by_label("Seats", exact=True).fill("2")
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.locator("summary").click()
    await form.get_by_label(re.compile("Run it twice")).check()
    await form.get_by_role("button", name="Create table").click()
    await ivy.page.wait_for_url(re.compile(r"/table/"))
    await expect(ivy.page.locator("#table-stakes")).to_contain_text("run it twice")
    await sit(ivy.page, buy_in=500)
    await jon.page.goto(ivy.page.url.split("?")[0])
    await jon.page.get_by_role("button", name="Sit in seat").click()
    await sit(jon.page, buy_in=500)

    pages = [ivy.page, jon.page]
    first = await first_to_act(pages)
    await first.locator("#act-allin").click()
    second = jon.page if first is ivy.page else ivy.page
    await expect(second.locator("#act-call")).to_be_enabled()
    await second.locator("#act-call").click()
    for page in pages:
        await expect(page.locator("#run-twice")).to_be_visible()
        await expect(page.locator("#run-twice-wait")).to_contain_text("Run it twice? Waiting for")
        await expect(page.locator("#board .pcard[data-card]")).to_have_count(0)
        await expect(page.locator("#board-second")).to_be_hidden()
    await first.get_by_role("button", name="Run it twice").click()
    await expect(first.locator("#run-twice")).to_be_hidden()
    await expect(second.locator("#run-twice-wait")).to_contain_text("Waiting for you")
    await second.get_by_role("button", name="Run it twice").click()
    for page in pages:
        await expect(page.locator("#board-second")).to_be_visible()
        await expect(page.locator("#board .pcard[data-card]")).to_have_count(5)
        await expect(page.locator("#board-second .pcard[data-card]")).to_have_count(5)
        await expect(page.locator("#board-second")).to_have_attribute(
            "aria-label", "Second board: 5h 8s 5d Jc Qc")
        await expect(page.locator("#board")).to_have_attribute(
            "aria-label", "First board: 2c 7d 9h 3s 4c")
        result = page.locator("#result")
        await expect(result).to_contain_text("Board 1:")
        await expect(result).to_contain_text("Board 2:")
        log = page.locator("#panel-log")
        await expect(log).to_contain_text("agrees to run it twice")
        await expect(log).to_contain_text("Second board, River")
