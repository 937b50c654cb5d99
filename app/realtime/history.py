"""The record of a finished hand: its PHH text, a summary and each person's net result.

The stored PHH text holds every hole card (it is the server's record);
:func:`app.poker.phh.phh_for_viewer` hides the cards a given player never saw
before a hand history is handed to them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.poker.events import PotAwarded
from app.poker.phh import phh_fields, to_phh
from app.realtime.seating import HandInPlay, Player
from app.realtime.store import FinishedHand


def finished_hand(
    table_id: str, current: HandInPlay, players: Mapping[int, Player]
) -> FinishedHand:
    """Everything stored about a hand that just completed."""
    hand = current.hand
    rows: list[dict[str, Any]] = []
    results: list[tuple[int, int, int]] = []
    for seat in hand.seats:
        player = players[seat.number]
        net = seat.stack - seat.starting_stack
        rows.append({
            "seat": seat.number, "player": player.person.public(player.bot),
            "starting_stack": seat.starting_stack, "final_stack": seat.stack, "net": net,
            "cards": [str(c) for c in seat.cards] if seat.shown else None,
        })
        if player.user_id is not None:
            results.append((player.user_id, seat.number, net))
    pots = [
        {"pot": e.pot, "amount": e.amount, "seats": list(e.seats), "amounts": list(e.amounts),
         "hand": e.hand, "run": e.run}
        for e in hand.history if isinstance(e, PotAwarded)
    ]
    pot = sum(s.contributed + s.dead for s in hand.seats)
    summary = {
        "hand_id": current.id, "table_id": table_id, "number": current.number,
        "button": hand.button, "stakes": hand.stakes.to_dict(),
        "board": [str(c) for c in hand.board], "pot": pot, "players": rows, "pots": pots,
        "boards": [[str(c) for c in board] for board in hand.boards()],
        "fairness": current.proof.to_dict() if current.proof else None,
    }
    names = [players[s.number].person.name for s in hand.seats]
    fields: dict[str, Any] = {"hand": current.number}
    if current.proof is not None:
        fields.update(phh_fields(current.proof))
    return FinishedHand(
        id=current.id, number=current.number, pot=pot,
        phh=to_phh(hand, players=names, fields=fields),
        summary=summary, started_at=current.started_at, results=tuple(results),
    )
