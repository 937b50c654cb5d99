"""In the browser: the leaderboard by period, and leaving it from the account page."""

from __future__ import annotations

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, play, sit


async def test_a_player_finds_themselves_on_the_leaderboard_then_opts_out(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Lena")
    await create_table_with_bots(page, name="Board table", seats=2, bots=1)
    await sit(page, buy_in=1_000)
    await play(page, hands=1, showdown=False)

    await page.get_by_role("link", name="Leaderboard").click()
    rows = page.locator("#leaders tbody tr")
    await expect(rows).to_have_count(1)
    await expect(rows.first).to_contain_text("Lena")
    all_time = page.get_by_role("tab", name="All time")
    await all_time.click()
    await expect(all_time).to_have_attribute("aria-selected", "true")
    await expect(rows.first).to_contain_text("Lena")
    # Lena played No-Limit Hold'em only: an Omaha board has nobody on it.
    await page.get_by_label("Game").select_option("plo")
    await expect(rows.first).to_have_text("No hands played in this period.")
    await page.get_by_label("Game").select_option("nlhe")
    await expect(rows.first).to_contain_text("Lena")
    # The chosen period looks chosen: unlike the others, and like nothing before.
    looks = await page.locator("[role=tab]").evaluate_all(
        "tabs => tabs.map((t) => getComputedStyle(t).backgroundColor)")
    assert looks[2] not in looks[:2] and looks[0] == looks[1], looks
    await expect(page.locator("#nav-name")).to_have_text("Lena")
    await expect(page.get_by_role("button", name="Log out")).to_be_visible()

    await page.goto("/account")
    listed = page.get_by_label("Show me on the leaderboard")
    await expect(listed).to_be_checked()
    await listed.uncheck()
    await expect(page.locator("#leaderboard-form [data-form-status]")).to_have_text(
        "You are off the leaderboard.")
    await page.goto("/leaderboard")
    await expect(rows.first).to_have_text("No hands played in this period.")
