"""What bench/tournament.py makes of what its observer recorded: table silences less
breaks, hand-for-hand waits apart, and moved players paired from leaving to sitting."""

from __future__ import annotations

import doctest

import pytest

from bench import tournament_timing
from bench.tournament_timing import Poll, Seen, figures, moves, runs, silences


def poll(at: float, *tables: str, running: bool = True, on_break: bool = False,
         hand_for_hand: bool = False) -> Poll:
    return Poll(at, running, on_break, hand_for_hand, frozenset(tables))


def test_the_docstring_examples_run() -> None:
    assert doctest.testmod(tournament_timing).failed == 0


def test_a_silence_runs_from_the_listing_to_the_first_message_and_from_the_last_to_the_end(
) -> None:
    polls = [poll(0.0), poll(1.0, "t1"), poll(2.0, "t1"), poll(20.0, "t1"), poll(21.0)]
    found = silences("t1", [(5.0, "hand_started"), (6.0, "turn")], polls)
    assert [(s.start, s.end, s.before, s.after) for s in found] == [
        (1.0, 5.0, "listed", "hand_started"), (5.0, 6.0, "hand_started", "turn"),
        (6.0, 20.0, "turn", "last listed")]


def test_messages_while_a_table_is_not_listed_or_the_tournament_not_running_do_not_count(
) -> None:
    polls = [poll(0.0, "t1", running=False), poll(1.0, "t1"), poll(3.0, "t1"), poll(4.0)]
    found = silences("t1", [(0.5, "player_sat"), (2.0, "turn"), (9.0, "table_closed")], polls)
    assert [(s.start, s.end) for s in found] == [(1.0, 2.0), (2.0, 3.0)]


def test_a_break_is_taken_out_of_a_silence() -> None:
    polls = [poll(float(t), "t1", on_break=30 <= t <= 90) for t in range(0, 121)]
    (silence,) = [s for s in silences("t1", [(0.0, "a"), (100.0, "b")], polls)
                  if s.end == 100.0]
    # The break was seen from 30 to 90: it began after 29 and ended before 91.
    assert silence.on_break == 62.0
    assert silence.seconds == 38.0


def test_a_silence_that_overlaps_hand_for_hand_play_is_kept_apart() -> None:
    polls = [poll(float(t), "t1", hand_for_hand=t >= 10) for t in range(0, 21)]
    found = silences("t1", [(0.0, "a"), (4.0, "b"), (15.0, "c")], polls)
    assert [(s.start, s.hand_for_hand) for s in found] == [
        (0.0, False), (4.0, True), (15.0, True)]


def test_runs_pad_to_the_polls_around_them_when_asked() -> None:
    polls = [poll(float(t), on_break=t in (3, 4)) for t in range(8)]
    keep = lambda p: p.on_break  # noqa: E731
    assert [(s.start, s.end) for s in runs(polls, keep, padded=False)] == [(3.0, 4.0)]
    assert [(s.start, s.end) for s in runs(polls, keep, padded=True)] == [(2.0, 5.0)]


@pytest.mark.parametrize(("seen", "move"), [
    # A player who leaves with chips and sits at another table.
    ([Seen(0.0, "t1", "ann", "sat", 1000), Seen(10.0, "t1", "ann", "left", 1400),
      Seen(10.3, "t2", "ann", "sat", 1400)], ("t1", "t2", 0.3)),
    # A player stood up by a table that broke, and seated elsewhere.
    ([Seen(0.0, "t5", "ann", "sat", 1000), Seen(30.0, "t5", "ann", "left", 1200),
      Seen(30.0, "t5", "", "closed"), Seen(30.4, "t2", "ann", "sat", 1200)], ("t5", "t2", 0.4)),
], ids=["left-and-sat", "table-broke"])
def test_a_player_who_leaves_a_table_with_chips_and_sits_at_another_moved(
    seen: list[Seen], move: tuple[str, str, float]
) -> None:
    found, unseated = moves(seen)
    assert [(m.from_table, m.to_table, round(m.seconds, 3)) for m in found] == [move]
    assert unseated == []


def test_a_bust_and_a_table_closing_at_the_end_are_no_moves() -> None:
    seen = [Seen(5.0, "t1", "bob", "left", 0), Seen(50.0, "t1", "ann", "left", 22000),
            Seen(50.1, "t1", "", "closed")]
    assert moves(seen) == ([], [])


def test_a_seat_taken_before_the_old_one_is_left_is_a_move_without_a_wait() -> None:
    seen = [Seen(0.0, "t1", "ann", "sat", 1000), Seen(9.0, "t2", "ann", "sat", 900),
            Seen(9.2, "t1", "ann", "left", 900)]
    (move,), _ = moves(seen)
    assert (move.from_table, move.to_table, move.seconds) == ("t1", "t2", 0.0)


def test_a_player_who_left_with_chips_and_never_sat_again_is_still_unseated() -> None:
    left = Seen(7.0, "t3", "cy", "left", 800)
    assert moves([Seen(0.0, "t3", "cy", "sat", 1000), left]) == ([], [left])


def test_figures_give_the_nearest_rank_p95() -> None:
    assert figures([float(n) for n in range(1, 21)]) == {
        "count": 20, "max": 20.0, "p95": 19.0, "mean": 10.5}
    assert figures([])["max"] is None
