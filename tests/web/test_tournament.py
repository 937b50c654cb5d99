"""A tournament in a real browser: find a sit & go in the lobby, register on its page, be
seated by the tournament, play it to the end against bots and find the prize on the
account page (an ICM deal: tests/web/test_tournament_deal.py)."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout
from sqlalchemy import update

from app.db.engine import Database
from app.db.models import Role, User
from app.hosting.host import TableHost
from app.poker.blinds import Occupant, plan_next_hand
from app.poker.cards import Deck
from tests.conftest import Mailbox
from tests.poker.stacked_decks import stacked_deck
from tests.web.conftest import LiveServer, Tab, Visitors, screenshot_path, signed_in

MAX_DECISIONS = 200
# Our turn, or the tournament line of the table page says it is over.
PROGRESS = """() => {
  const actions = document.getElementById("actions");
  if (actions && !actions.hidden && !actions.querySelector("button:disabled")) return "act";
  return document.getElementById("table-tournament").textContent.includes("over") && "over";
}"""
STRUCTURE = {"starting_stack": 300, "late_levels": 0, "periods": [
    {"kind": "level", "small_blind": 10, "big_blind": 20, "minutes": 1},
    {"kind": "level", "small_blind": 25, "big_blind": 50, "minutes": 1, "ante": 50,
     "big_blind_ante": True},
    {"kind": "level", "small_blind": 50, "big_blind": 100, "minutes": 1},
]}


class AcesForPeople:
    """The table's decks: the person at the tournament table holds aces every hand and the
    bots hold rags, so the test knows who wins (the dealer asks for a deck as it deals)."""

    def __init__(self, tables: TableHost) -> None:
        self.tables = tables

    def __call__(self) -> Deck:
        table = next((t for t in self.tables.live.tables.values()
                      if t.state.config.tournament and t.state.current is None
                      and not t.closed), None)
        if table is None:
            return Deck()
        state = table.state
        plan = plan_next_hand({n: Occupant(p.stack) for n, p in state.players.items()},
                              previous_button=state.button)
        assert plan is not None
        rags = iter(["7c2d", "8h3s", "9d4c"])
        holes = {seat: "AsAh" if state.players[seat].user_id is not None else next(rags)
                 for seat in plan.dealt_in}
        order = sorted(holes, key=lambda seat: (seat <= plan.button, seat))
        return stacked_deck([holes[seat] for seat in order], "KdTc4s5hJd")


async def _as_admin(tab: Tab, database: Database, name: str) -> None:
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == name)
                              .values(role=Role.ADMIN))
        await session.commit()


async def _decide(page: Page) -> None:
    for button in ("#act-allin", "#act-call", "#act-check", "#act-show", "#act-muck"):
        target = page.locator(button)
        if await target.is_visible():
            await target.click()
            return
    raise AssertionError("no action offered")


async def test_a_player_registers_for_a_sit_and_go_plays_it_out_and_sees_the_prize(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    app = live_server.server.config.app
    tables: TableHost = app.state.realtime.host
    tables.services.deck_factory = AcesForPeople(tables)
    admin, player = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Hana")
    await signed_in(player, mailbox, "Ivan")
    await _as_admin(admin, database, "Hana")
    csrf = next(c["value"] for c in await admin.page.context.cookies()
                if c["name"] == "holdem_csrf")
    created = await admin.page.context.request.post("/admin/tournaments", headers={
        "X-CSRF-Token": csrf}, data={"name": "Browser sit & go", "kind": "sit_and_go",
                                     "table_size": 3, "buy_in": 100, "fee": 10,
                                     "structure": STRUCTURE, "bots": 2})
    assert created.status == 201, await created.text()
    await admin.page.goto("/admin#tournaments")
    form = admin.page.locator("#tournament-form")
    await form.get_by_label("Name").fill("Evening MTT")
    await form.get_by_label("Kind").select_option("multi_table")
    await form.get_by_role("button", name="Create tournament").click()
    await expect(form.get_by_role("link", name="Evening MTT")).to_be_visible()

    page = player.page
    await page.goto("/")
    row = page.locator("#tournaments tbody tr", has_text="Browser sit & go")
    await expect(row).to_contain_text("2 / 3")
    await expect(page.locator("#tournaments tbody tr", has_text="Evening MTT")).to_contain_text(
        "registering")
    await row.get_by_role("link", name="Open Browser sit & go").click()
    await page.wait_for_url(re.compile(r"/tournament/"))
    await expect(page.locator("#t-structure tbody tr")).to_have_count(3)
    await expect(page.locator("#t-payouts tbody tr")).to_have_count(1)
    await page.get_by_role("button", name="Register").click()
    await expect(page.get_by_role("link", name="Go to your table")).to_be_visible()
    await expect(page.locator("#nav-balance")).to_contain_text("9,890 credits")
    await page.screenshot(path=screenshot_path("tournament"))
    await page.get_by_role("link", name="Go to your table").click()
    await page.wait_for_url(re.compile(r"/table/"))
    await expect(page.locator("#table-tournament")).to_contain_text("Browser sit & go · level")

    for _ in range(MAX_DECISIONS):
        try:
            state = await page.wait_for_function(PROGRESS, timeout=60_000)
        except PlaywrightTimeout:
            await page.screenshot(path=screenshot_path("tournament-stuck"))
            raise
        if await state.json_value() == "over":
            break
        await _decide(page)
    else:
        raise AssertionError(f"the tournament did not end within {MAX_DECISIONS} decisions")

    # The moment: the place and the prize, the balance in the header already paid, the
    # last showdown still on the felt.
    result = page.locator("#result-dialog")
    await expect(result).to_be_visible()
    await expect(result.locator("#result-title")).to_have_text("You won Browser sit & go!")
    await expect(result).to_contain_text("1st of 3: 300 credits are on your balance.")
    await expect(page.locator("#nav-balance")).to_have_text("10,190 credits")
    await expect(page.locator("#result .result-line").first).to_contain_text("Ivan wins")
    await page.screenshot(path=screenshot_path("tournament-won"))
    await result.get_by_role("link", name="Back to the lobby").click()
    finished = page.locator("#finished-list li", has_text="Browser sit & go")
    await expect(finished).to_contain_text("1st Ivan (300)")
    await finished.get_by_role("link", name="Browser sit & go").click()
    await page.wait_for_url(re.compile(r"/tournament/"))

    await page.goto("/account")
    ledger = page.locator("#ledger tbody")
    await expect(ledger.locator("tr", has_text="Tournament prize")).to_contain_text("+300")
    await expect(ledger.locator("tr", has_text="Tournament buy-in")).to_contain_text("100")
    await expect(ledger.locator("tr", has_text="Tournament fee")).to_contain_text("10")
    await expect(page.locator("#balance")).to_have_text("10,190")
