"""Exports read from the database: a tournament hand carries its tournament, its level and
the reader's place and prize; a hand of a game the formats cannot write yet is refused."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from random import Random

from app.db.engine import Database
from app.db.models import User
from app.db.tables import HandPlayer, HandRecord, TableRecord
from app.db.tournaments import (
    EntryStatus,
    TournamentEntryRecord,
    TournamentKind,
    TournamentRecord,
    TournamentStatus,
)
from app.hands.exports import Archive, ExportFormat, export_hands, hand_text
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.hand_export import hand_number
from app.poker.phh import to_phh
from app.poker.state import Game, Stakes
from app.tournaments.structure import preset
from tests.poker.stacked_decks import stacked_deck

STARTED = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)


def _busting_hand(stakes: Stakes) -> Hand:
    """Seat 1 (2h7d, 300 chips) calls seat 0's all-in and is knocked out."""
    hand, _ = Hand.start({0: 900, 1: 300}, button=0, stakes=stakes,
                         deck=stacked_deck(["2h7d", "AsAc"], "Kd Qd 9s 4h 3c"))
    hand.all_in(0)
    hand.call(1)
    return hand


async def _stored(database: Database, hand: Hand) -> tuple[HandRecord, HandPlayer]:
    structure = preset("turbo")
    async with database.sessions() as session:
        users = [User(email=f"p{i}@example.com", display_name=f"player {i}", password_hash="x")
                 for i in range(2)]
        session.add_all(users)
        await session.flush()
        session.add(TournamentRecord(
            id="7" * 32, name="Sunday Turbo", kind=TournamentKind.SIT_AND_GO,
            status=TournamentStatus.FINISHED, buy_in=100, fee=10,
            state={"rules": {"structure": structure.to_dict()}}))
        session.add(TableRecord(id="a" * 32, name="Sunday Turbo 1", private=False,
                                config={"seats": 6}, state={}, tournament_id="7" * 32))
        await session.flush()
        for place, user in ((2, users[1]), (1, users[0])):
            session.add(TournamentEntryRecord(
                tournament_id="7" * 32, entry=f"e{place}", user_id=user.id, name="x",
                buy_in=100, fee=10, status=EntryStatus.FINISHED, place=place,
                prize=60 if place == 2 else 160, created_at=STARTED - timedelta(hours=1)))
        record = HandRecord(id="b" * 32, table_id="a" * 32, number=12, pot=600,
                            phh=to_phh(hand, players=["player 1", "player 0"]),
                            summary={"stakes": hand.stakes.to_dict()}, started_at=STARTED,
                            ended_at=STARTED + timedelta(minutes=1))
        session.add(record)
        await session.flush()
        player = HandPlayer(hand_id="b" * 32, user_id=users[1].id, seat=1, net=-300,
                            ended_at=STARTED + timedelta(minutes=1))
        session.add(player)
        await session.commit()
        return record, player


async def test_a_tournament_hand_names_its_tournament_level_and_the_readers_place(
    database: Database
) -> None:
    level = preset("turbo").periods[2]
    hand = _busting_hand(level.stakes())  # type: ignore[union-attr]
    record, player = await _stored(database, hand)
    async with database.sessions() as session:
        text = await hand_text(session, record, player, ExportFormat.POKERSTARS)
        ohh = await hand_text(session, record, player, ExportFormat.OHH)
    first = text.splitlines()[0]
    assert first.startswith(f"PokerStars Hand #{hand_number('b' * 32)}: Tournament "
                            f"#{hand_number('7' * 32)}, 100+10 Hold'em No Limit - Level III "
                            f"({level.small_blind}/{level.big_blind}) - 2026/11/01 20:00:00 UTC")
    assert "Table 'Sunday Turbo 1' 6-max Seat #1 is the button" in text
    assert "player 1 finished the tournament in 2nd place and received 60." in text
    assert '"tournament_info":{"tournament_number":"' in ohh and '"type":"STT"' in ohh


async def test_a_pot_limit_omaha_hand_is_written_as_pokerstars_names_the_game(
    database: Database
) -> None:
    hand, _ = Hand.start({0: 900, 1: 300}, button=0, stakes=Stakes(5, 10), game=Game.PLO,
                         deck=Deck(rng=Random(3)))
    hand.fold(0)
    record, player = await _stored(database, hand)
    async with database.sessions() as session:
        text = await hand_text(session, record, player, ExportFormat.POKERSTARS)
    assert text.startswith(f"PokerStars Hand #{hand_number(record.id)}: ")
    assert " Omaha Pot Limit (5/10) - " in text.splitlines()[0]


async def test_a_date_range_writes_the_hands_of_every_game_in_both_formats(
    database: Database
) -> None:
    hand, _ = Hand.start({0: 900, 1: 300}, button=0, stakes=Stakes(5, 10), game=Game.PLO,
                         deck=Deck(rng=Random(3)))
    hand.fold(0)
    _, player = await _stored(database, hand)
    window = {"since": STARTED - timedelta(days=1), "until": STARTED + timedelta(days=1)}
    async with database.sessions() as session:
        text = await export_hands(session, player.user_id, fmt=ExportFormat.POKERSTARS,
                                  archive=Archive.TEXT, **window)
        ohh = await export_hands(session, player.user_id, fmt=ExportFormat.OHH,
                                 archive=Archive.TEXT, **window)
    assert (text.left_out, text.hands, text.filename) == (0, 1, "hands-20261031-20261102.txt")
    assert b" Omaha Pot Limit (5/10) - " in text.content
    assert ohh.left_out == 0 and b'"game_type":"Omaha"' in ohh.content
