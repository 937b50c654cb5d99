"""One tournament's state and rules, driven by hands as they finish (pure).

A :class:`Tournament` holds the entries, the tables (:class:`Seating`), the
bust groups and the clock. Whoever deals the hands (the live tables, or a
simulation) asks it which tables may deal and at what stakes, tells it when
a hand starts and when it ends with the new stacks, and carries out the
moves it returns. Time is passed in as seconds (``now``) and the seat draw's
RNG is injected.

The clock counts *play*: ``elapsed`` grows by the time between two calls of
:meth:`Tournament.tick`. After a restart the shell resumes it from the stored
``elapsed``, so the time a server was down does not eat into a level.

Hand-for-hand: when one more player is left than places are paid (and more
than one table is in play), each table deals one hand and waits until every
table has finished its hand; busts in one such round are one bust group
(ranked by starting stack). It ends when the bubble bursts or one table is left.

A finished tournament pays by :mod:`app.tournaments.payouts` over every entry
(re-entries included), or, when the final few accepted an ICM deal, pays the
players still in their :func:`app.tournaments.icm.icm_deal` share.

Places are counted from the bottom of the field, so a place is known only once
the field is: while late registration may still add entries, a bust has no
place yet (:meth:`Tournament.results` leaves it out).

Tables are numbered in the order they open, and a number is never used again:
a table that broke stays broken, and a table needed later is a new one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any

from app.tournaments import icm
from app.tournaments.balancing import Move, Seating, apply_moves, plan_moves, tables_needed
from app.tournaments.errors import (
    AlreadyRegistered,
    NotRegistered,
    ReentryNotAllowed,
    RegistrationClosed,
    TournamentFull,
    WrongTournamentState,
)
from app.tournaments.payouts import paid_places, prizes
from app.tournaments.rules import Entry, Rules, TournamentKind, TournamentStatus
from app.tournaments.standings import Finish, awards, finishes
from app.tournaments.structure import ClockPosition, late_registration_open, position


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """What one finished hand changed: who went out, who moves, whether it is over."""

    busted: tuple[str, ...]
    moves: tuple[Move, ...]
    finished: bool


@dataclass(slots=True)
class Tournament:
    """A tournament from registration to the last hand. See the module docstring."""

    rules: Rules
    status: TournamentStatus = TournamentStatus.REGISTERING
    entries: dict[str, Entry] = field(default_factory=dict)
    tables: dict[int, Seating] = field(default_factory=dict)
    busts: list[list[tuple[str, int]]] = field(default_factory=list)
    elapsed: float = 0.0
    clock_at: float | None = None
    in_hand: set[int] = field(default_factory=set)
    hand_for_hand: bool = False
    round: set[int] = field(default_factory=set)
    pending: list[tuple[str, int]] = field(default_factory=list)
    deal: dict[str, int] | None = None
    made: dict[str, int] = field(default_factory=dict)
    opened: int = 0

    # ---- registration ---------------------------------------------------

    def verify_register(self, player: str) -> None:
        """Raise unless ``player`` may enter now (register, late register or re-enter)."""
        if self.status is TournamentStatus.RUNNING:
            if self.rules.kind is TournamentKind.SIT_AND_GO or not self.late_registration_open:
                raise RegistrationClosed("expected registration open, got a running tournament")
        elif self.status is not TournamentStatus.REGISTERING:
            raise RegistrationClosed(f"expected registration open, got {self.status.value}")
        capacity = self.rules.capacity
        if capacity and len(self.entries) >= capacity:
            raise TournamentFull(f"expected a free place, got {capacity} of {capacity} taken")
        mine = [e for e in self.entries.values() if e.player == player]
        if any(not e.busted for e in mine):
            raise AlreadyRegistered("expected no entry still in play, got one")
        if len(mine) >= self.rules.entries_per_player:
            raise ReentryNotAllowed(
                f"expected fewer than {self.rules.entries_per_player} entries, got {len(mine)}"
            )

    def register(self, player: str, *, rng: Random) -> Entry:
        """Enter ``player``; during late registration they are seated at once.

        The entry's id is ``player#n`` for the player's n-th entry ever made
        here, withdrawn ones included, so an id is never used twice.
        """
        self.verify_register(player)
        number = 1 + sum(1 for e in self.entries.values() if e.player == player)
        self.made[player] = self.made.get(player, 0) + 1
        entry = Entry(f"{player}#{self.made[player]}", player, number,
                      self.rules.structure.starting_stack)
        self.entries[entry.id] = entry
        if self.status is TournamentStatus.RUNNING:
            self._seat_late(entry, rng)
        return entry

    def unregister(self, player: str) -> Entry:
        """Withdraw ``player``'s entry before the start (the shell refunds it)."""
        if self.status is not TournamentStatus.REGISTERING:
            raise RegistrationClosed(f"expected registration open, got {self.status.value}")
        for entry in self.entries.values():
            if entry.player == player:
                return self.entries.pop(entry.id)
        raise NotRegistered("expected an entry of yours, got none")

    def cancel(self) -> list[Entry]:
        """Cancel before the start; returns the entries to refund."""
        if self.status is not TournamentStatus.REGISTERING:
            raise WrongTournamentState(f"expected registering, got {self.status.value}")
        self.status = TournamentStatus.CANCELLED
        return list(self.entries.values())

    def _seat_late(self, entry: Entry, rng: Random) -> None:
        open_tables = [t for t in self.tables.values() if t.empty_seats]
        if open_tables:
            table = min(open_tables, key=lambda t: (len(t.seats), t.number))
        else:
            self.opened += 1
            table = self.tables[self.opened] = Seating(self.opened, self.rules.table_size)
        self._sit(entry, table, rng.choice(table.empty_seats))

    # ---- start ----------------------------------------------------------

    def due(self, now: float) -> bool:
        """Whether the tournament should start (or, short of players, be cancelled) now."""
        if self.status is not TournamentStatus.REGISTERING:
            return False
        if self.rules.kind is TournamentKind.SIT_AND_GO:
            return len(self.entries) == self.rules.table_size
        return self.rules.starts_at is not None and now >= self.rules.starts_at

    def start(self, now: float, *, rng: Random) -> None:
        """Draw seats at as few tables as hold everyone, their sizes differing by at most one."""
        if self.status is not TournamentStatus.REGISTERING:
            raise WrongTournamentState(f"expected registering, got {self.status.value}")
        if len(self.entries) < self.rules.min_entrants:
            raise WrongTournamentState(
                f"expected at least {self.rules.min_entrants} entries, got {len(self.entries)}"
            )
        order = list(self.entries.values())
        rng.shuffle(order)
        count = tables_needed(len(order), self.rules.table_size)
        self.tables = {n: Seating(n, self.rules.table_size) for n in range(1, count + 1)}
        self.opened = count
        for k, entry in enumerate(order):
            self._sit(entry, self.tables[k % count + 1], None)
        for table in self.tables.values():
            players = list(table.seats.values())
            table.seats = dict(zip(sorted(rng.sample(range(table.size), len(players))),
                                   players, strict=True))
            for seat, entry_id in table.seats.items():
                self.entries[entry_id].seat = seat
        self.status = TournamentStatus.RUNNING
        self.clock_at = now

    def _sit(self, entry: Entry, table: Seating, seat: int | None) -> None:
        seat = len(table.seats) if seat is None else seat
        table.seats[seat] = entry.id
        entry.table, entry.seat = table.number, seat

    # ---- the clock ------------------------------------------------------

    def tick(self, now: float) -> ClockPosition:
        """Advance the play clock to ``now`` and say where it is."""
        if self.status is TournamentStatus.RUNNING and self.clock_at is not None:
            self.elapsed += max(0.0, now - self.clock_at)
        self.clock_at = now
        return self.clock()

    def clock(self) -> ClockPosition:
        """The level in play at the last tick."""
        return position(self.rules.structure, self.elapsed)

    @property
    def late_registration_open(self) -> bool:
        """Whether entries are still taken after the start."""
        return (self.rules.kind is TournamentKind.MULTI_TABLE
                and late_registration_open(self.rules.structure, self.elapsed))

    # ---- dealing --------------------------------------------------------

    def can_deal(self, table: int) -> bool:
        """Whether ``table`` may start a hand now."""
        seating = self.tables.get(table)
        return (self.status is TournamentStatus.RUNNING and seating is not None
                and table not in self.in_hand and len(seating.seats) >= 2
                and not self.clock().on_break
                and not (self.hand_for_hand and table in self.round))

    def stacks(self, table: int) -> dict[int, int]:
        """Seat number to chips of everyone seated at ``table``."""
        return {seat: self.entries[e].chips for seat, e in self.tables[table].seats.items()}

    def hand_started(self, table: int) -> None:
        """``table`` dealt a hand: nobody moves from it until it ends."""
        if not self.can_deal(table):
            raise WrongTournamentState(f"expected table {table} free to deal, got it busy")
        self.in_hand.add(table)
        if self.hand_for_hand:
            self.round.add(table)

    def hand_voided(self, table: int) -> None:
        """The hand at ``table`` was dropped (stacks unchanged), e.g. after a restart."""
        self.in_hand.discard(table)
        self.round.discard(table)

    def hand_finished(
        self, table: int, stacks: Mapping[int, int], *, button: int, rng: Random
    ) -> HandOutcome:
        """Record a hand's new stacks (seat to chips, the seats dealt in); move players on."""
        if table not in self.in_hand:
            raise WrongTournamentState(f"expected a hand in play at table {table}, got none")
        seating = self.tables[table]
        before = sum(self.entries[seating.seats[s]].chips for s in stacks if s in seating.seats)
        if set(stacks) - set(seating.seats) or sum(stacks.values()) != before:
            raise WrongTournamentState(
                f"expected the {before} chips of seats at table {table}, got {dict(stacks)}"
            )
        self.in_hand.discard(table)
        seating.button = button
        out: list[tuple[str, int]] = []
        for seat, chips in stacks.items():
            entry = self.entries[seating.seats[seat]]
            if chips <= 0:
                out.append((entry.id, entry.chips))
                entry.busted, entry.table, entry.seat = True, None, None
                del seating.seats[seat]
            entry.chips = max(0, chips)
        counted_in_round = self.hand_for_hand and table in self.round
        if counted_in_round:
            self.pending += out
        elif out:
            self.busts.append(out)
        moves = self._between_hands(rng)
        return HandOutcome(tuple(e for e, _ in out), tuple(moves), self._finish_if_over())

    def _between_hands(self, rng: Random) -> list[Move]:
        if self.hand_for_hand and self.round:
            live = {n for n, t in self.tables.items() if len(t.seats) >= 2}
            if not live <= self.round or self.in_hand & set(self.tables):
                return []  # the round goes on: no moves until every table has played it
            if self.pending:
                self.busts.append(self.pending)
            self.pending, self.round = [], set()
        moves = self._balance(rng)
        self._update_hand_for_hand()
        return moves

    def _balance(self, rng: Random) -> list[Move]:
        if not self.tables:
            return []
        idle = set(self.tables) - self.in_hand
        moves = plan_moves(list(self.tables.values()), rng=rng, idle=idle)
        apply_moves(self.tables, moves)
        for m in moves:
            entry = self.entries[m.player]
            entry.table, entry.seat = m.to_table, m.to_seat
        return moves

    def _update_hand_for_hand(self) -> None:
        left = self.players_left
        on_bubble = left == paid_places(len(self.entries)) + 1 and len(self.tables) > 1
        if on_bubble and not self.hand_for_hand:
            self.hand_for_hand, self.round = True, set()
        elif not on_bubble:
            self.hand_for_hand = False

    def _finish_if_over(self) -> bool:
        if self.players_left == 1 and not self.in_hand and not self.pending:
            self.status = TournamentStatus.FINISHED
            self.tables.clear()
        return self.status is TournamentStatus.FINISHED

    # ---- results --------------------------------------------------------

    @property
    def players_left(self) -> int:
        """Entries still in (chips behind)."""
        return sum(1 for e in self.entries.values() if not e.busted)

    @property
    def pool(self) -> int:
        """The prize pool: every entry's buy-in (fees are not in it)."""
        return self.rules.buy_in * len(self.entries)

    def prizes(self) -> tuple[int, ...]:
        """The prize of each paid place for the entries so far."""
        return prizes(self.pool, len(self.entries)) if self.entries else ()

    @property
    def field_final(self) -> bool:
        """Whether the entries are all in: no late registration (or re-entry) can add one
        below the players already out."""
        if self.status is TournamentStatus.REGISTERING:
            return False
        capacity = self.rules.capacity
        return (self.status is not TournamentStatus.RUNNING or not self.late_registration_open
                or bool(capacity and len(self.entries) >= capacity))

    def results(self) -> list[Finish]:
        """Places that can no longer change: every bust once the field is final (none
        before), and the winner once it is over."""
        alive = [e.id for e in self.entries.values() if not e.busted]
        winner = alive[0] if len(alive) == 1 and self.deal is None else None
        if not self.field_final:
            return []
        done = finishes(self.busts, entries=len(self.entries), winner=winner)
        if self.deal is not None:
            done += [Finish(e, 1, len(self.deal)) for e in self.deal]
        return done

    def awards(self) -> dict[str, int]:
        """Entry id to prize won, once the tournament is finished."""
        if self.status is not TournamentStatus.FINISHED:
            raise WrongTournamentState(f"expected finished, got {self.status.value}")
        won = awards([f for f in self.results() if self.deal is None or f.player not in self.deal],
                     self.prizes())
        return {**won, **(self.deal or {})}

    # ---- an ICM deal ------------------------------------------------------

    def icm_offer(self) -> dict[str, int]:
        """What each player still in would take in an ICM deal of the prizes left, by
        their chips after the last finished hand (a deal is made between hands only:
        see :mod:`app.tournaments.deals`)."""
        if self.status is not TournamentStatus.RUNNING:
            raise WrongTournamentState(f"expected running, got {self.status.value}")
        alive = [e for e in self.entries.values() if not e.busted]
        if not 2 <= len(alive) <= icm.MAX_PLAYERS:
            raise WrongTournamentState(
                f"expected 2 to {icm.MAX_PLAYERS} players left for a deal, got {len(alive)}"
            )
        left = list(self.prizes()[: len(alive)])
        amounts = icm.icm_deal([e.chips for e in alive], left)
        return {e.id: amount for e, amount in zip(alive, amounts, strict=True)}

    def accept_deal(self) -> dict[str, int]:
        """Everyone still in agreed: end the tournament, paying the ICM offer."""
        offer = self.icm_offer()
        self.deal, self.status = offer, TournamentStatus.FINISHED
        self.tables.clear()
        self.in_hand, self.round, self.pending = set(), set(), []
        return offer

    # ---- JSON -----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """All of the state as JSON-safe data."""
        return {
            "rules": self.rules.to_dict(), "status": self.status.value,
            "entries": [e.to_dict() for e in self.entries.values()],
            "tables": [t.to_dict() for t in self.tables.values()],
            "busts": [[list(p) for p in g] for g in self.busts], "elapsed": self.elapsed,
            "in_hand": sorted(self.in_hand), "hand_for_hand": self.hand_for_hand,
            "round": sorted(self.round), "pending": [list(p) for p in self.pending],
            "deal": self.deal, "made": self.made, "opened": self.opened,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tournament:
        """Inverse of :meth:`to_dict`; the clock resumes at the next :meth:`tick`."""
        return cls(
            rules=Rules.from_dict(data["rules"]), status=TournamentStatus(data["status"]),
            entries={e["id"]: Entry.from_dict(e) for e in data["entries"]},
            tables={t["number"]: Seating.from_dict(t) for t in data["tables"]},
            busts=[[(p[0], p[1]) for p in g] for g in data["busts"]],
            elapsed=data["elapsed"], in_hand=set(data["in_hand"]),
            hand_for_hand=data["hand_for_hand"], round=set(data["round"]),
            pending=[(p[0], p[1]) for p in data["pending"]], deal=data["deal"],
            made=dict(data["made"]),
            # Stored before the count was kept: the highest number in use.
            opened=data.get("opened", max((t["number"] for t in data["tables"]), default=0)),
        )
