"""What a load run costs the shared services: Redis commands and CPU, PostgreSQL
transactions, rows and backend CPU, read before and after the measured window.

Redis reports its own counters (``INFO stats`` and ``INFO cpu``). PostgreSQL's come
from ``pg_stat_database`` for the run's database (each backend flushes them at most
once a second, so both ends of a steady window lag alike) and the CPU of the backends
serving that database, from ``/proc`` (the bench runs on the database's machine).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PG_COUNTERS = ("xact_commit", "xact_rollback", "tup_fetched", "tup_inserted", "tup_updated",
               "tup_deleted")


def _proc_cpu(pid: int) -> float | None:
    import os

    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Snapshot:
    """The counters at one moment."""

    counters: dict[str, float]
    backends: dict[int, float]


class ServiceMeter:
    """Counters of the Redis and the PostgreSQL database one run uses (either may be None)."""

    def __init__(self, redis_url: str | None, database_url: str | None) -> None:
        self.redis_url = redis_url
        self.database_url = (database_url if database_url and
                             database_url.startswith("postgresql") else None)

    def snapshot(self) -> Snapshot:
        """Read every counter now."""
        counters: dict[str, float] = {}
        backends: dict[int, float] = {}
        if self.redis_url:
            import redis

            client = redis.Redis.from_url(self.redis_url)
            try:
                stats, cpu = client.info("stats"), client.info("cpu")
            finally:
                client.close()
            counters["redis_commands"] = float(stats["total_commands_processed"])
            counters["redis_cpu_s"] = float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
        if self.database_url:
            pg, pids = asyncio.run(self._postgres())
            counters.update(pg)
            for pid in pids:
                used = _proc_cpu(pid)
                if used is not None:
                    backends[pid] = used
        return Snapshot(counters, backends)

    async def _postgres(self) -> tuple[dict[str, float], list[int]]:
        import asyncpg
        from sqlalchemy.engine import make_url

        assert self.database_url is not None
        dsn = make_url(self.database_url).set(drivername="postgresql").render_as_string(
            hide_password=False)
        connection = await asyncpg.connect(dsn)
        try:
            row = await connection.fetchrow(
                f"SELECT {', '.join(PG_COUNTERS)} FROM pg_stat_database "
                "WHERE datname = current_database()")
            wal = await connection.fetchval("SELECT wal_bytes FROM pg_stat_wal")
            pids = [r["pid"] for r in await connection.fetch(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid()")]
        finally:
            await connection.close()
        counters = {f"pg_{name}": float(row[name]) for name in PG_COUNTERS}
        # The server's whole WAL (every database on it): what the run adds dominates.
        counters["pg_wal_bytes"] = float(wal)
        return counters, pids

    @staticmethod
    def per_action(before: Snapshot, after: Snapshot, actions: int) -> dict[str, Any]:
        """Each counter's growth per action (CPU in ms per action)."""
        if not actions:
            return {}
        out: dict[str, Any] = {}
        for name, value in after.counters.items():
            grown = value - before.counters.get(name, value)
            if name.endswith("_cpu_s"):
                out[name.replace("_cpu_s", "_cpu_ms_per_action")] = round(
                    1000 * grown / actions, 3)
            else:
                out[f"{name}_per_action"] = round(grown / actions, 3)
        if after.backends:
            # A backend that started during the window (a pool's overflow) counts whole.
            used = sum(cpu - before.backends.get(pid, 0.0)
                       for pid, cpu in after.backends.items())
            out["pg_cpu_ms_per_action"] = round(1000 * used / actions, 3)
            out["pg_backends"] = len(after.backends)
        return out
