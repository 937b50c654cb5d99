"""Table balancing and breaking by the TDA rules we chose (see app/tournaments/balancing.py)."""

from __future__ import annotations

from random import Random

from app.tournaments.balancing import (
    MoveReason,
    Seating,
    apply_moves,
    hands_until_big_blind,
    next_big_blind,
    plan_moves,
)


def _table(number: int, seats: list[int], *, size: int = 9, button: int | None = None) -> Seating:
    return Seating(number, size, {s: f"t{number}s{s}" for s in seats}, button)


def test_tables_one_player_apart_are_left_alone() -> None:
    tables = [_table(1, [0, 1, 2, 3], size=5), _table(2, [0, 1, 2], size=5)]

    assert plan_moves(tables, rng=Random(1)) == []


def test_balancing_moves_the_player_who_would_be_big_blind_next_to_the_shortest_table() -> None:
    big = _table(1, [0, 1, 2, 3, 4, 5, 6, 8], button=2)
    short = _table(2, [0, 1, 2], button=0)

    moves = plan_moves([big, short], rng=Random(1))

    assert next_big_blind(big) == 5
    assert [(m.player, m.from_table, m.to_table, m.reason) for m in moves] == [
        ("t1s5", 1, 2, MoveReason.BALANCE), ("t1s6", 1, 2, MoveReason.BALANCE),
    ]


def test_the_moved_player_takes_the_seat_that_posts_the_big_blind_soonest() -> None:
    big = _table(1, [0, 1, 2, 3, 4, 5, 6], button=0)
    short = _table(2, [0, 3, 6, 7], button=0)

    (move,) = plan_moves([big, short], rng=Random(1))

    waits = {s: hands_until_big_blind(short, s) for s in short.empty_seats}
    assert waits == {1: 3, 2: 3, 4: 4, 5: 4, 8: 1}
    assert move.to_seat == 8


def test_moves_come_from_the_biggest_table_to_the_smallest_until_they_differ_by_one() -> None:
    tables = {1: _table(1, list(range(9))), 2: _table(2, list(range(9))), 3: _table(3, [0, 1])}

    moves = plan_moves(list(tables.values()), rng=Random(2))
    apply_moves(tables, moves)

    assert sorted(len(t.seats) for t in tables.values()) == [6, 7, 7]
    assert [m.from_table for m in moves] == [2, 1, 2, 1]


def test_tables_break_in_a_fixed_order_highest_number_first() -> None:
    tables = {n: _table(n, [0, 1, 2, 3]) for n in (1, 2, 3)}  # 12 players fit at two tables

    moves = plan_moves(list(tables.values()), rng=Random(3))
    apply_moves(tables, moves)

    assert {m.from_table for m in moves} == {3} and {m.reason for m in moves} == {MoveReason.BREAK}
    assert sorted(tables) == [1, 2] and sorted(len(t.seats) for t in tables.values()) == [6, 6]


def test_a_table_in_the_middle_of_a_hand_is_not_broken_or_moved_from_until_it_ends() -> None:
    tables = [_table(1, [0, 1, 2]), _table(2, [0, 1, 2, 3, 4, 5, 6, 7])]

    assert plan_moves(tables, rng=Random(4), idle={1}) == []
    assert {m.from_table for m in plan_moves(tables, rng=Random(4), idle={1, 2})} == {2}


def test_the_final_table_forms_when_everyone_fits_at_one() -> None:
    tables = {1: _table(1, [0, 4, 7]), 2: _table(2, [1, 2]), 3: _table(3, [5, 8, 3, 2])}

    apply_moves(tables, plan_moves(list(tables.values()), rng=Random(5)))

    assert list(tables) == [1] and len(tables[1].seats) == 9


def test_a_table_due_to_break_in_the_middle_of_a_hand_receives_nobody() -> None:
    tables = [_table(1, list(range(7))), _table(2, list(range(7))), _table(3, [0, 1, 2, 3])]

    # 18 players fit at two tables: table 3 breaks after its hand; 7 and 7 are balanced.
    assert plan_moves(tables, rng=Random(6), idle={1, 2}) == []


def test_players_of_a_breaking_table_never_go_to_another_table_due_to_break() -> None:
    tables = {1: _table(1, list(range(7))), 2: _table(2, [0, 1]),
              3: _table(3, [0, 1, 2, 3]), 4: _table(4, [0, 1, 2, 3])}

    # 17 players fit at two tables: 4 breaks now, 3 (in a hand) after it.
    moves = plan_moves(list(tables.values()), rng=Random(7), idle={1, 2, 4})
    apply_moves(tables, moves)

    assert {m.from_table for m in moves} == {4} and {m.to_table for m in moves} == {2}
    assert {n: len(t.seats) for n, t in tables.items()} == {1: 7, 2: 6, 3: 4}
    moves = plan_moves(list(tables.values()), rng=Random(7))
    apply_moves(tables, moves)
    assert sorted(len(t.seats) for t in tables.values()) == [8, 9]
