"""Hand histories in PokerStars' text format, the one poker trackers import.

:func:`to_pokerstars` writes one finished hand as its reader may see it (see
:class:`~app.poker.hand_export.ExportView`), with play-money amounts as PokerStars
writes them: whole chips, no currency sign. What the format has no word for is
written the way the rest of the industry writes it for trackers: a straddle is
``posts straddle``; a bomb pot is antes from every seat, then (as in the PHH history) a
check from each seat with chips behind before the flop when two or more have chips
behind, so a reader that walks a betting round before the flop finds one. A hand run
twice is written as PokerStars does: ``*** FIRST FLOP ***`` ... ``*** SECOND RIVER
***``, one showdown per board and both boards in the summary. The summary's total pot
is every chip called into the pots; its main and side pots are what was collected from
each, after the rake (``Total pot 120 | Rake 3``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from app.poker.cards import format_cards
from app.poker.events import (
    ActionKind,
    AntePosted,
    BlindKind,
    BlindPosted,
    BoardDealt,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
    UncalledBetReturned,
)
from app.poker.hand_export import (
    ExportView,
    TournamentFacts,
    awards,
    describe,
    eastern,
    pot_totals,
    rake_of,
    street_boards,
)
from app.poker.state import Phase

# Each game as PokerStars names it in a hand's first line.
_GAME = {"nlhe": "Hold'em No Limit", "plhe": "Hold'em Pot Limit", "flhe": "Hold'em Limit",
         "plo": "Omaha Pot Limit", "plo5": "5 Card Omaha Pot Limit"}
#: The games this format writes: every game the engine deals.
GAMES = frozenset(_GAME)
_STREET = {Phase.FLOP: "Flop", Phase.TURN: "Turn", Phase.RIVER: "River"}
_BLIND = {BlindKind.SMALL: "small blind", BlindKind.BIG: "big blind",
          BlindKind.STRADDLE: "straddle"}


def to_pokerstars(view: ExportView) -> str:
    """The hand as PokerStars hand-history text (lines end in ``\\n``); a game this
    format does not write yet raises :class:`~app.poker.hand_export.UnsupportedGame`."""
    view.require(GAMES, "PokerStars text")
    play = _Play(view)
    lines = [*_header(view), *_seat_lines(view), *_forced(view), "*** HOLE CARDS ***",
             *_dealt(view), *play.lines(), *_showdowns(view), *_finish(view),
             *_summary(view, play)]
    return "\n".join(lines) + "\n"


# ---- header and seats ------------------------------------------------------------------


def _roman(number: int) -> str:
    out = ""
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"),
                           (4, "IV"), (1, "I")):
        while number >= value:
            out, number = out + letters, number - value
    return out


def _header(view: ExportView) -> list[str]:
    facts, stakes = view.facts, view.stakes
    # A fixed-limit game is named by its bets (small bet: the big blind; big bet: twice
    # it), as PokerStars names it; the other games by their blinds.
    blinds = (f"({stakes.big_blind}/{2 * stakes.big_blind})" if view.hand.game.fixed_limit
              else f"({stakes.small_blind}/{stakes.big_blind})")
    moment = facts.started_at
    when = (f"{moment:%Y/%m/%d %H:%M:%S} UTC [{eastern(moment):%Y/%m/%d %H:%M:%S} ET]")
    game = _GAME[view.hand.game.value]
    tour = facts.tournament
    if tour is None:
        first = f"PokerStars Hand #{facts.number}:  {game} {blinds} - {when}"
    else:
        level = f" - Level {_roman(tour.level)}" if tour.level else ""
        first = (f"PokerStars Hand #{facts.number}: Tournament #{tour.number}, "
                 f"{_buy_in(tour)} {game}{level} {blinds} - {when}")
    table = (f"Table '{facts.table_name}' {facts.table_size}-max "
             f"Seat #{view.button_seat} is the button")
    return [first, table]


def _buy_in(tour: TournamentFacts) -> str:
    return "Freeroll" if tour.buy_in == tour.fee == 0 else f"{tour.buy_in}+{tour.fee}"


def _by_seat(view: ExportView) -> list[int]:
    """Positions in table seat order."""
    return sorted(range(len(view.hand.seats)), key=lambda p: view.facts.seats[p])


def _seat_lines(view: ExportView) -> list[str]:
    return [f"Seat {view.facts.seats[p]}: {view.facts.names[p]} "
            f"({view.hand.seats[p].starting_stack} in chips)" for p in _by_seat(view)]


def _all_in(flag: bool) -> str:
    return " and is all-in" if flag else ""


def _forced(view: ExportView) -> list[str]:
    history = view.hand.history
    antes = [f"{view.name(e.seat)}: posts the ante {e.amount}{_all_in(e.all_in)}"
             for e in history if isinstance(e, AntePosted)]
    blinds = [f"{view.name(e.seat)}: posts {_BLIND[e.blind]} {e.amount}{_all_in(e.all_in)}"
              for e in history if isinstance(e, BlindPosted)]
    return antes + blinds


def _dealt(view: ExportView) -> list[str]:
    lines = []
    for e in view.hand.history:
        if isinstance(e, HoleCardsDealt):
            cards = view.cards_of(view.position(e.seat))
            if cards is not None:
                lines.append(f"Dealt to {view.name(e.seat)} [{format_cards(cards, ' ')}]")
    return lines


# ---- the betting ------------------------------------------------------------------------


@dataclass
class _Play:
    """The betting rounds as text, and what the summary needs to know of them."""

    view: ExportView
    folded_on: dict[int, str] = field(default_factory=dict)
    put_in: set[int] = field(default_factory=set)

    def lines(self) -> list[str]:
        return list(self._walk())

    def _walk(self) -> Iterator[str]:
        view = self.view
        # The bet to raise over before the flop is the table's big blind even when the big
        # blind's seat posted less (or nothing: all in on the ante); a bomb pot has none.
        level = 0 if view.hand.bomb_pot else view.hand.stakes.big_blind
        street = "before Flop"
        quiet: int | None = None
        shared = {id(e): name for name, e in street_boards(view)}
        showdown = any(isinstance(e, HandShown | HandMucked) for e in view.hand.history)
        yield from self._bomb_checks()
        for e in view.hand.history:
            if isinstance(e, BlindPosted):
                level = max(level, e.amount)
                self.put_in.add(view.position(e.seat))
            elif isinstance(e, BoardDealt):
                yield _street_line(view, shared[id(e)], e)
                level, street = 0, f"on the {_STREET[e.street]}"
            elif isinstance(e, PlayerActed):
                yield self._action(e, level, street)
                level = max(level, e.total)
            elif isinstance(e, UncalledBetReturned):
                yield f"Uncalled bet ({e.amount}) returned to {view.name(e.seat)}"
            elif isinstance(e, PotAwarded) and not showdown:
                yield from _collected(view, [e])
                quiet = e.seats[0] if quiet is None else quiet
        if quiet is not None:
            yield f"{view.name(quiet)}: doesn't show hand"

    def _bomb_checks(self) -> list[str]:
        hand = self.view.hand
        behind = [s for s in hand.seats if s.starting_stack > hand.bomb_pot]
        if not hand.bomb_pot or len(behind) < 2:  # no betting round without two stacks
            return []
        return [f"{self.view.name(s.number)}: checks" for s in behind]

    def _action(self, e: PlayerActed, level: int, street: str) -> str:
        name = self.view.name(e.seat)
        position = self.view.position(e.seat)
        if e.amount:
            self.put_in.add(position)
        match e.action:
            case ActionKind.FOLD:
                self.folded_on[position] = street
                return f"{name}: folds"
            case ActionKind.CHECK:
                return f"{name}: checks"
            case ActionKind.CALL:
                return f"{name}: calls {e.amount}{_all_in(e.all_in)}"
            case ActionKind.BET:
                return f"{name}: bets {e.total}{_all_in(e.all_in)}"
            case _:
                return f"{name}: raises {e.total - level} to {e.total}{_all_in(e.all_in)}"


def _street_line(view: ExportView, run: str, e: BoardDealt) -> str:
    board = view.hand.boards()[e.run]
    before = board[: {Phase.FLOP: 0, Phase.TURN: 3, Phase.RIVER: 4}[e.street]]
    title = f"{run} {e.street.value.upper()}".strip()
    if not before:
        return f"*** {title} *** [{format_cards(e.cards, ' ')}]"
    return f"*** {title} *** [{format_cards(before, ' ')}] [{format_cards(e.cards, ' ')}]"


def _pot_name(pot: int, count: int) -> str:
    if count == 1:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{pot}"


def _collected(view: ExportView, won: list[PotAwarded]) -> list[str]:
    count = len(pot_totals(view.hand))
    return [f"{view.name(seat)} collected {amount} from {_pot_name(e.pot, count)}"
            for e in won for seat, amount in zip(e.seats, e.amounts, strict=True) if amount]


# ---- showdown, tournament result, summary ---------------------------------------------------


def _showdowns(view: ExportView) -> list[str]:
    hand = view.hand
    reveals = [e for e in hand.history if isinstance(e, HandShown | HandMucked)]
    if not reveals:
        return []
    lines = []
    for run, board in enumerate(hand.boards()):
        title = ("FIRST " if run == 0 else "SECOND ") if view.run_twice else ""
        lines.append(f"*** {title}SHOW DOWN ***")
        for e in reveals:
            name = view.name(e.seat)
            if isinstance(e, HandShown):
                lines.append(f"{name}: shows [{format_cards(e.cards, ' ')}] "
                             f"({describe(e.cards, board, omaha=hand.game.omaha)})")
            else:
                lines.append(f"{name}: mucks hand")
        lines += _collected(view, [e for e in awards(hand) if e.run == run])
    return lines


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _finish(view: ExportView) -> list[str]:
    """The reader's place (and prize) in the hand that ended their tournament."""
    tour, position = view.facts.tournament, view.viewer
    if tour is None or position is None or tour.place is None:
        return []
    seats = view.hand.seats
    name = view.facts.names[position]
    if tour.place == 1 and all(s.stack == 0 for i, s in enumerate(seats) if i != position):
        return [f"{name} wins the tournament and receives {tour.prize or 0} - congratulations!"]
    if seats[position].stack != 0:
        return []
    prize = f" and received {tour.prize}." if tour.prize else ""
    return [f"{name} finished the tournament in {_ordinal(tour.place)} place{prize}"]


