"""Browser-side defences in Chromium: the login page's ``next`` stays on this origin."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from tests.conftest import Mailbox
from tests.web.conftest import LiveServer, Visitors, held_script, signed_in

ESCAPES = [
    "/%5Cevil.example",
    "/%09/evil.example",
    "/%5C/evil.example",
    "//evil.example",
    "%2F%2Fevil.example",
    "/%0A/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    # Dot segments that leave a path starting with "//" once resolved (as the query is
    # decoded once: %252e reaches the URL parser as %2e, which it reads as a dot).
    "/.//evil.example/phish",
    "/%2e//evil.example/phish",
    "/%252e//evil.example/phish",
    "/%252E%252E//evil.example/phish",
    "/a/..//evil.example/phish",
    "/./%5Cevil.example",
    "/.%5C%5Cevil.example",
    "/..%2F%2Fevil.example",
    "/%09./%0A/evil.example",
]


async def test_next_after_login_never_leaves_the_site(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    await signed_in(tab, mailbox, "Wanderer")
    for escape in ESCAPES:
        await tab.page.goto(f"/login?next={escape}")
        await tab.page.wait_for_url(f"{live_server.base_url}/", timeout=10_000)
    await tab.page.goto("/login?next=%2Faccount%3Fsection%3Dledger")
    await tab.page.wait_for_url(f"{live_server.base_url}/account?section=ledger")
    await tab.page.goto("/login?next=/a/../account%23ledger")
    await tab.page.wait_for_url(f"{live_server.base_url}/account#ledger")


@pytest.mark.parametrize(
    "escape", [*ESCAPES[:2], "/.//evil.example/phish", "/./%5Cevil.example"])
async def test_next_is_checked_when_logging_in_through_the_form_too(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, escape: str
) -> None:
    tab = await visitors.new()
    await signed_in(tab, mailbox, "Formfiller")
    email = "formfiller@example.com"
    await tab.page.context.clear_cookies()
    await tab.page.goto(f"/login?next={escape}")
    await tab.page.get_by_label("E-mail address").fill(email)
    await tab.page.get_by_label("Password").fill("correct horse battery staple")
    await tab.page.get_by_role("button", name="Log in").click()
    await tab.page.wait_for_url(f"{live_server.base_url}/", timeout=10_000)


async def test_every_page_works_under_its_content_security_policy(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    await signed_in(tab, mailbox, "Inspector")
    for path in ("/", "/account", "/signup", "/login?next=/account", "/forgot", "/admin"):
        response = await tab.page.goto(path)
        assert response is not None
        assert "frame-ancestors 'none'" in response.headers["content-security-policy"]
        await tab.page.wait_for_load_state("networkidle")
    # The visitors fixture fails the test on any blocked script, style or connection.


async def test_a_page_cannot_be_framed_even_by_this_site(
    visitors: Visitors, live_server: LiveServer
) -> None:
    tab = await visitors.new()
    await tab.page.goto("/health")
    await tab.page.evaluate("""() => new Promise((loaded) => {
        const frame = document.createElement("iframe");
        frame.src = "/";
        frame.onload = loaded;
        document.body.append(frame);
    })""")
    inner = [frame for frame in tab.page.frames if frame != tab.page.main_frame]
    assert inner
    for frame in inner:
        assert "holdem-server" not in await frame.content()
    assert any("frame-ancestors 'none'" in error for error in tab.errors), tab.errors
    tab.errors.clear()  # the refusal this test expects is the only console error


async def test_a_form_used_before_its_page_is_ready_puts_nothing_in_the_address(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # The account page's script first asks who is logged in; a form sent before it has
    # bound the forms used to load the page again with the passwords in the address.
    tab = await visitors.new()
    await signed_in(tab, mailbox, "Early")
    page = tab.page
    release = await held_script(page, "account.js")
    navigated: list[str] = []
    await page.goto("/account", wait_until="commit")
    page.on("framenavigated", lambda frame: navigated.append(frame.url))
    form = page.locator("#password-form")
    await form.get_by_label("Current password", exact=True).fill("an old secret phrase")
    await form.get_by_role("button", name="Change password").click()
    release.set()
    await expect(page.locator("#fact-email")).to_contain_text("@")  # the script ran
    assert navigated == [] and "secret" not in page.url
