"""Admin work on integrity: the linked accounts of one, the chip-flow report, the flags
queue, and acting on a flag (a ban, a claw-back through the ledger), each change written
to the audit log in its transaction."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.hooks import AccountHooks
from app.admin import service
from app.admin.integrity_schemas import (
    ClawBackPublic,
    FlagAction,
    FlagActionResult,
    FlagPublic,
    IntegrityPerson,
    LinkPublic,
    PairFlowPublic,
    hand_links,
)
from app.config import Settings
from app.db.integrity import FlagKind, FlagStatus, IntegrityFlag
from app.db.models import User, utcnow
from app.integrity import clawback, signins
from app.integrity.errors import FlagHandled, NothingToClawBack
from app.integrity.flags import get_flag
from app.integrity.flow import PairFlow

FLOW_PAIRS_SHOWN = 200


async def people(session: AsyncSession, ids: Iterable[int]) -> dict[int, IntegrityPerson]:
    """The accounts with these ids, by id."""
    wanted = sorted(set(ids))
    if not wanted:
        return {}
    users = await session.scalars(select(User).where(User.id.in_(wanted)))
    return {u.id: IntegrityPerson(id=u.id, public_id=u.public_id, name=u.display_name,
                                  status=u.status.value) for u in users}


async def linked(session: AsyncSession, settings: Settings, user: User) -> list[LinkPublic]:
    """The accounts linked to ``user`` within the kept days, most recent first."""
    since = utcnow() - timedelta(days=settings.sign_in_record_days)
    links = await signins.linked_accounts(session, user.id, since=since)
    named = await people(session, (link.user_id for link in links))
    return [LinkPublic(user=named[link.user_id], by=link.by,  # type: ignore[arg-type]
                       times=link.times, last_seen=link.last_seen) for link in links]


async def flow_public(session: AsyncSession, settings: Settings,
                      pairs: list[PairFlow]) -> list[PairFlowPublic]:
    """The report's rows for the largest pairs."""
    shown = pairs[:FLOW_PAIRS_SHOWN]
    named = await people(session, (u for p in shown for u in (p.low, p.high)))
    linked = await signins.linked_pairs(
        session, named, since=utcnow() - timedelta(days=settings.sign_in_record_days))
    return [PairFlowPublic(
        from_user=named[pair.loser], to_user=named[pair.winner], net=pair.net,
        net_bb=round(pair.net_bb, 1), one_way=round(pair.one_way, 3), hands=pair.hands,
        hand_links=hand_links(list(pair.hand_ids)), linked=(pair.low, pair.high) in linked)
        for pair in shown]


async def flags_public(session: AsyncSession, flags: list[IntegrityFlag]) -> list[FlagPublic]:
    """The public form of flags."""
    named = await people(session, (u for f in flags for u in (f.user_id, f.other_user_id)
                                   if u is not None))
    return [FlagPublic(
        id=f.id, kind=f.kind, status=f.status, user=named[f.user_id],
        other_user=named.get(f.other_user_id) if f.other_user_id is not None else None,
        evidence=dict(f.evidence or {}),
        hand_links=hand_links([str(h) for h in (f.evidence or {}).get("hand_ids") or ()]),
        created_at=f.created_at, handled_at=f.handled_at, handled_by=f.handled_by)
        for f in flags]


def _require_open(flag: IntegrityFlag) -> None:
    if flag.status is not FlagStatus.OPEN:
        raise FlagHandled(f"this flag is already {flag.status.value}", status=flag.status.value)


def _close(flag: IntegrityFlag, admin: User, status: FlagStatus) -> None:
    flag.status = status
    flag.handled_at = utcnow()
    flag.handled_by = admin.id


async def dismiss(session: AsyncSession, admin: User, flag_id: int) -> IntegrityFlag:
    """Dismiss an open flag (audited)."""
    flag = await get_flag(session, flag_id)
    _require_open(flag)
    _close(flag, admin, FlagStatus.DISMISSED)
    service.record(session, admin, "integrity_dismiss", None, flag_id=flag.id,
                   kind=flag.kind.value, user_id=flag.user_id)
    await session.commit()
    return flag


def _claw_back_plan(flag: IntegrityFlag, data: FlagAction, house: int) -> tuple[int, int]:
    """To whom and how much a claw-back of ``flag`` moves."""
    evidence = flag.evidence or {}
    if flag.kind is not FlagKind.CHIP_DUMPING or flag.other_user_id is None:
        raise NothingToClawBack("only a chip-dumping flag names chips to claw back",
                                kind=flag.kind.value)
    to_user = flag.other_user_id if data.claw_back_to == "loser" else house
    return to_user, data.amount if data.amount is not None else int(evidence.get("net", 0))


async def act(session: AsyncSession, hooks: AccountHooks, admin: User, flag_id: int,
              data: FlagAction, *, house: int) -> tuple[IntegrityFlag, bool,
                                                        ClawBackPublic | None]:
    """Act on an open flag: ban the flagged account (as ``POST /admin/users/{id}/ban``)
    and/or claw back what it received, in one transaction with the flag's new status and
    the audit log entry."""
    flag = await get_flag(session, flag_id)
    _require_open(flag)
    plan = _claw_back_plan(flag, data, house) if data.claw_back else None
    offender = await service.get_user(session, flag.user_id)
    ban_reason = data.ban_reason if data.ban else None
    if ban_reason is not None:
        await service.mark_banned(session, admin, offender, ban_reason)
    moved = None
    if plan is not None and plan[1] > 0:
        moved = await clawback.claw_back(session, flag_id=flag.id, offender=flag.user_id,
                                         to_user=plan[0], wanted=plan[1])
    _close(flag, admin, FlagStatus.ACTIONED)
    service.record(session, admin, "integrity_action", offender, flag_id=flag.id,
                   kind=flag.kind.value, banned=data.ban,
                   clawed_back=moved.amount if moved else 0,
                   clawed_back_to=moved.to_user if moved else None)
    await session.commit()
    if ban_reason is not None:
        await service.run_ban_hooks(hooks, offender)
    public = ClawBackPublic.model_validate(moved, from_attributes=True) if moved else None
    return flag, data.ban, public


async def action_result(session: AsyncSession, flag: IntegrityFlag, banned: bool,
                        moved: ClawBackPublic | None) -> FlagActionResult:
    """The answer of an action."""
    return FlagActionResult(flag=(await flags_public(session, [flag]))[0], banned=banned,
                            claw_back=moved)
