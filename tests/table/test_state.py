"""Table state as data: JSON round trips, escrow accounting, replay windows, hidden cards."""

from __future__ import annotations

import tracemalloc
from random import Random
from typing import Any

from app.poker.blinds import PlayerStatus
from app.poker.bots import BotStyle
from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.phh import phh_for_viewer, to_phh
from app.poker.preactions import Intent, PreAction
from app.poker.state import Phase, Stakes
from app.poker.tendencies import Tendencies
from app.table import broadcast
from app.table.broadcast import REPLAY_KEPT, Broadcaster
from app.table.chat import clean_text
from app.table.state import (
    CHAT_KEPT,
    HandInPlay,
    Person,
    Player,
    SeatOffer,
    Successor,
    TableConfig,
    TableState,
    TimeBank,
)


def a_state() -> TableState:
    config = TableConfig("t", 6, Stakes(5, 10, 1), 100, 1000, 20.0, private=True,
                         invite_code="abc", bots=True, bot_count=2, bot_style=BotStyle.LOOSE,
                         host=Person(1, "p1", "ann"),
                         time_bank=TimeBank(30.0, add_seconds=5.0, every_hands=10,
                                            max_seconds=60.0))
    state = TableState(config)
    ann, bob = Person(1, "p1", "ann"), Person(2, "p2", "bob")
    state.players[0] = Player(0, ann, 500, PlayerStatus.PLAYING, time_bank=12.5, bank_hands=3)
    state.players[3] = Player(3, Person(None, "bot-1", "Ada (bot)"), 1000, bot=BotStyle.TIGHT,
                              successor=Successor(bob, 300))
    state.players[4] = Player(4, Person(3, "p3", "cy"), 200, PlayerStatus.SITTING_OUT,
                              sat_out_at=1.5, leaving=True, paid_out=50)
    hand, _ = Hand.start({0: 500, 3: 1000}, button=0, stakes=config.stakes,
                         deck=Deck(rng=Random(3)))
    state.current = HandInPlay("h" * 32, 7, hand, 100.0,
                               preactions={3: PreAction(Intent.CALL_ANY, 5, Phase.PREFLOP)})
    state.waiting = [Person(5, "p5", "dee")]
    state.offer = SeatOffer(Person(5, "p5", "dee"), 1, 200.0)
    state.chat = [{"player": ann.public(), "text": "hi", "at": 3.0}]
    state.recent = [(10.0, 40)]
    return state


def test_table_state_survives_a_json_round_trip() -> None:
    state = a_state()
    again = TableState.from_dict(state.to_dict())
    assert again.to_dict() == state.to_dict()
    assert again.current is not None and again.current.hand.to_dict() == (
        state.current.hand.to_dict() if state.current else None)


def test_a_table_stored_before_refilling_banks_and_pre_actions_loads_without_them() -> None:
    stored = a_state().to_dict()
    del stored["config"]["time_bank"]
    del stored["players"][0]["bank_hands"]
    del stored["current"]["preactions"]
    again = TableState.from_dict(stored)
    assert again.config.time_bank == TimeBank(30.0, max_seconds=30.0)
    assert again.config.time_bank.dealt_in(12.5, 0) == (12.5, 0)
    assert again.players[0].bank_hands == 0 and again.players[0].time_bank == 12.5
    assert again.current is not None and again.current.preactions == {}


def test_everyone_sees_who_hosts_a_table_and_an_older_table_has_no_host() -> None:
    config = a_state().config
    assert config.public()["host"] == {"public_id": "p1", "name": "ann", "bot": None}
    stored = config.to_dict()
    del stored["host"]
    assert TableConfig.from_dict(stored).public()["host"] is None


def test_escrow_counts_people_claims_and_the_house_chips_of_bots() -> None:
    state = a_state()
    assert state.escrowed() == 500 + (1000 + 300) + (200 - 50)
    assert state.player_of(2) is None and state.claim_of(2) is state.players[3]
    assert state.has_seat(2) and not state.has_seat(9)
    assert state.free_seats() == [2, 5]
    assert state.bot_seats() == []


def test_chat_keeps_the_last_fifty_lines() -> None:
    state = a_state()
    for n in range(CHAT_KEPT + 10):
        state.add_chat({"text": str(n)})
    assert len(state.chat) == CHAT_KEPT and state.chat[-1]["text"] == str(CHAT_KEPT + 9)


def test_lobby_figures_cover_the_last_hour() -> None:
    state = a_state()
    state.note_hand(4000.0, 100)
    assert state.hands_per_hour(4000.0) == 1
    assert state.average_pot(4000.0) == 100


def test_chat_text_loses_control_characters() -> None:
    assert clean_text("  hi\x00 there\u202e ") == "hi there"


