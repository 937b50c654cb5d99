"""Checks of the hand-history exports against our own PHH of the same hand.

The PokerStars text is read back by pokerkit's independent ``PokerStarsParser``. Its
0.7.7 release leaves some PokerStars lines unread: ``posts the ante`` (its ante pattern
matches nothing), a third blind (taken for a new player's post rather than a live
straddle) and the boards of a hand run twice (``*** FIRST FLOP ***``). It also takes the
blinds and antes from what was posted, which is short of the table's when a seat posts
all in for less (the header's blinds are the table's), and the minimum bet from the
blinds, which a bomb pot has none of. :class:`StarsParser` adds those patterns (the
first board and showdown of a hand run twice are read as the hand's; the second board is
checked against the PHH's ``_second_board``), reads a raise's total from its ``to``
amount, and takes the blinds and the minimum bet from the header and the ante from the
largest one posted; nothing else. So antes, bomb pots, straddles, short blinds and hands
run twice are read by the same parser as every other line.
"""

from __future__ import annotations

import re
import tomllib
import warnings
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random
from typing import Any, ClassVar
from unittest import mock

from hypothesis import strategies as st
from pokerkit import notation
from pokerkit.notation import HandHistory, PokerStarsParser

from app.poker.cards import Deck
from app.poker.engine import Hand
from app.poker.events import (
    ActionKind,
    AntePosted,
    BlindKind,
    BlindPosted,
    HandMucked,
    PotAwarded,
    UncalledBetReturned,
)
from app.poker.hand_export import ExportView, HandFacts, rake_of
from app.poker.phh import phh_for_viewer, replay, to_phh
from app.poker.state import Game, SeatStatus, Stakes
from tests.poker.game_oracle import PotLimitFiveCardOmahaHoldem, PotLimitTexasHoldem
from tests.poker.pokerkit_oracle import pokerkit_shares

NAMES = ("ann", "bob o'neil", "cy", "dee", "eve", "fay", "gus", "hal", "ivy", "jo")


class _LiveBlinds(defaultdict[str, int]):
    """Blinds by player that stay positive: a straddle is a live blind, not a post."""

    def __setitem__(self, key: str, value: int) -> None:
        super().__setitem__(key, abs(value))


# pokerkit has no variant code of its own for these games: its parts make them (see
# tests/poker/game_oracle.py), registered here under codes of the tests' own.
_MORE_GAMES: dict[str, Any] = {"PT": PotLimitTexasHoldem, "PO5": PotLimitFiveCardOmahaHoldem}


