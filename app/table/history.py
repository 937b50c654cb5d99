"""The record of a finished hand: its PHH text, a summary and each person's net result.

The stored PHH text holds every hole card (it is the server's record);
:func:`app.poker.phh.phh_for_viewer` hides the cards a given player never saw
before a hand history is handed to them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from typing import Any

from app.poker.allin import RunoutEquity
from app.poker.events import PotAwarded
from app.poker.hand_export import rake_of
from app.poker.phh import phh_fields, to_phh
from app.poker.player_stats import all_in_adjusted, hand_counters, public_hand
from app.table.state import HandInPlay, Player
from app.table.store import FinishedHand


def house_shares(nets: Mapping[int, int], bots: Set[int]) -> dict[int, int]:
    """The part of each person's result in one hand that the house's bots paid (negative:
    that went to the bots), by seat, for every seat in ``nets`` not in ``bots``.

    What the bots lost together, the people won; with a rake, what the people won is
    counted net of it, so the house's share of a result is the bots' and the rake's
    together (the rake is the house's as the bots' chips are). It is shared among
    the people who won, in proportion to what each won (their winnings came from the bots
    and from the people who lost alike); what the bots won, among the people who lost, in
    proportion to their losses. In whole credits, adding up exactly to the bots' result
    (the odd credits to the largest results, then the lowest seats).

    >>> house_shares({0: 300, 1: -100, 2: -200}, bots={2})
    {0: 200, 1: 0}
    >>> house_shares({0: -150, 1: 50, 2: 100}, bots={2})
    {0: -100, 1: 0}
    >>> house_shares({0: 2, 1: 1, 2: -1, 3: -2}, bots={3})
    {0: 2, 1: 0, 2: 0}
    """
    people = {seat: net for seat, net in nets.items() if seat not in bots}
    house = sum(people.values())  # what the people won from the bots, all told
    sign = 1 if house > 0 else -1
    side = {seat: abs(net) for seat, net in people.items() if net * sign > 0}
    total = sum(side.values())
    shares = {seat: 0 for seat in people}
    if house == 0 or total == 0:
        return shares
    owed = abs(house)
    for seat, part in side.items():
        shares[seat] = owed * part // total
    left = owed - sum(shares.values())
    for seat in sorted(side, key=lambda s: (-side[s], s))[:left]:
        shares[seat] += 1
    return {seat: sign * share for seat, share in shares.items()}


def finished_hand(
    table_id: str, current: HandInPlay, players: Mapping[int, Player], *,
    house_bots: bool = True, all_in: RunoutEquity | None = None, notes: Sequence[str] = (),
) -> FinishedHand:
    """Everything stored about a hand that just completed (``house_bots``: the bots play
    with the house's credits, so what people won from them is recorded; not at a
    tournament table, where chips are not credits; ``all_in``: the hand's first all-in
    equity, from which each person's all-in adjusted result is recorded). ``notes``: the
    host's controls applied since the hand before, kept in its summary and as PHH's
    ``_host_notes``."""
    hand = current.hand
    rows: list[dict[str, Any]] = []
    results: list[tuple[int, int, int]] = []
    for seat in hand.seats:
        player = players[seat.number]
        net = seat.stack - seat.starting_stack
        rows.append({
            "seat": seat.number, "player": player.person.public(player.bot),
            "starting_stack": seat.starting_stack, "final_stack": seat.stack, "net": net,
            "cards": [str(c) for c in seat.cards] if seat.shown else None,
        })
        if player.user_id is not None:
            results.append((player.user_id, seat.number, net))
    pots = [
        {"pot": e.pot, "amount": e.amount, "seats": list(e.seats), "amounts": list(e.amounts),
         "hand": e.hand, "run": e.run, "rake": e.rake}
        for e in hand.history if isinstance(e, PotAwarded)
    ]
    pot = sum(s.contributed + s.dead for s in hand.seats)
    rake = rake_of(hand)
    summary = {
        "hand_id": current.id, "table_id": table_id, "number": current.number,
        "game": hand.game.value, "button": hand.button, "stakes": hand.stakes.to_dict(),
        "board": [str(c) for c in hand.board], "pot": pot, "rake": rake, "players": rows,
        "pots": pots,
        "boards": [[str(c) for c in board] for board in hand.boards()],
        "fairness": current.proof.to_dict() if current.proof else None,
    }
    if notes:
        summary["host_notes"] = list(notes)
    if current.decisions:
        summary["decisions"] = [[seat, seconds] for seat, seconds in current.decisions]
    from_house: tuple[tuple[int, int], ...] = ()
    bots = {s.number for s in hand.seats if players[s.number].is_bot}
    if house_bots and bots:
        shares = house_shares({s.number: s.stack - s.starting_stack for s in hand.seats}, bots)
        from_house = tuple((user_id, shares[seat]) for user_id, seat, _ in results)
    counts = hand_counters(public_hand(hand))
    counters = tuple((user_id, counts[seat]) for user_id, seat, _ in results)
    adjusted = all_in_adjusted(hand, all_in) if all_in is not None else {}
    all_in_nets = tuple((user_id, adjusted[seat]) for user_id, seat, _ in results
                        if seat in adjusted)
    names = [players[s.number].person.name for s in hand.seats]
    fields: dict[str, Any] = {"hand": current.number}
    if current.proof is not None:
        fields.update(phh_fields(current.proof))
    if notes:
        fields["_host_notes"] = list(notes)
    return FinishedHand(
        id=current.id, number=current.number, pot=pot,
        phh=to_phh(hand, players=names, fields=fields),
        summary=summary, started_at=current.started_at, results=tuple(results),
        from_house=from_house, counters=counters, all_in_nets=all_in_nets, rake=rake,
    )

