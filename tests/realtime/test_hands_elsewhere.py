"""A draining process waits for the hands its sessions play at tables run elsewhere, and
takes an owner's silence for "ask again", never for "no hand in play"; an owner says a
hand is over only once its end is announced."""

from __future__ import annotations

import asyncio
from typing import Any

from app.realtime import hands_elsewhere
from app.realtime.hands_elsewhere import UNKNOWN, ended, still_waited_for
from app.table.errors import TableMoved
from app.table.store import Movement
from tests.conftest import Accounts
from tests.realtime.harness import LiveServer, is_event, seat_players


class Owners:
    """A host whose one other process answers ``internal:hands-in-play`` from a script:
    each answer in turn a hand id, None (between hands) or an error raised."""

    def __init__(self, *answers: str | Exception | None) -> None:
        self.peers = self
        self.answers = list(answers)
        self.asked = 0

    async def owner(self, table_id: str) -> str:
        return "process-b"

    async def ask(self, owner: str, event: str, payload: dict[str, Any]) -> dict[str, Any]:
        assert (owner, event, payload) == ("process-b", hands_elsewhere.ASK,
                                           {"tables": ["t1"]})
        answer = self.answers[min(self.asked, len(self.answers) - 1)]
        self.asked += 1
        if isinstance(answer, Exception):
            raise answer
        return {"ok": True, "hands": {} if answer is None else {"t1": answer}}


def test_what_is_still_waited_for() -> None:
    waited = {"ended": "h1", "same": "h2", "silent": "h3", "unknown": UNKNOWN,
              "unknown-silent": UNKNOWN, "unknown-idle": UNKNOWN, "next": "h4"}
    now = {"same": "h2", "silent": UNKNOWN, "unknown": "h5", "unknown-silent": UNKNOWN,
           "next": "h9"}
    assert still_waited_for(waited, now) == {
        "same": "h2", "silent": "h3", "unknown": "h5", "unknown-silent": UNKNOWN}


async def test_an_owner_that_cannot_be_asked_is_asked_again_until_its_hand_ends() -> None:
    gone = TableMoved("the server running this table did not answer: try again")
    host: Any = Owners(gone, "h1", gone, "h1", None)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    first = await hands_elsewhere.hands_elsewhere(host, {"t1"}, until=deadline)
    assert first == {"t1": UNKNOWN}
    await ended(host, first, deadline)
    assert host.asked == 5  # returned only once the owner said the table is between hands
    assert loop.time() < deadline


async def test_the_wait_ends_with_the_drain_when_the_owner_never_answers() -> None:
    host: Any = Owners(TableMoved("the server running this table is gone: try again"))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 1
    await ended(host, {"t1": "h1"}, deadline)
    assert host.asked >= 2 and loop.time() >= deadline


async def test_an_owner_says_a_hand_is_over_only_once_its_end_is_announced(
    server: LiveServer, players: Accounts, connect: Any
) -> None:
    table = await seat_players(players, connect, [1000, 1000])
    store = server.realtime.host.services.store
    committing, release = asyncio.Event(), asyncio.Event()
    commit = store.commit

    async def held(table_id: str, movement: Movement, state: dict[str, Any],
                   **fence: Any) -> Any:
        if movement.hand is not None:  # the hand's end: the table reads as between hands
            committing.set()
            await release.wait()
        return await commit(table_id, movement, state, **fence)

    store.commit = held  # type: ignore[method-assign]
    turn = await table.turn()
    folding = asyncio.create_task(table.seats[turn["seat"]].call("table:action", {
        "table_id": table.id, "hand_id": turn["hand_id"], "type": "fold"}))
    try:
        await asyncio.wait_for(committing.wait(), 10)
        live = server.realtime.host.live.get(table.id)
        assert live.state.current is None  # what a bare look at the table would answer
        asking = asyncio.create_task(hands_elsewhere.answer(server.realtime.host.live,
                                                            {"tables": [table.id]}))
        await asyncio.sleep(0.3)
        assert not asking.done(), "answered while the hand's end was not announced yet"
    finally:
        release.set()
    assert await asking == {"ok": True, "hands": {}}
    assert (await folding)["ok"]
    await table.observer.wait_for("table:event", is_event("hand_ended", table.id))
