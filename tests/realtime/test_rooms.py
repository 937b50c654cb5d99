"""The room bookkeeping: a disconnect leaves only the session's own rooms, and the manager
ends up in the state python-socketio's stock manager would be in."""

from __future__ import annotations

from typing import Any

import socketio

from app.realtime.rooms import LocalRooms

NAMESPACES = ("/", "/admin")


async def play(manager: Any) -> dict[str, Any]:
    """Sessions connect, join and leave rooms, wait for answers and go (some while
    still connecting or being disconnected); the manager's state after each step."""
    manager.set_server(socketio.AsyncServer())
    seen: list[Any] = []
    sids = {}
    for n in range(8):
        for namespace in NAMESPACES:
            sids[n, namespace] = await manager.connect(f"eio{n}", namespace)
    for (n, namespace), sid in sids.items():
        for room in (f"table-{n % 3}", "lobby", f"user-{n % 2}"):
            await manager.enter_room(sid, namespace, room)
        if n % 2:
            manager._generate_ack_id(sid, lambda *args: None)
    await manager.leave_room(sids[1, "/"], "/", "lobby")
    await manager.close_room("table-2", "/")
    seen.append(set(manager.get_rooms(sids[3, "/"], "/")))
    manager.pre_disconnect(sids[4, "/"], "/")
    sids[9, "/"] = await manager.pre_connect("eio9", "/")
    for n in (0, 1, 4, 5, 6, 7):
        await manager.disconnect(sids[n, "/"], "/")
        seen.append(state(manager))
    await manager.disconnect(sids[2, "/admin"], "/admin")
    seen.append(set(manager.get_rooms(sids[3, "/admin"], "/admin")))
    seen.append(state(manager))
    # Session ids are random: named by who they are, the two managers' states compare.
    names = {sid: f"s{n}{namespace}" for (n, namespace), sid in sids.items()}
    return {"steps": named(seen, names), "sids": named(sids, names)}


def state(manager: Any) -> Any:
    return ({ns: {room: dict(members) for room, members in rooms.items()}
             for ns, rooms in manager.rooms.items()},
            set(manager.callbacks), manager.pending_connect, manager.pending_disconnect)


def named(value: Any, names: dict[str, str]) -> Any:
    """``value`` with every session id replaced by its name."""
    if isinstance(value, dict):
        return {named(k, names): named(v, names) for k, v in value.items()}
    if isinstance(value, set):
        return {named(v, names) for v in value}
    if isinstance(value, list | tuple):
        return type(value)(named(v, names) for v in value)
    return names.get(value, value) if isinstance(value, str) else value


async def test_a_disconnect_leaves_the_manager_as_python_socketios_own_would() -> None:
    ours, stock = await play(LocalRooms()), await play(socketio.AsyncManager())
    assert ours == stock
    # The bookkeeping was exercised: sessions left, one still connects, rooms remain.
    final = ours["steps"][-1]
    assert final[2] == {"/": ["s9/"]} and "table-0" in final[0]["/"]
    assert "s3/" in final[0]["/"]["lobby"] and "s0/" not in final[0]["/"]["lobby"]


class Unwalkable(dict[Any, Any]):
    """A namespace's rooms that refuse to be looked through one by one."""

    def copy(self) -> Any:
        raise AssertionError("looked through every room")

    items = values = __iter__ = copy


async def test_a_disconnect_looks_only_at_the_sessions_own_rooms() -> None:
    manager = LocalRooms()
    manager.set_server(socketio.AsyncServer())
    sids = [await manager.connect(f"eio{n}", "/") for n in range(3)]
    await manager.enter_room(sids[0], "/", "table-1")
    await manager.enter_room(sids[1], "/", "table-1")
    assert set(manager.get_rooms(sids[0], "/")) == {sids[0], "table-1"}
    manager.rooms["/"] = Unwalkable(manager.rooms["/"])
    await manager.disconnect(sids[0], "/")
    assert manager.get_rooms(sids[0], "/") == [] and sids[0] not in manager.rooms["/"][None]
    assert dict.get(manager.rooms["/"], "table-1") == {sids[1]: "eio1"}
