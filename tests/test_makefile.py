"""``make run`` and ``make test`` on a fresh clone: what they would run, read with ``make -n``
(nothing is installed): every install says what it is doing and lets pip show its progress."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def dry_run(target: str, fresh: Path) -> list[str]:
    """The commands ``make TARGET`` runs when neither the virtual environment nor the
    browser's Socket.IO client exists yet."""
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(ROOT), target, f"VENV={fresh / '.venv'}",
         f"SOCKETIO_JS={fresh / 'vendor' / 'socket.io.min.js'}"],
        capture_output=True, text=True, timeout=60, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize(("target", "lock"), [("run", "base.txt"), ("test", "dev.txt")])
def test_a_fresh_set_up_says_what_it_installs_and_shows_pips_progress(
    target: str, lock: str, tmp_path: Path
):
    commands = dry_run(target, tmp_path)
    steps = [i for i, line in enumerate(commands)
             if re.search(r"-m venv |-r requirements/|\bnpm ci\b", line)]
    assert [re.search(r"-m venv |requirements/\w+\.txt|npm ci", commands[i]).group()
            for i in steps] == ["-m venv ", f"requirements/{lock}", "npm ci"]
    for i in steps:
        said = commands[i - 1]
        assert said.startswith("echo ") and len(said) > 40, (said, commands[i])
    installs = [line for line in commands if re.search(r"\bpip install\b", line)]
    assert len(installs) == 3
    for line in installs:
        assert not re.search(r"\s(--quiet|-q)\b", line), line
