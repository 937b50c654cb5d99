"""Tournament templates: named presets an admin creates a tournament from, once or on a
schedule (:mod:`app.tournaments.scheduler`).

A template names a kind, a structure preset (starting stack, level minutes, see
:data:`app.tournaments.structure.PRESETS`), the seats a table and a default buy-in and
fee. They are constants: admins pick one and may change the name, buy-in and fee of
what they create from it, or create a fully custom tournament instead.

>>> TEMPLATES["turbo"].create(name="Nightly", buy_in=50, fee=5, starts_at=100.0).preset
'turbo'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from app.tournaments.schemas import PresetName, Template, TournamentCreate
from app.tournaments.structure import preset


@dataclass(frozen=True, slots=True)
class TournamentTemplate:
    """A named preset: kind, structure, seats a table, default buy-in and fee."""

    key: Template
    label: str
    kind: Literal["sit_and_go", "multi_table"]
    preset: PresetName
    table_size: int
    buy_in: int
    fee: int

    def create(
        self, *, name: str | None = None, buy_in: int | None = None, fee: int | None = None,
        starts_at: float | None = None, bots: int = 0,
    ) -> TournamentCreate:
        """The creation request for one tournament of this template (``starts_at``, Unix
        time, only for a multi-table one; a sit & go starts when full)."""
        return TournamentCreate.model_validate({
            "name": name or self.label, "kind": self.kind, "preset": self.preset,
            "table_size": self.table_size,
            "buy_in": self.buy_in if buy_in is None else buy_in,
            "fee": self.fee if fee is None else fee,
            "starts_at": starts_at if self.kind == "multi_table" else None, "bots": bots,
        })

    def public(self) -> dict[str, Any]:
        """What the admin page shows of it: every setting, the structure's too."""
        structure = preset(self.preset)
        return {"key": self.key, "label": self.label, "kind": self.kind,
                "preset": self.preset, "table_size": self.table_size,
                "buy_in": self.buy_in, "fee": self.fee,
                "starting_stack": structure.starting_stack,
                "level_minutes": structure.levels[0].minutes,
                "late_levels": structure.late_levels}


TEMPLATES: dict[str, TournamentTemplate] = {
    t.key: t for t in (
        TournamentTemplate("turbo", "Turbo", "multi_table", "turbo", 9, 50, 5),
        TournamentTemplate("regular", "Regular", "multi_table", "regular", 9, 100, 10),
        TournamentTemplate("deep_stack", "Deep stack", "multi_table", "deep", 9, 200, 20),
        TournamentTemplate("heads_up", "Heads-up sit & go", "sit_and_go", "hyper", 2, 50, 5),
    )
}
