"""The back office in a real browser: fund the house, reconcile the ledger, create a
tournament from a template, add a recurring one, read the audit log, and send an
announcement that a player's lobby shows as a banner until dismissed."""

from __future__ import annotations

import asyncio
import re

from playwright.async_api import expect

from app.db.engine import Database
from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, as_admin, signed_in


async def test_an_admin_runs_the_back_office_and_a_player_sees_the_announcement(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, player = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Olga")
    await signed_in(player, mailbox, "Pavel")
    await as_admin(database, "Olga")
    await player.page.goto("/")
    page = admin.page
    await page.goto("/admin")

    await page.get_by_role("tab", name="House & ledger").click()
    await expect(page).to_have_url(re.compile(r"/admin#money$"))
    balance = page.locator("#house-balance")
    await expect(balance).not_to_have_text("…")
    before = int((await balance.text_content() or "0").replace(",", ""))
    house = page.locator("#house-form")
    await house.get_by_label("Credits to add").fill("2500")
    await house.get_by_label("Reason").fill("x")
    await house.get_by_role("button", name="Fund the house").click()
    await expect(page.locator("#house-reason-error")).to_contain_text("at least 3 characters")
    await expect(balance).to_have_text(f"{before:,}")
    await house.get_by_label("Reason").fill("weekend bankroll")
    await house.get_by_role("button", name="Fund the house").click()
    await expect(balance).to_have_text(f"{before + 2500:,}")
    await page.get_by_role("button", name="Run the audit").click()
    await expect(page.locator("#reconcile-verdict")).to_have_text(
        "Balanced: every credit is accounted for.")

    await page.get_by_role("tab", name="Tournaments").click()
    template = page.locator("#template-form")
    await template.get_by_label("Template", exact=True).select_option("heads_up")
    await expect(page.locator("#template-detail")).to_contain_text("500 chips, 3-minute levels")
    await template.get_by_label("Name (empty: the template's)").fill("Evening duel")
    await template.get_by_role("button", name="Create from template").click()
    await expect(template.get_by_role("link", name="Evening duel")).to_be_visible()
    listed = page.locator("#admin-tournaments tbody tr", has_text="Evening duel")
    await expect(listed).to_contain_text("registering")

    schedule = page.locator("#schedule-form")
    await schedule.get_by_label("Name", exact=True).fill("Saturday deep")
    await schedule.get_by_label("Template", exact=True).select_option("deep_stack")
    await schedule.get_by_label("Every").select_option("5")
    await schedule.get_by_label("At (UTC)").fill("18:00")
    await schedule.get_by_role("button", name="Add recurring tournament").click()
    row = page.locator("#schedules tbody tr", has_text="Saturday deep")
    await expect(row).to_contain_text("Every Saturday at 18:00")
    await expect(row).to_contain_text("18:00 UTC")
    await row.get_by_role("button", name="Pause").click()
    await expect(row).to_contain_text("paused")

    page.once("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))
    await listed.get_by_role("button", name="Cancel").click()
    await expect(listed).to_have_count(0)

    await page.get_by_role("tab", name="Announcements").click()
    form = page.locator("#announce-form")
    await form.get_by_label("Message").fill("Free roll at 20:00 UTC tonight!")
    await form.get_by_label("Level").select_option("warning")
    await form.get_by_role("button", name="Send announcement").click()
    await expect(form.locator("[data-form-status]")).to_contain_text("Sent at")
    banner = player.page.locator(".announcement")
    await expect(banner).to_have_text("Free roll at 20:00 UTC tonight!Dismiss")
    await expect(banner).to_have_class("announcement announcement-warning")
    await banner.get_by_role("button", name="Dismiss this announcement").click()
    await expect(banner).to_have_count(0)

    await page.get_by_role("tab", name="Audit log").click()
    log = page.locator("#audit-log tbody tr")
    await expect(log.first).to_contain_text("announce")
    await page.locator("#audit-form").get_by_label("Action").select_option("fund_house")
    await page.locator("#audit-form").get_by_role("button", name="Filter").click()
    await expect(log).to_have_count(1)
    await expect(log).to_contain_text("weekend bankroll")
