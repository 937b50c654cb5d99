"""Between hands: the moving button and the wait-for-the-big-blind rule."""

from random import Random

from app.poker.blinds import HandPlan, Occupant, PlayerStatus, plan_next_hand
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import BlindKind, BlindPosted
from app.poker.state import Stakes

PLAYING = PlayerStatus.PLAYING
WAITING = PlayerStatus.WAITING
OUT = PlayerStatus.SITTING_OUT


def table(**statuses):
    return {int(k[1:]): Occupant(1000, v) for k, v in statuses.items()}


def test_first_hand_puts_the_button_on_the_lowest_ready_seat():
    plan = plan_next_hand(table(s2=PLAYING, s5=PLAYING, s7=WAITING), previous_button=None)
    assert plan == HandPlan(button=2, small_blind=5, big_blind=7, dealt_in=(2, 5, 7))


def test_button_moves_to_the_next_seat_dealt_in():
    plan = plan_next_hand(table(s1=PLAYING, s4=PLAYING, s6=PLAYING), previous_button=1)
    assert plan == HandPlan(button=4, small_blind=6, big_blind=1, dealt_in=(1, 4, 6))
    plan = plan_next_hand(table(s1=PLAYING, s4=PLAYING, s6=PLAYING), previous_button=6)
    assert plan.button == 1


def test_button_skips_empty_and_sitting_out_seats():
    seats = table(s0=PLAYING, s3=OUT, s5=PLAYING, s8=PLAYING)
    assert plan_next_hand(seats, previous_button=0) == HandPlan(5, 8, 0, (0, 5, 8))
    seats[9] = Occupant(0)  # busted: no chips, not dealt in
    assert plan_next_hand(seats, previous_button=8) == HandPlan(0, 5, 8, (0, 5, 8))


def test_a_new_player_waits_for_the_big_blind():
    seats = table(s0=PLAYING, s2=PLAYING, s4=PLAYING, s6=WAITING)
    # Button 2 -> small blind 4 -> big blind is seat 6: it comes in and posts it.
    assert plan_next_hand(seats, previous_button=0) == HandPlan(2, 4, 6, (0, 2, 4, 6))
    # Button 0 -> small blind 2 -> big blind 4: seat 6 keeps waiting.
    assert plan_next_hand(seats, previous_button=6) == HandPlan(0, 2, 4, (0, 2, 4))


def test_heads_up_button_posts_the_small_blind():
    plan = plan_next_hand(table(s3=PLAYING, s8=PLAYING), previous_button=8)
    assert plan == HandPlan(button=3, small_blind=3, big_blind=8, dealt_in=(3, 8))


def test_nobody_waits_when_fewer_than_two_are_playing():
    plan = plan_next_hand(table(s3=PLAYING, s8=WAITING), previous_button=3)
    assert plan == HandPlan(button=8, small_blind=8, big_blind=3, dealt_in=(3, 8))
    assert plan_next_hand(table(s3=PLAYING, s8=OUT), previous_button=3) is None


def test_the_engine_posts_the_blinds_the_plan_names():
    rng = Random(5)
    for _ in range(200):
        seats = {
            n: Occupant(rng.randint(0, 3) * 100, rng.choice([PLAYING, PLAYING, WAITING, OUT]))
            for n in rng.sample(range(10), rng.randint(2, 10))
        }
        plan = plan_next_hand(seats, previous_button=rng.choice([None, *range(10)]))
        if plan is None:
            continue
        _, events = Hand.start(plan.stacks(seats), button=plan.button, stakes=Stakes(0, 100),
                               deck=Deck(rng=rng))
        posted = [e for e in events if isinstance(e, BlindPosted)]
        assert posted[-1].seat == plan.big_blind and posted[-1].blind is BlindKind.BIG
        _, events = Hand.start(plan.stacks(seats), button=plan.button, stakes=Stakes(50, 100),
                               deck=Deck(rng=rng))
        assert next(e for e in events if isinstance(e, BlindPosted)).seat == plan.small_blind
