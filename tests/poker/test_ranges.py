"""Range shorthand: every form, its combo counts, and refusals."""

from __future__ import annotations

import pytest

from app.poker.ranges import InvalidRange, format_range, is_range, parse_range


@pytest.mark.parametrize(("text", "count"), [
    ("AA", 6), ("QQ+", 18), ("22+", 78), ("22-55", 24), ("55-22", 24), ("AKs", 4),
    ("AKo", 12), ("AK", 16), ("A2s+", 48), ("KTo+", 36), ("A2s-A5s", 16), ("AhKh", 1),
    ("QQ+,AKs", 22), ("22+,A2s+", 126), ("AKs,AhKh", 4), ("qq+, aks", 22), ("KAs", 4),
])
def test_each_form_names_its_combos(text: str, count: int) -> None:
    combos = parse_range(text)
    assert len(combos) == count
    assert len({frozenset(c) for c in combos}) == count
    assert all(a != b for a, b in combos)


def test_plus_climbs_the_lower_card_to_one_below_the_higher() -> None:
    assert {f"{a}{b}"[0:1] + f"{a}{b}"[2:3] for a, b in parse_range("KTo+")} == {
        "KT", "KJ", "KQ"}
    suited = parse_range("A2s+")
    assert all(a.suit == b.suit and a.rank_char == "A" for a, b in suited)


def test_combos_print_as_cards() -> None:
    assert format_range(parse_range("AhKh")) == "AhKh"
    assert format_range(parse_range("JJ")).count(",") == 5


@pytest.mark.parametrize("text", ["", "QQs", "AKx", "A", "22-AKs", "AKs-QJs", "AhAh",
                                  "x" * 401])
def test_what_is_not_a_range_is_refused(text: str) -> None:
    with pytest.raises(InvalidRange):
        parse_range(text)


def test_exact_cards_and_random_hands_are_not_ranges() -> None:
    assert not is_range("AhKh") and not is_range("??")
    assert is_range("AKs") and is_range("QQ+,AKs")
