"""One malloc arena for every thread of the server (glibc)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.allocator import share_one_arena

ROOT = Path(__file__).resolve().parent.parent

# A thread that keeps a few C-heap blocks (over pymalloc's 512 bytes) alive while
# glibc lists its arenas on standard error.
PROGRAM = """
import ctypes, sys, threading
from app.allocator import share_one_arena
if sys.argv[1] == "shared":
    assert share_one_arena()
kept, done, stop = [], threading.Event(), threading.Event()
def work():
    kept.extend(bytes(2000) + bytes([i % 256]) for i in range(200))
    done.set()
    stop.wait()
worker = threading.Thread(target=work)
worker.start()
done.wait()
ctypes.CDLL(None).malloc_stats()
stop.set()
worker.join()
"""


def glibc() -> bool:
    try:
        ctypes.CDLL(None).gnu_get_libc_version  # noqa: B018
    except AttributeError:
        return False
    return True


def arenas(mode: str) -> int:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=True, timeout=60)
    return done.stderr.count("Arena ")


@pytest.mark.skipif(not glibc(), reason="malloc arenas are glibc's")
def test_a_thread_allocates_from_the_main_arena_once_shared() -> None:
    assert arenas("own") >= 2
    assert arenas("shared") == 1


def test_an_operators_own_arena_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert share_one_arena() is False
