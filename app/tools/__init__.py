"""Odds tools for players: equity of hands and ranges, and outs (REST)."""
