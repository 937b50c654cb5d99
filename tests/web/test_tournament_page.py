"""The tournament page says only what is so: no late registration at a sit & go, no chip
leader among equal stacks, no ICM deal while most of the field would be paid for nothing;
on a phone your entry comes before the structure. The first hand waits two minutes here,
so the tournament sits at level 1 with every stack equal while the page is read."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import expect

from app.db.engine import Database
from tests.conftest import Mailbox
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    LiveServer,
    Visitors,
    as_admin,
    screenshot_path,
    signed_in,
)
from tests.web.test_every_page import a_tournament


@pytest.fixture
def server_settings() -> dict[str, Any]:
    return {"hand_start_delay_seconds": 120}


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_a_sit_and_go_at_level_one_offers_no_deal_and_names_no_chip_leader(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database,
    viewport: dict[str, int],
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Tess")
    await as_admin(database, "Tess")
    tournament = await a_tournament(page, name="Six seats", table_size=6, bots=5)
    await page.goto(f"/tournament/{tournament['id']}")
    facts = page.locator("#t-structure-facts")
    await expect(facts).to_contain_text("Starting stack 5,000")
    await expect(facts).not_to_contain_text("late registration")
    register = page.get_by_role("button", name="Register")
    await expect(register).to_be_in_viewport(ratio=1)
    register_box = await register.bounding_box()
    structure_box = await page.locator("#t-structure").bounding_box()
    assert register_box and structure_box and register_box["y"] < structure_box["y"]
    await page.screenshot(path=screenshot_path(f"tournament-registering-{viewport['width']}"))

    await register.click()
    await expect(page.locator("#t-level")).to_contain_text("Level 1")
    await expect(page.locator("#t-players tbody tr")).to_have_count(6)
    chips = await page.locator("#t-players tbody td:nth-child(3)").all_inner_texts()
    assert set(chips) == {"5,000"}, chips
    await expect(page.locator("#t-players")).not_to_contain_text("chip leader")
    await expect(page.get_by_role("button", name="Agree to an ICM deal")).to_be_hidden()
    await expect(page.get_by_role("link", name="Go to your table")).to_be_visible()
    await page.screenshot(path=screenshot_path(f"tournament-level-one-{viewport['width']}"))
