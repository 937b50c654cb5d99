"""In the browser: two players all-in agree to run it twice and both see both boards
and the result of each."""

from __future__ import annotations

from playwright.async_api import expect

from app.hosting.host import TableHost
from tests.conftest import Mailbox
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.web.conftest import LiveServer, Visitors
from tests.web.test_all_in_equity import heads_up_all_in


async def test_players_all_in_agree_to_run_it_twice_and_see_both_boards_and_results(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # Aces against kings, the aces winning on both boards: the kings bust and leave, so the
    # finished hand stays on the table (no next hand replaces it).
    tables: TableHost = live_server.server.config.app.state.realtime.host
    tables.services.deck_factory = lambda: twice_deck(
        ["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "5h 8s 5d Jc Qc")
    pages, first, second = await heads_up_all_in(visitors, mailbox, "Twice",
                                                 run_it_twice=True)
    for page, other in ((pages[0], "Jon"), (pages[1], "Ivy")):
        await expect(page.locator("#run-twice")).to_be_visible()
        await expect(page.locator("#run-twice-wait")).to_have_text(
            f"Run it twice? Waiting for you and {other}")
        await expect(page.locator("#board .pcard[data-card]")).to_have_count(0)
        await expect(page.locator("#board-second")).to_be_hidden()
    await first.get_by_role("button", name="Run it twice").click()
    await expect(first.locator("#run-twice")).to_be_hidden()
    await expect(second.locator("#run-twice-wait")).to_have_text("Run it twice? Waiting for you")
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
