"""Your hand in words beside your cards while you play ("Pair of sevens", "Ace high",
"Two pair, nines and sevens"), named as the server's evaluator names it, before and after
the flop, at desktop and phone size."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Page

from app.poker.cards import parse_cards
from app.poker.evaluator import Category, evaluate
from tests.conftest import Mailbox
from tests.web.conftest import DESKTOP, PHONE, LiveServer, Visitors
from tests.web.test_actions import BOARD, READY, button_and_blind, heads_up

SIZES = pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
CARDS = """(selector) => [...document.querySelectorAll(selector + ' .pcard[data-card]')]
  .map((c) => c.dataset.card)"""
OPENINGS = {Category.HIGH_CARD: "", Category.ONE_PAIR: "Pair of ", Category.TWO_PAIR: "Two pair, ",
            Category.THREE_OF_A_KIND: "Three of a kind, ", Category.STRAIGHT: "Straight, ",
            Category.FLUSH: "Flush, ", Category.FULL_HOUSE: "Full house, ",
            Category.FOUR_OF_A_KIND: "Four of a kind, ",
            Category.STRAIGHT_FLUSH: "Straight flush, "}


async def shown_hand(page: Page) -> tuple[list[str], list[str], str]:
    """The player's cards, the board and the words beside the cards."""
    hole = await page.evaluate(CARDS, "#my-cards")
    board = await page.evaluate(CARDS, "#board")
    return hole, board, (await page.locator("#my-hand").text_content() or "")


@SIZES
async def test_your_hand_is_named_in_words_before_and_after_the_flop(
    visitors: Visitors, live_server: LiveServer, mailbox: Mailbox, viewport: dict[str, Any]
) -> None:
    game = await heads_up(visitors, mailbox, viewport, buy_ins=(1_000, 1_000), other=viewport)
    button, blind = await button_and_blind(game)
    hole, _, words = await shown_hand(button)
    assert await button.locator("#my-hand").is_visible()
    paired = hole[0][0] == hole[1][0]
    assert words.startswith("Pair of ") if paired else words.endswith(" high"), (hole, words)
    await button.locator("#act-call").click()
    await blind.wait_for_function(READY)
    await blind.locator("#act-check").click()
    await blind.wait_for_function(f"() => ({BOARD})() === 3")
    await blind.wait_for_function(READY)
    hole, board, words = await shown_hand(blind)
    value = evaluate(parse_cards(" ".join(hole + board)))
    opening = OPENINGS[value.category]
    if value.name == "royal flush":
        assert words.startswith("Royal flush")
    elif opening:
        assert words.startswith(opening), (hole, board, words)
    else:
        assert words.split(",")[0].endswith(" high"), (hole, board, words)
    suits = [card[-1] for card in hole + board]
    four_suited = any(suits.count(suit) == 4 for suit in suits)
    assert words.endswith(", flush draw") == (four_suited and value.category < Category.STRAIGHT)


NAMED = [
    (["7h", "7d"], [], "Pair of sevens"),
    (["Ah", "Kd"], [], "Ace high"),
    (["9h", "7d"], ["9c", "7s", "2d"], "Two pair, nines and sevens"),
    (["Ah", "Ad"], ["Ac", "7s", "2d", "Kc"], "Three of a kind, aces"),
    (["6h", "6d"], ["6c", "Ks", "Kd"], "Full house, sixes full of kings"),
    (["Ah", "5h"], ["9h", "2h", "Kd"], "Ace high, flush draw"),
    (["Th", "Jh"], ["Qh", "Kh", "Ah"], "Royal flush"),
    (["5h", "4d"], ["3c", "2s", "Ad"], "Straight, five high"),
]


async def test_the_words_name_the_category_and_its_ranks(
    visitors: Visitors, live_server: LiveServer
) -> None:
    page = (await visitors.new(viewport=DESKTOP)).page
    await page.goto("/")
    named = await page.evaluate("""async (hands) => {
      const { handInWords } = await import("/static/js/table/besthand.js");
      return hands.map(([hole, board]) => handInWords(hole, board));
    }""", [[hole, board] for hole, board, _ in NAMED])
    assert named == [words for _, _, words in NAMED]


SHOWDOWNS = [
    (["9h", "7d"], ["9c", "7s", "2d", "Kc", "3h"], False,
     "Two pair, nines and sevens", ["9h", "9c", "7d", "7s", "Kc"]),
    (["Ah", "7d"], ["Ac", "Ks", "2d", "9c", "4h"], False,
     "Pair of aces", ["Ah", "Ac", "Ks", "9c", "7d"]),
    (["5h", "4d"], ["3c", "2s", "Ad", "Kc", "Qh"], False,
     "Straight, five high", ["5h", "4d", "3c", "2s", "Ad"]),
    (["6h", "Kd"], ["6c", "Ks", "6d", "2c", "3c"], False,
     "Full house, sixes full of kings", ["6h", "6c", "6d", "Kd", "Ks"]),
    (["Ah", "Kh", "2c", "3d"], ["Qh", "Jh", "Th", "9s", "8s"], True,
     "Royal flush", ["Ah", "Kh", "Qh", "Jh", "Th"]),
]


async def test_a_showdown_names_the_winning_hand_with_its_ranks_and_its_cards_in_order(
    visitors: Visitors, live_server: LiveServer
) -> None:
    page = (await visitors.new(viewport=DESKTOP)).page
    await page.goto("/")
    shown = await page.evaluate("""async (hands) => {
      const { showdownHand } = await import("/static/js/table/besthand.js");
      return hands.map(([hole, board, omaha]) => showdownHand(hole, board, { omaha }));
    }""", [[hole, board, omaha] for hole, board, omaha, _, _ in SHOWDOWNS])
    assert shown == [{"name": name, "cards": cards} for _, _, _, name, cards in SHOWDOWNS]
    for hole, board, omaha, name, _ in SHOWDOWNS:
        if not omaha:
            value = evaluate(parse_cards(" ".join(hole + board)))
            assert name.startswith(OPENINGS[value.category] or "Royal"), (name, value)
