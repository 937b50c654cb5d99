"""``/tools``: the odds calculator's REST API (rate-limited per IP, one answer at a time)."""

from __future__ import annotations

from typing import Annotated

from anyio import CapacityLimiter, to_thread
from fastapi import APIRouter, Depends, Request

from app.accounts.dependencies import per_ip
from app.errors import error_responses
from app.tools import service
from app.tools.schemas import EquityPublic, EquityRequest, OutsPublic, OutsRequest

router = APIRouter(prefix="/tools", tags=["tools"],
                   dependencies=[per_ip("tools", "rate_limit_tools")],
                   responses=error_responses(400, 413, 422, 429))


def compute_slot(request: Request) -> CapacityLimiter:
    """The process's one worker thread for odds (tables keep the event loop meanwhile)."""
    state = request.app.state
    if not hasattr(state, "tools_limiter"):
        state.tools_limiter = CapacityLimiter(1)
    limiter: CapacityLimiter = state.tools_limiter
    return limiter


ComputeSlot = Annotated[CapacityLimiter, Depends(compute_slot)]


@router.post("/equity")
async def post_equity(data: EquityRequest, slot: ComputeSlot) -> EquityPublic:
    """Win, tie and equity of 2 to 9 hands or ranges (exact when bounded, else Monte Carlo)."""
    return await to_thread.run_sync(service.equity_of, data, limiter=slot)


@router.post("/outs")
async def post_outs(data: OutsRequest, slot: ComputeSlot) -> OutsPublic:
    """The cards that make a hand win (or improve) on a flop or turn, with the odds."""
    return await to_thread.run_sync(service.outs_of, data, limiter=slot)
