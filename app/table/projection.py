"""What viewers see of a table: its snapshot for one viewer, its seats, its lobby line.

Hand state goes through :func:`app.poker.view.view` (via the clock) so a
snapshot holds the viewer's own hole cards and no one else's.

The functions take the parts of a table they read, as protocols: a
:class:`~app.table.core.TableCore` is a :class:`Seen` and a
:class:`~app.table.clock.Clock` a :class:`HandViews`, so the core can
project itself without this module knowing the layers above it.
"""

from __future__ import annotations

from typing import Any, Protocol

from app.table.state import TableState


class Seen(Protocol):
    """What a projection reads of a table: its id, state, clock and who is connected."""

    @property
    def id(self) -> str:
        """The table's id."""

    @property
    def state(self) -> TableState:
        """The table's state."""

    def now(self) -> float:
        """Wall-clock time."""

    def connected(self, user_id: int) -> bool:
        """Whether the user is connected to this table."""


class HandViews(Protocol):
    """The hand in play and the turn, as one viewer may see them."""

    def hand_view(self, seat: int | None) -> dict[str, Any] | None:
        """The hand as ``seat`` (None: a spectator) may see it."""

    def turn_for(self, user_id: int | None) -> dict[str, Any] | None:
        """The current turn as ``user_id`` may see it."""


def seats_public(table: Seen) -> list[dict[str, Any]]:
    """Every taken seat as ``SeatPublic``."""
    return [
        {"seat": p.seat, "player": p.person.public(p.bot), "stack": p.stack,
         "status": p.status.value, "leaving": p.leaving,
         "connected": p.is_bot or (p.user_id is not None and table.connected(p.user_id))}
        for p in sorted(table.state.players.values(), key=lambda p: p.seat)
    ]


def _you(table: Seen, user_id: int) -> dict[str, Any]:
    state = table.state
    player = state.player_of(user_id)
    claim = state.claim_of(user_id)
    waiting = [p.user_id for p in state.waiting]
    current = state.current
    chosen = current.preactions.get(player.seat) if current and player else None
    return {
        "seat": player.seat if player else None,
        "time_bank": player.time_bank if player else None,
        "preaction": chosen.public() if chosen else None,
        "bought_in": player.bought_in if player else None,
        "preferences": player.preferences() if player else None,
        "claimed_seat": claim.seat if claim else None,
        "waiting_position": waiting.index(user_id) + 1 if user_id in waiting else None,
    }


def snapshot(table: Seen, hands: HandViews, user_id: int | None, *,
             chat: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """``table:snapshot`` for one viewer (None: anonymous): their own cards only; ``chat``:
    the chat lines this viewer reads (by default every kept one)."""
    state = table.state
    player = state.player_of(user_id) if user_id is not None else None
    current = state.current
    return {
        "table_id": table.id, "seq": state.seq, "config": state.config.public(),
        "seats": seats_public(table), "button": state.button,
        "hand_id": current.id if current else None,
        "hand": hands.hand_view(player.seat if player else None),
        "turn": hands.turn_for(user_id), "chat": list(state.chat) if chat is None else chat,
        "waiting": len(state.waiting), "hosting": state.desk.public(),
        "you": _you(table, user_id) if user_id is not None else None,
        "fairness": {
            "commitment": current.proof.commitment if current and current.proof else None,
            "next_commitment": state.next_commitment,
        },
    }


def summary(table: Seen) -> dict[str, Any]:
    """The table as the lobby lists it (``TableSummary``)."""
    state, config, now = table.state, table.state.config, table.now()
    return {
        "table_id": table.id, "name": config.name,
        "small_blind": config.stakes.small_blind, "big_blind": config.stakes.big_blind,
        "ante": config.stakes.ante, "min_buy_in": config.min_buy_in,
        "max_buy_in": config.max_buy_in, "seats": config.seats,
        "seated": len(state.players),
        "bots": sum(1 for p in state.players.values() if p.is_bot),
        "waiting": len(state.waiting), "average_pot": state.average_pot(now),
        "hands_per_hour": state.hands_per_hour(now), "private": config.private,
        "game": config.game.value, "rake": config.rake.percent if config.rake else 0,
    }
