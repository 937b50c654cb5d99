"""Request and response bodies of the admin API."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from app.accounts.schemas import LedgerEntryPublic, Strict, UserPrivate
from app.admin.audit import AuditReport, Check
from app.text import bounded


class AdminUserPublic(UserPrivate):
    """An account as admins see it."""

    ban_reason: str | None
    banned_at: datetime | None
    deleted_at: datetime | None
    email_verified_at: datetime | None
    last_daily_credits_at: datetime | None
    muted_until: datetime | None = None
    mute_reason: str | None = None


class AdminUsersPublic(BaseModel):
    """A page of accounts and how many match in all."""

    items: list[AdminUserPublic]
    count: int
    page: int
    per_page: int


class BanRequest(Strict):
    """Why the account is banned (shown to the user when they try to log in)."""

    reason: Annotated[str, Field(min_length=3, max_length=200), bounded(200, min_length=3)]


class CreditAdjustment(Strict):
    """Credits to add (positive) or remove (negative), and why."""

    amount: Annotated[int, Field(ge=-1_000_000_000, le=1_000_000_000)]
    reason: Annotated[str, Field(min_length=3, max_length=100), bounded(100, min_length=3)]

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
    actions: list[str] = Field(default_factory=list, description="Every action the log "
                               "holds (what it can be filtered by)")


class AccountOffPublic(BaseModel):
    """An account whose credits do not reconcile."""

    model_config = ConfigDict(from_attributes=True)

    user_id: int
    email: str | None
    check: Check = Field(description="holdings: balance + chips at tables vs grants - "
                         "removals + hand results; entries: balance vs its ledger entries; "
                         "house: the house balance vs its grants - the people's hand results")
    expected: int
    actual: int


class TableOffPublic(BaseModel):
    """A table whose escrow is not what its seats account for (0 once closed)."""

    model_config = ConfigDict(from_attributes=True)

    table_id: str
    status: str
    expected: int = Field(description="what the table's seats account for")
    actual: int = Field(description="what the ledger holds at the table")


class HandOffPublic(BaseModel):
    """A finished hand whose recorded results disagree with its own stored summary."""

    model_config = ConfigDict(from_attributes=True)

    hand_id: str
    table_id: str
    problem: str = Field(description="what differs, e.g. a seat's net in hand_players "
                         "against the hand's summary")


class RakeOffPublic(BaseModel):
    """A table whose hands record another rake than the ledger paid the house from it."""

    model_config = ConfigDict(from_attributes=True)

    table_id: str
    hands: int = Field(description="the rake its stored hands record")
    ledger: int = Field(description="the rake entries naming the table")


class ClawBackOffPublic(BaseModel):
    """A claw-back whose ledger entries took another amount than they gave."""

    model_config = ConfigDict(from_attributes=True)

    reference: str = Field(description="the claw-back's reference, flag:<id>")
    taken: int
    given: int


class AuditTotalsPublic(BaseModel):
    """The ledger's global totals, in credits."""

    balances: int
    escrowed: int
    granted: int
    removed: int
    balanced: bool = Field(description="balances + escrowed == granted - removed")


class AuditPublic(BaseModel):
    """The reconciling audit: balanced, or every account and table that is off."""

    balanced: bool
    totals: AuditTotalsPublic
    people: int
    open_tables: int
    accounts: list[AccountOffPublic]
    tables: list[TableOffPublic]
    hands: list[HandOffPublic]
    rake: list[RakeOffPublic] = Field(default_factory=list)
    clawbacks: list[ClawBackOffPublic] = Field(default_factory=list)

    @classmethod
    def of(cls, report: AuditReport) -> AuditPublic:
        """The public form of a report."""
        t = report.totals
        return cls(
            balanced=report.balanced,
            totals=AuditTotalsPublic(balances=t.balances, escrowed=t.escrowed,
                                     granted=t.granted, removed=t.removed,
                                     balanced=report.totals_balanced),
            people=report.people, open_tables=report.open_tables,
            accounts=[AccountOffPublic.model_validate(a) for a in report.accounts],
            tables=[TableOffPublic.model_validate(t) for t in report.tables],
            hands=[HandOffPublic.model_validate(h) for h in report.hands],
            rake=[RakeOffPublic.model_validate(r) for r in report.rake],
            clawbacks=[ClawBackOffPublic.model_validate(c) for c in report.clawbacks],
        )


class MuteRequest(Strict):
    """How long the player may not chat, and why (shown to admins only)."""

    minutes: Annotated[int, Field(ge=1, le=525_600)]
    reason: Annotated[str, Field(min_length=3, max_length=200), bounded(200, min_length=3)]


class ChatWordCreate(Strict):
    """A word the chat filter masks from now on (whole words, however disguised)."""

    word: Annotated[str, Field(min_length=2, max_length=40), bounded(40, min_length=2)]


class ChatWordPublic(BaseModel):
    """A word on the list."""

    word: str
    created_at: datetime


class ChatWordsPublic(BaseModel):
    """The whole word list, alphabetically."""

    items: list[ChatWordPublic]
    count: int


class ChatPerson(BaseModel):
    """An account as the chat pages name it."""

    id: int
    public_id: str
    name: str | None


class ChatLinePublic(BaseModel):
    """One chat line: as typed and as the table was shown it."""

    id: int
    table_id: str
    user: ChatPerson
    said: str
    shown: str
    at: datetime


class ChatLinesPublic(BaseModel):
    """A page of chat lines, newest first, and how many match in all."""

    items: list[ChatLinePublic]
    count: int
    page: int
    per_page: int


class ReportLine(BaseModel):
    """A chat line a report carries, as the table showed it."""

    public_id: str
    name: str
    text: str
    at: float = Field(description="Unix time in seconds")


class ChatReportPublic(BaseModel):
    """A report about a player, with the table's chat and hand when it was made."""

    id: int
    reporter: ChatPerson
    reported: ChatPerson
    table_id: str
    hand_id: str | None
    reason: str
    chat: list[ReportLine]
    created_at: datetime
    handled_at: datetime | None
    handled_by: int | None


class ChatReportsPublic(BaseModel):
    """A page of reports, newest first, and how many match in all."""

    items: list[ChatReportPublic]
    count: int
    page: int
    per_page: int