class StarsParser(PokerStarsParser):
    """pokerkit's PokerStars parser, reading ante lines and straddles too, and every game
    the engine deals: Fixed-Limit Hold'em as pokerkit's ``FT`` (its small and big bets from
    the header), Pot-Limit Omaha as ``PO``, and Pot-Limit Hold'em and five-card Pot-Limit
    Omaha as pokerkit's parts make them, so pokerkit checks each bet against the game's
    limits."""

    VARIANT = re.compile(r" (?P<variant>Hold'em No Limit|Hold'em Pot Limit|Hold'em Limit"
                         r"|5 Card Omaha Pot Limit|Omaha Pot Limit) ")
    VARIANTS: ClassVar[dict[str, str]] = {
        "Hold'em No Limit": "NT", "Hold'em Pot Limit": "PT", "Hold'em Limit": "FT",
        "Omaha Pot Limit": "PO", "5 Card Omaha Pot Limit": "PO5"}

    ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante (?P<ante>[0-9.]+)")
    BLIND_OR_STRADDLE_POSTING = re.compile(
        r"(?P<player>.+): posts (small blind|big blind|straddle) "
        r"(?P<blind_or_straddle>[0-9.]+)")

    BOARD_DEALING = re.compile(
        r"\*\*\*( (FIRST )?FLOP \*\*\*| (FIRST )?(TURN|RIVER) \*\*\* \[[1-9TJQKAcdhs ]+\])"
        r" \[(?P<cards>[1-9TJQKAcdhs ]+)\]")

    def _parse_blinds_or_straddles(self, s: str, parse_value: Any) -> defaultdict[str, int]:
        return _LiveBlinds(int, super()._parse_blinds_or_straddles(s, parse_value))

    def _get_completion_betting_or_raising_to_amount(
        self, bets: Any, player: str, amount: int, line: str,
    ) -> int:
        # "raises 5 to 15": the line names the total; pokerkit adds 5 to the largest bet
        # it saw posted, which is short of the table's big blind when that blind was short.
        if m := re.search(r" to (\d+)", line):
            return int(m[1])
        return int(super()._get_completion_betting_or_raising_to_amount(bets, player, amount,
                                                                        line))

    def _parse_actions(self, s: str, parse_value: Any, players: Any) -> list[str]:
        return super()._parse_actions(s.split("*** SECOND SHOW DOWN ***")[0], parse_value,
                                      players)

    def _parse(self, s: str, parse_value: Any) -> HandHistory:
        small, big = (int(v) for v in re.search(r"\((\d+)/(\d+)\)", s).groups())  # type: ignore[union-attr]

        limit = "Hold'em Limit" in s

        class _Table(HandHistory):  # type: ignore[misc]
            """The hand at the table's blinds and ante, not at what short stacks posted."""

            game_types: ClassVar[dict[str, Any]] = {**HandHistory.game_types, **_MORE_GAMES}
            variants: ClassVar[dict[Any, str]] = {
                **HandHistory.variants, **{v: k for k, v in _MORE_GAMES.items()}}
            required_field_names: ClassVar[dict[str, tuple[str, ...]]] = {
                **HandHistory.required_field_names,
                **dict.fromkeys(_MORE_GAMES, HandHistory.required_field_names["PO"])}

            def __init__(self, **fields: Any) -> None:
                if "antes" in fields:
                    antes, blinds = list(fields["antes"]), list(fields["blinds_or_straddles"])
                    fields["antes"] = [max(antes) if a else 0 for a in antes]
                    # A fixed-limit header names the bets: the big blind is the small bet
                    # (a small blind posted short is left as posted: no line names it).
                    table = (blinds[0], small) if limit else (small, big)
                    fields["blinds_or_straddles"] = [
                        table[i] if b and i < 2 else b for i, b in enumerate(blinds)]
                    if limit:
                        fields.pop("min_bet", None)
                        fields.update(small_bet=small, big_bet=big)
                    else:
                        fields["min_bet"] = big
                super().__init__(**fields)

        with mock.patch.object(notation, "HandHistory", _Table):
            return super()._parse(s, parse_value)


def parse_stars(text: str) -> list[HandHistory]:
    """Every hand pokerkit reads in the text (a hand it cannot read fails the test)."""
    with _quiet():
        return list(StarsParser()(text, error_status=True))


