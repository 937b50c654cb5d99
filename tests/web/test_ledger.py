"""In the browser: a host plays against bots, then reads the table's ledger and who pays
whom, at a desktop's and at a phone's size; a stranger is told the ledger is not theirs."""

from __future__ import annotations

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_every_page import DESKTOP, PHONE, fits
from tests.web.test_table import create_table_with_bots, leave_seat, play, sit


async def test_the_host_settles_up_from_the_table_and_a_stranger_cannot(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Hana")
    table_id = await create_table_with_bots(page, name="Friday game", seats=3, bots=2)
    await sit(page, buy_in=1_000)
    await play(page, hands=2, showdown=False)
    await leave_seat(page)

    await page.get_by_role("link", name="Ledger", exact=True).click()
    await page.wait_for_url(f"**/table/{table_id}/ledger")
    await expect(page.locator("#ledger-name")).to_have_text("Friday game: ledger")
    rows = page.locator("#ledger-lines tbody tr")
    await expect(rows).to_have_count(2)
    await expect(page.locator("#ledger-lines")).to_contain_text("Hana")
    await expect(page.locator("#ledger-lines")).to_contain_text("The house (bots)")
    nets = await page.locator("#ledger-lines tbody td:last-child").evaluate_all(
        "cells => cells.map((cell) => cell.textContent)")
    totals = [int(net.replace(",", "").replace("+", "").replace("−", "-")) for net in nets]
    assert sum(totals) == 0, nets
    transfers = page.locator("#ledger-transfers li")
    await expect(transfers).to_have_count(1)
    await expect(transfers.first).to_contain_text(
        "Nobody owes" if totals[0] == 0 else " pays ")
    await expect(page.locator("#ledger-csv")).to_have_attribute(
        "href", f"/tables/{table_id}/ledger.csv")
    for viewport, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        await page.set_viewport_size(viewport)
        await fits(page, viewport, f"the ledger page at {name} size")
        await page.screenshot(path=screenshot_path(f"ledger-{name}"), full_page=True)

    stranger = await visitors.new()
    await signed_in(stranger, mailbox, "Ivo")
    await stranger.page.goto(f"/table/{table_id}/ledger")
    await expect(stranger.page.locator("#ledger-error")).to_contain_text(
        "only its host, its players and admins")
    await expect(stranger.page.locator("#ledger-players")).to_be_hidden()
