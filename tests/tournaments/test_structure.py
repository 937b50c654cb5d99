"""Structures: levels with antes, breaks, the clock, late registration and the presets."""

from __future__ import annotations

import pytest

from app.tournaments.structure import (
    PRESETS,
    Break,
    InvalidStructure,
    Level,
    Structure,
    late_registration_open,
    position,
    preset,
    structure_from_dict,
    verify_structure,
)

SHORT = Structure(1000, (Level(10, 20, 10), Break(5), Level(25, 50, 10, ante=50,
                                                                 big_blind_ante=True)),
                  late_levels=1)


def test_the_clock_moves_through_levels_and_breaks() -> None:
    assert (position(SHORT, 0).level_number, position(SHORT, 0).remaining) == (1, 600)
    on_break = position(SHORT, 601)
    assert on_break.on_break and on_break.level.big_blind == 50 and on_break.remaining == 299
    assert position(SHORT, 900).level_number == 2


def test_the_last_level_never_ends() -> None:
    assert position(SHORT, 10**7).remaining is None
    assert position(SHORT, 10**7).level.big_blind == 50


def test_a_big_blind_ante_level_gives_the_engine_a_big_blind_ante() -> None:
    stakes = position(SHORT, 900).level.stakes()
    assert (stakes.ante, stakes.big_blind_ante) == (50, True)


def test_late_registration_closes_when_the_level_after_the_last_late_level_begins() -> None:
    assert late_registration_open(SHORT, 599)
    assert late_registration_open(SHORT, 700)  # the break after the last late level
    assert not late_registration_open(SHORT, 900)


def test_the_presets_are_valid_and_turbo_is_faster_than_regular() -> None:
    assert set(PRESETS) == {"turbo", "regular", "deep", "hyper"}
    for structure in PRESETS.values():
        verify_structure(structure)
    minutes = [preset(name).levels[0].minutes for name in ("hyper", "turbo", "regular", "deep")]
    assert minutes == sorted(set(minutes))
    assert any(level.big_blind_ante for level in preset("turbo").levels)
    assert any(isinstance(p, Break) for p in preset("regular").periods)


def test_a_structure_survives_its_json_form() -> None:
    assert structure_from_dict(SHORT.to_dict()) == SHORT


@pytest.mark.parametrize("bad", [
    {"starting_stack": 0, "periods": [{"kind": "level", "small_blind": 1, "big_blind": 2,
                                       "minutes": 1}]},
    {"starting_stack": 100, "periods": [{"kind": "break", "minutes": 5}]},
    {"starting_stack": 100, "periods": [{"kind": "level", "small_blind": 5, "big_blind": 2,
                                         "minutes": 1}]},
    {"starting_stack": 100, "periods": []},
    {"periods": []},
])
def test_a_structure_that_cannot_be_played_is_refused(bad: dict[str, object]) -> None:
    with pytest.raises(InvalidStructure):
        structure_from_dict(bad)


def test_an_unknown_preset_is_refused() -> None:
    with pytest.raises(InvalidStructure, match="turbo"):
        preset("hyperturbo")
