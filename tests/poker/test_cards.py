import pytest

from app.poker.cards import FULL_DECK, Card, Deck, DuplicateCard, InvalidCard, parse_cards


def test_every_card_round_trips_through_text():
    assert [str(Card.parse(str(c))) for c in FULL_DECK] == [str(c) for c in FULL_DECK]
    assert len(set(FULL_DECK)) == 52


@pytest.mark.parametrize("text", ["Ah Kd 7c", "AhKd7c", "ah,KD 7C", ["Ah", "Kd", "7c"]])
def test_card_lists_parse_in_every_spelling(text):
    assert [str(c) for c in parse_cards(text)] == ["Ah", "Kd", "7c"]


def test_ten_may_be_written_10_or_t():
    assert Card.parse("10d") is Card.parse("Td")
    assert parse_cards("10d10h") == parse_cards("TdTh")


@pytest.mark.parametrize("bad", ["1h", "Az", "A", "Ahh", "11c", "", "Kd 9"])
def test_bad_tokens_raise_a_typed_error_naming_the_token(bad):
    with pytest.raises(InvalidCard) as err:
        parse_cards(bad) if " " in bad else Card.parse(bad)
    assert err.value.code == "invalid_card"


def test_duplicates_are_rejected_unless_allowed():
    with pytest.raises(DuplicateCard, match="Ah"):
        parse_cards("Ah Kd Ah")
    assert len(parse_cards("Ah Ah", allow_duplicates=True)) == 2


def test_jokers_parse_and_may_repeat():
    jokers = parse_cards("Xx Xx")
    assert all(c.is_joker for c in jokers) and str(jokers[0]) == "Xx"


def test_default_deck_is_a_shuffled_full_deck_and_stacked_deck_deals_in_order():
    deck = Deck()
    assert sorted(deck.cards) == sorted(FULL_DECK)
    stacked = Deck.stacked("AhKd7c")
    assert [str(c) for c in stacked.deal(2)] == ["Ah", "Kd"] and len(stacked) == 1
