"""Every game in the browser, at a desktop's and a phone's size: Omaha's four and five
cards at every seat without covering anything, the pot-limit "Pot" preset as the most one
may bet, and a fixed-limit game's one-size Bet and Raise with no slider."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_table import create_table_with_bots, sit
from tests.web.test_table_layout import check_or_call, layout_problems, our_turn

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


async def seated(visitors: Visitors, mailbox: Mailbox, viewport: dict[str, int], name: str,
                 game: str, seats: int) -> Page:
    tab = await visitors.new(viewport=viewport)
    await signed_in(tab, mailbox, name)
    await create_table_with_bots(tab.page, name=f"{name}'s {game}", seats=seats,
                                 bots=seats - 1, game=game)
    await sit(tab.page, buy_in=1_000)
    return tab.page


@SIZES
@pytest.mark.parametrize(("game", "cards", "seats", "title"), [
    ("plo", 4, 10, "Pot-Limit Omaha"), ("plo5", 5, 8, "5-Card Pot-Limit Omaha")])
async def test_omaha_cards_show_at_every_seat_and_cover_nothing(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int],
    game: str, cards: int, seats: int, title: str,
) -> None:
    page = await seated(visitors, mailbox, viewport, "Olga", game, seats)
    await expect(page.locator("#table-stakes")).to_contain_text(title)
    await our_turn(page)
    mine = page.locator(".seat.mine .seat-cards .pcard[data-card]")
    await expect(mine).to_have_count(cards)
    for card in await mine.all():
        await expect(card).to_be_in_viewport()
    others = page.locator(".seat:not(.mine) .seat-cards")
    for row in await others.all():
        await expect(row.locator(".pcard.back")).to_have_count(cards)
    assert await layout_problems(page) == []
    side = "phone" if viewport == PHONE else "desktop"
    await page.screenshot(path=screenshot_path(f"table-{game}-{side}"))


@SIZES
async def test_the_pot_preset_is_the_most_a_pot_limit_raise_may_be(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated(visitors, mailbox, viewport, "Pavel", "plo", 6)
    for _ in range(30):
        await our_turn(page)
        if await page.locator("#sizing").is_visible():
            break
        await check_or_call(page)
    await expect(page.locator('[data-preset="max"]')).to_be_hidden()
    await page.locator('[data-preset="pot"]').click()
    amount = page.locator("#bet-amount")
    assert await amount.input_value() == await amount.get_attribute("max")


@SIZES
async def test_a_fixed_limit_game_bets_and_raises_one_size_with_no_slider(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated(visitors, mailbox, viewport, "Lena", "flhe", 6)
    await expect(page.locator("#table-stakes")).to_contain_text("Fixed-Limit Hold'em")
    for _ in range(30):
        await our_turn(page)
        if await page.locator("#act-raise").is_visible():
            break
        await check_or_call(page)
    raise_button = page.locator("#act-raise")
    label = await raise_button.inner_text()
    assert label.startswith(("Raise to ", "Bet ")), label
    await expect(page.locator("#sizing")).to_be_hidden()
    await raise_button.click()
    size = re.search(r"\d[\d,]*", label)
    assert size is not None, label
    said = re.compile(r"Lena (raises to|bets) " + re.escape(size.group()))
    await expect(page.locator("#panel-log li").filter(has_text=said)).not_to_have_count(0)


async def test_the_lobby_lists_each_table_with_its_game(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated(visitors, mailbox, DESKTOP, "Gus", "plo", 6)
    await page.goto("/")
    row = page.locator("#tables tbody tr").filter(has_text="Gus's plo")
    await expect(row.locator("abbr.game-short")).to_have_text("PLO")
    await expect(row.locator("abbr.game-short")).to_have_attribute("title", "Pot-Limit Omaha")
