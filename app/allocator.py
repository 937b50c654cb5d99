"""One C heap for the whole server process (glibc's ``malloc``).

glibc gives each thread that allocates an arena of its own, up to eight per core, and
memory freed into one arena is reused only by what allocates from it. The server's
threads (the SQLite driver's, the run-out equities') allocate little, but the holes they
leave in their arenas are never filled by the event loop's thread: at 3,000 players,
one arena shared by every thread holds 1.8 KiB per player less (bench/RESULTS.md, "One
malloc arena; no full collection for players arriving").

``holdem serve`` makes the setting before anything starts a thread: an arena outlives
its thread, and a thread started later takes up that freed arena rather than the main
one. An operator's own ``MALLOC_ARENA_MAX`` is left as it is; other C libraries have no
such arenas and are left alone too.
"""

from __future__ import annotations

import ctypes
import os

# glibc's <malloc.h>: mallopt's parameter for the most arenas a process may have.
M_ARENA_MAX = -8


def glibc() -> ctypes.CDLL | None:
    """This process's C library if it is glibc, else None."""
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it
    except (OSError, AttributeError):
        return None
    return libc


def share_one_arena() -> bool:
    """Make every thread started from now on allocate from the main arena (call it
    before any thread has allocated): whether the setting was made."""
    if "MALLOC_ARENA_MAX" in os.environ or (libc := glibc()) is None:
        return False
    return bool(libc.mallopt(M_ARENA_MAX, 1))
