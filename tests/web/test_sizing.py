"""Sizing a bet: 2.5x and 3x before the flop, ⅓, ½, ⅔, ¾ and pot after it, and a size
the mouse wheel moves a big blind a notch; at desktop and phone size, heads-up at 5/10."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors
from tests.web.test_actions import BOARD, READY, button_and_blind, heads_up

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
SHOWN_PRESETS = """() => [...document.querySelectorAll("#sizing [data-preset]")]
  .filter((b) => !b.hidden && b.offsetParent !== null).map((b) => b.textContent.trim())"""


async def sized_by(page: Page, preset: str) -> str:
    """The bet amount after clicking ``preset``."""
    await page.locator(f'#sizing [data-preset="{preset}"]').click()
    return await page.locator("#bet-amount").input_value()


@SIZES
async def test_presets_size_by_the_bet_before_the_flop_and_by_the_pot_after_it(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport, buy_ins=(1_000, 1_000), other=viewport)
    button, blind = await button_and_blind(game)
    assert await button.evaluate(SHOWN_PRESETS) == ["Min", "2.5x", "3x", "Pot", "All-in"]
    assert await sized_by(button, "x3") == "30"
    assert await sized_by(button, "x2.5") == "25"
    await button.locator("#bet-slider").hover()
    await button.mouse.wheel(0, -100)
    await expect(button.locator("#bet-amount")).to_have_value("35")
    await button.mouse.wheel(0, 100)
    await button.mouse.wheel(0, 100)
    await expect(button.locator("#bet-amount")).to_have_value("20")
    await button.locator("#act-call").click()
    await blind.wait_for_function(READY)
    await blind.locator("#act-check").click()
    await blind.wait_for_function(f"() => ({BOARD})() === 3")
    await blind.wait_for_function(READY)
    # The pot is 20: a third is under the smallest bet (10), the others are shares of it.
    assert await blind.evaluate(SHOWN_PRESETS) == [
        "Min", "⅓ pot", "½ pot", "⅔ pot", "¾ pot", "Pot", "All-in"]
    assert await sized_by(blind, "third") == "10"
    assert await sized_by(blind, "two-thirds") == "13"
    assert await sized_by(blind, "three-quarters") == "15"
    assert await sized_by(blind, "pot") == "20"
    await expect(blind.locator("#act-raise")).to_have_text(re.compile(r"^Bet 20\b"))