@contextmanager
def _quiet() -> Iterator[None]:
    """pokerkit's notes on the parser's own time-zone field, and on a fold where a check
    was free (random hands fold so)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "The field 'time_zone_abbreviation'")
        warnings.filterwarnings("ignore", "There is no reason for this player to fold")
        yield


# ---- the hands ---------------------------------------------------------------------------


def facts_for(hand: Hand, *, number: int = 4242, seats: tuple[int, ...] | None = None,
              table_size: int = 10) -> HandFacts:
    """Names, seats and a start time for a hand (seat numbers from 1 by default)."""
    n = len(hand.seats)
    return HandFacts(number=number, table_name="Oak 3", table_size=table_size,
                     started_at=datetime(2026, 3, 8, 7, 30, 5, tzinfo=UTC),
                     names=NAMES[:n], seats=seats or tuple(s.number + 1 for s in hand.seats))


def stored(hand: Hand) -> Hand:
    """The hand as the server keeps it: replayed from its PHH (positions as seat numbers)."""
    return replay(to_phh(hand, players=list(NAMES[:len(hand.seats)]))).hand


@dataclass(frozen=True)
class Kind:
    """One kind of hand a table deals: stakes and table options."""

    ante: int = 0
    big_blind_ante: bool = False
    straddle: bool = False
    bomb_pot: int = 0
    run_it_twice: bool = False
    game: Game = Game.NLHE


KINDS = (Kind(), Kind(ante=2), Kind(ante=10, big_blind_ante=True), Kind(straddle=True),
         Kind(bomb_pot=30), Kind(run_it_twice=True), Kind(ante=1, straddle=True,
                                                          run_it_twice=True))
#: Every other game the engine deals, with its options (Fixed-Limit takes no straddle).
OTHER_GAMES = (Kind(game=Game.FLHE, ante=1), Kind(game=Game.PLHE, straddle=True),
               Kind(game=Game.PLO, run_it_twice=True), Kind(game=Game.PLO, bomb_pot=30),
               Kind(game=Game.PLO5, ante=2))


@st.composite
def random_hands(draw: st.DrawFn, kind: Kind) -> Hand:
    """A hand of ``kind`` on 2-9 seats with many short stacks, played with random legal
    choices (bets, raises, all-ins, folds, shows, mucks, run-it-twice answers)."""
    n = draw(st.integers(2, min(9, (52 - 8) // kind.game.hole_cards)))
    seats = draw(st.lists(st.integers(0, 9), min_size=n, max_size=n, unique=True))
    stacks = {s: draw(st.one_of(st.integers(1, 60), st.integers(40, 2000))) for s in seats}
    straddle = 40 if kind.straddle and n >= 3 else 0
    stakes = Stakes(5, 10, kind.ante, kind.big_blind_ante, straddle=straddle)
    hand, _ = Hand.start(stacks, button=draw(st.sampled_from(seats)), stakes=stakes,
                         deck=Deck(rng=Random(draw(st.integers(0, 2**32 - 1)))),
                         bomb_pot=kind.bomb_pot, run_it_twice=kind.run_it_twice,
                         game=kind.game)
    for _ in range(300):
        if hand.is_complete:
            return hand
        if hand.asked:
            seat = hand.asked[0]
            (hand.run_twice if draw(st.booleans()) else hand.run_once)(seat)
            continue
        legal = {a.action: a for a in hand.legal_actions()}
        choice = draw(st.sampled_from(sorted(legal)))
        wager = legal[choice]
        amount = draw(st.integers(wager.min, wager.max)) if choice in (
            ActionKind.BET, ActionKind.RAISE) else None
        hand.act(hand.actor, choice, amount)  # type: ignore[arg-type]
    raise AssertionError("the hand did not end")


# ---- what pokerkit read, against our PHH ----------------------------------------------------


def _betting(actions: list[str]) -> list[str]:
    return [a for a in actions if not a.startswith("d ") and " sm" not in a]


def _decisions(phh: dict[str, Any], hand: Hand) -> list[str]:
    """The PHH actions without the checks it writes before the flop of a bomb pot when
    fewer than two seats have chips behind: there is no such betting round to read."""
    actions: list[str] = phh["actions"]
    if not hand.bomb_pot or sum(s.starting_stack > hand.bomb_pot for s in hand.seats) > 1:
        return actions
    flop = next((i for i, a in enumerate(actions) if a.startswith("d db")), len(actions))
    return [a for i, a in enumerate(actions) if i > flop or not a.endswith(" cc")]


def assert_same_betting(parsed: list[str], ours: list[str], text: str) -> None:
    """pokerkit read our actions, in order, plus only the free checks its rules ask for
    where ours make no decision (the big blind all-in for less than the small blind's
    bet: pokerkit asks the small blind to check), which the text never writes."""
    free = 0
    rest = iter(ours)
    expected = next(rest, None)
    for action in parsed:
        if action == expected:
            expected = next(rest, None)
        else:
            assert action.endswith(" cc"), f"read {action!r}, expected {expected!r}\n{text}"
            free += 1
    assert expected is None, f"pokerkit did not read {expected!r}"
    written = len(re.findall(r"^.+: (checks|calls \d+)", text, re.M))
    assert sum(a.endswith(" cc") for a in parsed) == written + free


def _dealt(actions: list[str]) -> list[str]:
    return [a for a in actions if a.startswith("d dh")]


def _boards(actions: list[str]) -> list[str]:
    return [a for a in actions if a.startswith("d db")]


def _shows(actions: list[str]) -> set[str]:
    return {a for a in actions if " sm " in a and "?" not in a}


def check_stars(text: str, view: ExportView) -> None:
    """pokerkit reads ``text`` back into the hand our PHH records, as ``view`` sees it."""
    hand = view.hand
    phh = to_phh(hand, players=list(view.facts.names))
    ours = tomllib.loads(phh_for_viewer(phh, None if view.viewer is None else view.viewer + 1))
    (parsed,) = parse_stars(text)
    n = len(hand.seats)
    assert parsed.players == list(view.facts.names)
    assert parsed.seats == list(view.facts.seats)
    assert parsed.starting_stacks == ours["starting_stacks"]
    assert parsed.antes == _table_antes(hand, ours["antes"]), "antes"
    posted = _posted(hand, BlindPosted)
    assert parsed.blinds_or_straddles == [b if p else 0 for b, p in zip(
        ours["blinds_or_straddles"], posted, strict=True)], "blinds"
    assert_same_betting(_betting(parsed.actions), _betting(_decisions(ours, hand)), text)
    assert _dealt(parsed.actions) == _dealt(ours["actions"]), "hole cards"
    assert _shows(parsed.actions) == _shows(ours["actions"]), "shown hands"
    assert _boards(parsed.actions) == _boards(ours["actions"]), "board"
    second = re.findall(r"^\*\*\* SECOND \w+ \*\*\* (?:\[[^]]+\] )?\[([^]]+)\]$", text, re.M)
    assert [c.replace(" ", "") for c in second] == ours.get("_second_board", []), "second board"
    assert parsed.hand == view.facts.number and parsed.seat_count == view.facts.table_size
    assert len(parsed.players) == n
    check_money(text, hand, view)


def _table_antes(hand: Hand, antes: list[int]) -> list[int]:
    """The PHH's antes, or, when every seat posted its ante all in, what was posted (the
    text then shows no full ante)."""
    posted = [e for e in hand.history if isinstance(e, AntePosted)]
    if not posted or not all(e.all_in for e in posted):
        return antes
    by = {s.number: i for i, s in enumerate(hand.seats)}
    out = [0] * len(hand.seats)
    for e in posted:
        out[by[e.seat]] = max(p.amount for p in posted)
    return out[::-1] if len(out) == 2 else out


def _posted(hand: Hand, kind: type[BlindPosted]) -> list[int]:
    """What each position posted, in pokerkit's order (heads-up: reversed)."""
    by = {s.number: i for i, s in enumerate(hand.seats)}
    out = [0] * len(hand.seats)
    for e in hand.history:
        if isinstance(e, kind):
            out[by[e.seat]] += e.amount
    return out[::-1] if len(out) == 2 else out


