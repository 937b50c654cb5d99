"""The odds calculator in the browser: ranges exactly, outs by card, errors beside the form."""

from __future__ import annotations

from playwright.async_api import expect

from tests.web.conftest import LiveServer, Visitors


async def test_a_visitor_compares_two_ranges_and_counts_outs(
    visitors: Visitors, live_server: LiveServer
) -> None:
    tab = await visitors.new()
    page = tab.page
    await page.goto("/")
    await page.get_by_role("link", name="Odds").click()
    await expect(page).to_have_url(f"{live_server.base_url}/odds")

    equity = page.locator("#equity-form")
    await equity.get_by_label("Player 1").fill("QQ+,AKs")
    await equity.get_by_label("Player 2").fill("22+,A2s+")
    await equity.get_by_role("button", name="Calculate equity").click()
    await expect(page.locator("#equity-how")).to_contain_text(
        "Exact, over 4,181,446,368 deals", timeout=30_000)
    rows = page.locator("#equity-table tbody tr")
    await expect(rows.nth(0)).to_contain_text("QQ+,AKs (22 combos)")
    await expect(rows.nth(0)).to_contain_text("70.40%")
    await expect(rows.nth(1)).to_contain_text("29.60%")

    await equity.get_by_label("Player 2").fill("??")
    await equity.get_by_label("Player 1").fill("AhKh")
    await equity.get_by_label("Player 3 (optional)").fill("??")
    await equity.get_by_role("button", name="Calculate equity").click()
    await expect(page.locator("#equity-how")).to_contain_text("Monte Carlo")
    await expect(rows.nth(0)).to_contain_text("±")

    await equity.get_by_label("Player 2").fill("QQs")
    await equity.get_by_role("button", name="Calculate equity").click()
    await expect(equity.locator("[data-form-status]")).to_contain_text("a pair is neither")

    outs = page.locator("#outs-form")
    await outs.get_by_label("Your hand").fill("6h5h")
    await outs.get_by_label("Flop or turn").fill("Kh 7h 2c")
    await outs.get_by_label("Opponents' hands (optional, comma-separated)").fill("QcQd")
    await outs.get_by_role("button", name="Find outs").click()
    await expect(page.locator("#outs-summary")).to_contain_text("9 outs")
    await expect(page.locator("#outs-chances")).to_contain_text("next card 20.00% (4.0 : 1)")
    await expect(page.locator("#outs-result .pcard")).to_have_count(9)
