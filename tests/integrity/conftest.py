"""Fixtures: a live server on loopback, players signed up against it, Socket.IO clients."""

from tests.realtime.harness import connect, http, players, server

__all__ = ["connect", "http", "players", "server"]
