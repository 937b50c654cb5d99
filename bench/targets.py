"""The servers bench/load.py can drive: how to start each, seat players and answer turns."""

from __future__ import annotations

import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
SEATS = 6


@dataclass(frozen=True)
class PlayerSeat:
    """Where one generated player sits and how it authenticates."""

    table_id: str
    table_index: int
    seat: int
    order: int
    auth: dict[str, Any] | None
    user_id: str = ""


class Target:
    """A server under load. Subclasses say how to start it and speak its table protocol."""

    name: ClassVar[str] = ""
    path: ClassVar[str] = "/socket.io/"
    turn_event: ClassVar[str] = "table:turn"

    def start_server(self, port: int, *, gc_threshold: str, deflate: bool,
                     workdir: Path) -> subprocess.Popen[bytes]:
        """Start the server in a child process listening on 127.0.0.1:port."""
        raise NotImplementedError

    def prepare(self, port: int, clients: int, *, workdir: Path) -> list[PlayerSeat]:
        """Whatever must exist before players connect (accounts, tables): the seats."""
        raise NotImplementedError

    def sit(self, seat: PlayerSeat) -> tuple[str, dict[str, Any]]:
        """The event and payload that seat a connected player."""
        raise NotImplementedError

    def read_turn(self, data: Any) -> Any:
        """The parts of a ``table:turn`` payload the player needs, or None to ignore it."""
        return data

    def is_my_turn(self, seat: PlayerSeat, turn: Any) -> bool:
        """Whether this turn asks ``seat`` to act."""
        raise NotImplementedError

    def action_payload(self, seat: PlayerSeat, turn: Any) -> dict[str, Any]:
        """The ``table:action`` payload answering ``turn``."""
        raise NotImplementedError


def _popen(command: list[str], workdir: Path, name: str,
           env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    log = (workdir / f"{name}.log").open("wb")
    return subprocess.Popen(command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)


class BareTarget(Target):
    """bench/bare_server.py: python-socketio that only acks and broadcasts."""

    name = "bare"

    def start_server(self, port: int, *, gc_threshold: str, deflate: bool,
                     workdir: Path) -> subprocess.Popen[bytes]:
        command = [sys.executable, str(ROOT / "bench" / "bare_server.py"), "--port", str(port)]
        if gc_threshold:
            command += ["--gc-threshold", gc_threshold]
        if not deflate:
            command.append("--no-deflate")
        return _popen(command, workdir, "bare-server")

    def prepare(self, port: int, clients: int, *, workdir: Path) -> list[PlayerSeat]:
        return [
            PlayerSeat(table_id=str(i // SEATS), table_index=i // SEATS, seat=i % SEATS,
                       order=i, auth={"token": f"bench-{i}"})
            for i in range(clients - clients % SEATS)
        ]

    def sit(self, seat: PlayerSeat) -> tuple[str, dict[str, Any]]:
        return "table:sit", {"table_id": seat.table_id, "seat": seat.seat, "buy_in": 1000}

    def is_my_turn(self, seat: PlayerSeat, turn: Any) -> bool:
        return bool(turn["seat"] == seat.seat)

    def action_payload(self, seat: PlayerSeat, turn: Any) -> dict[str, Any]:
        return {"table_id": seat.table_id, "hand_id": turn["hand_id"], "type": "call"}


TARGETS: dict[str, type[Target]] = {"bare": BareTarget}
