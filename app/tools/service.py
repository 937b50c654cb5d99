"""The odds tools over the poker core, with the work of one request bounded."""

from __future__ import annotations

from app.errors import HoldemError
from app.poker.cards import format_cards
from app.poker.equity import DEFAULT_ITERATIONS, equity
from app.poker.outs import odds_against, outs
from app.poker.range_equity import range_equity
from app.poker.ranges import is_range
from app.tools.schemas import EquityPublic, EquityRequest, HandEquityPublic, OutsPublic, OutsRequest

MAX_ITERATIONS = 1_000_000


class WorkTooLarge(HoldemError):
    """A request that asks for more computing than one request may have."""

    code = "work_too_large"
    status = 422


def equity_of(request: EquityRequest) -> EquityPublic:
    """Equity of hands (exact or Monte Carlo) or of ranges (exact heads-up when bounded)."""
    iterations = DEFAULT_ITERATIONS if request.iterations is None else request.iterations
    if iterations > MAX_ITERATIONS:
        raise WorkTooLarge(f"at most {MAX_ITERATIONS:,} Monte Carlo deals per request, got "
                           f"{iterations:,}", max_iterations=MAX_ITERATIONS)
    if any(is_range(h) for h in request.hands):
        ranged = range_equity(request.hands, request.board, request.dead,
                              iterations=iterations, seed=request.seed)
        return EquityPublic(exact=ranged.exact, boards=ranged.deals, hands=[
            HandEquityPublic(hand=h.range, win=h.win, tie=h.tie, equity=h.equity,
                             stderr=h.stderr, combos=h.combos, odds=odds_against(h.win))
            for h in ranged.hands])
    result = equity(request.hands, board=request.board, dead=request.dead,
                    iterations=iterations, seed=request.seed)
    return EquityPublic(exact=result.exact, boards=result.boards, hands=[
        HandEquityPublic(hand="??" if h.hand is None else format_cards(h.hand), win=h.win,
                         tie=h.tie, equity=h.equity, stderr=h.stderr, combos=None,
                         odds=odds_against(h.win))
        for h in result.hands])


def outs_of(request: OutsRequest) -> OutsPublic:
    """The outs of a hand on a flop or turn."""
    found = outs(request.hand, request.board, opponents=request.vs, dead=request.dead)
    return OutsPublic(
        hand=format_cards(found.hand), board=format_cards(found.board),
        category=found.category, outs=[str(c) for c in found.cards], count=found.count,
        unseen=found.unseen, splits=[str(c) for c in found.splits],
        next_card=found.next_card, by_river=found.by_river, odds=found.odds,
        odds_by_river=found.odds_by_river)
