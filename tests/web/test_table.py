"""Playing in a real browser: create a table with bots, sit, play hands by clicking,
watch another player without ever seeing their cards, reload mid-hand."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from playwright.async_api import Page, WebSocket, expect
from playwright.async_api import TimeoutError as PlaywrightTimeout

from tests.conftest import Mailbox
from tests.web.conftest import PHONE, LiveServer, Tab, Visitors, screenshot_path, signed_in

HANDS_TO_PLAY = 3
MAX_DECISIONS = 120

# What the page is waiting for: our turn, or enough finished hands with a showdown.
PROGRESS = """([hands, needShowdown]) => {
  const actions = document.getElementById("actions");
  if (actions && !actions.hidden && !actions.querySelector("button:disabled")) return "act";
  const lines = [...document.querySelectorAll("#panel-log li")].map((li) => li.textContent);
  const ended = lines.filter((t) => / (wins|split) (the pot|side pot)/.test(t)).length;
  const showdowns = lines.filter((t) => / shows /.test(t)).length;
  if (ended >= hands && (!needShowdown || showdowns > 0)) return "done";
  return false;
}"""


# Every text the table's message line shows, kept in window.shownMessages: a line can
# change again a moment after it appears (the hand ends right after it says when we leave).
SHOWN_MESSAGES = """() => {
  const line = document.querySelector("#table-message");
  window.shownMessages = [];
  new MutationObserver(() => window.shownMessages.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""


async def message_was_shown(page: Page, text: str) -> None:
    """Wait until the message line (watched since SHOWN_MESSAGES) has shown ``text``."""
    await page.wait_for_function(
        "(text) => window.shownMessages.some((shown) => shown.includes(text))", arg=text)


async def create_table_with_bots(
    page: Page, *, name: str, seats: int, bots: int, blinds: tuple[int, int] = (5, 10),
    game: str = "nlhe",
) -> str:
    await page.goto("/")
    form = page.locator("#create-form")
    await form.get_by_label("Name").fill(name)
    await form.get_by_label("Game").select_option(game)
    await form.get_by_label("Seats", exact=True).fill(str(seats))
    await form.get_by_label("Small blind").fill(str(blinds[0]))
    await form.get_by_label("Big blind").fill(str(blinds[1]))
    await form.get_by_label("How many").fill(str(bots))
    await form.get_by_label("Style").select_option("loose")
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/"))
    match = re.search(r"/table/([^?]+)", page.url)
    assert match
    return match.group(1)


async def create_private_table(page: Page, *, name: str, seats: int) -> None:
    """Create a private table without bots from the lobby; the page is then the table's."""
    await page.goto("/")
    form = page.locator("#create-form")
    await form.get_by_label("Name").fill(name)
    await form.get_by_label("Seats", exact=True).fill(str(seats))
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.get_by_text("More settings").click()
    await form.get_by_label("Private").check()
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/"))


async def sit(page: Page, buy_in: int | None = None, refused: str | None = None) -> None:
    """Sit down from the open seat dialog; with ``refused``, expect that error instead."""
    dialog = page.locator("#sit-dialog")
    await expect(dialog).to_be_visible()
    if buy_in is not None:
        await dialog.get_by_label("Buy-in").fill(str(buy_in))
    await dialog.get_by_role("button", name="Sit down").click()
    if refused:
        await expect(dialog.locator("#sit-buy_in-error")).to_contain_text(refused)
        return
    await expect(dialog).to_be_hidden()
    await expect(page.locator(".seat.mine")).to_be_visible()


async def leave_seat(page: Page) -> None:
    """Press "Leave seat", and confirm when the page asks (our cards are still live)."""
    await page.get_by_role("button", name="Leave seat").click()
    dialog = page.locator("#leave-dialog")
    if await dialog.is_visible():
        await dialog.get_by_role("button", name="Leave the table").click()


async def fold(page: Page) -> None:
    """Fold, even when checking is free (the page asks then)."""
    await page.locator("#act-fold").click()
    question = page.locator("#fold-confirm")
    if await question.is_visible():
        await question.get_by_role("button", name="Fold anyway").click()


def chips_in(text: str) -> int:
    return int(re.sub(r"\D", "", text) or 0)


async def costly_call(page: Page) -> bool:
    """Whether calling would cost a quarter of our stack or more."""
    call = page.locator("#act-call")
    return await call.is_visible() and (
        4 * chips_in(await call.inner_text()) >= chips_in(await my_stack(page).inner_text()))


async def passive_decision(page: Page) -> None:
    """Check when we can, else call, else show: the way to reach showdowns. A call of a
    quarter of the stack or more is folded, so the player never goes broke."""
    if await costly_call(page):
        await page.locator("#act-fold").click()
        return
    passive = page.locator("#act-check:visible, #act-call:visible, #act-show:visible")
    # The panel can show a moment before its buttons do (a reconnect's snapshot).
    await expect(passive, "no passive action offered").not_to_have_count(0)
    await passive.first.click()


async def raise_by_half_pot(page: Page) -> bool:
    """Size a bet with the half-pot preset (before the flop, 3x) and make it; False when
    no bet is possible."""
    if not await page.locator("#sizing").is_visible():
        return False
    await page.locator('[data-preset="half"]:visible, [data-preset="x3"]:visible').click()
    amount = int(await page.locator("#bet-amount").input_value())
    slider = page.locator("#bet-slider")
    low = int(await slider.get_attribute("min") or 0)
    high = int(await slider.get_attribute("max") or 0)
    assert low <= amount <= high
    label = await page.locator("#act-raise").inner_text()
    await page.locator("#act-raise").click()
    name = await page.locator(".seat.mine .seat-name").get_attribute("title")
    verb = {"Bet": "bets", "Rai": "raises to", "All": "is all-in for"}[label[:3]]
    await expect(page.locator("#panel-log")).to_contain_text(
        f"{name} {verb} {amount:,}")
    return True


async def play(
    page: Page, *, hands: int, showdown: bool, screenshot: str | None = None,
    keys: bool = False, raise_once: bool = False,
) -> set[str]:
    """Act at each decision until ``hands`` pots were awarded (and one showdown seen): check
    or call (clicking, or with the keyboard shortcut), once a half-pot raise; a call of a
    quarter of the stack or more is folded, so the player stays seated. Returns the
    stacks our seat showed at each decision."""
    stacks: set[str] = set()
    for _ in range(MAX_DECISIONS):
        try:
            handle = await page.wait_for_function(PROGRESS, arg=[hands, showdown],
                                                  timeout=60_000)
        except PlaywrightTimeout:
            await page.screenshot(path=screenshot_path("stuck"))
            log = await page.locator("#panel-log").inner_text()
            raise AssertionError(f"the table stalled; its log:\n{log}") from None
        if await handle.json_value() == "done":
            return stacks
        stacks.add(await my_stack(page).inner_text())
        if screenshot and await page.locator("#board .pcard[data-card]").count() >= 3:
            await page.screenshot(path=screenshot_path(screenshot))
            screenshot = None
        if raise_once and await raise_by_half_pot(page):
            raise_once = False
        elif keys and not await page.locator("#act-show").is_visible() \
                and not await costly_call(page):
            await page.keyboard.press("c")
            await expect(page.locator("#actions button:disabled")).to_have_count(0)
        else:
            await passive_decision(page)
    raise AssertionError(f"{hands} hands were not finished within {MAX_DECISIONS} decisions")


def my_stack(page: Page) -> Any:
    return page.locator(".seat.mine .seat-stack")


async def test_play_hands_against_bots_to_showdown(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Dana")
    table_id = await create_table_with_bots(page, name="Dana's table", seats=6, bots=4)
    await sit(page, buy_in=50, refused="Buy in for 200 to 1,000 chips.")
    await sit(page, buy_in=1_000)
    await expect(my_stack(page)).to_have_text("1,000")
    await expect(page.locator("#nav-balance")).to_have_text("9,000 credits")

    stacks = await play(page, hands=HANDS_TO_PLAY, showdown=True, screenshot="table-mid-hand",
                        raise_once=True)
    assert len(stacks) > 1, stacks
    await expect(page.locator("#panel-log")).to_contain_text(" shows ")

    await create_table_with_bots(page, name="High rollers", seats=9, bots=3, blinds=(50, 100))
    await page.goto("/")
    await expect(page.locator(f'#tables tr[data-table-id="{table_id}"]')).to_contain_text("5 / 6")
    await expect(page.locator("#tables tbody tr")).to_have_count(2)
    await expect(page.locator("#recent-stats")).to_contain_text(re.compile(r"\d+ played"))
    await page.screenshot(path=screenshot_path("lobby"))
    await page.locator("#recent-hands tbody tr").last.get_by_role("button", name="View").click()
    await expect(page.locator("#hand-dialog")).to_contain_text("Dana")
    await page.get_by_role("button", name="Close", exact=True).click()

    await page.goto(f"/table/{table_id}")
    await expect(page.locator(".seat.mine")).to_be_visible()
    await leave_seat(page)
    cashed_out = page.locator("#panel-log li", has_text="You cashed out")
    await expect(cashed_out).to_have_count(1)
    amount = chips_in(await cashed_out.inner_text())
    await expect(page.locator("#nav-balance")).to_have_text(f"{9_000 + amount:,} credits")


class Frames:
    """Every Socket.IO event a page received, decoded from its WebSocket frames."""

    def __init__(self, page: Page) -> None:
        self.events: list[tuple[str, Any]] = []
        page.on("websocket", self._watch)

    def _watch(self, socket: WebSocket) -> None:
        socket.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        text = payload.decode() if isinstance(payload, bytes) else payload
        # Engine.IO "4" message + Socket.IO "2" event: 42["name", body]
        if text.startswith("42"):
            name, *args = json.loads(text[2:])
            if name == "table:batch":
                self.events += [(m["event"], m["data"]) for m in args[0]["messages"]]
            else:
                self.events.append((name, args[0] if args else None))

    def named(self, name: str) -> list[Any]:
        return [body for event, body in self.events if event == name]


async def seat_of(page: Page) -> int:
    return int(await page.locator(".seat.mine").get_attribute("data-seat") or "-1")


async def play_together(pages: list[Page], *, hands: int) -> None:
    """Every player checks or calls, each in its own browser, until ``hands`` pots went."""
    await asyncio.gather(*(play(page, hands=hands, showdown=True) for page in pages))


def cards_of_seat_in(frames: Frames, seat: int) -> list[Any]:
    """Every hole card of ``seat`` a viewer was sent before that seat showed its hand."""
    seen: list[Any] = []
    for snapshot in frames.named("table:snapshot"):
        for view in (snapshot["hand"] or {}).get("seats", []):
            if view["seat"] == seat and not view["shown"]:
                seen.append(view["cards"])
    for message in frames.named("table:event"):
        event = message["event"]
        if event["type"] == "hole_cards_dealt" and event["seat"] == seat:
            seen.append(event["cards"])
    return [cards for cards in seen if cards is not None]


async def test_two_players_see_each_others_actions_but_never_their_cards(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    erin, finn = await visitors.new(), await visitors.new(viewport=PHONE)
    await signed_in(erin, mailbox, "Erin")
    await signed_in(finn, mailbox, "Finn")
    erin_frames, finn_frames = Frames(erin.page), Frames(finn.page)

    await create_private_table(erin.page, name="Heads up", seats=2)
    await sit(erin.page, buy_in=500)
    invite = await erin.page.locator("#invite-link").input_value()

    await finn.page.goto(invite.split("?")[0])
    await expect(finn.page.locator("#table-message")).to_contain_text("invite code")
    await finn.page.goto(invite)
    await finn.page.get_by_role("button", name="Sit in seat").click()
    await sit(finn.page, buy_in=500)
    erin_seat, finn_seat = await seat_of(erin.page), await seat_of(finn.page)

    # Mid-hand, each sees only the backs of the other's cards.
    await expect(erin.page.locator("#my-cards .pcard[data-card]")).to_have_count(2)
    await expect(finn.page.locator("#my-cards .pcard[data-card]")).to_have_count(2)
    for tab, other in ((erin, finn_seat), (finn, erin_seat)):
        hidden = tab.page.locator(f'.seat[data-seat="{other}"] .seat-cards .pcard')
        await expect(hidden).to_have_count(2)
        await expect(hidden.and_(tab.page.locator("[data-card]"))).to_have_count(0)

    await erin.page.keyboard.press("t")
    await erin.page.keyboard.type("good luck")
    await erin.page.keyboard.press("Enter")
    await finn.page.get_by_role("button", name="Log & chat").click()
    await finn.page.get_by_role("tab", name="Chat").click()
    await expect(finn.page.locator("#chat-lines")).to_contain_text("Erin: good luck")

    await play_together([erin.page, finn.page], hands=1)
    await expect(erin.page.locator("#panel-log")).to_contain_text("Finn c")
    await expect(finn.page.locator("#panel-log")).to_contain_text("Erin c")

    assert cards_of_seat_in(erin_frames, finn_seat) == []
    assert cards_of_seat_in(finn_frames, erin_seat) == []
    assert cards_of_seat_in(erin_frames, erin_seat), "the frames hold our own cards"
    for frames, other in ((erin_frames, finn_seat), (finn_frames, erin_seat)):
        for turn in frames.named("table:turn"):
            if turn["seat"] == other:
                assert turn["legal_actions"] is None


async def test_reloading_mid_hand_restores_the_hand_and_play_goes_on(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    tab: Tab = await visitors.new()
    page = tab.page
    await signed_in(tab, mailbox, "Gwen")
    await page.goto("/")
    await page.get_by_label("Blinds").select_option("5/10")
    await page.get_by_role("button", name="Sit me down").click()
    await page.wait_for_url(re.compile(r"/table/"))
    await expect(my_stack(page)).to_have_text("1,000")

    await page.wait_for_function(PROGRESS, arg=[99, True])
    cards = await page.locator("#my-cards .pcard").evaluate_all("cs => cs.map(c => c.dataset.card)")
    board = await page.locator("#board .pcard[data-card]").count()
    await page.reload()
    await expect(page.locator("#actions")).to_be_visible()
    assert await page.locator("#my-cards .pcard").evaluate_all(
        "cs => cs.map(c => c.dataset.card)") == cards
    await expect(page.locator("#board .pcard[data-card]")).to_have_count(board)

    await page.context.set_offline(True)
    await expect(page.locator("#connection-banner")).to_contain_text("reconnecting")
    await page.context.set_offline(False)
    await expect(page.locator("#connection-banner")).to_be_hidden()
    await play(page, hands=1, showdown=False, keys=True)

    await page.get_by_role("button", name="Sit out").click()
    await expect(page.locator(".seat.mine .seat-badges")).to_contain_text("Sitting out")
    await page.get_by_role("button", name="Sit in").click()
    await expect(page.get_by_role("button", name="Sit out")).to_be_visible()
