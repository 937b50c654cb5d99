"""In the browser: a tournament's page shows its ledger (each player's buy-ins and fees,
what they won and their net, the CSV) to its players and organizer, and not to others."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from app.db.engine import Database
from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, as_admin, signed_in
from tests.web.test_every_page import a_tournament


@pytest.fixture
def server_settings() -> dict[str, Any]:
    return {"hand_start_delay_seconds": 120}


async def test_a_tournaments_page_shows_its_ledger_to_its_players_only(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database,
) -> None:
    organizer, stranger = await visitors.new(), await visitors.new()
    page = organizer.page
    await signed_in(organizer, mailbox, "Tess")
    await as_admin(database, "Tess")
    tournament = await a_tournament(page, name="Club night", table_size=6, bots=3)
    await page.goto(f"/tournament/{tournament['id']}")
    await page.get_by_role("button", name="Register").click()
    ledger = page.locator("#t-ledger-section")
    await expect(ledger).to_be_visible()
    tess = ledger.locator("tbody tr").filter(has_text="Tess")
    await expect(tess.locator("td")).to_have_text(["Tess", "1", "100", "10", "0", "−110"])
    await expect(ledger).to_contain_text("The house (bots)")
    await expect(page.locator("#t-ledger-status")).to_contain_text("prize pool is still held")
    csv_link = ledger.get_by_role("link", name="Download as CSV")
    href = await csv_link.get_attribute("href")
    assert href == f"/tournaments/{tournament['id']}/ledger.csv"
    csv = await page.context.request.get(href)
    assert csv.ok and "Tess,1,100,10,0,0,-110" in await csv.text()

    await signed_in(stranger, mailbox, "Uma")
    await stranger.page.goto(f"/tournament/{tournament['id']}")
    await expect(stranger.page.get_by_role("button", name="Register")).to_be_visible()
    await expect(stranger.page.locator("#t-ledger-section")).to_be_hidden()
    for tab in (organizer, stranger):
        tab.check()
