"""The hostile-client gauntlet at full size: 100,000 requests against a real server.

    .venv/bin/python bench/gauntlet.py                       # 100,000 requests, SQLite
    .venv/bin/python bench/gauntlet.py --requests 20000 --seed 3
    .venv/bin/python bench/gauntlet.py --database-url postgresql+asyncpg://postgres@127.0.0.1:5432/test

The same run as tests/e2e/test_gauntlet.py (six logged-in clients, one of them
without credits, and one anonymous client; two tables with bots dealing hands),
on a fresh migrated database (with ``--database-url``, a new database on that
PostgreSQL server, dropped after). It prints progress after every batch and the
findings at the end; the exit status is 1 when any check found a problem.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import httpx  # noqa: E402

from app.config import RateLimit, Settings  # noqa: E402
from app.db.migrations import upgrade  # noqa: E402
from tests.conftest import Accounts, Mailbox, scratch_database  # noqa: E402
from tests.e2e.findings import Findings  # noqa: E402
from tests.e2e.gauntlet import Gauntlet  # noqa: E402
from tests.e2e.test_gauntlet import gauntlet_settings  # noqa: E402
from tests.realtime.harness import live_server  # noqa: E402

CHECKS = ("no_ack", "undocumented", "internal_errors", "malformed_accepted",
          "coerced_accepted", "logged_errors", "off_schema", "leaks", "unresolved_hands", "seq",
          "seq_reused", "resume_seq", "unwatched", "after_refused_sit", "unbalanced")


def settings_for(database_url: str, folder: Path) -> Settings:
    """The tests' settings without an SMTP server (mail goes to a folder)."""
    return gauntlet_settings(Settings(
        env="development", database_url=database_url,
        secret_key=secrets.token_urlsafe(48), public_url="http://127.0.0.1",
        smtp_host="", outbox_dir=str(folder / "outbox"), starting_credits=10_000,
        argon2_time_cost=1, argon2_memory_kib=64, argon2_parallelism=1,
        rate_limit_login_ip=RateLimit(1_000, 60), rate_limit_signup_ip=RateLimit(1_000, 60)))


async def run(settings: Settings, requests: int, seed: int, batch: int) -> Findings:
    def progress(found: Findings) -> None:
        problems = sum(len(getattr(found, name)) for name in CHECKS)
        print(f"{found.requests:>7} requests {found.elapsed:6.1f}s {found.per_second:5.0f}/s "
              f"hands {found.hands_ended:>4} problems {problems}", flush=True)

    async with live_server(settings) as server, \
            httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        gauntlet = Gauntlet(server, Accounts(http, Mailbox(), server.app), seed=seed)
        return await gauntlet.run(requests, batch=batch, progress=progress)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--batch", type=int, default=1_000)
    parser.add_argument("--database-url", help="a PostgreSQL server (default: SQLite)")
    parser.add_argument("--examples", type=int, default=10, help="findings shown per kind")
    args = parser.parse_args()
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="gauntlet-")))
        url = scratch_database(stack, folder, "gauntlet", args.database_url)
        upgrade(url)
        found = asyncio.run(run(settings_for(url, folder), args.requests, args.seed,
                                args.batch))
    print(found.summary(examples=args.examples))
    problems = [name for name in CHECKS if getattr(found, name)]
    print("problems:", ", ".join(problems) or "none")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
