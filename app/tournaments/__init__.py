"""Tournaments: sit & go and multi-table, from registration to prizes.

The rules are pure (no I/O, no clock, no hidden randomness; time and the seat
draw's RNG are passed in): :mod:`structure` (levels, breaks, presets),
:mod:`payouts` (who is paid what), :mod:`icm` (deals), :mod:`balancing`
(moving players and breaking tables), :mod:`standings` (busts and places),
:mod:`rules` (what a tournament is), :mod:`deals` (an ICM deal put to the
players) and :mod:`director` (one tournament's state, driven by hands as they
finish).

The shell: :mod:`store` (tournaments, entries and the credits of each change in
one transaction), :mod:`service` (the tournaments of this process, one change at
a time; a hand's result is committed by its table), :mod:`tables` (their live
tables and clocks), :mod:`handlers` (Socket.IO), :mod:`router` and
:mod:`operations` (REST), :mod:`views` and :mod:`schemas`; their part of the
protocol page is :mod:`app.protocol.tournaments`.
"""
