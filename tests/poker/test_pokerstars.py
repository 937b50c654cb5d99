"""Hands in PokerStars' text format, read back by pokerkit's PokerStars parser and checked
against our own PHH of the same hand: every action, stack, blind, ante, board and pot."""

from __future__ import annotations

import dataclasses
import re
from random import Random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import BlindPosted
from app.poker.hand_export import ExportView, TournamentFacts, describe
from app.poker.pokerstars import to_pokerstars
from app.poker.state import Game, Stakes
from tests.poker.export_checks import (
    KINDS,
    Kind,
    assert_no_hidden_card,
    check_money,
    check_stars,
    facts_for,
    parse_stars,
    pokerkit_follows,
    random_hands,
    settles_like_pokerkit,
    stored,
)
from tests.poker.game_oracle import play, random_setup
from tests.poker.stacked_decks import stacked_deck
from tests.poker.test_engine_run_it_twice import twice_deck
from tests.poker.test_run_it_twice_history import run_twice_after_the_flop, three_way_run_twice

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


def exported(hand: Hand, viewer: int | None, **facts: object) -> tuple[str, ExportView]:
    view = ExportView(stored(hand), dataclasses.replace(facts_for(hand), **facts), viewer)
    return to_pokerstars(view), view


def every_view(hand: Hand) -> list[tuple[str, ExportView]]:
    return [exported(hand, v) for v in [None, *range(len(hand.seats))]]


def side_pot_hand() -> Hand:
    """Three ways all in with antes: a short stack, a side pot, an uncalled bet back."""
    deck = stacked_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 60, 1: 400, 2: 900}, button=2, stakes=Stakes(5, 10, 2),
                         deck=deck)
    hand.all_in(2)
    hand.all_in(0)
    hand.all_in(1)
    while not hand.is_complete:
        hand.show(hand.actor)  # type: ignore[arg-type]
    return hand


def test_a_hand_is_written_as_pokerstars_writes_play_money() -> None:
    text, view = exported(side_pot_hand(), 1)
    assert text.splitlines()[:2] == [
        "PokerStars Hand #4242:  Hold'em No Limit (5/10) - 2026/03/08 07:30:05 UTC "
        "[2026/03/08 03:30:05 ET]",
        "Table 'Oak 3' 10-max Seat #3 is the button"]
    for line in ("Seat 1: ann (60 in chips)", "ann: posts the ante 2",
                 "bob o'neil: posts big blind 10", "*** HOLE CARDS ***",
                 "Dealt to bob o'neil [Ks Kc]", "cy: raises 888 to 898 and is all-in",
                 "ann: calls 53 and is all-in", "bob o'neil: calls 388 and is all-in",
                 "Uncalled bet (500) returned to cy", "*** FLOP *** [2c 7d 9h]",
                 "*** TURN *** [2c 7d 9h] [3s]", "*** RIVER *** [2c 7d 9h 3s] [4c]",
                 "*** SHOW DOWN ***", "ann: shows [Ah Ad] (a pair of Aces)",
                 "ann collected 180 from main pot", "bob o'neil collected 680 from side pot",
                 "Total pot 860 Main pot 180. Side pot 680. | Rake 0",
                 "Board [2c 7d 9h 3s 4c]",
                 "Seat 1: ann (small blind) showed [Ah Ad] and won (180) with a pair of Aces",
                 "Seat 3: cy (button) showed [Qs Qd] and lost with a pair of Queens"):
        assert line in text.splitlines(), line
    check_stars(text, view)


def test_eastern_time_follows_the_us_daylight_saving_rule() -> None:
    from datetime import UTC, datetime

    from app.poker.hand_export import eastern

    def at(*when: int) -> str:
        return f"{eastern(datetime(*when, tzinfo=UTC)):%m/%d %H:%M}"

    assert at(2026, 3, 8, 6, 59) == "03/08 01:59"  # 2:00 EST becomes 3:00 EDT
    assert at(2026, 3, 8, 7, 0) == "03/08 03:00"
    assert at(2026, 11, 1, 5, 59) == "11/01 01:59"  # 2:00 EDT becomes 1:00 EST
    assert at(2026, 11, 1, 6, 0) == "11/01 01:00"


