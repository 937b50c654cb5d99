"""The odds calculator in the browser: ranges exactly, outs by card, errors beside the form,
laid out for the screen it is on."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, screenshot_path


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


# The cards of the outs row that stick out of its panel, and where the two panels sit.
OUTS_FIT = """() => {
  const panel = document.getElementById("outs-result").parentElement.getBoundingClientRect();
  const out = [...document.querySelectorAll("#outs-result .pcard")].filter((card) => {
    const box = card.getBoundingClientRect();
    return box.left < panel.left || box.right > panel.right;
  });
  return out.length;
}"""
PANELS = """() => [...document.querySelectorAll(".odds-grid > .card-panel")]
  .map((panel) => Math.round(panel.getBoundingClientRect().top))"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_the_calculators_sit_side_by_side_on_a_desktop_and_a_long_row_of_outs_fits(
    visitors: Visitors, live_server: LiveServer, viewport: dict[str, int]
) -> None:
    page = (await visitors.new(viewport=viewport)).page
    await page.goto("/odds")
    tops = await page.evaluate(PANELS)
    if viewport["width"] > 800:
        assert tops[0] == tops[1], "the equity and outs calculators are one above the other"
    outs = page.locator("#outs-form")
    await outs.get_by_label("Your hand").fill("9h8h")
    await outs.get_by_label("Flop or turn").fill("Th 7h 2c")
    await outs.get_by_role("button", name="Find outs").click()
    # A flush draw with an open-ended straight draw: 21 cards improve the hand.
    await expect(page.locator("#outs-summary")).to_contain_text("21 outs")
    await expect(page.locator("#outs-result .pcard")).to_have_count(21)
    assert await page.evaluate(OUTS_FIT) == 0, "outs cards spill out of the panel"
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # The equity answer's five columns fit too.
    await page.locator("#equity-form").get_by_role("button", name="Calculate equity").click()
    await expect(page.locator("#equity-table tbody tr")).to_have_count(2)
    assert await page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    await page.screenshot(path=screenshot_path(f"odds-{viewport['width']}"), full_page=True)
