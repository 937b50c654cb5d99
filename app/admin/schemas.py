"""Request and response bodies of the admin API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.accounts.schemas import LedgerEntryPublic, Strict, UserPrivate


class AdminUserPublic(UserPrivate):
    """An account as admins see it."""

    ban_reason: str | None
    banned_at: datetime | None
    deleted_at: datetime | None
    email_verified_at: datetime | None
    last_daily_credits_at: datetime | None


class AdminUsersPublic(BaseModel):
    """A page of accounts and how many match in all."""

    items: list[AdminUserPublic]
    count: int
    page: int
    per_page: int


class BanRequest(Strict):
    """Why the account is banned (shown to the user when they try to log in)."""

    reason: Annotated[str, Field(min_length=3, max_length=200)]


class CreditAdjustment(Strict):
    """Credits to add (positive) or remove (negative), and why."""

    amount: Annotated[int, Field(ge=-1_000_000_000, le=1_000_000_000)]
    reason: Annotated[str, Field(min_length=3, max_length=100)]

    @field_validator("amount")
    @classmethod
    def _not_zero(cls, amount: int) -> int:
        if amount == 0:
            raise ValueError("amount must not be zero")
        return amount


class CreditAdjustmentResult(BaseModel):
    """The ledger entry written and the new balance."""

    entry: LedgerEntryPublic
    balance: int


class AuditLogEntryPublic(BaseModel):
    """One admin action."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    admin_id: int
    action: str
    target_user_id: int | None
    details: dict[str, Any]
    created_at: datetime


class AuditLogPublic(BaseModel):
    """A page of admin actions, newest first."""

    items: list[AuditLogEntryPublic]
    count: int
    page: int
    per_page: int
