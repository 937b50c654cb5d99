"""Multi-table tournaments of bots, played to the end on the pure engine with an injected clock."""

from __future__ import annotations

from random import Random

import pytest

from app.tournaments.payouts import paid_places
from app.tournaments.rules import Rules, TournamentKind, TournamentStatus
from app.tournaments.structure import preset
from app.tournaments.tournament import Tournament
from tests.tournaments.simulation import play_to_the_end

START = 1_000_000.0


@pytest.mark.parametrize(("players", "seed"), [(300, 300), (300, 7), (500, 500)])
def test_a_big_tournament_of_bots_runs_to_the_end_with_every_rule_kept(
    players: int, seed: int
) -> None:
    rules = Rules(TournamentKind.MULTI_TABLE, preset("turbo"), table_size=9, buy_in=100,
                  fee=10, entries_per_player=2, starts_at=START)
    t = Tournament(rules)
    rng = Random(seed)
    for n in range(players):
        t.register(f"bot{n:03}", rng=rng)
    t.start(START, rng=rng)
    assert len(t.tables) == -(-players // 9)

    run = play_to_the_end(t, rng, now=START, reenter=12)

    entries = players + 12
    assert t.status is TournamentStatus.FINISHED
    assert run.reentries == 12 and len(t.entries) == entries
    assert run.chip_totals[-1] == 1500 * entries
    assert run.balance_points > 50 and run.widest_gap <= 1
    assert run.moves > 0
    assert (run.hand_for_hand_rounds > 0) == (run.bubble_rounds > 0)
    results = t.results()
    assert sorted(f.player for f in results) == sorted(t.entries)
    assert min(f.place for f in results) == 1 and max(f.place for f in results) <= entries
    assert all(sum(1 for f in results if f.place == p.place) == p.tied for p in results)
    won = t.awards()
    assert sum(won.values()) == t.pool == entries * 100
    assert len(won) == paid_places(entries)


def test_a_sit_and_go_of_bots_ends_with_the_pool_paid_to_the_top_three() -> None:
    rules = Rules(TournamentKind.SIT_AND_GO, preset("turbo"), table_size=9, buy_in=50, fee=5)
    t = Tournament(rules)
    rng = Random(9)
    for n in range(9):
        t.register(f"bot{n}", rng=rng)
    assert t.due(START)
    t.start(START, rng=rng)

    play_to_the_end(t, rng, now=START)

    assert sorted(t.awards().values()) == [90, 135, 225]
