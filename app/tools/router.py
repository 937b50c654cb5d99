"""``/tools``: the odds calculator's REST API (rate-limited per IP by requests and by work,
one answer at a time, with a bounded queue)."""

from __future__ import annotations

from fastapi import APIRouter

from app.accounts.dependencies import per_ip
from app.errors import error_responses
from app.tools import service
from app.tools.dependencies import ToolsComputation
from app.tools.schemas import EquityPublic, EquityRequest, OutsPublic, OutsRequest

router = APIRouter(prefix="/tools", tags=["tools"],
                   dependencies=[per_ip("tools", "rate_limit_tools")],
                   responses=error_responses(400, 413, 422, 429, 503))


@router.post("/equity")
async def post_equity(data: EquityRequest, computation: ToolsComputation) -> EquityPublic:
    """Win, tie and equity of 2 to 9 hands or ranges (exact when bounded, else Monte Carlo)."""
    return await computation.run(service.equity_of, data, service.equity_work(data))


@router.post("/outs")
async def post_outs(data: OutsRequest, computation: ToolsComputation) -> OutsPublic:
    """The cards that make a hand win (or improve) on a flop or turn, with the odds."""
    return await computation.run(service.outs_of, data, service.outs_work(data))
