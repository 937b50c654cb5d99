"""The crash soak: tests/e2e/test_crash.py with many more SIGKILLs than CI's ten.

A real ``holdem serve`` under saturated play is killed at random moments; after each
kill every action a client saw acknowledged must be in the database, the reconciling
audit must balance to the chip before and after each restart, no hand may be recorded
twice and every table's escrow must match its seats.

    .venv/bin/python bench/crash_soak.py --kills 100
    .venv/bin/python bench/crash_soak.py --kills 100 \
        --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=100, help="SIGKILLs per database")
    parser.add_argument("--database-url", default="",
                        help="also soak on this PostgreSQL server (a fresh database per run)")
    args = parser.parse_args()
    env = {**os.environ, "CRASH_KILLS": str(args.kills)}
    selected = "sqlite"
    if args.database_url:
        env["TEST_DATABASE_URL"] = args.database_url
        selected = "sqlite or postgresql"
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--timeout", "0",
         "tests/e2e/test_crash.py", "-k", selected], cwd=ROOT, env=env, check=False)
    print(f"{args.kills} kills per database in {time.monotonic() - started:.0f} s: "
          f"{'held' if result.returncode == 0 else 'FAILED'}")
    return result.returncode


if __name__ == "__main__":
    raise SystemExit(main())
