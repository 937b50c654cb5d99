"""holdem-server: an authoritative multiplayer No-Limit Texas Hold'em server."""

__version__ = "0.1.0"