class _FakeServer:
    """An audience that records what it is given to send."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any], dict[str, Any]]] = []

    async def send(self, name: str, body: dict[str, Any], sids: list[str]) -> None:
        self.sent.append((name, body, {"to": sids}))

    async def send_to_user(self, user_id: int, name: str, body: dict[str, Any]) -> None:
        self.sent.append((name, body, {"user": user_id}))

    def is_connected(self, user_id: int) -> bool:
        return False


async def test_private_messages_go_to_the_owner_and_masked_to_everyone_else() -> None:
    counter = iter(range(1, 100))
    server = _FakeServer()
    watchers: dict[str, int | None] = {"owner-tab": 7, "other": 8, "anonymous": None}
    out = Broadcaster(server, "t1", watchers=watchers,
                      next_seq=lambda: next(counter))
    out.send("table:event", {"event": {"cards": None}}, owner=7,
             private={"event": {"cards": ["As", "Kd"]}})
    out.send("table:event", {"event": {"type": "chat"}})
    out.seal()
    await out.flush()
    (name, mine, to_owner), (_, theirs, to_others) = server.sent
    assert name == "table:batch" and to_owner == {"to": ["owner-tab"]}
    assert to_others == {"to": ["other", "anonymous"]}  # one packet for both
    full, public = (m["data"] for m in mine["messages"])
    masked, same_public = (m["data"] for m in theirs["messages"])
    assert masked == {"table_id": "t1", "seq": 1, "event": {"cards": None}}
    assert full["seq"] == 1 and full["event"]["cards"] == ["As", "Kd"]
    assert public == same_public and public["seq"] == 2
    assert out.missed(0, 7) == [("table:event", full), ("table:event", public)]
    assert out.missed(0, 8) == [("table:event", masked), ("table:event", public)]
    assert out.missed(2, None) == []
    assert out.missed(3, None) is None


async def test_nothing_unsealed_is_sent_and_a_rollback_forgets_it() -> None:
    counter = iter(range(1, 100))
    server = _FakeServer()
    out = Broadcaster(server, "t1", watchers={"a": 1},
                      next_seq=lambda: next(counter))
    out.send("table:event", {"event": {"type": "chat"}})
    out.seal()
    out.send("table:event", {"event": {"type": "player_left"}})
    out.rollback(1)
    await out.flush()
    assert [body["seq"] for _, body, _ in server.sent] == [1]
    assert [s for s, _ in ((m[1]["seq"], 0) for m in out.missed(0, 1) or [])] == [1]


def test_a_player_reads_a_hand_history_without_other_unshown_cards() -> None:
    deck = Deck.stacked("AsAh KsKh 2c 3d 4h 5s 6d 7c 8h 9s Tc".replace(" ", ""))
    hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(5, 10), deck=deck)
    hand.act(0, "fold")
    text = to_phh(hand)
    mine, theirs = phh_for_viewer(text, 1), phh_for_viewer(text, 2)
    assert '"d dh p1 AsKs"' in mine and '"d dh p2 ????"' in mine
    assert '"d dh p2 AhKh"' in theirs and '"d dh p1 ????"' in theirs
    assert phh_for_viewer(text, None) == text


async def test_a_full_replay_buffer_holds_each_message_in_about_its_own_size() -> None:
    counter = iter(range(1, 10_000))
    server = _FakeServer()
    out = Broadcaster(server, "t1", watchers={"a": 1},
                      next_seq=lambda: next(counter))
    tracemalloc.start()
    try:
        for _ in range(2 * REPLAY_KEPT):
            out.send("table:event", {"event": {"type": "player_acted", "seat": 3}},
                     owner=1, private={"event": {"type": "player_acted", "cards": ["As"]}})
            out.seal()
            await out.flush()
            server.sent.clear()
        kept = sum(stat.size for stat in tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(True, broadcast.__file__)]).statistics("filename"))
    finally:
        tracemalloc.stop()
    # Each kept message is two forms of under 100 bytes of JSON with its seq, name and
    # owners: about 450 bytes (a set of owners made it 660; orjson's bytes would hold
    # 4 KiB a form, over 1 MiB here).
    assert kept < REPLAY_KEPT * 500
    assert out.missed(2 * REPLAY_KEPT - 1, 1) == [("table:event", {
        "table_id": "t1", "seq": 2 * REPLAY_KEPT,
        "event": {"type": "player_acted", "cards": ["As"]}})]


def test_the_counts_the_bots_read_survive_a_round_trip_and_default_to_none() -> None:
    state = a_state()
    state.reads = {"p1": Tendencies(hands=3, voluntary=3, raised=2, shoved=2, shown=(0, 168))}
    again = TableState.from_dict(state.to_dict())
    assert again.reads == state.reads
    stored = state.to_dict()
    del stored["reads"]  # a state stored before the counts existed
    assert TableState.from_dict(stored).reads == {}


def test_a_finished_hand_is_counted_for_the_players_seated_and_read_by_seat() -> None:
    state = a_state()
    state.reads = {"gone": Tendencies(hands=9)}  # somebody who left the table
    hand, _ = Hand.start({0: 500, 3: 1000}, button=0, stakes=Stakes(5, 10),
                         deck=Deck(rng=Random(3)))
    hand.all_in(0)
    hand.fold(3)
    state.count_hand(hand)
    assert set(state.reads) == {"p1", "bot-1"}
    assert state.reads["p1"] == Tendencies(hands=1, voluntary=1, raised=1, shoved=1)
    assert state.reads_by_seat() == {0: state.reads["p1"], 3: Tendencies(hands=1)}
