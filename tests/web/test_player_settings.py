"""In the browser: your table settings are kept on your account (the account page and the
table change the same ones), the deck's colours follow them on every page, and the table
applies your seat's preferences."""

from __future__ import annotations

from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, sit

SETTINGS = """async () => {
  const { api } = await import("/static/js/api.js");
  return (await api("GET", "/users/me")).settings;
}"""
# The colour a diamond is drawn in (a card made the way the table makes them).
DIAMOND_COLOUR = """async () => {
  const { cardElement } = await import("/static/js/cards.js");
  const card = cardElement("Qd");
  document.body.append(card);
  const colour = getComputedStyle(card).color;
  card.remove();
  return colour;
}"""
BLUE, RED = "rgb(31, 95, 191)", "rgb(200, 35, 44)"


async def stored(page: Page, name: str, value: bool) -> None:
    for _ in range(50):
        if (await page.evaluate(SETTINGS))[name] is value:
            return
        await page.wait_for_timeout(100)
    raise AssertionError(f"{name} never became {value}")


async def test_settings_changed_on_the_account_page_hold_at_the_table(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new(viewport=DESKTOP)
    await signed_in(tab, mailbox, "Sol")
    page = tab.page
    await page.goto("/account")
    form = page.locator("#settings-form")
    await expect(form.get_by_label("Four-colour deck")).to_be_checked()
    assert await page.evaluate(DIAMOND_COLOUR) == BLUE
    await form.get_by_label("Four-colour deck").uncheck()
    await form.get_by_label("Muck losing hands").uncheck()
    await expect(form.locator("[data-form-status]")).to_have_text("Saved.")
    await stored(page, "auto_muck", False)
    assert await page.evaluate(DIAMOND_COLOUR) == RED

    # Another device: a new browser context logged in to the same account.
    other = await visitors.new(viewport=PHONE)
    await other.page.context.add_cookies(await page.context.cookies())
    await create_table_with_bots(other.page, name="Settings", seats=3, bots=2)
    assert await other.page.evaluate(DIAMOND_COLOUR) == RED
    await sit(other.page, buy_in=1_000)
    await other.page.locator("#side-toggle").click()
    box = other.page.locator("#seat-settings")
    await expect(box.get_by_label("Four-colour deck")).not_to_be_checked()
    await expect(box.get_by_label("Muck losing hands")).not_to_be_checked()
    # Seated: the seat's own choice, and the account's sent to the seat.
    sit_out = box.get_by_label("Sit out next big blind")
    await expect(sit_out).to_be_visible()
    await sit_out.check()
    await box.get_by_label("Top up to the maximum before each hand").check()
    await stored(other.page, "auto_top_up", True)
    await other.page.reload()
    await other.page.locator("#side-toggle").click()
    box = other.page.locator("#seat-settings")
    await expect(box.get_by_label("Sit out next big blind")).to_be_checked()
    await expect(box.get_by_label("Top up to the maximum before each hand")).to_be_checked()
    await page.reload()
    top_up = form.get_by_label("Top up to the table's maximum before each hand")
    await expect(top_up).to_be_checked()


async def test_a_guest_sees_no_seat_settings(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    host = await visitors.new(viewport=DESKTOP)
    await signed_in(host, mailbox, "Tia")
    table_id = await create_table_with_bots(host.page, name="Open", seats=3, bots=2)
    guest = (await visitors.new(viewport=DESKTOP)).page
    await guest.goto(f"/table/{table_id}")
    await expect(guest.locator("#table-name")).to_have_text("Open")
    await expect(guest.locator("#seat-settings")).to_be_hidden()
