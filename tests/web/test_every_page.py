"""Every page on a phone (390x844) and a desktop (1280x720): it fits the screen's width
(dialogs such as the hand replayer too), says who is logged in with a way to log out,
and gives each id to one element only."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Locator, Page, expect

from app.db.engine import Database
from tests.conftest import Mailbox
from tests.web.conftest import (
    DESKTOP,
    PHONE,
    LiveServer,
    Tab,
    Visitors,
    as_admin,
    screenshot_path,
    signed_in,
)
from tests.web.test_table import create_table_with_bots, play, sit

# How wide the document is, and the elements that stick out past the screen's right edge.
WIDTH = """() => {
  const wide = [...document.querySelectorAll("body *")]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${[...e.classList].join(".")}`);
  return { width: document.documentElement.scrollWidth, wide: wide.slice(0, 8) };
}"""
DUPLICATE_IDS = """() => {
  const seen = new Map();
  for (const node of document.querySelectorAll("[id]")) {
    seen.set(node.id, (seen.get(node.id) || 0) + 1);
  }
  return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
}"""
# The admin page's sections each show alone (its tabs).
ADMIN_SECTIONS = ["/admin#" + section for section in (
    "tournaments", "tables", "money", "hands", "chat", "announcements", "audit")]
PAGES = ["/", "/account", "/admin", *ADMIN_SECTIONS, "/table/{table}", "/table/{table}/ledger",
         "/tournament/{tournament}", "/odds", "/stats", "/tables",
         "/leaderboard", "/signup", "/forgot", "/reset?token=abc", "/verify?token=abc"]
SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


async def csrf_of(page: Page) -> str:
    return next(c["value"] for c in await page.context.cookies() if c["name"] == "holdem_csrf")


async def a_tournament(page: Page, **fields: Any) -> dict[str, Any]:
    """A sit & go (the regular structure, 22 levels) created through the admin API."""
    body = {"name": "Evening sit & go", "kind": "sit_and_go", "table_size": 6, "buy_in": 100,
            "fee": 10, "preset": "regular", "bots": 4, **fields}
    created = await page.context.request.post("/admin/tournaments", data=body,
                                              headers={"X-CSRF-Token": await csrf_of(page)})
    assert created.status == 201, await created.text()
    return dict(await created.json())


async def fits(page: Page, viewport: dict[str, int], what: str) -> None:
    measured = await page.evaluate(WIDTH)
    assert measured["width"] <= viewport["width"], f"{what}: {measured}"


async def inside_the_screen(page: Page, thing: Locator, viewport: dict[str, int]) -> None:
    box = await thing.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], box


async def opens_within_the_screen(page: Page, dialog: Locator, viewport: dict[str, int],
                                  name: str) -> None:
    """The hand dialog with its replayer: inside the screen, every control in reach."""
    await expect(dialog.locator(".replay-caption")).to_contain_text("Step 1 of")
    await page.screenshot(path=screenshot_path(f"replayer-{name}"))
    await inside_the_screen(page, dialog, viewport)
    for control in await dialog.locator(".replay-controls > *").all():
        await inside_the_screen(page, control, viewport)
    await fits(page, viewport, f"{name} with the hand open")
    # Every figure of the players' table (the end stacks and nets too) is on the screen.
    for cell in await dialog.locator(".hand-detail table td").all():
        await inside_the_screen(page, cell, viewport)
    await dialog.get_by_role("button", name="Close", exact=True).click()


@SIZES
async def test_every_page_fits_the_screen_and_names_who_is_logged_in(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database,
    viewport: dict[str, int],
) -> None:
    tab: Tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Nora")
    await as_admin(database, "Nora")
    tournament = await a_tournament(page)
    table = await create_table_with_bots(page, name="A table with a long name", seats=6, bots=5)
    await sit(page, buy_in=1_000)
    await play(page, hands=1, showdown=False)

    size = f"{viewport['width']}"
    for path in PAGES:
        path = path.format(table=table, tournament=tournament["id"])
        await page.goto(path)
        await expect(page.locator("#nav-account")).to_be_visible()
        await expect(page.get_by_role("button", name="Log out")).to_be_visible()
        if not path.startswith("/table/") or viewport["width"] > 600:
            await expect(page.locator("#nav-name")).to_have_text("Nora")
        await page.wait_for_load_state("networkidle")
        name = path.strip("/").split("?")[0].split("/")[0].replace("#", "-") or "lobby"
        await page.screenshot(path=screenshot_path(f"page-{name}-{size}"), full_page=True)
        await fits(page, viewport, path)
        assert await page.evaluate(DUPLICATE_IDS) == [], path

    await page.goto("/")
    await page.locator("#recent-hands tbody tr").first.get_by_role("button", name="View").click()
    await opens_within_the_screen(page, page.locator("#hand-dialog"), viewport, f"lobby-{size}")
    await page.goto("/admin#hands")
    await page.locator("#hands tbody tr").first.get_by_role("button", name="View").click()
    await opens_within_the_screen(page, page.locator("#detail-dialog"), viewport,
                                  f"admin-{size}")
