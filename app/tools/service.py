"""The odds tools over the poker core, with the work of one request known before it starts
and bounded.

Work is the core's unit (:data:`app.poker.equity.RANKED_HAND_WORK`: about one comparison
of two ranked hands). An exact answer past the core's bound (``EXACT_WORK`` for ranges,
``DEFAULT_EXACT_THRESHOLD`` deals for hands) is sampled instead, with the request's
``iterations`` (:data:`DEFAULT_ITERATIONS`, 200,000, by default); a request whose work
is still over :data:`MAX_WORK` is refused before anything is computed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.errors import HoldemError
from app.poker.cards import FULL_DECK, format_cards, parse_cards
from app.poker.equity import (
    DEFAULT_ITERATIONS,
    RANKED_HAND_WORK,
    EquityResult,
    InvalidHoleCards,
    equity,
)
from app.poker.equity import equity_work as equity_work_of_hands
from app.poker.omaha_equity import DEFAULT_ITERATIONS as OMAHA_ITERATIONS
from app.poker.omaha_equity import OMAHA_HOLE_CARDS, omaha_equity, omaha_equity_work
from app.poker.outs import odds_against, outs
from app.poker.range_equity import range_equity, range_equity_work
from app.poker.ranges import is_range
from app.tools.schemas import EquityPublic, EquityRequest, HandEquityPublic, OutsPublic, OutsRequest

MAX_ITERATIONS = 1_000_000
MAX_WORK = 100_000_000  # about three seconds of one core


class WorkTooLarge(HoldemError):
    """A request that asks for more computing than one request may have."""

    code = "work_too_large"
    status = 422


def _reading(hands: Sequence[str]) -> str:
    """How these hands are read: ``"omaha"`` (a hand of four or five cards, and then every
    hand must be a known one: the Omaha core refuses one of another size), ``"ranges"``
    (any range) or ``"hands"`` (two cards or ``??`` each)."""
    if any(is_range(h) or "," in h for h in hands):
        return "ranges"
    known = [h for h in hands if h.strip() != "??"]
    if not any(len(parse_cards(h.replace(" ", ""))) in OMAHA_HOLE_CARDS for h in known):
        return "hands"
    if len(known) < len(hands):
        raise InvalidHoleCards("expected every Omaha hand known: random hands (??) are "
                               "dealt in hold'em only", count=len(hands) - len(known))
    return "omaha"


def _iterations(reading: str, asked: int | None) -> int:
    """The Monte Carlo deals asked for, or the default of this reading of the hands."""
    if asked is not None:
        return asked
    return OMAHA_ITERATIONS if reading == "omaha" else DEFAULT_ITERATIONS


def equity_work(request: EquityRequest) -> int:
    """The work :func:`equity_of` will do (its input checked); :class:`WorkTooLarge` over
    :data:`MAX_WORK`."""
    reading = _reading(request.hands)
    iterations = _iterations(reading, request.iterations)
    if iterations > MAX_ITERATIONS:
        raise WorkTooLarge(f"at most {MAX_ITERATIONS:,} Monte Carlo deals per request, got "
                           f"{iterations:,}", max_iterations=MAX_ITERATIONS)
    counts: dict[str, Callable[..., int]] = {
        "omaha": omaha_equity_work, "ranges": range_equity_work, "hands": equity_work_of_hands}
    count = counts[reading]
    work = count(request.hands, request.board, request.dead, iterations=iterations)
    if work > MAX_WORK:
        raise WorkTooLarge(f"this needs {work:,} units of work, at most {MAX_WORK:,} per "
                           f"request: ask for fewer Monte Carlo deals (iterations) or fewer "
                           f"hands", work=work, max_work=MAX_WORK)
    return work


def outs_work(request: OutsRequest) -> int:
    """The work :func:`outs_of` will do at most: every hand with every card to come."""
    return (1 + len(request.vs)) * len(FULL_DECK) * RANKED_HAND_WORK


def equity_of(request: EquityRequest) -> EquityPublic:
    """Equity of hands (exact or Monte Carlo) or of ranges (exact heads-up when bounded)."""
    return hands_equity(request.hands, request.board, request.dead,
                        iterations=request.iterations, seed=request.seed)


def hands_equity(hands: Sequence[str], board: str = "", dead: str = "", *,
                 iterations: int | None = None, seed: int = 0) -> EquityPublic:
    """Equity of hands (two cards or ``??``), of Omaha hands (four or five cards, all
    known), or, when any is one, of ranges: the one reading of hands that
    ``POST /tools/equity`` and ``holdem equity`` share (the request's work is bounded
    before, by :func:`equity_work`); ``iterations`` None: the reading's default."""
    reading = _reading(hands)
    deals = _iterations(reading, iterations)
    if reading == "omaha":
        return _public(omaha_equity(hands, board=board, dead=dead, iterations=deals,
                                    seed=seed))
    if reading == "ranges":
        ranged = range_equity(hands, board, dead, iterations=deals, seed=seed)
        return EquityPublic(exact=ranged.exact, boards=ranged.deals, hands=[
            HandEquityPublic(hand=h.range, win=h.win, tie=h.tie, equity=h.equity,
                             stderr=h.stderr, combos=h.combos, odds=odds_against(h.win))
            for h in ranged.hands])
    return _public(equity(hands, board=board, dead=dead, iterations=deals, seed=seed))


def _public(result: EquityResult) -> EquityPublic:
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
