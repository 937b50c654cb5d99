"""Bots: every choice is legal, tables of bots finish their hands, styles differ."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.poker.bots import BotAction, BotStyle, decide, legal_from_view
from app.poker.cards import Deck, parse_cards
from app.poker.engine import Hand
from app.poker.events import ActionKind
from app.poker.hand_class import class_of
from app.poker.preflop import percentile
from app.poker.state import Phase, Stakes
from app.poker.view import view
from tests.poker.stacked_decks import stacked_deck

STYLES = list(BotStyle)
VOLUNTARY = {ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN}
AGGRESSIVE = {ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN}


@dataclass
class Tally:
    """What a table of bots did, per style."""

    hands: Counter[BotStyle] = field(default_factory=Counter)
    voluntary: Counter[BotStyle] = field(default_factory=Counter)
    actions: Counter[tuple[BotStyle, ActionKind]] = field(default_factory=Counter)


def assert_legal(hand: Hand, choice: BotAction) -> None:
    legal = {a.action: a for a in hand.legal_actions()}
    assert choice.action in legal, (choice, legal)
    option = legal[choice.action]
    if choice.action in (ActionKind.BET, ActionKind.RAISE):
        assert choice.amount is not None
        assert option.min is not None and option.max is not None
        assert option.min <= choice.amount <= option.max
    else:
        assert choice.amount is None
    if ActionKind.CHECK in legal:
        assert choice.action is not ActionKind.FOLD
    assert hand.can_act(hand.actor, choice.action, choice.amount)


def play_hand(
    stacks: dict[int, int],
    styles: dict[int, BotStyle],
    *,
    button: int,
    stakes: Stakes,
    deck_seed: int,
    rng: Random,
    tally: Tally | None = None,
    iterations: int = 100,
) -> tuple[Hand, list[BotAction]]:
    """Play one hand where every seat is a bot deciding from its own view."""
    hand, _ = Hand.start(stacks, button=button, stakes=stakes, deck=Deck(rng=Random(deck_seed)))
    choices: list[BotAction] = []
    entered: set[int] = set()
    for _ in range(200):
        if hand.is_complete:
            break
        seat = hand.actor
        assert seat is not None
        style = styles[seat]
        choice = decide(view(hand, seat), hand.legal_actions(), style=style, rng=rng,
                        iterations=iterations)
        assert_legal(hand, choice)
        if tally is not None:
            tally.actions[style, choice.action] += 1
            if hand.phase is Phase.PREFLOP and choice.action in VOLUNTARY:
                entered.add(seat)
        choices.append(choice)
        hand.act(seat, choice.action, choice.amount)
    assert hand.is_complete, "a table of bots did not finish its hand in 200 actions"
    if tally is not None:
        for seat in stacks:
            tally.hands[styles[seat]] += 1
            tally.voluntary[styles[seat]] += seat in entered
    return hand, choices


@st.composite
def tables(draw: st.DrawFn) -> dict[str, object]:
    count = draw(st.integers(2, 9))
    numbers = draw(st.lists(st.integers(0, 9), min_size=count, max_size=count, unique=True))
    big = draw(st.sampled_from([2, 10, 100]))
    stacks = {n: draw(st.integers(1, 300 * big)) for n in numbers}
    return {
        "stacks": stacks,
        "styles": {n: draw(st.sampled_from(STYLES)) for n in numbers},
        "button": draw(st.sampled_from(numbers)),
        "stakes": Stakes(big // 2, big, draw(st.sampled_from([0, 0, big // 10])),
                         draw(st.booleans())),
        "deck_seed": draw(st.integers(0, 2**32)),
        "rng_seed": draw(st.integers(0, 2**32)),
    }


@settings(max_examples=300, deadline=None)
@given(tables())
def test_tables_of_bots_only_act_legally_finish_and_conserve_chips(table):
    stacks = table["stacks"]
    hand, _ = play_hand(stacks, table["styles"], button=table["button"], stakes=table["stakes"],
                        deck_seed=table["deck_seed"], rng=Random(table["rng_seed"]))
    assert sum(hand.stacks().values()) == sum(stacks.values())
    assert all(stack >= 0 for stack in hand.stacks().values())


def test_bots_never_fold_when_they_can_check():
    # Also checked on every action above; here on many big-blind spots preflop.
    for seed in range(200):
        hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10),
                             deck=Deck(rng=Random(seed)))
        hand.call(0)
        for style in STYLES:
            choice = decide(view(hand, 1), hand.legal_actions(), style=style, rng=Random(seed))
            assert choice.action in (ActionKind.CHECK, ActionKind.RAISE, ActionKind.ALL_IN)


@pytest.mark.parametrize("style", STYLES)
@pytest.mark.parametrize("trash", ["7c2d", "8s3h", "9d4c", "Jc2h"])
def test_a_bot_folds_trash_to_a_big_raise(style, trash):
    # Seats from the left of the button: 1 (small blind), 2 (big blind), 0 (button).
    deck = stacked_deck(["KsTd", trash, "AhAd"])
    hand, _ = Hand.start({0: 2000, 1: 2000, 2: 2000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.raise_to(0, 150)
    hand.fold(1)
    choice = decide(view(hand, 2), hand.legal_actions(), style=style, rng=Random(3))
    assert choice == BotAction(ActionKind.FOLD)


@pytest.mark.parametrize("style", STYLES)
def test_a_bot_bets_or_raises_the_nuts_on_the_river(style):
    deck = stacked_deck(["AhKh", "2c2d"], board="QhJhTh 3s 4d")
    hand, _ = Hand.start({0: 2000, 1: 2000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.call(0)
    hand.check(1)
    for _ in range(2):  # check it down to the river
        hand.check(1)
        hand.check(0)
    assert hand.phase is Phase.RIVER and hand.actor == 1
    choice = decide(view(hand, 1), hand.legal_actions(), style=style, rng=Random(0))
    assert choice.action in (ActionKind.BET, ActionKind.ALL_IN)


def test_a_bot_calls_a_small_bet_with_a_strong_hand_when_raising_is_closed():
    deck = stacked_deck(["AhAd", "KcKd"], board="As 7c 2d 9s 3h")
    hand, _ = Hand.start({0: 1000, 1: 40}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.call(0)
    hand.check(1)
    hand.check(1)
    hand.bet(0, 10)
    hand.all_in(1)  # for 30: every other player is all-in, so seat 0 may only call or fold
    legal = {a.action for a in hand.legal_actions()}
    assert ActionKind.RAISE not in legal
    for style in STYLES:
        assert decide(view(hand, 0), style=style, rng=Random(1)).action is ActionKind.CALL


def test_a_bot_mucks_a_beaten_hand_at_the_showdown():
    deck = stacked_deck(["AhAd", "7c2d"], board="As Kc Qd 9s 3h")
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.call(0)
    hand.check(1)
    for _ in range(3):
        hand.check(1)
        hand.check(0)
    while hand.phase is Phase.SHOWDOWN:
        seat = hand.actor
        assert seat is not None
        choice = decide(view(hand, seat), hand.legal_actions(), rng=Random(0))
        assert choice == BotAction(ActionKind.MUCK)
        hand.act(seat, choice.action)
    assert hand.is_complete


def test_decisions_use_only_the_bots_own_view():
    # Same own cards, board and betting; different opponent cards: same choice.
    board = "Qh 8c 3d"
    choices = set()
    for villain in ("AsAd", "7s2c", "QcQd", "9h8h"):
        deck = stacked_deck(["JhTh", villain], board=board)
        hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10), deck=deck)
        hand.call(0)
        hand.check(1)
        own_view = view(hand, 1)
        assert own_view["seats"][1]["cards"] is None
        choices.add(decide(own_view, hand.legal_actions(), style=BotStyle.LOOSE, rng=Random(9)))
    assert len(choices) == 1


def test_the_legal_actions_can_come_from_the_view_itself():
    hand, _ = Hand.start({0: 1000, 1: 1000, 2: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=Deck(rng=Random(4)))
    own = view(hand, hand.actor)
    assert legal_from_view(own) == hand.legal_actions()
    assert decide(own, rng=Random(2)) == decide(own, hand.legal_actions(), rng=Random(2))


def test_a_spectator_view_is_refused():
    hand, _ = Hand.start({0: 1000, 1: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=Deck(rng=Random(4)))
    with pytest.raises(ValueError, match="seat dealt in"):
        decide(view(hand, None), hand.legal_actions(), rng=Random(0))


def test_the_same_rng_seed_gives_the_same_hand():
    def run(seed: int) -> list[list[BotAction]]:
        rng = Random(seed)
        styles = dict(enumerate(STYLES * 2))
        return [
            play_hand(dict.fromkeys(range(6), 1000), styles, button=n % 6, stakes=Stakes(5, 10),
                      deck_seed=n, rng=rng)[1]
            for n in range(15)
        ]

    assert run(11) == run(11)
    assert run(11) != run(12)


def test_hand_strength_orders_the_classic_hands():
    # By equity against a random hand: pairs above AK, suited above offsuit.
    order = ["AsAd", "KsKd", "JsJd", "TsTd", "9s9d", "AhKh", "AhKd", "KhQh", "Ad5c",
             "Kd7c", "7s6s", "7c2d"]
    shares = [percentile(class_of(parse_cards(h))) for h in order]
    assert shares == sorted(shares)


def test_styles_differ_measurably_over_many_seeded_hands():
    tally = Tally()
    rng = Random(2024)
    styles = dict(enumerate(STYLES * 2))  # 6-max: two seats of each style
    for n in range(300):
        # Deep stacks reset every hand, the button goes round.
        play_hand(dict.fromkeys(range(6), 2000), styles, button=n % 6, stakes=Stakes(5, 10),
                  deck_seed=10_000 + n, rng=rng, tally=tally, iterations=60)
    vpip = {s: tally.voluntary[s] / tally.hands[s] for s in STYLES}
    assert vpip[BotStyle.LOOSE] > vpip[BotStyle.AGGRESSIVE] > vpip[BotStyle.TIGHT]
    assert vpip[BotStyle.LOOSE] > 1.5 * vpip[BotStyle.TIGHT]

    def aggression(style: BotStyle) -> float:
        bets = sum(tally.actions[style, k] for k in AGGRESSIVE)
        return bets / max(1, tally.actions[style, ActionKind.CALL])

    assert aggression(BotStyle.AGGRESSIVE) > aggression(BotStyle.LOOSE)
    assert aggression(BotStyle.AGGRESSIVE) > aggression(BotStyle.TIGHT)
