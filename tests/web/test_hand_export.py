"""In the browser: a player downloads the hands they played for their tracker, from the
account page, and reads the PokerStars text inside; a range with no hands says so."""

from __future__ import annotations

import io
import zipfile

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, play, sit


async def test_a_player_downloads_their_hands_as_pokerstars_text_from_the_account_page(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Jude")
    await create_table_with_bots(page, name="Tracker table", seats=2, bots=1)
    await sit(page, buy_in=1_000)
    await play(page, hands=2, showdown=False)

    await page.goto("/account")
    form = page.locator("#export-form")
    await expect(form.get_by_label("Format")).to_have_value("pokerstars")
    async with page.expect_download() as downloading:
        await form.get_by_role("button", name="Download").click()
    download = await downloading.value
    assert download.suggested_filename.endswith(".zip"), download.suggested_filename
    with zipfile.ZipFile(io.BytesIO(open(await download.path(), "rb").read())) as archive:
        (name,) = archive.namelist()
        text = archive.read(name).decode()
    assert text.count("PokerStars Hand #") >= 2 and "Jude" in text and "Tracker table" in text
    await expect(form.locator("[data-form-status]")).to_have_text("Downloaded.")

    await form.get_by_label("From").fill("2020-01-01")
    await form.get_by_label("To (included)").fill("2020-01-02")
    await form.get_by_role("button", name="Download").click()
    await expect(form.locator("[data-form-status]")).to_have_text(
        "You played no hand in those days.")
