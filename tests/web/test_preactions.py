"""Pre-action boxes in the browser: shown while the other player acts, the ones that apply
to the bet you face, one at a time, taken by the server when your turn comes and then
unticked; the seconds left on the acting seat and in your action bar, and the time bank
labelled as such once it runs. Heads-up, at desktop and phone size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_actions import READY, button_and_blind, heads_up
from tests.web.test_table import Frames
from tests.web.test_table_layout import LAYOUT_PROBLEMS

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
SHOWN_BOXES = """() => [...document.querySelectorAll("#preactions .preaction")]
  .filter((option) => !option.hidden)
  .map((option) => option.textContent.trim())"""
# The boxes overlapping one another or leaving the screen, as sentences.
BOX_PROBLEMS = """() => {
  const options = [...document.querySelectorAll("#preactions .preaction")]
    .filter((o) => !o.hidden);
  const name = (i) => options[i].textContent.trim();
  const boxes = options.map((o) => o.getBoundingClientRect());
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const problems = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b, j) => {
    if (hit(a, b)) problems.push(`${name(i)} overlaps ${name(i + j + 1)}`);
  }));
  boxes.forEach((r, i) => {
    if (r.left < 0 || r.right > innerWidth + 1) problems.push(`${name(i)} leaves the screen`);
  });
  return problems;
}"""


@pytest.fixture
def server_settings() -> dict[str, Any]:
    """Two seconds to act, then a 30-second time bank: the bank starts within the test."""
    return {"action_seconds": 2, "min_action_seconds": 1, "time_bank_seconds": 30}


@SIZES
async def test_pre_action_boxes_are_exclusive_taken_at_the_turn_and_the_clock_reads_out(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport, other=viewport)
    button, blind = await button_and_blind(game)
    boxes = blind.locator("#preactions")
    await expect(boxes).to_be_visible()
    await expect(button.locator("#preactions")).to_be_hidden()
    # The big blind faces no bet: "Check", and no "Call".
    assert await blind.evaluate(SHOWN_BOXES) == ["Check/Fold", "Check", "Call any",
                                                 "Fold to any bet"]
    assert await blind.evaluate(LAYOUT_PROBLEMS) == []
    assert await blind.evaluate(BOX_PROBLEMS) == []

    check = blind.locator('[data-preaction="check"]')
    call_any = blind.locator('[data-preaction="call_any"]')
    await check.check()
    await call_any.check()
    await expect(call_any).to_be_checked()
    await expect(check).not_to_be_checked()
    await check.check()
    await expect(call_any).not_to_be_checked()

    # The clock: seconds on the acting seat and in the bar, then the time bank, labelled
    # (a slow page may first see the bank running already).
    await expect(button.locator("#my-clock")).to_have_text(
        re.compile(r"^(\d+ s to act · time bank 30 s|Time bank: \d+ s left)$"))
    await expect(blind.locator(".seat.actor .seat-clock")).to_have_text(
        re.compile(r"^(Time bank )?\d+$"))
    await expect(button.locator("#my-clock")).to_have_text(
        re.compile(r"^Time bank: \d+ s left$"), timeout=10_000)
    await expect(blind.locator(".seat.actor .seat-clock")).to_have_text(
        re.compile(r"^Time bank \d+$"))
    await button.screenshot(path=screenshot_path(f"preactions-bank-{viewport['width']}"))
    await blind.screenshot(path=screenshot_path(f"preactions-boxes-{viewport['width']}"))

    await button.locator("#act-call").click()
    # The big blind's "Check" is taken at once: the flop comes, and the box is unticked.
    await expect(blind.locator("#panel-log")).to_contain_text(re.compile(r"(Ann|Bob) checks"))
    await blind.wait_for_function(READY)
    await expect(boxes).to_be_hidden()
    await expect(check).not_to_be_checked()
    await expect(blind.locator("#my-clock")).to_have_text(
        re.compile(r"^(\d+ s to act|Time bank: \d+ s left)"))



async def test_the_lobby_form_sets_the_tables_time_bank(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    ann = await visitors.new(viewport=DESKTOP)
    await signed_in(ann, mailbox, "Ann")
    frames = Frames(ann.page)
    await ann.page.goto("/")
    form = ann.page.locator("#create-form")
    await form.get_by_label("Name").fill("Slow table")
    await form.locator("summary").click()
    await form.get_by_label("Time bank (seconds)").fill("45")
    await form.get_by_label("Bank refill (seconds)").fill("15")
    await form.get_by_label("Refill every N hands").fill("5")
    await form.get_by_label("Most in the bank (seconds)").fill("90")
    await form.get_by_role("button", name="Create table").click()
    await ann.page.wait_for_url(re.compile(r"/table/"))
    await expect(ann.page.locator("#table-name")).to_have_text("Slow table")
    snapshot = frames.named("table:snapshot")[-1]
    assert snapshot["config"]["time_bank"] == {"seconds": 45, "add_seconds": 15,
                                               "every_hands": 5, "max_seconds": 90}
