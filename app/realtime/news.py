"""What the other processes tell every process about tables, and what it sets off here.

The news each process publishes (:meth:`app.realtime.cluster.Cluster.news`) reaches
every process, this one too; :class:`TableNews` routes each kind to the part of hosting
or of the edge it concerns.
"""

from __future__ import annotations

from typing import Any

from app.hosting.moves import TableMoves
from app.hosting.owners import Owners
from app.hosting.ownership import Ownership
from app.realtime.cluster import Cluster, viewer_from_dict
from app.realtime.watchers import Watchers


class TableNews:
    """Hears the news about tables."""

    def __init__(self, *, ownership: Ownership, owners: Owners, moves: TableMoves,
                 watchers: Watchers, cluster: Cluster | None) -> None:
        self.ownership = ownership
        self.owners = owners
        self.moves = moves
        self.watchers = watchers
        self.cluster = cluster

    async def hear(self, body: dict[str, Any]) -> None:
        """What another process (or this one) told every process."""
        kind = body.get("kind")
        for table_id in _tables_changed(body):
            self.owners.drop(table_id)
        if kind == "disconnected":
            await self.watchers.disconnected(str(body["sid"]),
                                             viewer_from_dict(body.get("viewer")))
        elif kind == "move":
            user_id = body.get("user_id")
            await self.moves.asked(str(body["table_id"]), str(body["from"]),
                                   int(user_id) if user_id is not None else None)
        elif kind == "table_moved" and body.get("to") == self.ownership.leases.process_id:
            await self.owners.take_handed(str(body["table_id"]))
        elif kind == "adopted" and self.cluster is not None:
            table_id = str(body["table_id"])
            if sessions := self.watchers.sessions_of(table_id):
                await self.cluster.tell(str(body["from"]), {
                    "kind": "watching", "table_id": table_id, "sessions": sessions})
        elif kind == "watching":
            await self.watchers.rejoin(str(body["table_id"]), [
                (str(s["sid"]), viewer_from_dict(s.get("viewer"))) for s in body["sessions"]])
        elif kind == "released" and not self.ownership.live.draining:
            await self.ownership.adopt_orphans()


def _tables_changed(news: dict[str, Any]) -> list[str]:
    """The tables whose owner this news says changed."""
    kind = news.get("kind")
    if kind in ("adopted", "table_moved"):
        return [str(news["table_id"])]
    if kind == "released":
        return [str(t) for t in news.get("tables", ())]
    return []