def _summary(view: ExportView, play: _Play) -> list[str]:
    hand = view.hand
    pots = pot_totals(hand)
    rake = rake_of(hand)
    line = f"Total pot {sum(pots.values()) + rake}"
    if len(pots) > 1:
        sides = [f"Side pot {a}." if len(pots) == 2 else f"Side pot-{p} {a}."
                 for p, a in sorted(pots.items()) if p]
        line += f" Main pot {pots.get(0, 0)}. " + " ".join(sides)
    lines = ["*** SUMMARY ***", f"{line} | Rake {rake}"]
    if view.run_twice:
        first, second = hand.boards()
        lines += ["Hand was run twice", f"FIRST Board [{format_cards(first, ' ')}]",
                  f"SECOND Board [{format_cards(second, ' ')}]"]
    elif hand.board:
        lines.append(f"Board [{format_cards(hand.board, ' ')}]")
    return lines + [_seat_result(view, play, p) for p in _by_seat(view)]


def _roles(view: ExportView, position: int) -> str:
    number = view.hand.seats[position].number
    roles = [" (button)"] if position == len(view.hand.seats) - 1 else []
    roles += [f" ({_BLIND[e.blind]})" for e in view.hand.history
              if isinstance(e, BlindPosted) and e.seat == number
              and e.blind is not BlindKind.STRADDLE]
    return "".join(roles)


