"""Request and response bodies of ``/admin/integrity`` and ``/admin/users/{id}/linked``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from app.accounts.schemas import Strict
from app.db.integrity import FlagKind, FlagStatus
from app.text import bounded


class IntegrityPerson(BaseModel):
    """An account as the integrity pages name it."""

    id: int
    public_id: str
    name: str | None
    status: str


class HandLink(BaseModel):
    """A hand the evidence names, and where to read it."""

    id: str
    url: str = Field(description="The admins' view of the hand (GET, JSON)")
    phh: str = Field(description="Its hand history (PHH)")


def hand_links(hand_ids: list[str]) -> list[HandLink]:
    """The links of each hand id."""
    return [HandLink(id=h, url=f"/admin/hands/{h}", phh=f"/admin/hands/{h}.phh")
            for h in hand_ids]


class LinkPublic(BaseModel):
    """Another account linked to this one, and by what."""

    user: IntegrityPerson
    by: Literal["address", "device"]
    times: int = Field(description="The other account's sign-ins sharing it")
    last_seen: datetime


class LinkedAccountsPublic(BaseModel):
    """The accounts linked to one within the kept days of sign-in records."""

    items: list[LinkPublic]
    count: int
    days: int


class PairFlowPublic(BaseModel):
    """What flowed between two players: net, from whom to whom, and in which hands."""

    from_user: IntegrityPerson
    to_user: IntegrityPerson
    net: int = Field(description="Credits that went from from_user to to_user, less those "
                     "that came back")
    net_bb: float = Field(description="net in big blinds of the hands it flowed in")
    one_way: float = Field(description="The share of all that flowed between them that went "
                           "this way (0.5 evenly, 1 only this way)")
    hands: int = Field(description="Hands in which chips flowed between them")
    hand_links: list[HandLink] = Field(description="The most recent of those hands")
    linked: bool = Field(description="The two accounts share an address or a device")


class ChipFlowPublic(BaseModel):
    """Pairs of players by the chips that flowed between them, the largest net first."""

    items: list[PairFlowPublic]
    count: int
    days: int


class FlagPublic(BaseModel):
    """A flag in the queue, with its evidence and the hands it names."""

    id: int
    kind: FlagKind
    status: FlagStatus
    user: IntegrityPerson
    other_user: IntegrityPerson | None
    evidence: dict[str, Any]
    hand_links: list[HandLink]
    created_at: datetime
    handled_at: datetime | None
    handled_by: int | None


class FlagsPublic(BaseModel):
    """A page of flags, newest first, and how many match in all."""

    items: list[FlagPublic]
    count: int
    page: int
    per_page: int


class ScanResult(BaseModel):
    """The flags a scan raised."""

    raised: int
    items: list[FlagPublic]


class FlagAction(Strict):
    """Act on a flag: ban the flagged account and/or claw its chips back (chip dumping).

    A claw-back moves ``amount`` credits (default: the flagged net flow; never more than
    the account holds) from the account that received the chips to the one that lost them,
    or to the house."""

    ban: bool = False
    ban_reason: Annotated[str, Field(min_length=3, max_length=200),
                          bounded(200, min_length=3)] | None = None
    claw_back: bool = False
    claw_back_to: Literal["loser", "house"] = "loser"
    amount: Annotated[int, Field(ge=1, le=1_000_000_000)] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> FlagAction:
        if self.ban and self.ban_reason is None:
            raise ValueError("a ban needs a ban_reason")
        if not self.ban and not self.claw_back:
            raise ValueError("choose ban, claw_back or both (or dismiss the flag)")
        if self.amount is not None and not self.claw_back:
            raise ValueError("amount is for a claw-back")
        return self


class ClawBackPublic(BaseModel):
    """What a claw-back moved."""

    from_user: int
    to_user: int
    amount: int
    reference: str


class FlagActionResult(BaseModel):
    """The flag after the action, whether the account was banned, and the claw-back."""

    flag: FlagPublic
    banned: bool
    claw_back: ClawBackPublic | None
