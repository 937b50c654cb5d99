"""In the browser: the table sends our own shuffle seed, and a finished hand's shuffle is
verified in the page with the browser's own cryptography."""

from __future__ import annotations

import re

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, play, sit


async def test_a_player_verifies_the_shuffle_of_a_hand_they_played(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Vera")
    await create_table_with_bots(page, name="Fair table", seats=2, bots=1)
    await sit(page, buy_in=1_000)
    await play(page, hands=2, showdown=False)

    hands = (await (await page.context.request.get("/hands")).json())["items"]
    seats = set()
    for hand in hands:
        detail = await (await page.context.request.get(f"/hands/{hand['id']}")).json()
        fairness = detail["summary"]["fairness"]
        assert fairness is not None and len(fairness["server_seed"]) == 64
        seats |= {c["seat"] for c in fairness["client_seeds"] if c["seat"] == hand["seat"]}
    assert seats, "the browser's own seed was in none of the hands"

    await page.goto("/")
    await page.locator("#recent-hands tbody tr").first.get_by_role("button", name="View").click()
    dialog = page.locator("#hand-dialog")
    await expect(dialog).to_contain_text("Server seed")
    await dialog.get_by_role("button", name="Verify the shuffle").click()
    await expect(dialog.locator(".verify-result")).to_have_text(
        re.compile(r"^Verified: the \d+ cards you saw are where the revealed seeds put them\. "))


async def test_the_shuffle_is_checked_against_the_commitment_announced_before_the_deal(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Cora")
    await create_table_with_bots(page, name="Committed table", seats=2, bots=1)
    await sit(page, buy_in=1_000)
    await play(page, hands=2, showdown=False)

    hands = (await (await page.context.request.get("/hands")).json())["items"]
    records = [await (await page.context.request.get(f"/hands/{h['id']}")).json() for h in hands]
    newest, older = (r["summary"]["fairness"]["commitment"] for r in records[:2])
    announced = await page.evaluate(
        "JSON.parse(localStorage.getItem('holdem-announced-commitments') || '[]')")
    assert [hands[0]["id"], newest] in announced, "the table page kept no announced commitment"

    await page.goto("/")
    await page.locator("#recent-hands tbody tr").first.get_by_role("button", name="View").click()
    dialog = page.locator("#hand-dialog")
    verify, result = dialog.get_by_role("button", name="Verify the shuffle"), dialog.locator(
        ".verify-result")
    await verify.click()
    await expect(result).to_contain_text(
        "The seed matches the commitment this browser saw announced before the deal.")

    # The server announced one commitment and revealed a seed committed to by another.
    await page.evaluate(
        """([id, other]) => localStorage.setItem('holdem-announced-commitments',
               JSON.stringify([[id, other]]))""", [hands[0]["id"], older])
    await verify.click()
    await expect(result).to_have_text(re.compile(
        r"^Verification failed: the server seed does not match the commitment announced "
        r"before the deal"))

    await page.evaluate("localStorage.removeItem('holdem-announced-commitments')")
    await verify.click()
    await expect(result).to_contain_text("This browser did not see the hand start")