def folded_shown_and_mucked_hand() -> Hand:
    """ann folds aces, bob shows kings at the showdown, cy mucks her queens."""
    deck = stacked_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 500, 1: 500, 2: 500}, button=2, stakes=Stakes(5, 10), deck=deck)
    hand.call(2)
    hand.fold(0)
    hand.check(1)
    for _ in range(3):
        hand.check(1)
        hand.check(2)
    while not hand.is_complete:
        actor = hand.actor
        (hand.show if actor == 1 else hand.muck)(actor)  # type: ignore[arg-type]
    return hand


def test_a_player_sees_only_their_own_cards_and_the_hands_shown() -> None:
    for text, view in every_view(folded_shown_and_mucked_hand()):
        check_stars(text, view)
        cards = set(re.findall(r"[2-9TJQKA][cdhs]", "".join(
            line for line in text.splitlines() if "[" in line and "Board" not in line
            and not line.startswith("***"))))
        assert "Ks" in cards  # shown at the showdown: everyone sees it
        assert ("Ah" in cards) == (view.viewer in (None, 0))  # folded: only ann and admins
        assert ("Qs" in cards) == (view.viewer in (None, 2))  # mucked: only cy and admins
        assert "cy: mucks hand" in text.splitlines()
        if view.viewer in (None, 2):
            assert "Seat 3: cy (button) mucked [Qs Qd]" in text.splitlines()
        else:
            assert "Seat 3: cy (button) mucked" in text.splitlines()


def test_blinds_antes_and_a_short_all_in_blind() -> None:
    deck = stacked_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c")
    hand, _ = Hand.start({0: 500, 1: 7, 2: 500}, button=2, stakes=Stakes(5, 10, 2), deck=deck)
    hand.fold(2)
    while not hand.is_complete:
        if hand.actor is not None and hand.can_check(hand.actor):
            hand.check(hand.actor)
        else:
            hand.show(hand.actor)  # type: ignore[arg-type]
    text, view = exported(hand, 0)
    assert "bob o'neil: posts big blind 5 and is all-in" in text
    check_stars(text, view)


