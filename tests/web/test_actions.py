"""The action bar offers only what the server says is legal, one button for each thing
(no dead Raise beside a call for the whole stack, never two All-in buttons), asks before
folding a hand that could check for free, and asks before leaving in the middle of a hand.
Two people play heads-up, each in their own browser, at desktop and phone size."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_all_in_equity import first_to_act
from tests.web.test_table import (
    SHOWN_MESSAGES,
    Frames,
    create_table_with_bots,
    message_was_shown,
    seat_of,
    sit,
)

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
# The legal actions each button stands for (the raise button goes all-in at full size).
STANDS_FOR = {"act-fold": {"fold"}, "act-check": {"check"}, "act-call": {"call"},
              "act-raise": {"bet", "raise", "all_in"}, "act-allin": {"all_in"},
              "act-show": {"show"}, "act-muck": {"muck"}}
OFFERED = """() => [...document.querySelectorAll("#actions .action-buttons button")]
  .filter((b) => !b.hidden && b.offsetParent !== null)
  .map((b) => [b.id, b.firstChild.textContent.trim()])"""
READY = """() => {
  const actions = document.getElementById("actions");
  return !actions.hidden && !actions.querySelector("button:disabled");
}"""
BOARD = "() => document.querySelectorAll('#board .pcard[data-card]').length"


class HeadsUp:
    """Two people at a two-seat table without bots: Ann (``short``, by default the
    table's minimum buy-in at 5/10, 200) and Bob (``deep``, 1,000); ``frames`` is what
    Ann's browser received."""

    def __init__(self, short: Page, deep: Page, frames: Frames) -> None:
        self.short, self.deep, self.frames = short, deep, frames

    async def legal(self) -> set[str]:
        """The legal actions of the last turn the server gave ``short``."""
        seat = await seat_of(self.short)
        turns = [t for t in self.frames.named("table:turn")
                 if t["seat"] == seat and t["legal_actions"] is not None]
        return {a["action"] for a in turns[-1]["legal_actions"]}

    async def offered(self) -> list[tuple[str, str]]:
        """The buttons ``short`` sees: (id, label)."""
        await self.short.wait_for_function(READY)
        return [(id_, label) for id_, label in await self.short.evaluate(OFFERED)]

    async def only_legal_actions_offered(self) -> list[tuple[str, str]]:
        offered, legal = await self.offered(), await self.legal()
        for id_, label in offered:
            assert STANDS_FOR[id_] & legal, f"{label!r} offered; legal: {legal}"
        labels = [label for _, label in offered]
        assert len(labels) == len(set(labels)), f"two buttons alike: {labels}"
        return offered


async def heads_up(visitors: Visitors, mailbox: Mailbox, viewport: dict[str, int], *,
                   buy_ins: tuple[int, int] = (200, 1_000),
                   other: dict[str, int] = DESKTOP) -> HeadsUp:
    """Ann at ``viewport`` size, Bob at ``other`` size."""
    ann, bo = await visitors.new(viewport=viewport), await visitors.new(viewport=other)
    await signed_in(ann, mailbox, "Ann")
    await signed_in(bo, mailbox, "Bob")
    frames = Frames(ann.page)
    await ann.page.goto("/")
    form = ann.page.locator("#create-form")
    await form.get_by_label("Name").fill("Heads up")
    await form.get_by_label("Seats", exact=True).fill("2")
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.get_by_role("button", name="Create table").click()
    await ann.page.wait_for_url(re.compile(r"/table/"))
    await sit(ann.page, buy_in=buy_ins[0])
    await bo.page.goto(ann.page.url.split("?")[0])
    await bo.page.get_by_role("button", name="Sit in seat").click()
    await sit(bo.page, buy_in=buy_ins[1])
    return HeadsUp(ann.page, bo.page, frames)


async def button_and_blind(game: HeadsUp) -> tuple[Page, Page]:
    """Who acts first (heads-up, the button), ready to act, and the other player."""
    button = await first_to_act([game.short, game.deep])
    blind = game.deep if button is game.short else game.short
    await button.wait_for_function(READY)
    return button, blind


async def deep_raises_to(game: HeadsUp, amount: int) -> None:
    """The deep stack raises to ``amount`` at its first turn; the short stack, if it acts
    first, just calls the big blind."""
    first = await first_to_act([game.short, game.deep])
    if first is game.short:
        await game.short.locator("#act-call").click()
        await game.deep.wait_for_function(READY)
    await game.deep.locator("#bet-amount").fill(str(amount))
    await game.deep.locator("#bet-amount").press("Enter")


@SIZES
async def test_facing_a_bet_of_the_whole_stack_there_is_no_raise_button(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport)
    await deep_raises_to(game, 1_000)
    offered = await game.only_legal_actions_offered()
    assert [id_ for id_, _ in offered] == ["act-fold", "act-call"]
    await expect(game.short.locator("#act-call")).to_have_text(re.compile(r"^Call 19\d \(all-in\)"))
    await expect(game.short.locator("#act-raise")).to_be_hidden()
    await expect(game.short.locator("#sizing")).to_be_hidden()
    await game.short.screenshot(path=screenshot_path(f"actions-call-all-in-{viewport['width']}"))
    await game.short.locator("#act-call").click()
    await expect(game.short.locator("#panel-log")).to_contain_text("Ann calls")


@SIZES
async def test_when_the_smallest_raise_is_the_whole_stack_one_all_in_button_is_offered(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport)
    await deep_raises_to(game, 190)
    offered = await game.only_legal_actions_offered()
    assert offered == [("act-fold", "Fold"), ("act-call", "Call 180"),
                       ("act-allin", "All-in 200")]
    await expect(game.short.locator("#sizing")).to_be_hidden()
    await game.short.locator("#act-allin").click()
    await expect(game.short.locator("#panel-log")).to_contain_text(
        re.compile(r"Ann (raises to 200 \(all-in\)|is all-in for 200)"))


@SIZES
async def test_a_raise_sized_to_the_whole_stack_replaces_the_all_in_button(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport)
    page = game.deep
    if await first_to_act([game.short, game.deep]) is game.short:
        await game.short.locator("#act-call").click()
        await page.wait_for_function(READY)
    # Bob may raise from 20 to his whole stack: sized at the whole stack, the raise button
    # is the all-in, and the All-in button beside it goes.
    await expect(page.locator("#act-raise")).to_have_text(re.compile(r"^Raise to 20\b"))
    await expect(page.locator("#act-allin")).to_have_text(re.compile(r"^All-in 1,000\b"))
    await page.get_by_role("button", name="All-in", exact=True).click()  # the size preset
    await expect(page.locator("#act-raise")).to_have_text(re.compile(r"^All-in 1,000\b"))
    await expect(page.locator("#act-allin")).to_be_hidden()
    await page.get_by_role("button", name="Min", exact=True).click()
    await expect(page.locator("#act-raise")).to_have_text(re.compile(r"^Raise to 20\b"))
    await expect(page.locator("#act-allin")).to_be_visible()


@SIZES
async def test_folding_when_a_check_is_free_asks_first(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport)
    page = game.short
    first = await first_to_act([game.short, game.deep])
    if first is game.short:
        # Ann, the small blind, calls; Bob checks his option, and after the flop the big
        # blind acts first: Bob checks again, and Ann may check for free.
        await page.locator("#act-call").click()
        for _ in range(2):
            await game.deep.wait_for_function(READY)
            await game.deep.locator("#act-check").click()
    else:
        # Bob, the small blind, calls: Ann, the big blind, may check her option.
        await game.deep.locator("#act-call").click()
    await page.wait_for_function(READY)
    assert "check" in await game.legal()
    await page.locator("#act-fold").click()
    question = page.locator("#fold-confirm")
    await expect(question).to_be_visible()
    await expect(question).to_contain_text("Checking is free. Fold anyway?")
    await expect(page.locator("#act-fold")).to_be_hidden()
    await page.screenshot(path=screenshot_path(f"actions-fold-question-{viewport['width']}"))
    await page.keyboard.press("Escape")
    await expect(question).to_be_hidden()
    await page.keyboard.press("f")
    await expect(question).to_be_visible()
    await question.get_by_role("button", name="Check").click()
    await expect(page.locator("#panel-log")).to_contain_text("Ann checks")
    assert "Ann folds" not in await page.locator("#panel-log").inner_text()


@SIZES
async def test_leaving_in_the_middle_of_a_hand_asks_first(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Lou")
    await create_table_with_bots(page, name="Lou's table", seats=4, bots=3)
    await sit(page, buy_in=1_000)
    await page.wait_for_function(READY, timeout=60_000)
    await page.get_by_role("button", name="Leave seat").click()
    dialog = page.locator("#leave-dialog")
    await expect(dialog).to_be_visible()
    await expect(dialog).to_contain_text("Leave during this hand?")
    await page.screenshot(path=screenshot_path(f"actions-leave-question-{viewport['width']}"))
    await dialog.get_by_role("button", name="Stay").click()
    await expect(dialog).to_be_hidden()
    await expect(page.locator(".seat.mine .seat-badge", has_text="Leaving")).to_have_count(0)
    await expect(page.locator("#actions")).to_be_visible()

    await page.evaluate(SHOWN_MESSAGES)
    await page.get_by_role("button", name="Leave seat").click()
    await dialog.get_by_role("button", name="Leave the table").click()
    await message_was_shown(page, "You leave when this hand ends")
    await expect(page.locator("#panel-log li", has_text="You cashed out")).to_have_count(1)