def check_money(text: str, hand: Hand, view: ExportView) -> None:
    """Every chip the text moves: uncalled bets, each pot collected, the total pot."""
    name = view.name
    returned = [(name(e.seat), e.amount) for e in hand.history
                if isinstance(e, UncalledBetReturned)]
    assert re.findall(r"^Uncalled bet \((\d+)\) returned to (.+)$", text, re.M) == [
        (str(a), who) for who, a in returned]
    collected = [(who, int(a)) for who, a, _ in re.findall(
        r"^(.+) collected (\d+) from (pot|main pot|side pot(?:-\d+)?)$", text, re.M)]
    awarded = [(name(seat), amount) for e in hand.history if isinstance(e, PotAwarded)
               for seat, amount in zip(e.seats, e.amounts, strict=True) if amount]
    assert sorted(collected) == sorted(awarded), "collected"
    summary = re.search(r"^Total pot (\d+).* \| Rake (\d+)$", text, re.M)
    assert summary is not None, "the summary's total pot and rake"
    total, rake = int(summary[1]), int(summary[2])
    assert rake == rake_of(hand)
    assert total == chips_put_in(text) == sum(amount for _, amount in awarded) + rake
    assert total == sum(s.contributed + s.dead for s in hand.seats)


def chips_put_in(text: str) -> int:
    """The chips the text's lines put in the pot, read line by line: posts, calls, bets,
    raises (to a street total), less the bets returned uncalled."""
    total = 0
    street: dict[str, int] = defaultdict(int)
    for line in text.splitlines():
        if re.match(r"\*\*\* (FIRST |SECOND )?(FLOP|TURN|RIVER) \*\*\*", line):
            street.clear()
        elif m := re.match(r"(.+): posts (the ante|small blind|big blind|straddle) (\d+)", line):
            total += int(m[3])
            if m[2] != "the ante":
                street[m[1]] += int(m[3])
        elif m := re.match(r"(.+): (calls|bets) (\d+)", line):
            total += int(m[3])
            street[m[1]] += int(m[3])
        elif m := re.match(r"(.+): raises \d+ to (\d+)", line):
            total += int(m[2]) - street[m[1]]
            street[m[1]] = int(m[2])
        elif m := re.match(r"Uncalled bet \((\d+)\) returned to", line):
            total -= int(m[1])
    return total