def _won(view: ExportView, position: int, run: int | None = None) -> int:
    number = view.hand.seats[position].number
    return sum(amount for e in awards(view.hand) if run is None or e.run == run
               for seat, amount in zip(e.seats, e.amounts, strict=True) if seat == number)


def _seat_result(view: ExportView, play: _Play, position: int) -> str:
    head = f"Seat {view.facts.seats[position]}: {view.facts.names[position]}" + _roles(
        view, position)
    number = view.hand.seats[position].number
    if position in play.folded_on:
        street = play.folded_on[position]
        quiet = street == "before Flop" and position not in play.put_in
        return f"{head} folded {street}" + (" (didn't bet)" if quiet else "")
    shown = next((e for e in view.hand.history
                  if isinstance(e, HandShown) and e.seat == number), None)
    if shown is not None:
        parts = []
        for run, board in enumerate(view.hand.boards()):
            won, made = _won(view, position, run), describe(
                shown.cards, board, omaha=view.hand.game.omaha)
            parts.append(f"won ({won}) with {made}" if won else f"lost with {made}")
        return f"{head} showed [{format_cards(shown.cards, ' ')}] and " + ", and ".join(parts)
    if any(isinstance(e, HandMucked) and e.seat == number for e in view.hand.history):
        cards = view.cards_of(position)
        return f"{head} mucked" + (f" [{format_cards(cards, ' ')}]" if cards else "")
    return f"{head} collected ({_won(view, position)})"
