"""What the host has set survives storage: a restart keeps the pause, the approval queue,
the away deadlines and the host's log."""

from __future__ import annotations

import json

from app.poker.state import Stakes
from app.table.host_desk import HOST_LOG_KEPT, HostDesk, SeatRequest
from app.table.state import Person, TableConfig, TableState


def a_hosted_state() -> TableState:
    host = Person(1, "p-alice", "alice")
    config = TableConfig("club", 6, Stakes(5, 10), 100, 1000, 20.0, private=True,
                         invite_code="abc", host=host)
    state = TableState(config)
    state.desk.paused = True
    state.desk.approval = True
    state.desk.requests.append(SeatRequest(2, "p-bob", "bob", 3, 400, 1795323601.5))
    state.desk.away[4] = 1795323900.0
    state.desk.record({"action": "pause", "reason": "dinner"})
    return state


def test_a_stored_table_keeps_its_pause_queue_away_seats_and_log() -> None:
    stored = json.loads(json.dumps(a_hosted_state().to_dict()))
    desk = TableState.from_dict(stored).desk
    assert desk == a_hosted_state().desk


def test_a_table_stored_before_it_had_a_desk_is_not_paused() -> None:
    stored = a_hosted_state().to_dict()
    del stored["desk"]
    assert TableState.from_dict(stored).desk == HostDesk()


def test_what_everyone_sees_of_a_request_has_no_user_id() -> None:
    public = a_hosted_state().desk.public()
    assert public["requests"] == [{"player": {"public_id": "p-bob", "name": "bob",
                                              "bot": None},
                                   "seat": 3, "buy_in": 400, "at": 1795323601.5}]
    assert "user_id" not in json.dumps(public)


def test_the_host_log_keeps_the_last_fifty_controls() -> None:
    desk = HostDesk()
    for number in range(HOST_LOG_KEPT + 5):
        desk.record({"action": "clock", "n": number})
    assert len(desk.log) == HOST_LOG_KEPT and desk.log[0]["n"] == 5


def test_new_settings_replace_the_stored_config() -> None:
    state = a_hosted_state()
    before = state.config_dict
    state.reconfigure(TableConfig("club", 6, Stakes(10, 20), 100, 1000, 15.0, private=True,
                                  invite_code="abc", host=state.config.host))
    assert before["stakes"]["big_blind"] == 10
    assert state.to_dict()["config"]["stakes"]["big_blind"] == 20
    assert TableState.from_dict(state.to_dict()).config.action_seconds == 15.0
