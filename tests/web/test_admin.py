"""The admin page in a real browser: find a user, adjust credits, look at a live table
and its hand histories, close the table, ban the user."""

from __future__ import annotations

from playwright.async_api import expect
from sqlalchemy import update

from app.db.engine import Database
from app.db.models import Role, User
from tests.conftest import PASSWORD, Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in
from tests.web.test_table import create_table_with_bots, play, sit


async def test_an_admin_manages_users_tables_and_hand_histories(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, player = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Hana")
    await signed_in(player, mailbox, "Ivan")
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == "Hana")
                              .values(role=Role.ADMIN))
        await session.commit()

    await player.page.goto("/admin")
    await expect(player.page.get_by_text("This page is for admins only.")).to_be_visible()
    await create_table_with_bots(player.page, name="Ivan's", seats=3, bots=2)
    await sit(player.page, buy_in=600)
    await play(player.page, hands=1, showdown=False)

    page = admin.page
    await page.goto("/admin")
    await page.get_by_label("Search by e-mail, name or id").fill("ivan")
    await page.get_by_role("button", name="Search").click()
    row = page.locator("#users tbody tr", has_text="Ivan")
    await expect(row).to_have_count(1)
    await row.get_by_role("button", name="Credits").click()
    credits = page.locator("#credits-form")
    await credits.get_by_label("Amount").fill("0")
    await credits.get_by_label("Reason").fill("tournament prize")
    await credits.get_by_role("button", name="Apply").click()
    await expect(page.locator("#credits-amount-error")).to_contain_text("zero")
    await credits.get_by_label("Amount").fill("500")
    await credits.get_by_role("button", name="Apply").click()
    await expect(row).to_contain_text("9,900")

    await page.get_by_role("tab", name="Tables").click()
    tables = page.locator("#admin-tables tbody tr", has_text="Ivan's")
    await expect(tables).to_contain_text("Ivan (")
    await tables.get_by_role("button", name="Hands").click()
    hand = page.locator("#hands tbody tr").first
    await hand.get_by_role("button", name="View").click()
    detail = page.locator("#detail-dialog")
    await expect(detail).to_contain_text("Ivan")
    await detail.get_by_text("Hand history (PHH)").click()
    await expect(detail.locator("pre")).to_contain_text("NT")
    await detail.get_by_role("button", name="Close", exact=True).click()

    await page.get_by_role("tab", name="Tables").click()
    await tables.get_by_role("button", name="Close", exact=True).click()
    await page.locator("#close-form").get_by_label("Reason").fill("maintenance")
    await page.locator("#close-form").get_by_role("button", name="Close table").click()
    await expect(tables).to_have_count(0)
    await expect(player.page.locator("#table-message")).to_contain_text("maintenance")

    await page.get_by_role("tab", name="Users").click()
    await row.get_by_role("button", name="Ban").click()
    await page.locator("#ban-form").get_by_label("Reason").fill("chip dumping")
    await page.locator("#ban-form").get_by_role("button", name="Ban").click()
    await expect(row).to_contain_text("banned")

    await player.page.goto("/login")
    await player.page.get_by_label("E-mail address").fill("ivan@example.com")
    await player.page.get_by_label("Password").fill(PASSWORD)
    await player.page.get_by_role("button", name="Log in").click()
    await expect(player.page.locator("#login-email-error")).to_contain_text("banned")


async def test_the_house_is_labelled_not_banned_and_admins_are_demoted_before_a_ban(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, other = await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Jade")
    await signed_in(other, mailbox, "Kurt")
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name.in_(["Jade", "Kurt"]))
                              .values(role=Role.ADMIN))
        await session.commit()

    page = admin.page
    # Ask first: two first-ever /admin/house requests at once race to create the house.
    house_id = (await (await page.request.get("/admin/house")).json())["user_id"]
    await page.goto("/admin")
    house = page.locator(f'#users tbody tr[data-user-id="{house_id}"]')
    await expect(house).to_contain_text("House")
    await expect(house).to_contain_text("bots' bankroll")
    await expect(house.get_by_role("button", name="Ban")).to_have_count(0)
    await expect(house.get_by_role("button", name="Credits")).to_have_count(0)

    kurt = page.locator("#users tbody tr", has_text="Kurt")
    await expect(kurt.get_by_role("button", name="Ban")).to_have_count(0)
    await kurt.get_by_role("button", name="Demote").click()
    await expect(kurt.get_by_role("button", name="Ban")).to_be_visible()
    await expect(kurt).not_to_contain_text("admin")
