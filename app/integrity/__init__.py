"""Integrity for operators: who signs in from where, linked accounts, chip flow between
players, soft-play and bot-like signals, the flags queue and claw-backs through the ledger.

Storage and analysis only: the admin routes are in :mod:`app.admin.integrity`.
"""
