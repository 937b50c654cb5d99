"""Replay every PHH file of a folder with our engine and with pokerkit: agreement and speed.

    .venv/bin/python bench/phh_replay.py [FOLDER]   (default: ../shared/phh-dataset)

Each file is read once before the clock starts; each engine then parses and
replays every file (pokerkit through ``HandHistory``). Prints how many files
each engine replays, how many of ours equal pokerkit's and the recorded
``finishing_stacks``, every file that differs, and files per second.
"""

from __future__ import annotations

import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pokerkit import HandHistory

from app.errors import HoldemError
from app.poker.phh import replay

DEFAULT = Path(__file__).resolve().parents[2] / "shared" / "phh-dataset"


def ours(texts: dict[Path, str]) -> tuple[dict[Path, object], float]:
    """Our finishing stacks (or the error) per file, and the seconds it took."""
    out: dict[Path, object] = {}
    start = time.perf_counter()
    for path, text in texts.items():
        try:
            result = replay(text)
            out[path] = (result.finishing_stacks, result.expected)
        except HoldemError as exc:
            out[path] = exc.message
    return out, time.perf_counter() - start


def pokerkit(texts: dict[Path, str]) -> tuple[dict[Path, object], float]:
    """pokerkit's finishing stacks (or the error) per file, and the seconds it took."""
    out: dict[Path, object] = {}
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for path, text in texts.items():
            try:
                *_, last = HandHistory.loads(text)
                out[path] = list(last.stacks)
            except Exception as exc:  # pokerkit's own failures are data here
                out[path] = f"{type(exc).__name__}: {exc}"
    return out, time.perf_counter() - start


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    texts = {p: p.read_text() for p in sorted(folder.rglob("*.phh"))}
    our, our_time = ours(texts)
    their, their_time = pokerkit(texts)
    both = [p for p in texts if isinstance(our[p], tuple) and isinstance(their[p], list)]
    same = [p for p in both if our[p][0] == their[p]]  # type: ignore[index]
    recorded = [p for p in both if our[p][1] is not None]  # type: ignore[index]
    matched = [p for p in recorded if our[p][0] == our[p][1]]  # type: ignore[index]
    print(f"{len(texts)} files under {folder}")
    print(f"replayed: ours {sum(isinstance(v, tuple) for v in our.values())}, "
          f"pokerkit {sum(isinstance(v, list) for v in their.values())}")
    print(f"ours equal to pokerkit: {len(same)} of {len(both)} both replay")
    print(f"ours equal to finishing_stacks: {len(matched)} of {len(recorded)} that record them")
    for p in texts:
        if p not in same or (p in recorded and p not in matched):
            print(f"  {p.relative_to(folder)}: ours {our[p]}, pokerkit {their[p]}")
    print(f"files/s: ours {len(texts) / our_time:,.0f}, pokerkit {len(texts) / their_time:,.0f}")


if __name__ == "__main__":
    main()
