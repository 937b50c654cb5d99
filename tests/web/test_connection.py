"""A lost connection at the table: the banner shows without pushing the action bar off the
screen, the buttons wait (and say why) until the connection is back; a server about to
restart says so first."""

from __future__ import annotations

import asyncio

import pytest
from playwright.async_api import Page, expect

from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors, screenshot_path, signed_in
from tests.web.test_actions import READY
from tests.web.test_table import create_table_with_bots, sit

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
# Whether the whole action bar (buttons and any bet sizing) is on the screen, unscrolled.
BAR_ON_SCREEN = """() => {
  const bar = document.getElementById("action-bar").getBoundingClientRect();
  const sizing = document.getElementById("sizing").getBoundingClientRect();
  return scrollY === 0 && document.scrollingElement.scrollHeight <= innerHeight
    && bar.bottom <= innerHeight && (sizing.height === 0 || sizing.bottom <= innerHeight);
}"""


async def seated_at_our_turn(visitors: Visitors, mailbox: Mailbox, viewport: dict[str, int],
                             name: str) -> Page:
    tab = await visitors.new(viewport=viewport)
    await signed_in(tab, mailbox, name)
    await create_table_with_bots(tab.page, name=f"{name}'s table", seats=4, bots=3)
    await sit(tab.page, buy_in=1_000)
    await tab.page.wait_for_function(READY, timeout=60_000)
    return tab.page


@SIZES
async def test_while_the_connection_is_lost_the_actions_wait_and_stay_on_screen(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated_at_our_turn(visitors, mailbox, viewport, "Wren")
    assert await page.evaluate(BAR_ON_SCREEN)
    await page.context.set_offline(True)
    await expect(page.locator("#connection-banner")).to_contain_text("reconnecting")
    for button in await page.locator("#actions .action-buttons button:visible").all():
        await expect(button).to_be_disabled()
    await expect(page.locator("#action-status")).to_contain_text("Connection lost")
    assert await page.evaluate(BAR_ON_SCREEN), "the banner pushed the action bar off the screen"
    await page.screenshot(path=screenshot_path(f"table-offline-{viewport['width']}"))

    await page.context.set_offline(False)
    await expect(page.locator("#connection-banner")).to_be_hidden()
    await expect(page.locator("#action-status")).not_to_contain_text("Connection lost")
    await page.wait_for_function(READY, timeout=60_000)
    await page.locator("#act-check, #act-call").filter(visible=True).first.click()
    await expect(page.locator("#panel-log")).to_contain_text(
        "Wren c", timeout=10_000)


async def test_a_server_about_to_restart_says_so_in_a_banner(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated_at_our_turn(visitors, mailbox, PHONE, "Yuki")
    sio = live_server.server.config.app.state.realtime.sio
    loop = live_server.server.servers[0].get_loop()
    banner = page.locator("#connection-banner")
    for seconds, said in ((30, "The server is restarting in about 30 s"),
                          (None, "The server is restarting: hands in play finish first")):
        sent = asyncio.run_coroutine_threadsafe(
            sio.emit("server:restarting", {"seconds": seconds}), loop)
        await asyncio.wrap_future(sent)
        await expect(banner).to_contain_text(said)
    assert await page.evaluate(BAR_ON_SCREEN)
    await page.screenshot(path=screenshot_path("table-restarting-390"))


async def test_the_table_page_connects_for_its_table_and_the_lobby_for_none(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # A proxy in front of several server processes routes each connection by the table its
    # query names (deploy/nginx.conf): the table page names its table, the lobby none.
    tab = await visitors.new(viewport=DESKTOP)
    await signed_in(tab, mailbox, "Zia")
    opened: list[str] = []
    tab.page.on("websocket", lambda socket: opened.append(socket.url))
    async with tab.page.expect_websocket(lambda socket: "table=" in socket.url,
                                         timeout=15_000) as table_socket:
        table_id = await create_table_with_bots(tab.page, name="Zia's table", seats=4, bots=1)
    assert f"table={table_id}" in (await table_socket.value).url
    assert any("table=" not in url for url in opened), opened  # the lobby's
