"""The hand engine: one hand, from the blinds to the last chip, in any :class:`Game`.

A :class:`Hand` is plain data (seats, board, deck, whose turn) plus the rules
that move it on. Every action comes in three forms, as in pokerkit's
``state.py``: ``verify_raise(seat, amount)`` raises a typed error,
``can_raise(seat, amount)`` says yes or no, ``raise_to(seat, amount)`` applies
it and returns the event records it produced. An action that fails leaves the
hand exactly as it was.

>>> from random import Random
>>> from app.poker.cards import Deck
>>> hand, events = Hand.start({1: 1000, 4: 1000, 7: 1000}, button=7,
...                           stakes=Stakes(5, 10), deck=Deck(rng=Random(7)))
>>> [e.type for e in events][:3]
['blind_posted', 'blind_posted', 'hole_cards_dealt']
>>> hand.actor, [a.action.value for a in hand.legal_actions()]
(7, ['fold', 'call', 'raise', 'all_in'])
>>> hand.raise_to(7, 30)[0].total
30

Rules this engine follows (TDA and common online practice). The game
(``Hand.start(..., game=Game.PLO)``) sets the hole cards (two, four or five), the
hand ranking (Omaha: exactly two hole cards and three board cards, see
:mod:`app.poker.omaha`) and the betting limits; the limits of Pot-Limit and
Fixed-Limit, their cap and their all-in for less are in :mod:`app.poker.limits`.
The rules below are No-Limit's and hold in every game unless that module says
otherwise:

- Seat order is clockwise by seat number. The seat left of the button posts
  the small blind and the next one the big blind; heads-up the button posts
  the small blind, acts first before the flop and last after it.
- A seat short of a blind or ante posts what it has and is all-in. When the
  big blind is short, the others still call the full big blind (the part the
  big blind cannot match becomes a side pot or is returned uncalled).
- The minimum bet is the big blind; the minimum raise is the size of the
  last full bet or raise on the street. An all-in raise for less than that
  does not reopen the betting: a seat that already acted may then only call
  or fold unless the total it now faces since it last acted is at least a
  full raise. A first bet on a street reopens the betting even when short.
- A seat may fold whenever it is its turn (even when it could check).
- The part of a bet nobody called goes back before the pots are formed.
- When at most one contending seat can still bet, every contending hand is
  turned face up and the board is run out.
- Showdown order: the last aggressor of the last betting street first, else
  the first contending seat left of the button, then clockwise. Hands that
  are all-in or can still win (tie or beat every shown hand in one of their
  pots) are shown automatically; a seat whose hand is beaten chooses to show
  or muck. A seat that wins uncontested never shows.
- Pots follow :mod:`app.poker.pots`: folded chips stay in, ties split, odd
  chips go one at a time clockwise from the left of the button.
- At a table that offers it (``run_it_twice=True``), when the betting ends
  before the river with every hand face up, the contenders are asked whether to
  run the board twice (:meth:`Hand.run_twice` / :meth:`Hand.run_once`); the rules
  are in :mod:`app.poker.runs`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from app.poker import betting, limits, runs, showdown
from app.poker.betting import LegalAction
from app.poker.cards import Deck
from app.poker.errors import (
    BetTooLarge,
    BetTooSmall,
    CannotCheck,
    CannotRaise,
    HandOver,
    InvalidAction,
    InvalidHandSetup,
    NotInHand,
    NotYourTurn,
    WrongPhase,
)
from app.poker.events import (
    ActionKind,
    Event,
    PlayerActed,
    event_from_dict,
)
from app.poker.hand import HandState
from app.poker.pots import Pot, build_pots
from app.poker.rake import RakeRule
from app.poker.state import (
    BETTING_PHASES,
    Game,
    Phase,
    Seat,
    SeatStatus,
    Stakes,
    card_texts,
    cards_from,
    verify_setup,
)

_ACTIVE = SeatStatus.ACTIVE
_FOLDED = SeatStatus.FOLDED


@dataclass(slots=True)
class Hand(HandState):
    """One hand of poker (No-Limit, Pot-Limit or Fixed-Limit Hold'em, Pot-Limit Omaha),
    with its actions. Create it with :meth:`start`.

    Its data and what it looks like are :class:`~app.poker.hand.HandState`'s; the
    betting, running it twice and the showdown are :mod:`app.poker.betting`,
    :mod:`app.poker.runs` and :mod:`app.poker.showdown`, functions over that state.
    """

    # ---- creating a hand ------------------------------------------------

    @classmethod
    def start(
        cls, stacks: Mapping[int, int], *, button: int, stakes: Stakes, deck: Deck,
        bomb_pot: int = 0, run_it_twice: bool = False, game: Game = Game.NLHE,
        rake: RakeRule | None = None,
    ) -> tuple[Hand, list[Event]]:
        """Deal a hand: post antes and blinds, deal hole cards, open the betting.

        ``stacks`` maps each seat number dealt in (2 to 10 of them) to its
        stack; ``button`` is one of those seats. Blinds are posted by the
        seats after the button (see :mod:`app.poker.blinds` for choosing who
        is dealt in between hands). The deck is used up: its cards are dealt
        from the top, and it must hold at least the game's hole cards per seat (two,
        four or five) plus eight.

        With ``bomb_pot`` every seat antes that much instead of the blinds and
        antes, nobody bets before the flop, and the flop comes at once.

        With ``run_it_twice`` the contenders are asked whether to run the board twice
        when the betting ends before the river (see :mod:`app.poker.runs`).

        ``game`` (No-Limit Hold'em unless given) sets the hole cards, how hands rank
        and the betting limits (:mod:`app.poker.limits`); a Fixed-Limit game takes no
        straddle.

        With ``rake`` the house takes its share of the pots as they are awarded
        (:mod:`app.poker.rake`; a rule of 0 % is no rake).
        """
        game = Game(game)
        verify_setup(stacks, button, deck.cards, game.hole_cards)
        if bomb_pot < 0:
            raise InvalidHandSetup(f"expected a bomb pot ante of 0 or more, got {bomb_pot}")
        if game.fixed_limit and stakes.straddle:
            raise InvalidHandSetup(f"expected no straddle in a fixed-limit game, got "
                                   f"{stakes.straddle}")
        numbers = sorted(stacks)
        cut = numbers.index(button) + 1
        seats = [Seat(n, stacks[n], stacks[n]) for n in numbers[cut:] + numbers[:cut]]
        hand = cls(stakes, button, seats, list(deck.deal(len(deck))), bomb_pot=bomb_pot,
                   run_it_twice=run_it_twice, game=game,
                   rake=rake if rake is not None and rake.percent_hundredths else None)
        events: list[Event] = []
        betting.post_forced_bets(hand, events)
        betting.deal_hole_cards(hand, events)
        betting.advance(hand, events)
        hand.history.extend(events)
        return hand, events

    # ---- what the hand looks like -----------------------------------------

    def pots(self) -> list[Pot]:
        """Pots formed so far (bets on the current street not included).

        ``eligible`` holds seat numbers here, not positions.
        """
        live = [s.status is not _FOLDED for s in self.seats]
        amounts = [s.contributed - s.bet for s in self.seats]
        pots = build_pots(amounts, live, sum(s.dead for s in self.seats))
        return [Pot(p.amount, tuple(self.seats[i].number for i in p.eligible)) for p in pots]

    def to_call(self, number: int) -> int:
        """Chips the seat must add to call now (0 when it can check)."""
        return betting.call_amount(self, self._position(number))

    def legal_actions(self) -> tuple[LegalAction, ...]:
        """Everything the actor may do now; empty when the hand is complete."""
        return betting.legal_actions(self)

    # ---- seats by number ---------------------------------------------------

    # ---- verify / can / do ---------------------------------------------

    def _verify_turn(self, number: int, *, showdown: bool = False) -> int:
        if self.phase is Phase.COMPLETE:
            raise HandOver("expected a hand in play, got a complete hand", seat=number)
        if not (self.phase is Phase.SHOWDOWN if showdown else self.phase in BETTING_PHASES):
            expected = "the showdown" if showdown else "a betting round"
            raise WrongPhase(
                f"expected {expected}, got the {self.phase.value}", phase=self.phase.value
            )
        i = self._position(number)
        if self.to_act[0] != i:
            actor = self.seats[self.to_act[0]].number
            doing = "show or muck" if showdown else "act"
            raise NotYourTurn(
                f"expected seat {actor} to {doing}, got seat {number}", seat=number, actor=actor
            )
        return i

    def verify_fold(self, seat: int) -> None:
        """Raise unless ``seat`` may fold now."""
        self._verify_turn(seat)

    def can_fold(self, seat: int) -> bool:
        """Whether ``seat`` may fold now."""
        return _can(self.verify_fold, seat)

    def fold(self, seat: int) -> list[Event]:
        """Fold: the seat gives up the hand; its chips stay in the pots."""
        i = self._verify_turn(seat)
        self.seats[i].status = _FOLDED
        return self._acted(PlayerActed(seat, ActionKind.FOLD, 0, self.seats[i].bet))

    def verify_check(self, seat: int) -> None:
        """Raise :class:`CannotCheck` if ``seat`` faces a bet."""
        self._checked_check(seat)

    def can_check(self, seat: int) -> bool:
        """Whether ``seat`` may check now."""
        return _can(self.verify_check, seat)

    def check(self, seat: int) -> list[Event]:
        """Check: stay in without adding chips."""
        i = self._checked_check(seat)
        self._mark_acted(i)
        return self._acted(PlayerActed(seat, ActionKind.CHECK, 0, self.seats[i].bet))

    def _checked_check(self, seat: int) -> int:
        i = self._verify_turn(seat)
        owed = betting.call_amount(self, i)
        if owed:
            raise CannotCheck(f"expected a call of {owed} or a fold, got a check", to_call=owed)
        return i

    def verify_call(self, seat: int) -> None:
        """Raise unless ``seat`` faces a bet it can call."""
        self._checked_call(seat)

    def can_call(self, seat: int) -> bool:
        """Whether ``seat`` may call now."""
        return _can(self.verify_call, seat)

    def call(self, seat: int) -> list[Event]:
        """Call: match the bet, or go all-in for less."""
        i, owed = self._checked_call(seat)
        s = self.seats[i]
        s.put(owed)
        self._mark_acted(i)
        return self._acted(PlayerActed(seat, ActionKind.CALL, owed, s.bet, s.stack == 0))

    def _checked_call(self, seat: int) -> tuple[int, int]:
        i = self._verify_turn(seat)
        owed = betting.call_amount(self, i)
        if not owed:
            raise InvalidAction("expected a check: there is nothing to call, got a call", to_call=0)
        return i, owed

    def verify_bet(self, seat: int, amount: int) -> None:
        """Raise unless ``seat`` may open the betting with a bet of ``amount``."""
        self._checked_wager(seat, amount, ActionKind.BET)

    def can_bet(self, seat: int, amount: int) -> bool:
        """Whether ``seat`` may bet ``amount`` now."""
        return _can(self.verify_bet, seat, amount)

    def bet(self, seat: int, amount: int) -> list[Event]:
        """Bet ``amount`` on a street nobody has bet on yet."""
        return self._wager(self._checked_wager(seat, amount, ActionKind.BET), amount)

    def verify_raise(self, seat: int, amount: int) -> None:
        """Raise unless ``seat`` may raise to a street total of ``amount``."""
        self._checked_wager(seat, amount, ActionKind.RAISE)

    def can_raise(self, seat: int, amount: int) -> bool:
        """Whether ``seat`` may raise to ``amount`` now."""
        return _can(self.verify_raise, seat, amount)

    def raise_to(self, seat: int, amount: int) -> list[Event]:
        """Raise to a street total of ``amount`` chips."""
        return self._wager(self._checked_wager(seat, amount, ActionKind.RAISE), amount)

    def verify_all_in(self, seat: int) -> None:
        """Raise unless ``seat`` may push its whole stack (as a call, bet or raise)."""
        self._checked_all_in(seat)

    def can_all_in(self, seat: int) -> bool:
        """Whether ``seat`` may go all-in now."""
        return _can(self.verify_all_in, seat)

    def all_in(self, seat: int) -> list[Event]:
        """Push the whole stack: a call when it does not cover the call, else a bet or raise."""
        i, calls = self._checked_all_in(seat)
        if calls:
            return self.call(seat)
        s = self.seats[i]
        return self._wager(i, s.bet + s.stack)

    def _checked_all_in(self, seat: int) -> tuple[int, bool]:
        i = self._verify_turn(seat)
        s = self.seats[i]
        if betting.call_amount(self, i) >= s.stack:
            return i, True
        reason = betting.raise_closed(self, i)
        if reason is not None:
            raise CannotRaise(f"expected a call or a fold: {reason}, got an all-in", reason=reason)
        high = betting.raise_bounds(self, i)[1]
        if s.bet + s.stack > high:
            raise BetTooLarge(f"expected at most {high} ({limits.limit_name(self)}), got an "
                              f"all-in of {s.bet + s.stack}", max=high)
        return i, False

    def _checked_wager(self, seat: int, amount: int, kind: ActionKind) -> int:
        i = self._verify_turn(seat)
        if kind is ActionKind.BET and self.level:
            raise InvalidAction(
                f"expected a raise: there is already a bet of {self.level}, got a bet",
                level=self.level,
            )
        if kind is ActionKind.RAISE and not self.level:
            raise InvalidAction("expected a bet: nobody has bet on this street, got a raise")
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise InvalidAction(f"expected a whole number of chips, got {amount!r}")
        reason = betting.raise_closed(self, i)
        if reason is not None:
            raise CannotRaise(f"expected a call, check or fold: {reason}", reason=reason)
        low, high = betting.raise_bounds(self, i)
        if amount > high:
            raise BetTooLarge(f"expected at most {high} ({limits.limit_name(self)}), got {amount}",
                              max=high)
        if amount < low:
            raise BetTooSmall(f"expected at least {low}, got {amount}", min=low)
        return i

    def _wager(self, i: int, to: int) -> list[Event]:
        s = self.seats[i]
        kind = ActionKind.RAISE if self.level else ActionKind.BET
        put = to - s.bet
        increment = to - self.level
        limits.count_wager(self)
        if limits.reopens(self, increment) or self.level == 0:
            for o in self.seats:
                o.acted = False
            self.min_raise = max(self.min_raise, increment)
        s.put(put)
        self.level = to
        self._mark_acted(i)
        self.aggressor = i
        n = len(self.seats)
        # Everyone else who can still bet acts again, in order after the bettor.
        after = ((i + k) % n for k in range(1, n))
        self.to_act = [p for p in after if self.seats[p].status is _ACTIVE]
        return self._after_action(PlayerActed(s.number, kind, put, to, s.stack == 0))

    def _mark_acted(self, i: int) -> None:
        s = self.seats[i]
        s.acted = True
        s.acted_level = self.level

    def _acted(self, event: Event) -> list[Event]:
        """The actor's turn is over; move the hand on."""
        self.to_act.pop(0)
        return self._after_action(event)

    def _after_action(self, event: Event) -> list[Event]:
        events: list[Event] = [event]
        betting.advance(self, events)
        self.history.extend(events)
        return events

    # ---- the showdown's choices ------------------------------------------

    def verify_show(self, seat: int) -> None:
        """Raise unless it is ``seat``'s turn to show or muck."""
        self._verify_turn(seat, showdown=True)

    def can_show(self, seat: int) -> bool:
        """Whether ``seat`` may show its beaten hand now."""
        return _can(self.verify_show, seat)

    def show(self, seat: int) -> list[Event]:
        """Show a beaten hand at the showdown (it still loses)."""
        i = self._verify_turn(seat, showdown=True)
        events: list[Event] = [showdown.show(self, i)]
        return self._showdown_step(events)

    def verify_muck(self, seat: int) -> None:
        """Raise unless it is ``seat``'s turn to show or muck."""
        self._verify_turn(seat, showdown=True)

    def can_muck(self, seat: int) -> bool:
        """Whether ``seat`` may muck now."""
        return _can(self.verify_muck, seat)

    def muck(self, seat: int) -> list[Event]:
        """Muck a beaten hand face down; nobody will see it."""
        i = self._verify_turn(seat, showdown=True)
        events: list[Event] = [showdown.muck(self, i)]
        return self._showdown_step(events)

    def _showdown_step(self, events: list[Event]) -> list[Event]:
        self.to_act.pop(0)
        showdown.advance(self, events)
        self.history.extend(events)
        return events

    # ---- running it twice ------------------------------------------------------

    def verify_run_twice(self, seat: int) -> None:
        """Raise unless ``seat`` is still to answer the run-it-twice question."""
        runs.verify_answer(self, seat)

    def can_run_twice(self, seat: int) -> bool:
        """Whether ``seat`` may agree to run it twice now."""
        return _can(self.verify_run_twice, seat)

    def run_twice(self, seat: int) -> list[Event]:
        """Agree to run it twice; the last agreement deals both boards."""
        return self._answer(seat, agree=True)

    def verify_run_once(self, seat: int) -> None:
        """Raise unless ``seat`` is still to answer the run-it-twice question."""
        runs.verify_answer(self, seat)

    def can_run_once(self, seat: int) -> bool:
        """Whether ``seat`` may decline to run it twice now."""
        return _can(self.verify_run_once, seat)

    def run_once(self, seat: int) -> list[Event]:
        """Decline to run it twice: the board is run out once, at once."""
        return self._answer(seat, agree=False)

    def _answer(self, seat: int, *, agree: bool) -> list[Event]:
        runs.verify_answer(self, seat)
        events: list[Event] = []
        runs.answer(self, seat, agree, events)
        self.history.extend(events)
        return events

    # ---- one entry point for the realtime layer ----------------------------

    def verify_act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> None:
        """Raise unless ``seat`` may take ``action`` (with ``amount`` for bet/raise)."""
        kind = _kind(action)
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if amount is None:
                raise InvalidAction(f"expected an amount with a {kind.value}, got none")
            (self.verify_bet if kind is ActionKind.BET else self.verify_raise)(seat, amount)
        else:
            _VERIFY[kind](self, seat)

    def can_act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> bool:
        """Whether :meth:`act` would succeed."""
        return _can(self.verify_act, seat, action, amount)

    def act(self, seat: int, action: ActionKind | str, amount: int | None = None) -> list[Event]:
        """Apply any action by name: ``act(3, "raise", 600)``, ``act(3, "fold")``."""
        kind = _kind(action)
        if kind is ActionKind.BET or kind is ActionKind.RAISE:
            if amount is None:
                raise InvalidAction(f"expected an amount with a {kind.value}, got none")
            return (self.bet if kind is ActionKind.BET else self.raise_to)(seat, amount)
        return _APPLY[kind](self, seat)

    # ---- JSON -----------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """All of the state as JSON-safe data (server side: includes the deck)."""
        return {
            "stakes": self.stakes.to_dict(), "button": self.button,
            "seats": [s.to_dict() for s in self.seats], "deck": card_texts(self.deck),
            "phase": self.phase.value, "board": card_texts(self.board),
            "burned": card_texts(self.burned), "level": self.level,
            "min_raise": self.min_raise, "to_act": list(self.to_act),
            "aggressor": self.aggressor, "history": self._history_as_data(),
            "bomb_pot": self.bomb_pot, "run_it_twice": self.run_it_twice,
            "asked": list(self.asked), "runs": self.runs,
            "second_board": card_texts(self.second_board),
            "game": self.game.value, "street_bets": self.street_bets, "capped": self.capped,
            "rake": self.rake.to_dict() if self.rake is not None else None,
        }

    def _history_as_data(self) -> list[dict[str, Any]]:
        done = self._history_data
        if len(done) < len(self.history):
            done.extend(e.to_dict() for e in self.history[len(done):])
        return list(done)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Hand:
        """Inverse of :meth:`to_dict`."""
        return cls(
            stakes=Stakes.from_dict(data["stakes"]), button=data["button"],
            seats=[Seat.from_dict(s) for s in data["seats"]], deck=cards_from(data["deck"]),
            phase=Phase(data["phase"]), board=cards_from(data["board"]),
            burned=cards_from(data["burned"]),
            level=data["level"], min_raise=data["min_raise"], to_act=list(data["to_act"]),
            aggressor=data["aggressor"], history=[event_from_dict(e) for e in data["history"]],
            bomb_pot=data.get("bomb_pot", 0), run_it_twice=data.get("run_it_twice", False),
            asked=list(data.get("asked", [])), runs=data.get("runs", 1),
            second_board=cards_from(data.get("second_board", [])),
            # A state stored before the game was a table option is No-Limit Hold'em.
            game=Game(data.get("game", Game.NLHE)), street_bets=data.get("street_bets", 0),
            capped=data.get("capped", False),
            rake=RakeRule.from_dict(data["rake"]) if data.get("rake") else None,
        )

    def to_json(self) -> str:
        """The state as a JSON string; :meth:`from_json` gives back an equal hand."""
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Hand:
        """Inverse of :meth:`to_json`."""
        return cls.from_dict(json.loads(text))


def _can(verify: Any, *args: Any) -> bool:
    try:
        verify(*args)
    except (InvalidAction, NotYourTurn, HandOver, WrongPhase, NotInHand):
        return False
    return True


def _kind(action: ActionKind | str) -> ActionKind:
    if type(action) is ActionKind:
        return action
    try:
        return ActionKind(action)
    except ValueError:
        names = ", ".join(k.value for k in ActionKind)
        raise InvalidAction(f"expected one of {names}, got {action!r}") from None


_VERIFY = {
    ActionKind.FOLD: Hand.verify_fold, ActionKind.CHECK: Hand.verify_check,
    ActionKind.CALL: Hand.verify_call, ActionKind.ALL_IN: Hand.verify_all_in,
    ActionKind.SHOW: Hand.verify_show, ActionKind.MUCK: Hand.verify_muck,
}
_APPLY = {
    ActionKind.FOLD: Hand.fold, ActionKind.CHECK: Hand.check, ActionKind.CALL: Hand.call,
    ActionKind.ALL_IN: Hand.all_in, ActionKind.SHOW: Hand.show, ActionKind.MUCK: Hand.muck,
}
