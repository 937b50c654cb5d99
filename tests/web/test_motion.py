"""In the browser: chips slide into the pot when a street ends and to the winner at the
end, drawn for a moment over the table and gone after; none move for people who ask
their system for less motion."""

from __future__ import annotations

from playwright.async_api import Page

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, LiveServer, Visitors
from tests.web.test_actions import BOARD, READY, button_and_blind, heads_up

# Counts the chips drawn in flight, whenever they come.
COUNT_FLIGHTS = """() => {
  window.flights = 0;
  new MutationObserver((changes) => {
    for (const change of changes) {
      for (const node of change.addedNodes) {
        if (node.classList && node.classList.contains("chip-flight")) window.flights += 1;
      }
    }
  }).observe(document.body, { childList: true });
}"""


async def to_the_flop(pages: list[Page]) -> None:
    button, blind = pages
    for page in pages:
        await page.evaluate(COUNT_FLIGHTS)
    await button.locator("#act-call").click()
    await blind.wait_for_function(READY)
    await blind.locator("#act-check").click()
    for page in pages:
        await page.wait_for_function(f"() => ({BOARD})() === 3")


async def test_the_bets_slide_into_the_pot_when_the_street_ends(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    game = await heads_up(visitors, mailbox, DESKTOP, buy_ins=(1_000, 1_000))
    pages = list(await button_and_blind(game))
    await to_the_flop(pages)
    for page in pages:
        # Both seats' bets of the street, each a chip flying to the pot; gone once landed.
        assert await page.evaluate("window.flights") >= 2
        await page.wait_for_function("() => !document.querySelector('.chip-flight')")


async def test_no_chip_moves_for_less_motion(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    game = await heads_up(visitors, mailbox, DESKTOP, buy_ins=(1_000, 1_000))
    pages = list(await button_and_blind(game))
    for page in pages:
        await page.emulate_media(reduced_motion="reduce")
    await to_the_flop(pages)
    for page in pages:
        assert await page.evaluate("window.flights") == 0
