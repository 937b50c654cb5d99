"""Chat safety in a real browser: a player ignores and reports another from a name in the
table's chat, the ignore follows them to a fresh page, and the admin page shows the
report, the chat log, the word list and mutes."""

from __future__ import annotations

from playwright.async_api import Page, expect
from sqlalchemy import update

from app.db.engine import Database
from app.db.models import Role, User
from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots


async def open_chat(page: Page) -> None:
    """Show the chat tab (on a narrow screen the log and chat open over the table)."""
    toggle = page.get_by_role("button", name="Log & chat")
    if await toggle.is_visible():
        await toggle.click()
    await page.get_by_role("tab", name="Chat").click()


async def say(page: Page, text: str) -> None:
    await page.locator("#chat-text").fill(text)
    await page.locator("#chat-text").press("Enter")
    await expect(page.locator("#chat-text")).to_have_value("")


async def test_a_player_ignores_and_reports_another_from_the_chat_and_admins_see_it(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    rude, reader, admin = await visitors.new(), await visitors.new(), await visitors.new()
    await signed_in(rude, mailbox, "Rudy")
    await signed_in(reader, mailbox, "Rita")
    await signed_in(admin, mailbox, "Hana")
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == "Hana")
                              .values(role=Role.ADMIN))
        await session.commit()

    table_id = await create_table_with_bots(rude.page, name="Chatty", seats=3, bots=1)
    await rude.page.locator("#sit-dialog").get_by_role("button", name="Cancel").click()
    await reader.page.goto(f"/table/{table_id}")
    for tab in (rude, reader):
        await open_chat(tab.page)
    await say(rude.page, "hello all")
    lines = reader.page.locator("#chat-lines")
    await expect(lines).to_contain_text("Rudy: hello all")

    await lines.get_by_role("button", name="Rudy").click()
    dialog = reader.page.locator("#player-dialog")
    await expect(dialog.locator("h2")).to_have_text("Rudy")
    await dialog.get_by_role("button", name="Ignore").click()
    await expect(dialog).to_contain_text("You no longer see Rudy's chat")
    await expect(dialog.get_by_role("button", name="Unignore")).to_be_visible()
    await dialog.get_by_label("Report to the admins: why?").fill("rude all evening")
    await dialog.get_by_role("button", name="Report").click()
    await expect(dialog).to_contain_text("Reported")
    await dialog.get_by_role("button", name="Close").click()
    await expect(lines).not_to_contain_text("hello all")

    await say(rude.page, "second line")
    await say(reader.page, "my own line")
    # Lines arrive in order: the reader's own came after Rudy's, which never arrived.
    await expect(lines).to_contain_text("Rita: my own line")
    await expect(lines).not_to_contain_text("second line")
    await expect(rude.page.locator("#chat-lines")).to_contain_text("Rita: my own line")

    # Another page (as another device would): the server leaves Rudy's lines out.
    await reader.page.reload()
    await open_chat(reader.page)
    await expect(reader.page.locator("#chat-lines")).to_contain_text("Rita: my own line")
    await expect(reader.page.locator("#chat-lines")).not_to_contain_text("Rudy")
    ignored = reader.page.locator("#chat-ignored")
    await expect(ignored).to_have_text("You ignore: Rudy ✕")
    await ignored.get_by_role("button", name="Unignore Rudy").click()
    await expect(ignored).to_be_hidden()
    await say(rude.page, "back again")
    await expect(reader.page.locator("#chat-lines")).to_contain_text("Rudy: back again")

    page = admin.page
    await page.goto("/admin#chat")
    report = page.locator("#reports tbody tr", has_text="rude all evening")
    await expect(report).to_contain_text("Rudy")
    await expect(report).to_contain_text("Rita")
    await expect(report.locator(".report-chat")).to_contain_text("Rudy: hello all")
    await report.get_by_role("button", name="Table chat").click()
    log = page.locator("#chat-log tbody tr")
    await expect(log).to_have_count(4)
    await expect(log.first).to_contain_text("back again")
    await expect(page.locator("#chat-log-table_id")).to_have_value(table_id)
    await report.get_by_role("button", name="Mark handled").click()
    await expect(page.locator("#reports tbody")).to_contain_text("No reports.")

    words = page.locator("#words-form")
    await words.get_by_label("Add a word").fill("sprocket")
    await words.get_by_role("button", name="Add").click()
    await expect(page.locator("#words")).to_contain_text("sprocket")
    await say(rude.page, "what a sprocket")
    await expect(rude.page.locator("#chat-lines")).to_contain_text("Rudy: what a ********")

    await page.get_by_role("tab", name="Users").click()
    await page.get_by_label("Search by e-mail, name or id").fill("rudy")
    await page.get_by_role("button", name="Search").click()
    row = page.locator("#users tbody tr", has_text="Rudy")
    await row.get_by_role("button", name="Mute").click()
    mute = page.locator("#mute-form")
    await mute.get_by_label("Minutes").fill("15")
    await mute.get_by_label("Reason").fill("insults")
    await mute.get_by_role("button", name="Mute").click()
    await expect(row.get_by_role("button", name="Unmute")).to_be_visible()
    await rude.page.locator("#chat-text").fill("am I muted?")
    await rude.page.locator("#chat-text").press("Enter")
    await expect(rude.page.locator("#chat-form [data-form-status]")).to_contain_text(
        "muted you until")
    for tab in (rude, reader, admin):
        assert tab.errors == []
