"""What a tournament looks like to the lobby, the tournament page and the table page."""

from __future__ import annotations

from typing import Any

from app.tournaments.service import TournamentService
from app.tournaments.standings import standing
from app.tournaments.tables import table_id


def detail(service: TournamentService, tournament_id: str) -> dict[str, Any]:
    """Everything public about one tournament (``TournamentPublic``)."""
    t = service.get(tournament_id)
    places = {f.player: f.place for f in t.results()}
    alive = {e.id: e.chips for e in t.entries.values() if not e.busted}
    players = [
        {"entry": e.id, "name": service.name_of(tournament_id, e.player),
         "public_id": service.persons[tournament_id][e.player].public_id
         if e.player in service.persons[tournament_id] else None,
         "chips": e.chips, "table": e.table, "seat": e.seat, "absent": e.absent,
         "place": places.get(e.id),
         "rank": standing(alive, e.id) if e.id in alive else None}
        for e in sorted(t.entries.values(), key=lambda e: (e.busted, -e.chips, e.id))
    ]
    clock = t.clock()
    level = None
    if t.status.value == "running":
        level = {**clock.level.to_dict(), "number": clock.level_number,
                 "on_break": clock.on_break, "remaining": clock.remaining,
                 "next": clock.next_level.to_dict() if clock.next_level else None}
    tables = [{"number": n, "table_id": table_id(tournament_id, n),
               "players": len(s.seats)} for n, s in sorted(t.tables.items())]
    return {
        **service.summary(tournament_id), "table_size": t.rules.table_size,
        "structure": t.rules.structure.to_dict(), "level": level,
        "payouts": list(t.prizes()), "players": players, "tables": tables,
        "hand_for_hand": t.hand_for_hand,
    }
