"""In the browser: a played hand replayed step by step, the other hands face down."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, play, sit


async def test_a_player_steps_through_a_hand_and_plays_it_to_the_end(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Rita")
    await create_table_with_bots(page, name="Replay table", seats=2, bots=1)
    await sit(page, buy_in=1_000)
    await play(page, hands=1, showdown=False)

    # The bot plays on meanwhile: find the hand the dialog opened by its number.
    await page.goto("/")
    await page.locator("#recent-hands tbody tr").first.get_by_role("button", name="View").click()
    await expect(page.locator("#hand-dialog .replay-caption")).to_contain_text("Step 1 of")
    title = await page.locator("#hand-title").inner_text()
    hands = (await (await page.context.request.get("/hands")).json())["items"]
    hand = next(h for h in hands if f"Hand #{h['number']}" == title)
    replay = await (await page.context.request.get(f"/hands/{hand['id']}/replay")).json()
    steps = len(replay["frames"])
    bot_seat = next(s["seat"] for s in replay["frames"][0]["hand"]["seats"]
                    if s["seat"] != hand["seat"])
    player = page.locator("#hand-dialog .replayer")
    caption = player.locator(".replay-caption")
    await expect(caption).to_contain_text(f"Step 1 of {steps}: ")
    await expect(caption).to_contain_text("You are dealt")
    mine = player.locator(f'li[data-seat="{hand["seat"]}"] .pcard[data-card]')
    theirs = player.locator(f'li[data-seat="{bot_seat}"] .pcard[data-card]')
    await expect(mine).to_have_count(2)
    await expect(theirs).to_have_count(0)
    await expect(player.get_by_role("button", name="Back")).to_be_disabled()
    await player.get_by_role("button", name="Forward").click()
    await expect(caption).to_contain_text(f"Step 2 of {steps}: ")
    await player.get_by_role("button", name="Back").click()
    await expect(caption).to_contain_text(f"Step 1 of {steps}: ")
    # Nothing missing is written out as "null", at any step.
    for step in range(1, steps + 1):
        await expect(caption).to_contain_text(f"Step {step} of {steps}: ")
        assert "null" not in await player.inner_text(), f"step {step}"
        if step < steps:
            await player.get_by_role("button", name="Forward").click()
    await player.get_by_role("button", name="Back").click()
    await player.get_by_role("button", name="Play").click()
    await expect(caption).to_contain_text(f"Step {steps} of {steps}: ", timeout=steps * 2_000)
    await expect(player.get_by_role("button", name="Forward")).to_be_disabled()
    await expect(player.get_by_role("link", name="Download the PHH")).to_have_attribute(
        "href", re.compile(rf"^/hands/{hand['id']}\.phh$"))
    for name, ending, opening in (("PokerStars text", "txt", "PokerStars Hand #"),
                                  ("Open Hand History", "ohh", '{"ohh"')):
        link = player.get_by_role("link", name=name)
        await expect(link).to_have_attribute("href", f"/hands/{hand['id']}.{ending}")
        answer = await page.context.request.get(f"/hands/{hand['id']}.{ending}")
        assert answer.ok and (await answer.text()).startswith(opening), await answer.text()
