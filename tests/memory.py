"""The memory of this process (where ``live_server`` runs the server), from /proc/self/status.

:func:`peak_growth` resets the kernel's high-water mark (``VmHWM``) and reports how far the
resident set rose above where it stood, so a test can bound what a request costs the server.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

STATUS = Path("/proc/self/status")
CLEAR_REFS = Path("/proc/self/clear_refs")
MIB = 1024 * 1024


def status_kib(field: str) -> int:
    """A ``kB`` field of /proc/self/status, such as ``VmRSS`` or ``VmHWM``."""
    found = re.search(rf"^{field}:\s+(\d+) kB", STATUS.read_text(), re.MULTILINE)
    assert found, f"{field} not in {STATUS}"
    return int(found.group(1))


@dataclass
class Growth:
    """How far the peak resident set rose above the starting one, in bytes."""

    bytes: int = 0

    @property
    def mib(self) -> float:
        """The growth in MiB."""
        return self.bytes / MIB


@contextmanager
def peak_growth() -> Iterator[Growth]:
    """Measure the peak resident-set growth of this process over the ``with`` block."""
    gc.collect()
    CLEAR_REFS.write_text("5")  # resets VmHWM to the current VmRSS
    start = status_kib("VmRSS")
    growth = Growth()
    try:
        yield growth
    finally:
        growth.bytes = (status_kib("VmHWM") - start) * 1024
