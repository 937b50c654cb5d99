"""In the browser: when two players are all-in, both see each hand's chance of the pot."""

from __future__ import annotations

import re

from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import sit

ACTOR = """() => {
  const actions = document.getElementById("actions");
  return actions && !actions.hidden && !actions.querySelector("button:disabled");
}"""

# Keeps every text a seat's equity shows, so a test can read them after the hand: a split
# pot leaves both players seated and the next hand clears the seats at once.
RECORD_SEAT_EQUITY = """() => {
  window.seatEquities = [];
  window.wonSeen = false;
  window.equityBesideWon = false;
  new MutationObserver(() => {
    const shown = [...document.querySelectorAll(".seat-equity")].map((e) => e.textContent);
    if (shown.length) window.seatEquities.push(shown);
    const won = [...document.querySelectorAll(".seat-badge")]
      .some((b) => b.textContent.startsWith("Won"));
    window.wonSeen ||= won;
    window.equityBesideWon ||= won && shown.length > 0;
  }).observe(document.body, { childList: true, subtree: true, characterData: true });
}"""


async def first_to_act(pages: list[Page]) -> Page:
    while True:
        for page in pages:
            if await page.evaluate(ACTOR):
                return page
        await pages[0].wait_for_timeout(50)


async def heads_up_all_in(visitors: Visitors, mailbox: Mailbox, name: str, *,
                          run_it_twice: bool = False, viewport: dict[str, int] | None = None,
                          ) -> tuple[list[Page], Page, Page]:
    """Ivy and Jon sit heads-up (:func:`heads_up`), the first to act goes all in and the
    other calls: both pages, the all-in's and the caller's."""
    pages = await heads_up(visitors, mailbox, name, run_it_twice=run_it_twice,
                           viewport=viewport)
    return pages, *await all_in(pages)


async def heads_up(visitors: Visitors, mailbox: Mailbox, name: str, *,
                   run_it_twice: bool = False, viewport: dict[str, int] | None = None,
                   ) -> list[Page]:
    """Ivy opens a two-seat table without bots and Jon joins (at ``viewport`` size, else
    the default): both pages."""
    ivy, jon = await visitors.new(viewport), await visitors.new(viewport)
    await signed_in(ivy, mailbox, "Ivy")
    await signed_in(jon, mailbox, "Jon")
    await ivy.page.goto("/")
    form = ivy.page.locator("#create-form")
    await form.get_by_label("Name").fill(name)
    await form.get_by_label("Seats", exact=True).fill("2")
    await form.get_by_label("Fill seats with bots").uncheck()
    if run_it_twice:
        await form.locator("summary").click()
        await form.get_by_label(re.compile("Run it twice")).check()
    await form.get_by_role("button", name="Create table").click()
    await ivy.page.wait_for_url(re.compile(r"/table/"))
    if run_it_twice:
        await expect(ivy.page.locator("#table-stakes")).to_contain_text("run it twice")
    await sit(ivy.page, buy_in=500)
    await jon.page.goto(ivy.page.url.split("?")[0])
    await jon.page.get_by_role("button", name="Sit in seat").click()
    await sit(jon.page, buy_in=500)
    return [ivy.page, jon.page]


async def all_in(pages: list[Page]) -> tuple[Page, Page]:
    """The first to act goes all in and the other calls: the all-in's page and the
    caller's."""
    first = await first_to_act(pages)
    await first.locator("#act-allin").click()
    second = pages[1] if first is pages[0] else pages[0]
    await expect(second.locator("#act-call")).to_be_enabled()
    await second.locator("#act-call").click()
    return first, second


async def test_both_players_see_the_equity_of_an_all_in_on_each_street(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    pages = await heads_up(visitors, mailbox, "All in")
    for page in pages:
        await page.evaluate(RECORD_SEAT_EQUITY)
    await all_in(pages)
    for page in pages:
        log = page.locator("#panel-log")
        await expect(log).to_contain_text(re.compile(r"Equity before the flop: \w+ \d+\.\d%"))
        await expect(log).to_contain_text("Equity after the flop")
        await expect(log).to_contain_text("Equity after the turn")
        # The run-out arrives in one message and is shown street by street: the seats
        # show the chances before the flop, then after it, then after the turn, in order
        # (a split pot starts the next hand at once and clears them: hence the record).
        text = await log.inner_text()
        streets = [set(re.findall(r"\d+\.\d%", found.group(1)))
                   for street in ("before the flop", "after the flop", "after the turn")
                   if (found := re.search(rf"Equity {street}: (.*)", text))]
        assert len(streets) == 3, text
        shown = [set(seats) for seats in await page.evaluate("window.seatEquities")]
        assert shown and shown[0] <= streets[0], (shown, streets)
        assert any(seats <= streets[1] for seats in shown), (shown, streets)
        assert shown[-1] <= streets[2], (shown, streets)
        # Once the hand is decided the seats say who won, without the chances beside it.
        await page.wait_for_function("() => window.wonSeen")
        assert not await page.evaluate("window.equityBesideWon")
