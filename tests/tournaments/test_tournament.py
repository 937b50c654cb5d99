"""One tournament's rules: registration, the start, busts, hand-for-hand, results, restarts."""

from __future__ import annotations

from random import Random

import pytest

from app.tournaments.errors import (
    AlreadyRegistered,
    NotRegistered,
    ReentryNotAllowed,
    RegistrationClosed,
    TournamentFull,
    WrongTournamentState,
)
from app.tournaments.rules import Rules, TournamentKind, TournamentStatus
from app.tournaments.structure import Break, Level, Structure
from app.tournaments.tournament import Tournament

START = 5_000.0
STRUCTURE = Structure(100, (Level(5, 10, 10), Level(10, 20, 10), Level(20, 40, 10)),
                      late_levels=1)


def _mtt(*, table_size: int = 3, entries_per_player: int = 1) -> Tournament:
    return Tournament(Rules(TournamentKind.MULTI_TABLE, STRUCTURE, table_size=table_size,
                            buy_in=10, fee=1, entries_per_player=entries_per_player,
                            starts_at=START))


def _started(players: int, **kwargs: int) -> Tournament:
    t = _mtt(**kwargs)
    rng = Random(players)
    for n in range(players):
        t.register(f"p{n:02}", rng=rng)
    t.start(START, rng=rng)
    return t


def _hand(t: Tournament, table: int, out: dict[int, int] | None = None) -> list[str]:
    """Deal a hand at ``table`` in which the seats in ``out`` lose everything to another seat."""
    t.hand_started(table)
    stacks = t.stacks(table)
    losers = out or {}
    winner = next(s for s in stacks if s not in losers)
    new = {s: 0 if s in losers else c for s, c in stacks.items()}
    new[winner] += sum(stacks[s] for s in losers)
    return list(t.hand_finished(table, new, button=winner, rng=Random(table)).busted)


def _bust_one(t: Tournament) -> None:
    table = max(t.tables.values(), key=lambda s: len(s.seats))
    _hand(t, table.number, {min(table.seats): 0})


def test_a_sit_and_go_starts_when_full_and_not_before() -> None:
    t = Tournament(Rules(TournamentKind.SIT_AND_GO, STRUCTURE, table_size=3, buy_in=10))
    rng = Random(1)
    t.register("a", rng=rng)
    t.register("b", rng=rng)
    assert not t.due(START)
    t.register("c", rng=rng)
    assert t.due(START)
    with pytest.raises(TournamentFull):
        t.register("d", rng=rng)
    t.start(START, rng=rng)
    assert list(t.tables) == [1] and len(t.tables[1].seats) == 3


def test_a_player_registers_once_and_may_unregister_before_the_start() -> None:
    t = _mtt()
    rng = Random(2)
    t.register("a", rng=rng)
    with pytest.raises(AlreadyRegistered):
        t.register("a", rng=rng)
    assert t.unregister("a").player == "a" and not t.entries
    with pytest.raises(NotRegistered):
        t.unregister("a")


def test_cancelling_before_the_start_returns_every_entry_for_a_refund() -> None:
    t = _mtt()
    for name in "abc":
        t.register(name, rng=Random(3))

    refunds = t.cancel()

    assert sorted(e.player for e in refunds) == ["a", "b", "c"]
    assert t.status is TournamentStatus.CANCELLED
    with pytest.raises(RegistrationClosed):
        t.register("d", rng=Random(3))


def test_the_start_seats_everyone_at_tables_that_differ_by_at_most_one() -> None:
    t = _started(10)
    assert sorted(len(s.seats) for s in t.tables.values()) == [2, 2, 3, 3]
    for table in t.tables.values():
        for seat, entry in table.seats.items():
            assert (t.entries[entry].table, t.entries[entry].seat) == (table.number, seat)


def test_late_registration_seats_a_player_until_its_levels_are_over() -> None:
    t = _started(5)
    t.tick(START + 599)
    late = t.register("late", rng=Random(4))
    assert late.table in t.tables and t.tables[late.table].seats[late.seat or 0] == late.id
    t.tick(START + 600)
    with pytest.raises(RegistrationClosed):
        t.register("later", rng=Random(4))
    assert len(t.entries) == 6 and t.pool == 60


def test_reentry_is_allowed_only_after_a_bust_and_within_the_limit() -> None:
    t = _started(6, entries_per_player=2)
    entry = next(e for e in t.entries.values())
    with pytest.raises(AlreadyRegistered):
        t.register(entry.player, rng=Random(5))
    assert entry.table is not None and entry.seat is not None
    _hand(t, entry.table, {entry.seat: 0})
    again = t.register(entry.player, rng=Random(5))
    assert again.number == 2 and again.chips == 100
    _hand(t, again.table or 0, {again.seat or 0: 0})
    with pytest.raises(ReentryNotAllowed):
        t.register(entry.player, rng=Random(5))


def test_a_sit_and_go_takes_no_late_entries() -> None:
    t = Tournament(Rules(TournamentKind.SIT_AND_GO, STRUCTURE, table_size=2, buy_in=10))
    t.register("a", rng=Random(6))
    t.register("b", rng=Random(6))
    t.start(START, rng=Random(6))
    with pytest.raises(RegistrationClosed):
        t.register("c", rng=Random(6))


