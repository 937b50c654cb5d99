"""Work beside the tables for bench/load.py: a burst of sign-ups and logins over REST, and
the odds tools, against the server under test while its tables play.

``--signups N`` signs up N new accounts (``POST /auth/signup``, a real password hashed
with the server's settings, the confirmation mail queued and sent) and logs each in
(``POST /auth/login``), ``--signup-concurrency`` at a time, from the start of the
measured window until all are done or the window ends. ``--odds R`` asks the odds
calculator R times a second meanwhile (two hands before the flop, exact: 1.7 million boards). The
report gives what was done, the answers that were not 2xx, the latencies, and this
generator's CPU, beside the tables' figures.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection
from typing import Any

import httpx

PASSWORD = "a long enough bench password 7"
ODDS_BODY = {"hands": ["AhKh", "QsQd"]}


@dataclass
class BurstReport:
    """What the burst did in the window."""

    signups: int = 0
    logins: int = 0
    odds: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    signup_ms: list[float] = field(default_factory=list)
    odds_ms: list[float] = field(default_factory=list)
    seconds: float = 0.0
    cpu_seconds: float = 0.0


async def _signup_one(http: httpx.AsyncClient, number: int, report: BurstReport) -> None:
    email = f"burst{os.getpid()}-{number}@example.com"
    started = time.perf_counter()
    answer = await http.post("/auth/signup", json={
        "email": email, "password": PASSWORD, "display_name": f"b{os.getpid()}_{number}"})
    if answer.status_code != 202:
        report.refused[f"signup {answer.status_code}"] += 1
        return
    report.signups += 1
    login = await http.post("/auth/login", json={"email": email, "password": PASSWORD})
    report.signup_ms.append(1000 * (time.perf_counter() - started))
    if login.status_code == 200:
        report.logins += 1
    else:
        report.refused[f"login {login.status_code}"] += 1


async def _signups(http: httpx.AsyncClient, count: int, concurrency: int, deadline: float,
                   report: BurstReport) -> None:
    numbers = iter(range(count))

    async def lane() -> None:
        for number in numbers:
            if time.monotonic() >= deadline:
                return
            await _signup_one(http, number, report)

    await asyncio.gather(*(lane() for _ in range(concurrency)))


async def _odds(http: httpx.AsyncClient, per_second: float, deadline: float,
                report: BurstReport) -> None:
    async def one() -> None:
        started = time.perf_counter()
        answer = await http.post("/tools/equity", json=ODDS_BODY)
        if answer.status_code == 200:
            report.odds += 1
            report.odds_ms.append(1000 * (time.perf_counter() - started))
        else:
            report.refused[f"odds {answer.status_code}"] += 1

    pending: set[asyncio.Task[None]] = set()
    while per_second > 0 and time.monotonic() < deadline:
        task = asyncio.create_task(one())
        pending.add(task)
        task.add_done_callback(pending.discard)
        await asyncio.sleep(1 / per_second)
    await asyncio.gather(*pending)


async def _burst(url: str, signups: int, concurrency: int, odds: float, warmup: float,
                 duration: float) -> BurstReport:
    report = BurstReport()
    await asyncio.sleep(warmup)
    started = time.monotonic()
    deadline = started + duration
    limits = httpx.Limits(max_connections=concurrency + 16)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        await asyncio.gather(_signups(http, signups, concurrency, deadline, report),
                             _odds(http, odds, deadline, report))
    report.seconds = time.monotonic() - started
    usage = os.times()
    report.cpu_seconds = usage.user + usage.system
    return report


def run_burst(url: str, signups: int, concurrency: int, odds: float, warmup: float,
              duration: float, pipe: Connection) -> None:
    """The burst's process: wait for "go", run, send the report as a dict."""
    pipe.recv()
    report = asyncio.run(_burst(url, signups, concurrency, odds, warmup, duration))
    pipe.send({**asdict(report), "refused": dict(report.refused)})


def summary(report: dict[str, Any] | None) -> dict[str, Any] | None:
    """The figures of a burst's report for the results line."""
    if report is None:
        return None

    def tail(values: list[float]) -> dict[str, float]:
        ordered = sorted(values)
        if not ordered:
            return {}
        return {"p50": round(ordered[len(ordered) // 2], 1),
                "p99": round(ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)], 1)}

    seconds = max(report["seconds"], 1e-9)
    return {
        "signups": report["signups"], "logins": report["logins"],
        "signups_per_s": round(report["signups"] / seconds, 1),
        "signup_and_login_ms": tail(report["signup_ms"]),
        "odds": report["odds"], "odds_ms": tail(report["odds_ms"]),
        "refused": report["refused"], "generator_cpu_s": round(report["cpu_seconds"], 1),
    }
