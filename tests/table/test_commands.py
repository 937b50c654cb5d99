"""Requests are data: every command record pickles and encodes to JSON as it is (a
forwarded request can be the same record), and a table answers every one of them."""

from __future__ import annotations

import dataclasses
import pickle
import typing

import orjson
import pytest

from app.config import Settings
from app.db.engine import Database
from app.db.models import Role
from app.poker.events import ActionKind
from app.poker.preactions import Intent
from app.table import commands as c
from app.table.state import Viewer
from tests.table.live import config, live_table

VIEWER = Viewer(7, "public-7", "Seven", Role.PLAYER)
EXAMPLES: list[c.Command] = [
    c.Join("sid", VIEWER, "invite", 12), c.Join("sid", None), c.Unwatch("sid"),
    c.Disconnected("sid", 7), c.Sit("sid", VIEWER, 2, 100, None), c.Leave(VIEWER),
    c.SitOut(VIEWER), c.SitIn(VIEWER), c.Wait(VIEWER), c.Unwait(VIEWER),
    c.TopUp(VIEWER, 50), c.Preferences(VIEWER, {"auto_muck": True}), c.Seed(VIEWER, "s33d"),
    c.Chat(VIEWER, "hello"), c.Report(VIEWER, "public-8"),
    c.Act(VIEWER, "hand", ActionKind.RAISE, 10), c.Preact(VIEWER, "hand", Intent.CALL_ANY),
    c.RunItTwice(VIEWER, "hand", True),
    c.HostControl(VIEWER, "clock", "faster", {"action_seconds": 15.0}),
    c.TakeAssignedSeats(), c.RemoveUser(7, at_once=False), c.Close("night"),
    c.CloseUnused("idle"), c.HandOver("process-2"),
]


def test_the_examples_cover_every_command() -> None:
    assert {type(example) for example in EXAMPLES} == set(typing.get_args(c.Command))


@pytest.mark.parametrize("command", EXAMPLES, ids=lambda command: type(command).__name__)
def test_a_command_is_plain_frozen_data(command: c.Command) -> None:
    assert pickle.loads(pickle.dumps(command)) == command
    encoded = orjson.loads(orjson.dumps(command))
    assert set(encoded) == {f.name for f in dataclasses.fields(command)}
    for name in encoded:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(command, name, None)


async def test_a_table_dispatches_every_command(
    database: Database, table_settings: Settings,
) -> None:
    async with live_table(database, table_settings, config()) as live:
        handled = set(live.table._handlers)  # the dispatch itself
        assert handled == set(typing.get_args(c.Command))
