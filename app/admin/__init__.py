"""Admin endpoints over HTTP: users, bans, credit adjustments, the audit log."""