def test_a_big_blind_ante_is_posted_by_the_big_blind() -> None:
    hand, _ = Hand.start({0: 500, 1: 500, 2: 500}, button=2,
                         stakes=Stakes(5, 10, 10, big_blind_ante=True),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQd"]))
    hand.fold(2)
    hand.fold(0)
    text, view = exported(hand, 1)
    assert text.count("posts the ante") == 1 and "bob o'neil: posts the ante 10" in text
    assert "Uncalled bet (5) returned to bob o'neil" in text
    assert "Seat 2: bob o'neil (big blind) collected (20)" in text
    check_stars(text, view)


def test_a_straddle_is_a_live_third_blind() -> None:
    hand, _ = Hand.start({0: 500, 1: 500, 2: 500, 3: 500}, button=3,
                         stakes=Stakes(5, 10, straddle=20),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQd", "JsJd"]))
    hand.raise_to(3, 60)
    hand.fold(0)
    hand.fold(1)
    hand.call(2)
    hand.check(2)
    hand.bet(3, 100)
    hand.fold(2)
    text, view = exported(hand, 2)
    for line in ("cy: posts straddle 20", "dee: raises 40 to 60", "cy: calls 40",
                 "Uncalled bet (100) returned to dee", "dee collected 135 from pot",
                 "dee: doesn't show hand", "Seat 3: cy folded on the Flop"):
        assert line in text.splitlines(), line
    check_stars(text, view)


def test_a_bomb_pot_is_written_as_antes_and_no_blinds() -> None:
    hand, _ = Hand.start({0: 500, 1: 500, 2: 15}, button=0, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQd"]), bomb_pot=20)
    while not hand.is_complete:
        actor = hand.actor
        assert actor is not None
        (hand.check if hand.can_check(actor) else hand.show)(actor)
    text, view = exported(hand, 0, stakes=Stakes(5, 10))
    assert "Hold'em No Limit (5/10)" in text.splitlines()[0]  # the table's, not the hand's
    assert "posts small blind" not in text and "posts big blind" not in text
    assert "bob o'neil: posts the ante 15 and is all-in" in text
    assert text.count("posts the ante") == 3
    check_stars(text, view)


def test_a_hand_run_twice_has_two_boards_and_two_showdowns() -> None:
    deck = twice_deck(["AhAd", "KsKc", "QsQd"], "2c 7d 9h 3s 4c", "Qh 8s 5d Jc 6h")
    text, view = exported(three_way_run_twice(deck), 1)
    lines = text.splitlines()
    start = lines.index("*** FIRST FLOP *** [2c 7d 9h]")
    assert lines[start:start + 6] == [
        "*** FIRST FLOP *** [2c 7d 9h]", "*** FIRST TURN *** [2c 7d 9h] [3s]",
        "*** FIRST RIVER *** [2c 7d 9h 3s] [4c]", "*** SECOND FLOP *** [Qh 8s 5d]",
        "*** SECOND TURN *** [Qh 8s 5d] [Jc]", "*** SECOND RIVER *** [Qh 8s 5d Jc] [6h]"]
    for line in ("*** FIRST SHOW DOWN ***", "*** SECOND SHOW DOWN ***",
                 "cy: shows [Qs Qd] (three of a kind, Queens)", "Hand was run twice",
                 "FIRST Board [2c 7d 9h 3s 4c]", "SECOND Board [Qh 8s 5d Jc 6h]",
                 "Seat 3: cy (button) showed [Qs Qd] and lost with a pair of Queens, and won "
                 "(550) with three of a kind, Queens"):
        assert line in lines, line
    check_stars(text, view)


def test_a_hand_run_twice_after_the_flop_shares_the_flop() -> None:
    text, view = exported(run_twice_after_the_flop(), 0)
    for line in ("*** FLOP *** [2c 7d Kd]", "*** FIRST TURN *** [2c 7d Kd] [3s]",
                 "*** SECOND TURN *** [2c 7d Kd] [8s]",
                 "*** SECOND RIVER *** [2c 7d Kd 8s] [5d]"):
        assert line in text.splitlines(), line
    check_stars(text, view)


def test_a_tournament_hand_names_the_tournament_level_and_the_players_place() -> None:
    hand, _ = Hand.start({0: 900, 1: 300}, button=0, stakes=Stakes(50, 100, 10),
                         deck=stacked_deck(["2h7d", "AsAc"], "Kd Qd 9s 4h 3c"))
    hand.all_in(0)
    hand.call(1)
    tour = TournamentFacts(number=77, name="Sunday", buy_in=100, fee=10, level=4, place=2,
                           prize=60)
    text, view = exported(hand, 0, tournament=tour)
    first = text.splitlines()[0]
    assert first.startswith("PokerStars Hand #4242: Tournament #77, 100+10 Hold'em No Limit "
                            "- Level IV (50/100) - 2026/03/08")
    assert "ann finished the tournament in 2nd place and received 60." in text
    winner = dataclasses.replace(tour, place=1, prize=240)
    text, view = exported(hand, 1, tournament=winner)
    assert "bob o'neil wins the tournament and receives 240 - congratulations!" in text
    check_stars(text, view)


def test_every_reader_of_every_fixed_hand_parses_and_settles_like_pokerkit() -> None:
    settled = 0
    for hand in (side_pot_hand(),):
        for text, view in every_view(hand):
            check_stars(text, view)
            if view.viewer is None:
                settled += settles_like_pokerkit(text, view.hand)
    assert settled == 1


def test_a_file_of_many_hands_splits_into_each_hand() -> None:
    texts = [exported(side_pot_hand(), v, number=100 + v)[0] for v in range(3)]
    parsed = parse_stars("\n\n".join(texts))
    assert [p.hand for p in parsed] == [100, 101, 102]


@pytest.mark.parametrize(("game", "named"), [
    (Game.NLHE, "Hold'em No Limit (5/10)"), (Game.PLHE, "Hold'em Pot Limit (5/10)"),
    (Game.FLHE, "Hold'em Limit (10/20)"), (Game.PLO, "Omaha Pot Limit (5/10)"),
    (Game.PLO5, "5 Card Omaha Pot Limit (5/10)"),
])
def test_every_game_the_engine_deals_is_named_as_pokerstars_names_it(
    game: Game, named: str
) -> None:
    hole = game.hole_cards
    hand, _ = Hand.start({0: 500, 1: 500}, button=0, stakes=Stakes(5, 10), game=game,
                         deck=Deck(rng=Random(11)))
    hand.fold(0)
    text, view = exported(hand, 1)
    assert text.startswith(f"PokerStars Hand #4242:  {named} - 2026/03/08"), text
    (dealt,) = re.findall(r"^Dealt to bob o'neil \[(.+)\]$", text, re.M)
    assert len(dealt.split()) == hole
    check_stars(text, view)


def test_an_omaha_hand_shown_is_worded_from_two_hole_cards_and_three_board_cards() -> None:
    # Four hearts on the board: a Hold'em flush for the Ace of hearts, but an Omaha hand
    # needs two hearts of its own.
    deck = stacked_deck(["AhQsJdTc", "KsKdQcJc"], "2h 5h 9h 8h 3c")
    hand, _ = Hand.start({0: 500, 1: 500}, button=0, stakes=Stakes(5, 10), game=Game.PLO,
                         deck=deck)
    for _ in range(8):
        hand.act(hand.actor, "call" if hand.to_call(hand.actor) else "check")  # type: ignore[arg-type]
    while not hand.is_complete:
        hand.show(hand.actor)  # type: ignore[arg-type]
    text, view = exported(hand, None)
    assert "ann: shows [Ah Qs Jd Tc] (high card Ace)" in text
    assert "bob o'neil: shows [Ks Kd Qc Jc] (a pair of Kings)" in text
    check_stars(text, view)


@pytest.mark.parametrize("game", [Game.FLHE, Game.PLHE, Game.PLO, Game.PLO5])
def test_random_hands_of_every_other_game_read_back_as_our_phh_for_every_reader(
    game: Game
) -> None:
    rng = Random(f"stars-{game.value}")
    checked = 0
    for _ in range(40):
        hand, verdict = play(random_setup(rng, game), rng)
        # pokerkit replays a hand only where its rules and ours agree (app.poker.limits
        # names the differences), and a fixed-limit text names no short small blind.
        comparable = not verdict.diverged and pokerkit_follows(hand) and not (
            game.fixed_limit and any(isinstance(e, BlindPosted) and e.all_in
                                     for e in hand.history))
        for text, view in every_view(hand):
            assert_no_hidden_card(text, view)
            check_money(text, view.hand, view)
            if comparable:
                check_stars(text, view)
        checked += comparable
    assert checked >= 20
@pytest.mark.parametrize(("hole", "board", "words"), [
    ("Ah Kd", "2c 7d 9h Jc 3s", "high card Ace"),
    ("Ah Ad", "2c 7d 9h Jc 3s", "a pair of Aces"),
    ("6h 6d", "6c 7d 9h Jc 3s", "three of a kind, Sixes"),
    ("Ah 5d", "5c Ad 9h Jc 3s", "two pair, Aces and Fives"),
    ("Ah 2d", "3c 4d 5h Jc Ks", "a straight, Ace to Five"),
    ("Th 9d", "Jc Qd Kh 2c 3s", "a straight, Nine to King"),
    ("Ah 2h", "5h 9h Jh Jc 3s", "a flush, Ace high"),
    ("7h 7d", "7c Qd Qh 2c 3s", "a full house, Sevens full of Queens"),
    ("Ah Ad", "Ac As 9h Jc 3s", "four of a kind, Aces"),
    ("5h 6h", "7h 8h 9h Jc 3s", "a straight flush, Five to Nine"),
    ("Th Jh", "Qh Kh Ah Jc 3s", "a Royal Flush"),
])
def test_made_hands_read_as_pokerstars_words_them(hole: str, board: str, words: str) -> None:
    from app.poker.cards import parse_cards

    assert describe(parse_cards(hole), parse_cards(board)) == words


@settings(max_examples=150, deadline=None, suppress_health_check=_QUIET)
@given(data=st.data(), kind=st.sampled_from(KINDS))
def test_random_hands_of_every_kind_read_back_as_our_phh_for_every_reader(
    data: st.DataObject, kind: Kind
) -> None:
    hand = data.draw(random_hands(kind))
    for text, view in every_view(hand):
        assert_no_hidden_card(text, view)
        if not pokerkit_follows(hand):
            check_money(text, view.hand, view)
            continue
        check_stars(text, view)
        if view.viewer is None:
            settles_like_pokerkit(text, view.hand)


def test_a_raise_over_a_short_big_blind_is_a_raise_over_the_tables_big_blind() -> None:
    hand, _ = Hand.start({0: 500, 1: 3, 2: 500}, button=2, stakes=Stakes(5, 10),
                         deck=stacked_deck(["AhAd", "KsKc", "QsQd"]))
    hand.raise_to(2, 30)
    hand.fold(0)
    text, view = exported(hand, 2)
    assert "bob o'neil: posts big blind 3 and is all-in" in text
    assert "cy: raises 20 to 30" in text.splitlines()
    check_money(text, view.hand, view)
