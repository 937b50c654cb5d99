"""The fewest payments that settle a set of results.

Everyone with a result other than zero either pays or is paid. A group of ``k`` people
whose results add up to zero settles among themselves in ``k - 1`` payments (the biggest
debtor pays the biggest creditor, and each payment settles at least one of them), and no
fewer; so the fewest payments for ``n`` people are ``n`` minus the most groups adding up
to zero that they split into. That split is found exactly for up to
:data:`EXACT_PARTIES` people (an ordering of them with the most prefixes adding up to
zero, over every subset: ``2**n * n`` steps); beyond, the one group of everyone is
settled as is, in ``n - 1`` payments at most.

>>> for t in fewest_transfers({"ann": 30, "bob": -10, "cat": -20, "dan": 5, "eve": -5}):
...     print(t.payer, "pays", t.payee, t.amount)
cat pays ann 20
bob pays ann 10
eve pays dan 5
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from app.errors import HoldemError

EXACT_PARTIES = 14
K = TypeVar("K", bound=Hashable)


class ResultsDoNotBalance(HoldemError):
    """Results that do not add up to zero cannot be settled by payments between them."""

    code = "results_do_not_balance"
    status = 409


@dataclass(frozen=True, slots=True)
class Transfer(Generic[K]):
    """``payer`` pays ``payee`` ``amount`` (always more than zero)."""

    payer: K
    payee: K
    amount: int


def fewest_transfers(results: Mapping[K, int]) -> list[Transfer[K]]:
    """Payments that leave everyone at zero, as few as there can be (see the module).

    ``results`` are what each party is owed (won: more than zero) or owes (lost: less),
    adding up to zero, else :class:`ResultsDoNotBalance`.
    """
    if sum(results.values()) != 0:
        raise ResultsDoNotBalance(f"results must add up to zero, got {sum(results.values())}",
                                  total=sum(results.values()))
    parties = [party for party, result in results.items() if result != 0]
    groups = _zero_sum_groups(parties, results) if len(parties) <= EXACT_PARTIES else [parties]
    return [transfer for group in groups for transfer in _settle(group, results)]


def _zero_sum_groups(parties: Sequence[K], results: Mapping[K, int]) -> list[list[K]]:
    """The parties split into the most groups that each add up to zero."""
    size = len(parties)
    totals = [0] * (1 << size)
    for mask in range(1, 1 << size):
        low = (mask & -mask).bit_length() - 1
        totals[mask] = totals[mask & (mask - 1)] + results[parties[low]]
    # most[mask]: the most zero-sum prefixes of an ordering of mask; last: who ends it.
    most, last = [0] * (1 << size), [0] * (1 << size)
    for mask in range(1, 1 << size):
        best, end = -1, 0
        for i in range(size):
            if mask >> i & 1 and most[mask ^ (1 << i)] > best:
                best, end = most[mask ^ (1 << i)], i
        most[mask], last[mask] = best + (totals[mask] == 0), end
    groups: list[list[K]] = []
    current: list[K] = []
    mask = (1 << size) - 1
    while mask:
        if totals[mask] == 0 and current:
            groups.append(current)
            current = []
        current.append(parties[last[mask]])
        mask ^= 1 << last[mask]
    return [*groups, current] if current else groups


def _settle(group: Sequence[K], results: Mapping[K, int]) -> list[Transfer[K]]:
    """A zero-sum group settled in one payment fewer than its size: the biggest debtor
    pays the biggest creditor, again and again."""
    left = {party: results[party] for party in group}
    transfers: list[Transfer[K]] = []
    while any(left.values()):
        payer = min(left, key=lambda party: (left[party], str(party)))
        payee = max(left, key=lambda party: (left[party], str(party)))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers
