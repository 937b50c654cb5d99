"""The table reads at a glance at desktop (1280x720) and phone (390x844) size: the pot
leaves out the bets in front of the seats, your cards are at your seat, nothing covers a
name, a stack or your seat, the log opens without scrolling, and a seat you left is empty."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from playwright.async_api import Page, Response, expect

from app.hosting.host import TableHost
from tests.conftest import Mailbox
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Tab, Visitors, screenshot_path, signed_in
from tests.web.test_actions import READY, heads_up
from tests.web.test_all_in_equity import first_to_act, heads_up_all_in
from tests.web.test_table import (
    PROGRESS,
    SHOWN_MESSAGES,
    chips_in,
    create_table_with_bots,
    fold,
    leave_seat,
    message_was_shown,
    my_stack,
    play,
    sit,
)

# What overlaps what, read from the page's boxes: every problem found, as a sentence.
LAYOUT_PROBLEMS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const problems = [];
  const seats = [...document.querySelectorAll(".seat:not(.empty)")];
  for (const seat of seats) {
    const badge = seat.querySelector(".seat-badge");
    const stack = seat.querySelector(".seat-stack");
    const number = seat.dataset.seat;
    if (badge && hit(box(badge), box(stack))) problems.push(`a badge covers stack ${number}`);
    if (badge && !hit(box(badge), box(seat.querySelector(".seat-box")))) {
      problems.push(`seat ${number}'s badge is outside its box`);
    }
    for (const cut of seat.querySelectorAll(".seat-badge")) {
      if (cut.scrollWidth > cut.clientWidth + 1) problems.push(`seat ${number}'s badge is cut`);
    }
  }
  const names = [...document.querySelectorAll(".seat-name")];
  for (const cards of document.querySelectorAll(".seat-cards")) {
    for (const name of names) {
      if (hit(box(cards), box(name))) problems.push(`cards cover the name ${name.title}`);
    }
  }
  for (const seat of document.querySelectorAll(".seat")) {
    const r = box(seat);
    if (r.left < -1 || r.right > innerWidth + 1) {
      problems.push(`seat ${seat.dataset.seat} leaves the screen`);
    }
  }
  const boxes = [...document.querySelectorAll(".seat-box")];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (hit(box(a), box(b))) problems.push("two seats overlap");
  }));
  const mine = document.querySelector(".seat.mine .seat-box");
  if (mine) {
    const r = box(mine);
    const bar = box(document.getElementById("action-bar"));
    if (hit(r, bar)) problems.push(`the action bar covers your seat (${r.bottom} > ${bar.top})`);
    const offScreen = r.top < 0 || r.left < 0 || r.bottom > innerHeight || r.right > innerWidth;
    if (offScreen) problems.push("your seat is off the screen");
  }
  return problems;
}"""

# What covers what in the felt's middle and around the seats: the result lines, the
# boards and the pots never cover a seat or its cards; no bet hides under a seat; the
# dealer button lies on no card, bet or result; nothing leaves the screen's width.
FELT_PROBLEMS = """() => {
  const box = (e) => e.getBoundingClientRect();
  const hit = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const shown = (selector) => [...document.querySelectorAll(selector)]
    .filter((e) => e.getClientRects().length);
  const name = (e) => e.id ? `#${e.id}` : e.className.split(" ")[0];
  const problems = [];
  const seats = shown(".seat:not(.empty)");
  const seatParts = seats.flatMap((s) => [...s.querySelectorAll(".seat-box, .seat-cards")]);
  const middle = shown(".result-line, #board .pcard, #board-second .pcard, #pots > *");
  for (const part of middle) {
    for (const seat of seatParts) {
      if (hit(box(part), box(seat))) {
        problems.push(`${name(part)} covers seat ${seat.closest(".seat").dataset.seat}`);
      }
    }
  }
  for (const bet of shown(".bet")) {
    for (const seat of shown(".seat-box")) {
      const number = seat.closest(".seat").dataset.seat;
      if (hit(box(bet), box(seat))) problems.push(`a bet hides under seat ${number}`);
    }
  }
  for (const button of shown(".dealer-button")) {
    for (const thing of shown(".pcard, .bet, .result-line")) {
      if (hit(box(button), box(thing))) problems.push(`the dealer button lies on ${name(thing)}`);
    }
  }
  for (const thing of shown(".seat, .bet, .dealer-button, .result-line, .pcard")) {
    const r = box(thing);
    if (r.left < -1 || r.right > innerWidth + 1) problems.push(`${name(thing)} leaves the screen`);
  }
  return [...new Set(problems)];
}"""

# The amounts on the felt: the collected pot, the total line, the bets in front of seats.
POT_READING = """() => {
  const amount = (text) => Number((text || "").replace(/\\D/g, "") || 0);
  return {
    pot: amount(document.querySelector("#pots .pot-total")?.textContent),
    total: document.querySelector("#pots .pot-grand")?.textContent ?? null,
    bets: [...document.querySelectorAll("#seats .bet")].map((b) => amount(b.textContent)),
  };
}"""


# Watches the page for the first render in which an element matching the selector reads
# the text, and keeps the layout problems of that very render: a badge that lives only
# for the rest of a hand is checked however late this process looks.
WATCH_LAYOUT = f"""([selector, text]) => {{
  const check = {LAYOUT_PROBLEMS};
  window.layoutWhenShown = new Promise((resolve) => {{
    const look = () => {{
      if ([...document.querySelectorAll(selector)].some((e) => e.textContent === text)) {{
        observer.disconnect();
        resolve(check());
      }}
    }};
    const observer = new MutationObserver(look);
    observer.observe(document.body, {{ subtree: true, childList: true, characterData: true }});
    look();
  }});
}}"""


async def our_turn(page: Page) -> None:
    handle = await page.wait_for_function(PROGRESS, arg=[999, False], timeout=60_000)
    assert await handle.json_value() == "act"


async def check_or_call(page: Page) -> None:
    await page.locator("#act-check, #act-call").filter(visible=True).first.click()
    await expect(page.locator("#actions button:disabled")).to_have_count(0)


async def layout_problems(page: Page) -> list[str]:
    return list(await page.evaluate(LAYOUT_PROBLEMS)) + list(await page.evaluate(FELT_PROBLEMS))


async def pot_reading(page: Page) -> dict[str, Any]:
    return dict(await page.evaluate(POT_READING))


async def seated_at_bots(tab: Tab, mailbox: Mailbox, name: str) -> Page:
    await signed_in(tab, mailbox, name)
    await create_table_with_bots(tab.page, name=f"{name}'s table", seats=6, bots=5)
    await sit(tab.page, buy_in=1_000)
    return tab.page


SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])


@SIZES
async def test_the_pot_leaves_out_the_bets_in_front_of_the_seats(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=viewport), mailbox, "Pia")
    await our_turn(page)
    preflop = await pot_reading(page)
    # Nothing is collected before the flop: the blinds and calls are bets in front of seats.
    assert preflop["pot"] == 0
    assert preflop["total"] == f"Total pot {sum(preflop['bets']):,}"
    for _ in range(30):
        if await page.locator("#board .pcard[data-card]").count() >= 3:
            break
        await check_or_call(page)
        await our_turn(page)
    reading = await pot_reading(page)
    assert reading["pot"] > 0
    if reading["bets"]:
        assert reading["total"] == f"Total pot {reading['pot'] + sum(reading['bets']):,}"
    else:
        assert reading["total"] is None


@SIZES
async def test_your_own_cards_are_face_up_at_your_seat(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=viewport), mailbox, "Quinn")
    await our_turn(page)
    at_seat = page.locator(".seat.mine .seat-cards .pcard[data-card]")
    await expect(at_seat).to_have_count(2)
    for card in await at_seat.all():
        await expect(card).to_be_in_viewport(ratio=1)
    cards = "cs => cs.map(c => c.dataset.card)"
    assert await at_seat.evaluate_all(cards) == await page.locator(
        "#my-cards .pcard[data-card]").evaluate_all(cards)


async def play_and_check_layout(page: Page, name: str) -> None:
    """At each of our turns until the flop, and after we fold, nothing covers anything."""
    for _ in range(30):
        await our_turn(page)
        assert await layout_problems(page) == []
        if await page.locator("#board .pcard[data-card]").count() >= 3:
            break
        await check_or_call(page)
    await page.screenshot(path=screenshot_path(f"table-{name}"))
    await page.evaluate(WATCH_LAYOUT, [".seat.mine .seat-badge", "Folded"])
    await fold(page)
    # The badge lasts until the next hand, which bots and a short showdown bring soon.
    assert await asyncio.wait_for(page.evaluate("window.layoutWhenShown"), 30) == []


async def test_at_desktop_size_no_card_badge_or_bar_covers_a_name_a_stack_or_your_seat(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=DESKTOP), mailbox, "Rosa")
    await play_and_check_layout(page, "desktop")


async def test_on_a_phone_no_card_badge_or_bar_covers_a_name_a_stack_or_your_seat(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=PHONE), mailbox, "Sami")
    await play_and_check_layout(page, "phone")


async def test_on_a_phone_the_hand_log_opens_without_scrolling(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=PHONE), mailbox, "Tove")
    await our_turn(page)
    assert await page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    await expect(page.locator("#panel-log")).to_be_hidden()
    toggle = page.get_by_role("button", name="Log & chat")
    await expect(toggle).to_be_in_viewport(ratio=1)
    await toggle.click()
    log = page.locator("#panel-log")
    await expect(log).to_be_in_viewport()
    await expect(log).to_contain_text("posts the big blind")
    assert await page.evaluate("scrollY") == 0
    await expect(page.locator("#act-fold")).to_be_in_viewport()  # still in reach
    await page.screenshot(path=screenshot_path("table-phone-log"))
    await page.get_by_role("tab", name="Chat").click()
    await expect(page.locator("#chat-text")).to_be_in_viewport()
    await page.get_by_role("button", name="Close", exact=True).click()
    await expect(log).to_be_hidden()
    await expect(page.locator("#act-fold")).to_be_in_viewport()


async def test_on_a_phone_the_hand_log_opens_at_its_latest_line(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    page = await seated_at_bots(await visitors.new(viewport=PHONE), mailbox, "Wren")
    await play(page, hands=3, showdown=False)
    await page.get_by_role("button", name="Log & chat").click()
    log = page.locator("#panel-log")
    await expect(log).to_be_visible()
    # Long enough to scroll, and shown at its end (lines the bots add meanwhile too).
    await page.wait_for_function("""() => {
      const list = document.getElementById("panel-log");
      return list.scrollHeight > list.clientHeight + 40
        && list.scrollTop + list.clientHeight >= list.scrollHeight - 2;
    }""")


@SIZES
async def test_a_seat_you_left_is_empty_with_no_broken_avatar(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = await seated_at_bots(tab, mailbox, "Uma")
    missing: list[str] = []

    def on_response(response: Response) -> None:
        if response.status >= 400:
            missing.append(f"{response.status} {response.url}")

    page.on("response", on_response)
    seat = await page.locator(".seat.mine").get_attribute("data-seat")
    await our_turn(page)
    # Every text the message line shows, kept: the hand can end (and the line change) a
    # moment after it says when we leave.
    await page.evaluate(SHOWN_MESSAGES)
    await leave_seat(page)
    await message_was_shown(page, "when this hand ends")
    cashed_out = page.locator("#panel-log li", has_text="You cashed out")
    await expect(cashed_out).to_have_count(1)
    old_seat = page.locator(f'.seat[data-seat="{seat}"]')
    await expect(old_seat).to_have_class(re.compile(r"\bempty\b"))
    await expect(old_seat.locator(".seat-stack, .seat-badge, img")).to_have_count(0)
    await expect(page.locator("#table-message")).to_be_hidden()
    await expect(page.locator("#my-cards")).to_contain_text("pick an empty seat")
    await expect(page.locator("#my-cards .hint")).to_be_visible()
    assert chips_in(await cashed_out.inner_text()) > 0
    assert await page.locator('img[src*="/users//"]').count() == 0
    assert missing == []


# The tools above the table: the top of the felt, and the rows the visible tools take.
TOOLBAR = """() => {
  const tops = [...document.querySelectorAll(".table-tools > *")]
    .filter((t) => t.getClientRects().length).map((t) => Math.round(t.getBoundingClientRect().top));
  return { felt: Math.round(document.querySelector(".felt-wrap").getBoundingClientRect().top),
           rows: new Set(tops).size };
}"""


@SIZES
async def test_the_table_does_not_jump_when_top_up_comes_and_goes(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    tab = await visitors.new(viewport=viewport)
    page = tab.page
    await signed_in(tab, mailbox, "Vera")
    await page.goto("/")
    form = page.locator("#create-form")
    await form.get_by_label("Name").fill("Vera's quiet table")
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.get_by_role("button", name="Create table").click()
    await page.wait_for_url(re.compile(r"/table/"))
    await sit(page, buy_in=500)
    top_up = page.get_by_role("button", name="Top up")
    await expect(top_up).to_be_visible()
    await expect(page.get_by_role("button", name="Sit out")).to_be_visible()
    with_top_up = await page.evaluate(TOOLBAR)
    await page.screenshot(path=screenshot_path(f"table-tools-{viewport['width']}"))
    await top_up.click()
    await page.locator("#topup-dialog").get_by_label("Amount").fill("500")
    await page.locator("#topup-dialog").get_by_role("button", name="Add chips").click()
    await expect(top_up).to_be_hidden()
    await expect(my_stack(page)).to_have_text("1,000")
    without = await page.evaluate(TOOLBAR)
    assert with_top_up["rows"] == without["rows"] == 1
    assert with_top_up["felt"] == without["felt"]


@SIZES
async def test_a_winner_all_in_reads_won_in_full_on_its_badge(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    # Aces against kings: one of the two wins it all, no split.
    tables: TableHost = live_server.server.config.app.state.realtime.host
    tables.services.deck_factory = lambda: stacked_deck(["AhAd", "KsKc"], "2c 7d 9h 3s 4c")
    other = DESKTOP if viewport is PHONE else PHONE
    game = await heads_up(visitors, mailbox, viewport, buy_ins=(1_000, 1_000), other=other)
    pages = [game.short, game.deep]
    first = await first_to_act(pages)
    await first.locator("#act-allin").click()
    second = game.deep if first is game.short else game.short
    await second.wait_for_function(READY)
    await second.locator("#act-call").click()
    for page, who in ((game.short, "ann"), (game.deep, "bob")):
        badge = page.locator(".seat.winner .seat-badge").first
        await expect(badge).to_have_text("Won 2,000")
        size = page.viewport_size
        await page.screenshot(path=screenshot_path(f"table-winner-{who}-{size and size['width']}"))
        assert await layout_problems(page) == []


RESULT_LINES = """() => [...document.querySelectorAll("#result .result-line")]
  .map((line) => line.firstChild.textContent)"""


READY_OR_OVER = f"() => ({READY})() || document.querySelector('#result .result-line')"


async def shove_or_call(page: Page) -> None:
    """Go all-in, or call an all-in, until the hand is over."""
    for _ in range(6):
        await page.wait_for_function(READY_OR_OVER, timeout=60_000)
        if await page.locator("#result .result-line").count():
            return
        for button in ("#act-allin", "#act-call", "#act-check"):
            if await page.locator(button).is_visible():
                await page.locator(button).click()
                break
        await expect(page.locator("#actions")).to_be_hidden()


# The first hand waits for the third player to sit down.
@pytest.mark.parametrize("server_settings", [{"hand_start_delay_seconds": 10}], ids=["slow"])
async def test_the_result_says_each_pot_and_its_amount_apart(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox
) -> None:
    # Three people all-in for 200, 500 and 500: a main pot and side pot 1.
    tabs = [await visitors.new(viewport=size) for size in (DESKTOP, PHONE, DESKTOP)]
    for tab, name in zip(tabs, ("Ann", "Bob", "Cyd"), strict=True):
        await signed_in(tab, mailbox, name)
    ann = tabs[0].page
    await ann.goto("/")
    form = ann.locator("#create-form")
    await form.get_by_label("Name").fill("Three ways")
    await form.get_by_label("Seats", exact=True).fill("3")
    await form.get_by_label("Fill seats with bots").uncheck()
    await form.get_by_role("button", name="Create table").click()
    await ann.wait_for_url(re.compile(r"/table/"))
    await sit(ann, buy_in=200)
    for tab in tabs[1:]:
        await tab.page.goto(ann.url.split("?")[0])
        await tab.page.get_by_role("button", name="Sit in seat").first.click()
        await sit(tab.page, buy_in=500)
    pages = [tab.page for tab in tabs]
    await asyncio.gather(*(shove_or_call(page) for page in pages))
    for page in pages:
        await expect(page.locator("#result")).to_contain_text(re.compile(r"from side pot 1"))
        lines = await page.evaluate(RESULT_LINES)
        assert all(re.fullmatch(r"\w+( and \w+)? (wins|split) [\d,]+( from side pot 1)?",
                                line.strip()) for line in lines), lines
    await pages[1].screenshot(path=screenshot_path("table-side-pot-390"))


@SIZES
@pytest.mark.parametrize("seats", range(2, 11))
async def test_no_seat_overlaps_another_or_leaves_the_screen_at_any_table_size(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int],
    seats: int,
) -> None:
    tab = await visitors.new(viewport=viewport)
    await signed_in(tab, mailbox, "Tess")
    await create_table_with_bots(tab.page, name=f"Tess at {seats}", seats=seats,
                                 bots=seats - 1)
    await sit(tab.page, buy_in=1_000)
    await our_turn(tab.page)
    await tab.page.screenshot(path=screenshot_path(f"table-{seats}-{viewport['width']}"))
    assert await layout_problems(tab.page) == []


@SIZES
async def test_nothing_covers_a_seat_when_a_hand_run_twice_shows_both_boards_and_results(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, int]
) -> None:
    # Aces against kings all in, run twice: the aces win both boards and the kings bust, so
    # the finished hand stays on the felt with both boards, both results and the chances.
    tables: TableHost = live_server.server.config.app.state.realtime.host
    tables.services.deck_factory = lambda: twice_deck(
        ["AhAd", "KsKc"], "2c 7d 9h 3s 4c", "5h 8s 5d Jc Qc")
    pages, first, second = await heads_up_all_in(visitors, mailbox, "Twice", run_it_twice=True,
                                                  viewport=viewport)
    await first.get_by_role("button", name="Run it twice").click()
    await second.get_by_role("button", name="Run it twice").click()
    for page in pages:
        await expect(page.locator("#result .result-line")).to_have_count(2)
        await expect(page.locator("#board-second .pcard[data-card]")).to_have_count(5)
        await page.screenshot(path=screenshot_path(f"table-twice-{viewport['width']}"))
        assert await layout_problems(page) == []
