"""Bodies of the ignore list API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field

from app.accounts.schemas import Strict

PUBLIC_ID = r"^[0-9a-f]{32}$"


class IgnoredCreate(Strict):
    """The player whose chat you no longer want to read."""

    public_id: Annotated[str, Field(pattern=PUBLIC_ID)]


class IgnoredPublic(BaseModel):
    """A player you ignore."""

    public_id: str
    name: str | None
    since: datetime


class IgnoredListPublic(BaseModel):
    """Everyone you ignore, in the order you ignored them."""

    items: list[IgnoredPublic]
    count: int
