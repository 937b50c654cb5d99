"""An ICM deal put to the players still in: who may ask, who must agree, and the pause.

As at a real site's final table, a deal is made between hands and needs every
player left to agree to the same offer:

- It is asked for between hands only (:class:`DealNotNow` while a hand is in
  play at any of the tournament's tables), once late registration has closed
  (before, the field and so the prizes may still grow).
- Bots never agree, so no deal is made while one is still in
  (:class:`DealUnavailable`): the house's seat is not a player who could
  consent, and counting a bot's acceptance would let one person end a
  tournament alone.
- The first agreement opens a vote and pauses the tournament: no table deals
  a new hand for :data:`DEAL_SECONDS` (the level clock runs on) while the other
  players are asked (``user:notice`` ``tournament_deal``). When all agree, the
  tournament ends with the offer. When the time is up, play resumes; the
  lapsed vote refuses further agreement, and the next hand to start clears it,
  so asking again waits for a hand to be played and nobody can hold the tables
  still for longer than one pause per hand.

The offer is fixed when the vote opens: no hand is dealt, and no entry taken,
while it is open.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.tournaments.errors import DealNotNow, DealUnavailable, NotRegistered
from app.tournaments.tournament import Tournament

DEAL_SECONDS = 20.0


@dataclass(slots=True)
class DealVote:
    """One offer put to the players still in: entry id to credits, who must agree, who
    did, and until when play waits for them."""

    offer: dict[str, int]
    needed: frozenset[str]
    until: float
    agreed: set[str] = field(default_factory=set)

    @property
    def done(self) -> bool:
        """Whether everyone still in agreed."""
        return self.needed <= self.agreed

    def holding(self, now: float) -> bool:
        """Whether play still waits for this vote."""
        return now < self.until


def verify_ask(t: Tournament, player: str) -> dict[str, int]:
    """The ICM offer ``player`` may agree to now, or the error saying why not."""
    offer = t.icm_offer()
    alive = {t.entries[e].player for e in offer}
    if player not in alive:
        raise NotRegistered("expected a player still in the tournament, got none")
    if t.late_registration_open:
        raise DealUnavailable("late registration is still open: the prizes are not known yet")
    if any(p.startswith("bot:") for p in alive):
        raise DealUnavailable("a bot is still in, and bots never agree to a deal: play on")
    if t.in_hand:
        raise DealNotNow("a hand is in play: a deal is agreed between hands")
    return offer


def agree(
    t: Tournament, vote: DealVote | None, player: str, *, now: float
) -> DealVote:
    """``player`` agrees to the offer now on the table: the vote with their agreement
    (a new one when none is open)."""
    offer = verify_ask(t, player)
    if vote is not None and not vote.holding(now):
        raise DealNotNow("the last offer lapsed: ask again after the next hand")
    if vote is None:
        vote = DealVote(offer, frozenset(t.entries[e].player for e in offer),
                        now + DEAL_SECONDS)
    vote.agreed.add(player)
    return vote
