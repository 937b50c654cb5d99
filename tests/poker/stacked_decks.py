"""Stacked decks for engine tests: name the hole cards and the board, get the deck."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from app.poker.cards import FULL_DECK, Card, Deck, parse_cards


def stacked_deck(holes: Sequence[str], board: str = "") -> Deck:
    """A deck that deals ``holes`` (in seat order from the left of the button) and ``board``.

    Cards are dealt one at a time around the table (twice, or four or five times in
    Omaha: as many rounds as each hand has cards), then burn + flop,
    burn + turn, burn + river; unnamed cards (burns, a short board) are the
    lowest cards nobody named.
    """
    hole_cards = [parse_cards(h) for h in holes]
    named = [c for h in hole_cards for c in h] + list(parse_cards(board))
    spare = iter([c for c in FULL_DECK if c not in set(named)])
    board_cards = list(parse_cards(board))
    board_cards += [next(spare) for _ in range(5 - len(board_cards))]
    rounds = len(hole_cards[0]) if hole_cards else 2
    order: list[Card] = [h[k] for k in range(rounds) for h in hole_cards]
    for street in (board_cards[:3], board_cards[3:4], board_cards[4:5]):
        order += [next(spare), *street]
    return Deck(order + list(spare))


class Decks:
    """The deck source of the tables: stacked decks first, then the tables' fair shuffle."""

    def __init__(self) -> None:
        self.queue: deque[Deck] = deque()

    def stack(self, holes: Iterable[str], board: str = "") -> None:
        """Deal these hole cards (from the left of the button) and board in the next hand."""
        self.queue.append(stacked_deck(list(holes), board))

    def stack_seats(self, holes: dict[int, str], board: str = "", *, button: int = 0) -> None:
        """Deal ``holes[seat]`` to each seat (the button given) and ``board`` next hand."""
        order = sorted(holes, key=lambda seat: (seat <= button, seat))
        self.stack([holes[seat] for seat in order], board)

    def __call__(self) -> Deck | None:
        """The next stacked deck, or None: the table shuffles fairly."""
        return self.queue.popleft() if self.queue else None
