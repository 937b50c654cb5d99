"""``/admin/integrity`` and ``/admin/users/{id}/linked``: linked accounts, the chip-flow
report, the flags queue (scan, dismiss, act: ban and claw-back).

Included in :data:`app.admin.router.router`, so every route needs an admin.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from fastapi import APIRouter, Path, Query

from app.accounts.dependencies import AdminUser, AppSettings, DbSession, Hooks
from app.admin import integrity_service as service
from app.admin.dependencies import TargetUser
from app.admin.integrity_schemas import (
    ChipFlowPublic,
    FlagAction,
    FlagActionResult,
    FlagPublic,
    FlagsPublic,
    LinkedAccountsPublic,
    ScanResult,
)
from app.admin.tables import Tables
from app.admin.views import Page, PerPage
from app.db.integrity import FlagKind, FlagStatus
from app.db.models import MAX_ID, utcnow
from app.integrity import flags
from app.integrity.scan import chip_flow, scan

router = APIRouter(tags=["admin"])

FlagId = Annotated[int, Path(ge=1, le=MAX_ID, description="The flag's id")]
OneUser = Annotated[int | None, Query(ge=1, le=MAX_ID, description="One account's")]


@router.get("/users/{user_id}/linked")
async def read_linked_accounts(user: TargetUser, session: DbSession,
                               settings: AppSettings) -> LinkedAccountsPublic:
    """The accounts sharing an address or a device with this one (within the kept days)."""
    items = await service.linked(session, settings, user)
    return LinkedAccountsPublic(items=items, count=len(items),
                                days=settings.sign_in_record_days)


@router.get("/integrity/chip-flow")
async def read_chip_flow(
    session: DbSession,
    settings: AppSettings,
    days: Annotated[int, Query(ge=1, le=365, description="The last this many days")] = 7,
    user_id: OneUser = None,
) -> ChipFlowPublic:
    """Who won how much from whom at cash tables, by pair, the largest net first."""
    pairs = await chip_flow(session, since=utcnow() - timedelta(days=days), user_id=user_id)
    return ChipFlowPublic(items=await service.flow_public(session, settings, pairs),
                          count=len(pairs), days=days)


@router.post("/integrity/scan")
async def run_scan(session: DbSession, settings: AppSettings) -> ScanResult:
    """Scan the recent hands now and raise the flags they call for."""
    raised = await scan(session, settings, now=utcnow())
    await session.commit()
    return ScanResult(raised=len(raised), items=await service.flags_public(session, raised))


@router.get("/integrity/flags")
async def list_flags(
    session: DbSession,
    kind: FlagKind | None = None,
    status: FlagStatus | None = FlagStatus.OPEN,
    user_id: OneUser = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> FlagsPublic:
    """The flags queue, newest first (open ones unless asked otherwise)."""
    found, count = await flags.list_flags(session, kind=kind, status=status, user_id=user_id,
                                          offset=(page - 1) * per_page, limit=per_page)
    return FlagsPublic(items=await service.flags_public(session, found), count=count,
                       page=page, per_page=per_page)


@router.post("/integrity/flags/{flag_id}/dismiss")
async def dismiss_flag(flag_id: FlagId, admin: AdminUser, session: DbSession) -> FlagPublic:
    """Dismiss an open flag (audited)."""
    flag = await service.dismiss(session, admin, flag_id)
    return (await service.flags_public(session, [flag]))[0]


@router.post("/integrity/flags/{flag_id}/action")
async def act_on_flag(flag_id: FlagId, data: FlagAction, admin: AdminUser, session: DbSession,
                      hooks: Hooks, tables: Tables) -> FlagActionResult:
    """Ban the flagged account and/or claw back what it received, through the ledger
    (audited)."""
    house = await tables.services.store.house()
    flag, banned, moved = await service.act(session, hooks, admin, flag_id, data, house=house)
    return await service.action_result(session, flag, banned, moved)
