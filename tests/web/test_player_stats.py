"""In the browser: the opt-in HUD and private notes at the seats, and your stats page."""

from __future__ import annotations

from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors
from tests.web.test_all_in_equity import first_to_act, heads_up


async def test_the_hud_and_a_private_note_show_at_the_opponents_seat_and_the_stats_page(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    ivy, jon = await heads_up(visitors, mailbox, "Notes")
    folder = await first_to_act([ivy, jon])
    await folder.locator("#act-fold").click()
    await expect(ivy.locator("#panel-log")).to_contain_text("wins")

    theirs = ivy.locator(".seat:not(.mine)")
    await expect(theirs.locator(".seat-hud")).to_have_count(0)
    await ivy.get_by_label("HUD").check()
    await expect(theirs.locator(".seat-hud")).to_contain_text("1h")

    await theirs.get_by_role("button", name="Note about Jon").click()
    dialog = ivy.locator("#note-dialog")
    await dialog.get_by_label("Note").fill("Folds to pressure")
    await dialog.get_by_label("Colour tag").select_option("red")
    await dialog.get_by_role("button", name="Save").click()
    await expect(dialog).to_be_hidden()
    tag = theirs.locator(".note-tag.note-red")
    await expect(tag).to_have_attribute("title", "Your note: Folds to pressure")

    await ivy.reload()
    await expect(ivy.locator(".seat:not(.mine) .note-tag.note-red")).to_be_visible()
    await expect(ivy.get_by_label("HUD")).to_be_checked()
    # Only its author sees a note, and the HUD is off until each player turns it on.
    await expect(jon.locator(".seat:not(.mine) .seat-extras")).to_be_visible()
    await expect(jon.locator(".note-tag")).to_have_count(0)
    await expect(jon.locator(".seat-hud")).to_have_count(0)

    await ivy.goto("/stats")
    await expect(ivy.locator("#stats-hands")).to_contain_text("hands")
    await expect(ivy.locator('[data-stat="vpip"] .stat-value')).not_to_have_text("")
    await expect(ivy.locator("#results-summary")).to_contain_text("credits over your last")
    await expect(ivy.locator("#results-summary")).to_contain_text("all-in adjusted")
    await expect(ivy.locator("#results-graph polyline")).to_have_count(2)
