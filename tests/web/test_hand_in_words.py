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
