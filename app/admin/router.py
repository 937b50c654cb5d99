"""``/admin`` routes. Every route needs an admin; players get 403.

Feature areas add their own admin routes (tables, hand histories) as further
``APIRouter``s included in :data:`router`, so they share the prefix and the check.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query

from app.accounts.dependencies import (
    AdminUser,
    AppSettings,
    DatabaseDep,
    DbSession,
    Hooks,
    admin_user,
)
from app.accounts.schemas import LedgerEntriesPublic, LedgerEntryPublic
from app.accounts.views import ledger_page
from app.admin import service
from app.admin.announcements import router as announcements_admin_router
from app.admin.audit import audit
from app.admin.chat import router as chat_admin_router
from app.admin.dependencies import TargetUser
from app.admin.economy import router as economy_admin_router
from app.admin.house import router as house_admin_router
from app.admin.integrity import router as integrity_admin_router
from app.admin.schemas import (
    AdminUserPublic,
    AdminUsersPublic,
    AuditLogEntryPublic,
    AuditLogPublic,
    AuditPublic,
    BanRequest,
    CreditAdjustment,
    CreditAdjustmentResult,
)
from app.admin.tables import router as tables_admin_router
from app.admin.views import Page, PerPage, admin_view
from app.db import ledger
from app.db.models import MAX_ID, Role, UserStatus
from app.errors import error_responses
from app.text import bounded

router = APIRouter(prefix="/admin", tags=["admin"], dependencies=[Depends(admin_user)],
                   responses=error_responses(401, 403, 404, 409, 413, 422))
router.include_router(tables_admin_router)
router.include_router(house_admin_router)
router.include_router(chat_admin_router)
router.include_router(economy_admin_router)
router.include_router(integrity_admin_router)
router.include_router(announcements_admin_router)


@router.get("/users")
async def list_users(
    session: DbSession,
    settings: AppSettings,
    q: Annotated[Annotated[str, bounded(320)] | None,
                 Query(max_length=320, description="e-mail, name or id")] = None,
    status: UserStatus | None = None,
    role: Role | None = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> AdminUsersPublic:
    """Search accounts by e-mail, display name or id, one page at a time."""
    users, count = await service.find_users(session, query=q, status=status, role=role,
                                            offset=(page - 1) * per_page, limit=per_page)
    return AdminUsersPublic(items=[admin_view(user, settings) for user in users], count=count,
                            page=page, per_page=per_page)


@router.get("/users/{user_id}")
async def read_user(user: TargetUser, settings: AppSettings) -> AdminUserPublic:
    """One account."""
    return admin_view(user, settings)


@router.get("/users/{user_id}/ledger")
async def read_user_ledger(
    user: TargetUser, session: DbSession, page: Page = 1, per_page: PerPage = 50
) -> LedgerEntriesPublic:
    """One account's credit history, newest first."""
    entries, count = await ledger.entries_for(session, user.id, offset=(page - 1) * per_page,
                                              limit=per_page)
    return await ledger_page(session, entries, count, page=page, per_page=per_page)


@router.post("/users/{user_id}/ban")
async def ban_user(
    data: BanRequest,
    user: TargetUser,
    admin: AdminUser,
    session: DbSession,
    settings: AppSettings,
    hooks: Hooks,
) -> AdminUserPublic:
    """Ban an account: no more logins, existing sessions end."""
    await service.ban(session, hooks, admin, user, data.reason)
    return admin_view(user, settings)


@router.post("/users/{user_id}/unban")
async def unban_user(
    user: TargetUser, admin: AdminUser, session: DbSession, settings: AppSettings
) -> AdminUserPublic:
    """Lift a ban."""
    await service.unban(session, admin, user)
    return admin_view(user, settings)


@router.post("/users/{user_id}/demote")
async def demote_user(
    user: TargetUser, admin: AdminUser, session: DbSession, settings: AppSettings, hooks: Hooks
) -> AdminUserPublic:
    """Make an admin a player again (audited); their sessions and sockets end."""
    await service.demote(session, hooks, admin, user)
    return admin_view(user, settings)


@router.post("/users/{user_id}/credits")
async def adjust_credits(
    data: CreditAdjustment, user: TargetUser, admin: AdminUser, session: DbSession
) -> CreditAdjustmentResult:
    """Add or remove credits with a reason, through the ledger."""
    entry = await service.adjust_credits(session, admin, user, data.amount, data.reason)
    return CreditAdjustmentResult(entry=LedgerEntryPublic.model_validate(entry),
                                  balance=entry.balance_after)


@router.get("/audit-log")
async def read_audit_log(
    session: DbSession,
    action: Annotated[str | None, Query(max_length=40, pattern=r"^[a-z_]+$",
                                        description="Only this action")] = None,
    admin_id: Annotated[int | None, Query(ge=1, le=MAX_ID,
                                          description="Only this admin's actions")] = None,
    user_id: Annotated[int | None, Query(ge=1, le=MAX_ID,
                                         description="Only actions about this account")] = None,
    page: Page = 1,
    per_page: PerPage = 50,
) -> AuditLogPublic:
    """Admin actions, newest first; of one action, by one admin or about one account."""
    entries, count = await service.audit_log(
        session, offset=(page - 1) * per_page, limit=per_page, action=action,
        admin_id=admin_id, user_id=user_id)
    return AuditLogPublic(
        items=[AuditLogEntryPublic.model_validate(entry) for entry in entries],
        count=count, page=page, per_page=per_page,
        actions=await service.audit_actions(session),
    )


@router.get("/audit")
async def read_audit(database: DatabaseDep) -> AuditPublic:
    """Reconcile every balance, table escrow and hand result with the ledger."""
    return AuditPublic.of(await audit(database))
