"""The admin page's Integrity section in a real browser: the flags queue, a user's linked
accounts, acting on a chip-dumping flag with a claw-back, the chip-flow report."""

from __future__ import annotations

from playwright.async_api import expect
from sqlalchemy import select, update

from app.db.engine import Database
from app.db.integrity import FlagKind, SignInKind
from app.db.models import Role, User, utcnow
from app.integrity.flags import raise_flag
from app.integrity.signins import Seen
from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, signed_in


async def test_an_admin_works_through_an_integrity_flag(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, database: Database
) -> None:
    admin, ivan, joan = await visitors.new(), await visitors.new(), await visitors.new()
    await signed_in(admin, mailbox, "Hana")
    await signed_in(ivan, mailbox, "Ivan")
    await signed_in(joan, mailbox, "Joan")
    async with database.sessions() as session:
        await session.execute(update(User).where(User.display_name == "Hana")
                              .values(role=Role.ADMIN))
        ids = {u.display_name: u.id for u in await session.scalars(select(User))}
        for name in ("Ivan", "Joan"):
            Seen("198.51.100.4", "e" * 64, "Chromium").record(session, ids[name],
                                                              SignInKind.LOGIN)
        await raise_flag(session, FlagKind.CHIP_DUMPING, "chip_dumping:joan>ivan",
                         user_id=ids["Ivan"], other_user_id=ids["Joan"],
                         evidence={"from_user": ids["Joan"], "to_user": ids["Ivan"],
                                   "net": 700, "net_bb": 70.0, "one_way": 1.0, "hands": 3,
                                   "hand_ids": [], "linked_by": ["device"]},
                         quiet_since=utcnow())
        await session.commit()

    page = admin.page
    await page.goto("/admin")
    await page.get_by_label("Search by e-mail, name or id").fill("ivan")
    await page.get_by_role("button", name="Search").click()
    row = page.locator("#users tbody tr", has_text="Ivan")
    await row.get_by_role("button", name="Linked").click()
    detail = page.locator("#detail-dialog")
    await expect(detail.locator("#linked")).to_contain_text("Joan")
    await expect(detail.locator("#linked")).to_contain_text("device")
    await detail.get_by_role("button", name="Close", exact=True).click()

    await page.get_by_role("tab", name="Integrity").click()
    flag = page.locator("#flags tbody tr", has_text="chip dumping")
    await expect(flag).to_contain_text("Ivan")
    await expect(flag).to_contain_text("linked by device")
    await flag.get_by_role("button", name="Act").click()
    form = page.locator("#flag-action-form")
    await form.get_by_label("Claw back the chips").check()
    await form.get_by_role("button", name="Apply").click()
    await expect(page.locator("#flags-status")).to_contain_text("Clawed back 700")
    await expect(page.locator("#flags tbody")).to_contain_text("No flags.")
    async with database.sessions() as session:
        balances = {u.display_name: u.balance for u in await session.scalars(select(User))}
    assert (balances["Ivan"], balances["Joan"]) == (10_000 - 700, 10_000 + 700)

    await page.locator("#flags-status-filter").select_option("actioned")
    await page.locator("#flags-form").get_by_role("button", name="Show").click()
    await expect(page.locator("#flags tbody tr", has_text="chip dumping")).to_contain_text(
        "actioned")
    await expect(page.locator("#chip-flow tbody")).to_contain_text("No chips changed hands")
