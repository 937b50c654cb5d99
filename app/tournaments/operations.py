"""Tournament requests over HTTP, run by the process that runs the tournaments.

Tournaments live in the memory of one process (the holder of the table lock,
see :mod:`app.hosting.ownership`). Alone, that is every process that serves; with
several processes, a request reaching another one is sent on to it over Redis
(``internal:tournaments``) and its answer, or its error, comes back as if local.
"""

from __future__ import annotations

from typing import Any

from app.poker.state import Game
from app.tournaments import views
from app.tournaments.errors import TournamentNotFound
from app.tournaments.rules import Rules, TournamentKind
from app.tournaments.schemas import TournamentCreate
from app.tournaments.structure import preset, structure_from_dict
from app.tournaments.tables import TournamentTables

INTERNAL_EVENT = "internal:tournaments"
CHANGES = frozenset({"create", "cancel"})


async def run(tournaments: TournamentTables, op: str, payload: dict[str, Any]) -> Any:
    """Run ``op`` here, or on the process that runs the tournaments."""
    owners = tournaments.tables.owners
    director = await owners.director()
    if director is None or owners.peers is None:
        if op in CHANGES:
            tournaments.require_running()
        return await perform(tournaments, op, payload)
    answer = await owners.peers.ask(director, INTERNAL_EVENT, {"op": op, **payload})
    return answer["result"]


async def perform(tournaments: TournamentTables, op: str, payload: dict[str, Any]) -> Any:
    """Run ``op`` on this process (which runs the tournaments)."""
    service = tournaments.service
    if op == "list":
        return service.listing()
    if op == "finished":
        return [views.finished(record, at)
                for record, at in await service.store.finished(int(payload["limit"]))]
    tournament_id = str(payload["tournament_id"]) if "tournament_id" in payload else ""
    if op == "detail":
        if tournament_id in service.tournaments:
            return views.detail(service, tournament_id)
        record = await service.store.stored(tournament_id)
        if record is None:
            raise TournamentNotFound(f"no tournament {tournament_id!r}",
                                     tournament_id=tournament_id)
        return views.stored(record)
    if op == "cancel":
        service.get(tournament_id)
        await service.cancel(tournament_id)
        await tournaments.removed(tournament_id)
        return views.detail(service, tournament_id)
    if op == "create":
        data = TournamentCreate.model_validate(payload["data"])
        tournament_id = await service.create(data.name, rules_of(data),
                                             created_by=payload.get("created_by"))
        for n in range(data.bots):
            await service.register_bot(tournament_id, f"Bot {n + 1}")
        await tournaments.announce(tournament_id)
        return views.detail(service, tournament_id)
    raise ValueError(f"unknown tournament operation {op!r}")


def rules_of(data: TournamentCreate) -> Rules:
    """The rules a creation request asks for."""
    structure = (structure_from_dict(data.structure.model_dump()) if data.structure is not None
                 else preset(data.preset or "turbo"))
    return Rules(TournamentKind(data.kind), structure, table_size=data.table_size,
                 buy_in=data.buy_in, fee=data.fee, max_entrants=data.max_entrants,
                 entries_per_player=data.entries_per_player, starts_at=data.starts_at,
                 game=Game(data.game))
