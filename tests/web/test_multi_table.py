"""In the browser: every table you sit at on one page, playable from its tile."""

from __future__ import annotations

from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, sit


async def test_the_tables_you_sit_at_are_tiled_and_you_act_from_a_tile(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Mona")
    ids = []
    for name in ("Left table", "Right table"):
        ids.append(await create_table_with_bots(page, name=name, seats=2, bots=1))
        await sit(page, buy_in=1_000)

    await page.goto("/tables")
    tiles = page.locator(".multi-tile")
    await expect(tiles).to_have_count(2)
    for table_id, name in zip(ids, ("Left table", "Right table"), strict=True):
        tile = page.locator(f'.multi-tile[data-table-id="{table_id}"]')
        await expect(tile.get_by_role("link", name=name)).to_have_attribute(
            "href", f"/table/{table_id}")
        await expect(tile.locator(".multi-seats li")).to_have_count(2)
    # Wherever it is our turn, act from the tile: the table takes the action and the tile
    # redraws from what the table sends (the button clicked is gone).
    # (A turn can end while it is read, the clock or a redraw taking the tile's buttons
    # away: then the next turn is taken instead.)
    acted = 0
    for _ in range(20):
        if acted == 2:
            break
        tile = page.locator(".multi-tile.your-turn").first
        await expect(tile).to_be_visible(timeout=30_000)
        await expect(tile.get_by_label("Your cards")).to_be_visible()
        kinds = [await b.get_attribute("data-action")
                 for b in await tile.locator("[data-action]").all()]
        choice = next((k for k in ("check", "call", "muck", "fold") if k in kinds), None)
        try:
            assert choice is not None
            button = await tile.locator(f'[data-action="{choice}"]').element_handle(
                timeout=2_000)
            await button.click(timeout=2_000)
        except (AssertionError, PlaywrightTimeout):
            continue
        await page.wait_for_function("(b) => !b.isConnected", arg=button, timeout=10_000)
        acted += 1
    assert acted == 2

