"""Running it twice: when the betting is over before the river, the rest of the board
may be dealt twice, and every pot split between the two boards.

Functions over a :class:`app.poker.hand.HandState`; the engine calls them. The rules:

- The question is asked when the betting ends with the board incomplete and at most
  one contender able to bet (everyone else all-in), at a table that offers it
  (``Hand.start(..., run_it_twice=True)``). Every contending hand is already face up.
  Every contender (all-in or not) is asked; they answer in any order.
- Only when every one of them agrees is the board run twice. The first "no" (a
  time-out is a "no") ends the question: the board is run once, as without the option.
- A deck too short for two run-outs (only a stacked test deck can be) is run once.
- Nothing of the second board exists before everyone agreed: the first board is dealt
  to the river, then the second board continues from the same deck after it, with a
  burn card before each street as usual. The cards on the board when the betting ended
  belong to both boards.
- Each pot (main and every side pot) is split in half: the first half is settled on the
  first board, the second on the second board, each by the usual rules (ties split,
  odd chips one at a time clockwise from the left of the button). When a pot is odd,
  the extra chip belongs to the first board's half.
"""

from __future__ import annotations

from app.poker import showdown
from app.poker.cards import Card
from app.poker.errors import NotAsked, WrongPhase
from app.poker.events import BoardDealt, Event, RunItTwiceChosen, RunItTwiceOffered
from app.poker.hand import HandState
from app.poker.state import NEXT_STREET, STREET_CARDS, STREET_OF_BOARD, Phase


def offer(hand: HandState, events: list[Event]) -> bool:
    """Ask every contender whether to run it twice, if the table offers it and the board
    is not complete; False when there is nothing to ask (run the board out once)."""
    if not hand.run_it_twice or len(hand.board) >= 5 or len(hand.deck) < _cards_needed(hand):
        return False
    hand.phase = Phase.RUN_IT_TWICE
    hand.asked = [s.number for s in hand.seats if s.status.contending]
    events.append(RunItTwiceOffered(tuple(hand.asked)))
    return True


def _cards_needed(hand: HandState) -> int:
    """Cards two run-outs take from here, burn cards included (a stacked test deck may
    hold fewer: then the board is run once)."""
    street, needed = STREET_OF_BOARD[len(hand.board)], 0
    while street is not Phase.RIVER:
        street = NEXT_STREET[street]
        needed += 1 + STREET_CARDS[street]
    return 2 * needed


def verify_answer(hand: HandState, number: int) -> None:
    """Raise unless seat ``number`` is still to answer the run-it-twice question."""
    if hand.phase is not Phase.RUN_IT_TWICE:
        raise WrongPhase(f"expected the run-it-twice question, got the {hand.phase.value}",
                         phase=hand.phase.value)
    hand.seat(number)  # NotInHand for a seat that was not dealt in
    if number not in hand.asked:
        waiting = ", ".join(map(str, hand.asked))
        raise NotAsked(f"expected an answer from seat {waiting}, got seat {number}",
                       seat=number, asked=list(hand.asked))


def answer(hand: HandState, number: int, agree: bool, events: list[Event]) -> None:
    """Record seat ``number``'s answer; run the board out once on a "no", twice when the
    last seat agreed."""
    hand.asked.remove(number)
    events.append(RunItTwiceChosen(number, agree))
    if not agree:
        hand.asked = []
        run_out(hand, events, runs=1)
    elif not hand.asked:
        run_out(hand, events, runs=2)


def run_out(hand: HandState, events: list[Event], *, runs: int) -> None:
    """Deal the board to the river (``runs`` times), then go to the showdown.

    >>> from app.poker.cards import Deck
    >>> from app.poker.engine import Hand
    >>> from app.poker.state import Stakes
    >>> hand, _ = Hand.start({0: 100, 1: 100}, button=0, stakes=Stakes(1, 2),
    ...                      deck=Deck.stacked("Ah Ks Ad Kc 2c 7d 9h 3s 4c 5d Jh 8c "
    ...                                        "Qs Kd 2h 3c Js 4d 9c 8h"), run_it_twice=True)
    >>> _ = hand.all_in(0), hand.all_in(1), hand.run_twice(0)
    >>> [e.type for e in hand.run_twice(1)][:3]
    ['run_it_twice_chosen', 'board_dealt', 'board_dealt']
    >>> [" ".join(map(str, b)) for b in hand.boards()]
    ['7d 9h 3s 5d 8c', 'Kd 2h 3c 4d 8h']
    >>> hand.stacks()
    {1: 100, 0: 100}
    """
    hand.phase = STREET_OF_BOARD[len(hand.board)]
    shared = len(hand.board)
    while len(hand.board) < 5:
        deal_street(hand, events)
    if runs == 2:
        hand.runs = 2
        street = STREET_OF_BOARD[shared]
        while shared + len(hand.second_board) < 5:
            street = NEXT_STREET[street]
            cards = _burn_and_deal(hand, STREET_CARDS[street])
            hand.second_board.extend(cards)
            events.append(BoardDealt(street, cards, run=1))
    showdown.begin(hand, events)


def _burn_and_deal(hand: HandState, count: int) -> tuple[Card, ...]:
    hand.burned.append(hand.deck[0])
    cards = tuple(hand.deck[1 : 1 + count])
    del hand.deck[: 1 + count]
    return cards


def deal_street(hand: HandState, events: list[Event]) -> None:
    """Burn a card and deal the next street's board cards."""
    hand.phase = NEXT_STREET[hand.phase]
    cards = _burn_and_deal(hand, STREET_CARDS[hand.phase])
    hand.board.extend(cards)
    events.append(BoardDealt(hand.phase, cards))