def pokerkit_follows(hand: Hand) -> bool:
    """False for a hand whose big blind was posted short or not at all (its seat all in):
    our rules have the other seats call the table's big blind, pokerkit's the chips the
    blind posted, so the two play different hands (the engine's differential test against
    pokerkit leaves these out too)."""
    if hand.bomb_pot:
        return True
    return any(isinstance(e, BlindPosted) and e.blind is BlindKind.BIG
               and e.amount == hand.stakes.big_blind for e in hand.history)


def settles_like_pokerkit(text: str, hand: Hand) -> bool:
    """With every card known, one board and no muck, pokerkit settles the parsed hand
    itself: its final stacks must be ours, with a split pot's odd chips given as pokerkit
    gives them (see ``tests/poker/test_engine_differential.py``)."""
    if hand.runs != 1 or any(isinstance(e, HandMucked) for e in hand.history):
        return False
    (parsed,) = parse_stars(text)
    # The text does not say how antes that an all-in seat cannot match are settled; the
    # table's rule is the one its PHH records.
    parsed.ante_trimming_status = tomllib.loads(to_phh(hand))["ante_trimming_status"]
    with _quiet():
        stacks = list(list(parsed)[-1].stacks)
    if stacks in ([s.stack for s in hand.seats], pokerkit_shares(hand)):
        return True
    # The engine's differential test names the one other difference: pokerkit mucks a
    # beaten all-in hand and re-forms the pots without it, which can move an odd chip.
    assert any(s.status is SeatStatus.ALL_IN for s in hand.seats), text
    assert sum(stacks) == sum(s.stack for s in hand.seats), text
    return False


_CARD = re.compile(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])")


def assert_no_hidden_card(text: str, view: ExportView) -> None:
    """Every card the export names is one its reader saw: their own hole cards, the hands
    shown and the boards. (Player names in these tests hold no card-like word.)"""
    hand = view.hand
    seen = {str(c) for board in hand.boards() for c in board}
    for position in range(len(hand.seats)):
        seen |= {str(c) for c in view.cards_of(position) or ()}
    named = set(_CARD.findall(text))
    assert named <= seen, f"{sorted(named - seen)} leaked to {view.viewer}"
    hidden = {str(c) for p, s in enumerate(hand.seats) for c in s.cards
              if view.viewer is not None and p != view.viewer and p not in view.shown()}
    assert not named & hidden


def check_stars_against_phh(text: str, phh: str) -> None:
    """pokerkit's reading of ``text`` and the PHH history of the same hand, as the same
    reader gets both from the server, agree: stacks, antes, blinds, betting, the hole
    cards shown to the reader, the board and the hands shown."""
    ours = tomllib.loads(phh)
    (parsed,) = parse_stars(text)
    assert parsed.players == ours["players"] and parsed.seats == ours["seats"]
    assert parsed.starting_stacks == ours["starting_stacks"]
    assert parsed.antes == ours["antes"]
    assert parsed.blinds_or_straddles == ours["blinds_or_straddles"]
    assert_same_betting(_betting(parsed.actions), _betting(ours["actions"]), text)
    assert _dealt(parsed.actions) == _dealt(ours["actions"])
    assert _boards(parsed.actions) == _boards(ours["actions"])
    assert _shows(parsed.actions) == _shows(ours["actions"])
