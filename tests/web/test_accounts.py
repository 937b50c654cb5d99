"""The account pages in a real browser: sign up, confirm by the mailed link, log in,
edit the account, reset a forgotten password, delete the account."""

from __future__ import annotations

import io
import re
from pathlib import Path

from PIL import Image
from playwright.async_api import Page, expect

from tests.conftest import PASSWORD, Mailbox, link_of
from tests.web.conftest import PHONE, LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_table import create_table_with_bots, sit

NEW_PASSWORD = "a brand new passphrase 42"


async def sign_up(page: Page, email: str, name: str, password: str = PASSWORD) -> None:
    await page.goto("/signup")
    await page.get_by_label("E-mail address").fill(email)
    await page.get_by_label("Display name").fill(name)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Sign up").click()


async def log_in(page: Page, email: str, password: str = PASSWORD) -> None:
    await page.goto("/login")
    await page.get_by_label("E-mail address").fill(email)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Log in").click()


async def confirm_mailed_link(page: Page, mailbox: Mailbox, email: str, server: LiveServer) -> None:
    link = link_of(await mailbox.wait_for(email, "confirm your"))
    assert link.startswith(server.base_url)
    await page.goto(link)
    await page.get_by_role("button", name="Confirm my address").click()
    await expect(page.get_by_text("is confirmed")).to_be_visible()


def avatar_file(tmp_path: Path) -> Path:
    image = Image.new("RGB", (64, 64), (200, 40, 60))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    path = tmp_path / "avatar.png"
    path.write_bytes(buffer.getvalue())
    return path


async def test_sign_up_confirm_log_in_and_edit_the_account(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, tmp_path: Path
) -> None:
    page = (await visitors.new()).page
    await sign_up(page, "not-an-address", "Alice", password="short")
    await expect(page.locator("#signup-email-error")).to_contain_text("@-sign")
    await sign_up(page, "alice@example.com", "Alice", password="short")
    await expect(page.locator("#signup-password-error")).to_contain_text("10")

    await sign_up(page, "alice@example.com", "Alice")
    await expect(page.get_by_text("Account created")).to_have_text(
        "Account created. We sent a confirmation link to alice@example.com: open it to "
        "confirm your address, then log in.")
    await confirm_mailed_link(page, mailbox, "alice@example.com", live_server)

    await log_in(page, "alice@example.com", "wrong password!")
    await expect(page.locator("#login-password-error")).to_contain_text("Wrong e-mail or password.")
    await log_in(page, "alice@example.com")
    await page.wait_for_url(f"{live_server.base_url}/")
    await expect(page.locator("#nav-name")).to_have_text("Alice")

    await page.goto("/account")
    await expect(page.locator("#balance")).to_have_text("10,000")
    await page.get_by_label("Display name").fill("Alice Cooper")
    await page.get_by_role("button", name="Save name").click()
    await expect(page.locator("#nav-name")).to_have_text("Alice Cooper")

    await page.locator("#avatar-file").set_input_files(avatar_file(tmp_path))
    await expect(page.locator("#avatar-preview")).to_have_attribute("src", re.compile(r"^blob:"))
    await page.get_by_role("button", name="Upload avatar").click()
    await expect(page.get_by_text("Avatar saved.")).to_be_visible()

    await page.get_by_role("button", name="Claim daily credits").click()
    await expect(page.locator("#balance")).to_have_text("11,000")
    await expect(page.locator("#ledger tbody tr").first).to_contain_text("Daily credits")
    await expect(page.get_by_role("button", name="Claim daily credits")).to_be_disabled()

    password_form = page.locator("#password-form")
    await password_form.get_by_label("Current password").fill("not my password")
    await password_form.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    await password_form.get_by_label("New password again").fill(NEW_PASSWORD)
    await password_form.get_by_role("button", name="Change password").click()
    await expect(page.locator("#password-current_password-error")).to_contain_text("wrong")
    await password_form.get_by_label("Current password").fill(PASSWORD)
    await password_form.get_by_role("button", name="Change password").click()
    await expect(password_form.get_by_text("Password changed")).to_be_visible()
    await page.screenshot(path=screenshot_path("account"), full_page=True)

    await page.reload()
    await expect(page.locator("#nav-name")).to_have_text("Alice Cooper")


async def test_forgotten_password_is_reset_through_the_mailed_link(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = (await visitors.new(viewport=PHONE)).page
    await sign_up(page, "bob@example.com", "Bobby")
    await expect(page.get_by_text("Account created")).to_be_visible()

    await page.goto("/login")
    await page.get_by_role("link", name="Forgot your password?").click()
    await page.get_by_label("E-mail address").fill("bob@example.com")
    await page.get_by_role("button", name="Send me a link").click()
    await expect(page.get_by_text("an e-mail is on its way")).to_be_visible()

    await page.goto(link_of(await mailbox.wait_for("bob@example.com", "reset")))
    await page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    await page.get_by_label("New password again").fill("something else entirely")
    await page.get_by_role("button", name="Set password").click()
    await expect(page.locator("#reset-confirm_password-error")).to_contain_text("differ")
    await page.get_by_label("New password again").fill(NEW_PASSWORD)
    await page.get_by_role("button", name="Set password").click()
    await expect(page.get_by_text("Password changed.")).to_be_visible()

    await log_in(page, "bob@example.com", NEW_PASSWORD)
    await page.wait_for_url(f"{live_server.base_url}/")
    await expect(page.locator("#nav-name")).to_have_text("Bobby")


async def test_deleting_the_account_asks_first_and_logs_out(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = (await visitors.new()).page
    await sign_up(page, "carol@example.com", "Carol")
    await expect(page.get_by_text("Account created")).to_be_visible()
    await log_in(page, "carol@example.com")
    await page.wait_for_url(f"{live_server.base_url}/")
    await page.goto("/account")

    delete_form = page.locator("#delete-form")
    await delete_form.get_by_label("Password").fill(PASSWORD)
    await delete_form.get_by_role("button", name="Delete my account").click()
    await page.get_by_role("button", name="Keep my account").click()
    await expect(page.locator("#nav-name")).to_have_text("Carol")

    await delete_form.get_by_role("button", name="Delete my account").click()
    await page.get_by_role("button", name="Delete it").click()
    await expect(page.get_by_text("Your account was deleted")).to_be_visible()
    await log_in(page, "carol@example.com")
    await expect(page.locator("#login-password-error")).to_contain_text("Wrong e-mail or password.")


# The computed look of the avatar picker's button and of the page's own buttons.
BUTTON_LOOK = """([selector, pseudo]) => {
  const style = getComputedStyle(document.querySelector(selector), pseudo);
  return [style.backgroundColor, style.borderRadius, style.fontWeight, style.borderTopColor];
}"""


async def test_the_ledger_names_the_table_and_the_file_picker_looks_like_a_button(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Lena")
    table_id = await create_table_with_bots(page, name="Lena's corner", seats=3, bots=2)
    await sit(page, buy_in=500)
    await page.goto("/account")
    buy_in = page.locator("#ledger tbody tr", has_text="Bought in at a table")
    await expect(buy_in).to_contain_text("Lena's corner")
    assert table_id not in await buy_in.inner_text()
    await expect(buy_in.get_by_role("link", name="Lena's corner")).to_have_attribute(
        "href", f"/table/{table_id}")

    picker = await page.evaluate(BUTTON_LOOK, ["#avatar-file", "::file-selector-button"])
    button = await page.evaluate(BUTTON_LOOK, ["#avatar-upload", None])
    assert picker == button