def test_players_out_in_the_same_hand_are_ranked_by_their_starting_stacks() -> None:
    t = _started(3, table_size=3)
    stacks = t.stacks(1)
    small, big, winner = sorted(stacks)
    seats = {e: seat for seat, e in t.tables[1].seats.items()}
    t.hand_started(1)
    t.hand_finished(1, {small: 50, big: 150, winner: 100}, button=winner, rng=Random(7))
    t.hand_started(1)
    t.hand_finished(1, {small: 0, big: 0, winner: 300}, button=small, rng=Random(7))

    places = {seats[f.player]: f.place for f in t.results()}
    assert t.status is TournamentStatus.FINISHED
    assert places == {winner: 1, big: 2, small: 3}


def test_players_out_with_equal_starting_stacks_tie_and_share_the_prizes() -> None:
    t = _started(3, table_size=3)
    a, b, c = sorted(t.stacks(1))
    seats = {e: seat for seat, e in t.tables[1].seats.items()}
    _hand(t, 1, {a: 0, b: 0})

    results = {seats[f.player]: (f.place, f.tied) for f in t.results()}
    assert results == {c: (1, 1), a: (2, 2), b: (2, 2)}
    assert sorted(t.awards().values()) == [30]  # three entrants: winner takes all


def test_hand_for_hand_on_the_bubble_holds_finished_tables_and_ranks_busts_together() -> None:
    t = _started(12)  # four places paid: the bubble is five players left
    while t.players_left > 5:
        _bust_one(t)
    assert t.hand_for_hand and len(t.tables) == 2
    first, second = sorted(t.tables)
    t.hand_started(first)
    t.hand_started(second)
    short = min(t.tables[first].seats, key=lambda seat: t.stacks(first)[seat])
    tall = max(t.tables[second].seats, key=lambda seat: t.stacks(second)[seat])
    short_id, tall_id = t.tables[first].seats[short], t.tables[second].seats[tall]
    assert t.entries[short_id].chips < t.entries[tall_id].chips

    assert _hand_end(t, first, short) == [short_id]
    assert not t.can_deal(first) and t.hand_for_hand  # waits for the other table's hand
    assert _hand_end(t, second, tall) == [tall_id]
    t.tick(START + 600)  # late registration closes: places count from a final field

    assert not t.hand_for_hand and len(t.tables) == 1
    places = {f.player: f.place for f in t.results()}
    assert (places[tall_id], places[short_id]) == (4, 5)


def _hand_end(t: Tournament, table: int, loser: int) -> list[str]:
    stacks = t.stacks(table)
    winner = next(s for s in stacks if s != loser)
    new = {**stacks, loser: 0, winner: stacks[winner] + stacks[loser]}
    return list(t.hand_finished(table, new, button=winner, rng=Random(8)).busted)


def test_a_hand_that_creates_chips_is_refused_and_changes_nothing() -> None:
    t = _started(3, table_size=3)
    t.hand_started(1)
    before = t.to_dict()
    with pytest.raises(WrongTournamentState):
        t.hand_finished(1, {s: c + 1 for s, c in t.stacks(1).items()}, button=0, rng=Random(9))
    assert t.to_dict() == before


def test_no_hands_are_dealt_during_a_break() -> None:
    t = Tournament(Rules(TournamentKind.SIT_AND_GO, Structure(
        100, (Level(5, 10, 1), Break(5), Level(10, 20, 1))), table_size=2, buy_in=0))
    for name in "ab":
        t.register(name, rng=Random(1))
    t.start(START, rng=Random(1))
    assert t.can_deal(1)
    t.tick(START + 90)
    assert not t.can_deal(1)
    t.tick(START + 60 + 300)
    assert t.can_deal(1) and t.clock().level.big_blind == 20


def test_a_bust_during_late_registration_has_no_place_until_the_field_is_final() -> None:
    t = _started(5)
    t.tick(START + 300)
    table = max(t.tables.values(), key=lambda s: len(s.seats))
    (out,) = _hand(t, table.number, {min(table.seats): 0})
    assert t.results() == []  # a late entry would still finish behind it

    t.register("late", rng=Random(4))
    t.tick(START + 600)

    assert {f.player: f.place for f in t.results()} == {out: 6}


def test_a_table_needed_again_after_one_broke_is_a_new_table() -> None:
    t = _started(4)  # two tables of two
    _bust_one(t)  # three left fit at one table: table 2 breaks
    assert list(t.tables) == [1] and len(t.tables[1].seats) == 3

    late = t.register("late", rng=Random(4))

    assert late.table == 3 and set(t.tables) == {1, 3}
    assert Tournament.from_dict(t.to_dict()).opened == 3


def test_a_tournament_resumes_from_its_json_form_with_levels_and_standings() -> None:
    t = _started(12)
    t.tick(START + 700)
    _bust_one(t)

    again = Tournament.from_dict(t.to_dict())

    assert again.to_dict() == t.to_dict()
    assert again.clock().level_number == 2 and again.results() == t.results()
    again.tick(10**9)  # the first tick after a restart only sets the clock's origin
    assert again.clock().level_number == 2


def test_the_final_few_may_split_the_prizes_left_by_icm() -> None:
    t = _started(12)
    while t.players_left > 3:
        _bust_one(t)

    offer = t.accept_deal()

    assert t.status is TournamentStatus.FINISHED
    won = t.awards()
    assert sum(won.values()) == t.pool and all(won[e] == amount for e, amount in offer.items())
