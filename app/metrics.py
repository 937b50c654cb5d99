"""Prometheus metrics of one server process, served at ``/metrics``.

Each application has a registry of its own (tests build many applications in one
process). The gauges read the live state when scraped; the counters and the
histogram are fed by the table code:

- ``holdem_actions_total`` and ``holdem_action_seconds``: each ``table:action``
  a client sent and how long the server took to answer it (validated, applied,
  stored and broadcast), by outcome;
- ``holdem_commits_total``: transactions that stored tables (a group commit of
  states, or a chip movement);
- ``holdem_lease_moves_total``: tables this process took over, let go, handed to the
  process their players reach (``moved``) or lost;
- ``holdem_forwarded_requests_total``: client requests this process sent on to the
  process that runs their table (or the tournaments), by event: with the proxy routing
  by table, few once tables have followed their players;
- ``holdem_event_loop_lag_seconds``: how late the event loop woke a timer it had set
  ``LAG_INTERVAL`` ahead, that is how long something ran without letting anything else
  run: every table of the process waits that long.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

CONTENT_TYPE = CONTENT_TYPE_LATEST
ACTION_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
LAG_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0, 2.5)
LAG_INTERVAL = 0.05


class Metrics:
    """The metrics of one application."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.actions = Counter("holdem_actions", "Table actions answered, by outcome",
                               ["outcome"], registry=self.registry)
        self.action_seconds = Histogram(
            "holdem_action_seconds", "Time from receiving a table action to answering it",
            buckets=ACTION_BUCKETS, registry=self.registry)
        self.commits = Counter("holdem_commits", "Transactions that stored tables",
                               ["kind"], registry=self.registry)
        self.lease_moves = Counter("holdem_lease_moves", "Tables taken over, let go, moved or lost",
                                   ["reason"], registry=self.registry)
        self.forwarded = Counter(
            "holdem_forwarded_requests", "Client requests sent on to another process, by event",
            ["event"], registry=self.registry)
        self.tables = Gauge("holdem_tables", "Tables this process runs",
                            registry=self.registry)
        self.players = Gauge("holdem_players", "People seated at this process's tables",
                             registry=self.registry)
        self.connections = Gauge("holdem_connections", "Socket.IO sessions on this process",
                                 registry=self.registry)
        self.loop_lag = Histogram(
            "holdem_event_loop_lag_seconds",
            "How late the event loop woke a timer: time something ran without yielding",
            buckets=LAG_BUCKETS, registry=self.registry)

    def watch(self, *, tables: Callable[[], int], players: Callable[[], int],
              connections: Callable[[], int]) -> None:
        """Read the gauges from the live state at each scrape."""
        self.tables.set_function(tables)
        self.players.set_function(players)
        self.connections.set_function(connections)

    async def watch_loop(self, interval: float = LAG_INTERVAL) -> None:
        """Measure the event loop's lag until cancelled: sleep ``interval``, and record how
        much later than that the loop woke up."""
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await asyncio.sleep(interval)
            self.loop_lag.observe(max(0.0, loop.time() - started - interval))

    def render(self) -> bytes:
        """The text exposition format."""
        return bytes(generate_latest(self.registry))
