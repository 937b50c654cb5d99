"""Each seat shows its last action of the street ("Check", "Call 20", "Raise to 60") until
the street ends, at both sizes and after a reload (the snapshot carries it)."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, signed_in
from tests.web.test_actions import BOARD
from tests.web.test_table import create_table_with_bots, sit
from tests.web.test_table_layout import SIZES, check_or_call, layout_problems, our_turn

ACTION = re.compile(r"^(Check|Call [\d,]+|Bet [\d,]+|Raise to [\d,]+)$")
SEAT_ACTIONS = """() => Object.fromEntries([...document.querySelectorAll(".seat:not(.mine)")]
  .map((seat) => [seat.dataset.seat, [...seat.querySelectorAll(".seat-badge")]
    .map((b) => b.textContent)])
  .filter(([, badges]) => badges.length))"""
# The action badges shown in the first render with more board cards than ``board``
# (null when the hand ends before: everyone else folded).
WATCH_NEXT_STREET = """([board, pattern]) => {
  const action = new RegExp(pattern);
  const hand = document.getElementById("hand-number").textContent;
  window.actionsAtNextStreet = new Promise((resolve) => {
    const look = () => {
      if (document.getElementById("hand-number").textContent !== hand
          || document.querySelector("#result .result-line")) {
        observer.disconnect();
        resolve(null);
        return;
      }
      if (document.querySelectorAll("#board .pcard[data-card]").length <= board) return;
      observer.disconnect();
      resolve([...document.querySelectorAll(".seat-badge")].map((b) => b.textContent)
        .filter((text) => action.test(text)));
    };
    const observer = new MutationObserver(look);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}"""


@SIZES
async def test_a_seat_shows_its_last_action_until_the_street_ends(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    assert viewport in (DESKTOP, PHONE)
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Ravi")
    await create_table_with_bots(page, name="Actions", seats=6, bots=5)
    await sit(page, buy_in=1_000)
    seen: dict[str, list[str]] = {}
    for _ in range(40):
        await our_turn(page)
        shown = await page.evaluate(SEAT_ACTIONS)
        seen = {seat: [b for b in badges if ACTION.match(b)] for seat, badges in shown.items()}
        seen = {seat: badges for seat, badges in seen.items() if badges}
        if seen:
            break
        await check_or_call(page)
    assert seen, "no seat ever showed an action"
    assert await layout_problems(page) == []
    board = await page.evaluate(BOARD)
    # The log tells the same action the seat shows.
    log = await page.locator("#panel-log").inner_text()
    for badges in seen.values():
        verb = badges[0].split()[0].lower()
        assert re.search(rf"\b{verb}", log, re.IGNORECASE), (badges, log[-500:])
    # A reload shows the same actions, from the snapshot.
    await page.reload()
    await our_turn(page)
    if await page.evaluate(BOARD) == board:
        after = await page.evaluate(SEAT_ACTIONS)
        for seat, badges in seen.items():
            assert set(badges) <= set(after.get(seat, [])), (seen, after)
    # The moment the next street is dealt, no seat shows an action (of the last street).
    await page.evaluate(WATCH_NEXT_STREET, [board, ACTION.pattern])
    await check_or_call(page)
    assert await page.evaluate("window.actionsAtNextStreet") in ([], None)
    await expect(page.locator(".seat.actor")).to_have_count(1, timeout=60_000)
