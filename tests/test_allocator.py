"""One malloc arena for every thread of the server (glibc)."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import allocator, cli
from app.allocator import glibc, share_one_arena

ROOT = Path(__file__).resolve().parent.parent

# A thread that keeps C-heap blocks (over pymalloc's 512 bytes) alive while glibc
# lists its arenas and what each holds on standard error; "late": a thread that has
# ended allocated before the setting.
PROGRAM = """
import ctypes, os, sys, threading, time
from app.allocator import share_one_arena
def allocate(kept):
    kept.extend(bytes(2000) + bytes([i % 256]) for i in range(2500))
if sys.argv[1] == "late":
    early = threading.Thread(target=allocate, args=([],))
    early.start()
    early.join()
    # The arena is freed as the thread's task ends, a moment after join returns.
    while len(os.listdir("/proc/self/task")) > 1:
        time.sleep(0.001)
if sys.argv[1] != "own":
    assert share_one_arena()
kept, done, stop = [], threading.Event(), threading.Event()
def work():
    allocate(kept)
    done.set()
    stop.wait()
worker = threading.Thread(target=work)
worker.start()
done.wait()
ctypes.CDLL(None).malloc_stats()
stop.set()
worker.join()
"""


def in_use(mode: str) -> list[int]:
    """The bytes in use in each arena once the worker thread holds its blocks."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True,
                          text=True, env=env, cwd=ROOT, check=True, timeout=60)
    arenas = done.stderr.split("Total")[0].split("Arena ")[1:]
    return [int(arena.split("in use bytes")[1].split("=")[1].split()[0]) for arena in arenas]


@pytest.mark.skipif(glibc() is None, reason="malloc arenas are glibc's")
def test_a_thread_allocates_from_the_main_arena_once_shared() -> None:
    assert len(in_use("own")) >= 2
    assert len(in_use("shared")) == 1


@pytest.mark.skipif(glibc() is None, reason="malloc arenas are glibc's")
def test_an_arena_left_by_an_earlier_thread_is_taken_up_by_later_ones() -> None:
    # Why holdem serve shares the arena first: the worker's 5 MB land in the arena the
    # ended thread left, not in the main one.
    main, *others = in_use("late")
    assert others and max(others) > 4_000_000 > main


def test_serve_shares_the_arena_before_anything_can_start_a_thread(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    steps: list[str] = []

    def share() -> bool:
        steps.append("arena")
        return True

    def ready(*_: object, **__: object) -> str:
        steps.append("database")
        return "stopped here"

    monkeypatch.setattr(allocator, "share_one_arena", share)
    monkeypatch.setattr(cli, "_ready_to_serve", ready)
    assert cli.cmd_serve(argparse.Namespace(host="127.0.0.1", port=8000, migrate=True)) == 2
    assert steps == ["arena", "database"]


def test_an_operators_own_arena_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert share_one_arena() is False
