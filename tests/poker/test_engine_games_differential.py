"""Every game against pokerkit: seeded random hands played in lockstep (tests/poker/game_oracle.py).

At every decision both engines must agree whether the actor may bet or raise, from
how much to how much, and on each probed amount; every finished hand must settle to
pokerkit's stacks. Disagreements are allowed only where our rules differ on purpose
(app.poker.limits); for those hands the test checks that the difference is the
documented one. bench/engine_games.py runs the same check on thousands of hands.
"""

from collections import Counter
from random import Random

import pytest

from app.poker.state import Game
from tests.poker.game_oracle import (
    BLIND_IS_THE_BET,
    HALF_BET_REOPENS,
    HEADS_UP_UNCAPPED,
    ODD_CHIPS,
    POTS_REFORMED,
    SHORT_FIRST_RAISE,
    play,
    random_setup,
)

HANDS = 60
ALLOWED = {
    Game.NLHE: {SHORT_FIRST_RAISE, ODD_CHIPS, POTS_REFORMED},
    Game.FLHE: {SHORT_FIRST_RAISE, ODD_CHIPS, POTS_REFORMED, BLIND_IS_THE_BET,
                HEADS_UP_UNCAPPED, HALF_BET_REOPENS},
    Game.PLHE: {SHORT_FIRST_RAISE, ODD_CHIPS, POTS_REFORMED},
    Game.PLO: {SHORT_FIRST_RAISE, ODD_CHIPS, POTS_REFORMED},
    Game.PLO5: {SHORT_FIRST_RAISE, ODD_CHIPS, POTS_REFORMED},
}


@pytest.mark.parametrize("game", list(Game))
def test_random_hands_of_every_game_agree_with_pokerkit(game):
    rng = Random(f"games-{game.value}")
    decisions = 0
    for _ in range(HANDS):
        _, verdict = play(random_setup(rng, game), rng)
        assert verdict.differences <= ALLOWED[game]
        decisions += verdict.decisions
    assert decisions > HANDS  # pokerkit was asked at (nearly) every turn


def test_the_limit_differences_from_pokerkit_do_occur():
    rng = Random("limit-differences")
    seen: Counter[str] = Counter()
    for _ in range(150):
        _, verdict = play(random_setup(rng, Game.FLHE), rng)
        seen.update(verdict.differences)
    assert seen[BLIND_IS_THE_BET] and seen[HEADS_UP_UNCAPPED]
