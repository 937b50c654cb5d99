"""Storage: the async engine and sessions, the ORM models and the credits ledger."""
