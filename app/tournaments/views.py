"""What a tournament looks like to the lobby, the tournament page and the table page:
one in play (:func:`detail`), or one over, read from storage (:func:`stored`, and
:func:`finished` for the lobby's results)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.tournaments.rules import TournamentStatus
from app.tournaments.schemas import TournamentSummary
from app.tournaments.service import TournamentService, bot_public_id
from app.tournaments.standings import standing
from app.tournaments.store import StoredTournament
from app.tournaments.tables import table_id
from app.tournaments.tournament import Tournament


def detail(service: TournamentService, tournament_id: str) -> dict[str, Any]:
    """Everything public about one tournament in play (``TournamentPublic``)."""
    t = service.get(tournament_id)
    places = {f.player: f.place for f in t.results()}
    prizes = t.awards() if t.status is TournamentStatus.FINISHED else None
    alive = {e.id: e.chips for e in t.entries.values() if not e.busted}
    persons = service.persons[tournament_id]
    players = [
        {"entry": e.id, "name": service.name_of(tournament_id, e.player),
         "public_id": persons[e.player].public_id if e.player in persons else None,
         "chips": e.chips, "table": e.table, "seat": e.seat, "absent": e.absent,
         "busted": e.busted, "place": places.get(e.id),
         "rank": standing(alive, e.id) if e.id in alive else None,
         "prize": None if prizes is None else prizes.get(e.id, 0)}
        for e in sorted(t.entries.values(), key=lambda e: (e.busted, -e.chips, e.id))
    ]
    clock = t.clock()
    level = None
    if t.status is TournamentStatus.RUNNING:
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


def stored(record: StoredTournament) -> dict[str, Any]:
    """Everything public about a tournament no longer in play (finished, cancelled), from
    storage: each entry's place and prize as paid."""
    t = Tournament.from_dict(record.state)
    rows = {e.entry: e for e in record.entries}
    players = []
    for e in t.entries.values():
        row = rows.get(e.id)
        name = row.name if row else e.player
        public_id = (bot_public_id(record.id, name) if e.player.startswith("bot:")
                     else row.public_id if row else None)
        players.append({"entry": e.id, "name": name, "public_id": public_id,
                        "chips": e.chips, "table": None, "seat": None, "absent": False,
                        "busted": e.busted, "place": row.place if row else None, "rank": None,
                        "prize": row.prize if row else 0})
    players.sort(key=lambda p: (p["place"] is None, p["place"] or 0, p["entry"]))
    return {
        "id": record.id, "name": record.name, "kind": t.rules.kind.value,
        "game": t.rules.game.value, "status": t.status.value, "buy_in": t.rules.buy_in,
        "fee": t.rules.fee,
        "entrants": len(t.entries), "players_left": t.players_left,
        "capacity": t.rules.capacity, "prize_pool": t.pool, "starts_at": t.rules.starts_at,
        "late_registration": False, "table_size": t.rules.table_size,
        "structure": t.rules.structure.to_dict(), "level": None,
        "payouts": list(t.prizes()), "players": players, "tables": [],
        "hand_for_hand": False,
    }


def finished(record: StoredTournament, at: datetime) -> dict[str, Any]:
    """A finished tournament as the lobby's results list it: its summary, when it ended
    and its prize winners."""
    whole = stored(record)
    summary = {k: whole[k] for k in TournamentSummary.model_fields if k in whole}
    winners = [{"name": p["name"], "place": p["place"], "prize": p["prize"]}
               for p in whole["players"] if p["prize"] > 0]
    return {**summary, "finished_at": at.replace(tzinfo=at.tzinfo or UTC).timestamp(),
            "winners": winners}
