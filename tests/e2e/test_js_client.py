"""The official JavaScript client (socket.io-client 4, run by node) plays a hand."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Accounts
from tests.realtime.harness import Client, LiveServer, PlayingTable

ROOT = Path(__file__).resolve().parents[2]
JS_DIR = ROOT / "tests" / "js"
# The copy `make test` (npm ci, from package-lock.json) installs for the browser client:
# node finds it from tests/js by walking up, so the test needs no network of its own.
CLIENT_PACKAGE = ROOT / "node_modules" / "socket.io-client" / "package.json"


@pytest.fixture(scope="session")
def node() -> str:
    """The node binary; socket.io-client must already be in the project's node_modules."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is needed to run the JavaScript client test")
    if not CLIENT_PACKAGE.exists():
        pytest.skip(f"socket.io-client is not installed: {CLIENT_PACKAGE.parent} is missing "
                    "(`make test` installs it with npm ci)")
    version = json.loads(CLIENT_PACKAGE.read_text())["version"]
    assert version.startswith("4."), version
    return node


async def test_the_javascript_client_connects_sits_acts_and_receives_events(
    node: str, server: LiveServer, players: Accounts, connect: Any
) -> None:
    server.decks.stack_seats({0: "AsAh", 1: "KsKh"}, "2c3d4h9s8c")
    python_player = await players.player(verified=False)
    js_player = await players.player(verified=False)
    python_side: Client = await connect(python_player)
    created = await python_side.ok("table:create", {"name": "js", "small_blind": 5,
                                                    "big_blind": 10})
    table_id = created["table"]["table_id"]
    assert js_player.token
    process = await asyncio.create_subprocess_exec(
        node, str(JS_DIR / "play.mjs"), server.url, js_player.token, table_id, "1", "800",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert process.stdout is not None
    try:
        seated = json.loads(await asyncio.wait_for(process.stdout.readline(), 20))
        assert seated == {"seated": 1}
        await python_side.ok("table:sit", {"table_id": table_id, "seat": 0, "buy_in": 1000})
        table = PlayingTable(table_id, {0: python_side}, {0: python_player})
        await table.act("call", seat=0)
        await table.turn()  # the JavaScript client checks as the big blind
        for _ in range(3):
            await table.turn()  # it checks first on each street...
            await table.act("check", seat=0)  # ...and so does the Python side
        out, err = await asyncio.wait_for(process.communicate(), 20)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert process.returncode == 0, err.decode()
    seen = json.loads(out.decode().strip().splitlines()[-1])
    assert seen["connected"] and seen["errors"] == []
    assert seen["hole"] == ["Ks", "Kh"]
    assert seen["acted"] == ["check"] * 4 and seen["turns"] == 4
    assert seen["ended"] == {"0": 1010, "1": 790}
    assert seen["seqs"] == sorted(seen["seqs"])
    assert {"hand_started", "board_dealt", "hand_shown", "pot_awarded"} <= set(seen["events"])
