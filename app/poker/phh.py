"""Hand histories in PHH, the open Poker Hand History format (as read by pokerkit).

:func:`to_phh` writes a hand as PHH text with its game's variant (``NT``, ``FT``,
``PO``, and the nearest documented form for Pot-Limit Hold'em and five-card Omaha: see
:mod:`app.poker.phh_games`); :func:`replay` parses such text and plays it through the
engine with a deck stacked from the cards the history shows.

Players ``p1`` to ``pN`` are the seats in order from the left of the button,
so the button is ``pN`` (heads-up ``p1`` is the big blind and ``p2`` the
button). ``antes`` and ``blinds_or_straddles`` are listed by that position:
index 0 is the small blind, index 1 the big blind, as pokerkit reads them.

A hand run twice: PHH (as pokerkit 0.7 reads and writes it) has no action for
choosing the number of run-outs, so the first board is written as usual (``d db``
lines) and the second board's own cards, street by street, as the user-defined field
``_second_board`` (for example ``["Kh8s5d", "Jc", "Qc"]`` for a hand run twice before
the flop). ``finishing_stacks`` are the stacks after both boards were settled; a PHH
reader that ignores ``_second_board`` settles the whole pot on the first board and
disagrees with them. :func:`replay` reads the field back and runs the hand twice.

>>> from random import Random
>>> from app.poker.cards import Deck
>>> from app.poker.engine import Hand
>>> from app.poker.state import Stakes
>>> hand, _ = Hand.start({0: 500, 1: 500}, button=0, stakes=Stakes(5, 10), deck=Deck(rng=Random(2)))
>>> _ = hand.fold(0)
>>> replay(to_phh(hand)).finishing_stacks
[505, 495]
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from app.errors import HoldemError
from app.poker.cards import FULL_DECK, Card, Deck, parse_cards
from app.poker.engine import Hand
from app.poker.errors import InvalidHandHistory
from app.poker.events import (
    ActionKind,
    BlindKind,
    BlindPosted,
    BoardDealt,
    HandMucked,
    HandShown,
    HoleCardsDealt,
    PlayerActed,
    PotAwarded,
)
from app.poker.fairness import SCHEME, DealtCards, FairnessProof, NoProof, verify_deal
from app.poker.omaha import hand_rank
from app.poker.phh_games import game_of, min_bet_of, variant_fields
from app.poker.rake import MAX_PERCENT_HUNDREDTHS, RakeRule
from app.poker.state import Game, Phase, Stakes

_ACTION_CODES = {
    ActionKind.FOLD: "f", ActionKind.CHECK: "cc", ActionKind.CALL: "cc",
    ActionKind.BET: "cbr", ActionKind.RAISE: "cbr",
}


# ---- export ----------------------------------------------------------------


def to_phh(
    hand: Hand, *, players: Sequence[str] | None = None, fields: Mapping[str, Any] | None = None
) -> str:
    """The hand as PHH text; ``finishing_stacks`` is written once the hand is complete.

    ``players`` names ``p1``..``pN``; ``fields`` adds optional PHH fields
    (``event``, ``table``, ``hand``, ...). ``seats`` gives the table seat
    numbers, counted from 1.
    """
    n = len(hand.seats)
    st = hand.stakes
    antes = [0] * n
    if hand.bomb_pot:
        antes = [hand.bomb_pot] * n
    elif st.big_blind_ante:
        antes[1] = st.ante
    elif st.ante:
        antes = [st.ante] * n
    blinds = [0] * n if hand.bomb_pot else (
        [st.small_blind, st.big_blind, _straddled(hand)][:n] + [0] * (n - 3))
    named = variant_fields(hand.game, st.big_blind)
    out: dict[str, Any] = {
        "variant": named.pop("variant"),
        "ante_trimming_status": not st.big_blind_ante,
        "antes": antes,
        "blinds_or_straddles": blinds,
        **{key: named.pop(key) for key in list(named) if not key.startswith("_")},
        "starting_stacks": [s.starting_stack for s in hand.seats],
        "actions": _actions(hand),
        "seats": [s.number + 1 for s in hand.seats],
    }
    if players is not None:
        out["players"] = list(players)
    if hand.is_complete:
        out["finishing_stacks"] = [s.stack for s in hand.seats]
        # PHH has no rake field: a user-defined one, so the finishing stacks (after the
        # rake) add up, and a replay takes the same rake (see replay()).
        rake = sum(e.rake for e in hand.history if isinstance(e, PotAwarded))
        if rake:
            out["_rake"] = rake
    if hand.runs == 2:
        out["_second_board"] = ["".join(map(str, e.cards)) for e in hand.history
                                if isinstance(e, BoardDealt) and e.run == 1]
    out.update(named)  # the user-defined _game of a game PHH has no variant for
    out.update(fields or {})
    lines = [f"{key} = {_toml(value)}\n" for key, value in out.items() if key != "actions"]
    actions = "".join(f"  {_toml(a)},\n" for a in out["actions"])
    lines.insert(list(out).index("actions"), f"actions = [\n{actions}]\n")
    return "".join(lines)


def _straddled(hand: Hand) -> int:
    """The straddle posted in this hand (p3's blind), or 0."""
    return next((e.amount for e in hand.history
                 if isinstance(e, BlindPosted) and e.blind is BlindKind.STRADDLE), 0)


def _actions(hand: Hand) -> list[str]:
    p = {s.number: f"p{i + 1}" for i, s in enumerate(hand.seats)}
    lines = []
    # A bomb pot has no betting before the flop; PHH readers still walk that round, so
    # every seat with chips behind checks (in seat order: there are no blinds).
    bomb_checks = [f"p{i + 1} cc" for i, s in enumerate(hand.seats)
                   if s.starting_stack > hand.bomb_pot] if hand.bomb_pot else []
    for e in hand.history:
        if isinstance(e, BoardDealt) and bomb_checks:
            lines += bomb_checks
            bomb_checks = []
        if isinstance(e, HoleCardsDealt):
            lines.append(f"d dh {p[e.seat]} {''.join(map(str, e.cards))}")
        elif isinstance(e, BoardDealt) and e.run == 0:
            lines.append(f"d db {''.join(map(str, e.cards))}")
        elif isinstance(e, PlayerActed):
            code = _ACTION_CODES[e.action]
            amount = f" {e.total}" if code == "cbr" else ""
            lines.append(f"{p[e.seat]} {code}{amount}")
        elif isinstance(e, HandShown):
            lines.append(f"{p[e.seat]} sm {''.join(map(str, e.cards))}")
        elif isinstance(e, HandMucked):
            lines.append(f"{p[e.seat]} sm")
    return lines


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return str(value)


# ---- parse and replay --------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """The hand a PHH history replayed into, its finishing stacks and the recorded ones."""

    hand: Hand
    finishing_stacks: list[int]
    expected: list[int | float] | None

    @property
    def match(self) -> bool | None:
        """Whether the stacks equal the history's ``finishing_stacks`` (None if absent)."""
        return None if self.expected is None else self.finishing_stacks == self.expected


def replay(text: str) -> Replay:
    """Parse PHH text of any game the engine deals and play it through the engine.

    Raises :class:`InvalidHandHistory` with the reason when the text is not
    TOML, is another variant, uses a feature the engine does not play (more
    than one straddle, uneven antes, a minimum bet other than the big blind) or
    an action the rules refuse.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidHandHistory(f"not valid PHH (TOML): {exc}") from None
    game = game_of(data)
    stakes, stacks, bomb_pot = _table(data, game)
    actions = [_words(a) for a in _list(data, "actions", str)]
    second = [_known(_cards(cards, None)) for cards in _list(data, "_second_board", str)
              ] if "_second_board" in data else []
    deck = _deck(actions, len(stacks), second, game)
    n = len(stacks)
    rake = _rake(data)
    try:
        hand, _ = Hand.start(dict(enumerate(stacks)), button=n - 1, stakes=stakes, deck=deck,
                             bomb_pot=bomb_pot, run_it_twice=bool(second), game=game,
                             rake=rake)
    except HoldemError as exc:
        raise InvalidHandHistory(f"cannot start the hand: {exc.message}") from None
    _play(hand, actions)
    taken = sum(e.rake for e in hand.history if isinstance(e, PotAwarded))
    if rake is not None and hand.is_complete and taken != data["_rake"]:
        raise InvalidHandHistory(f"expected a rake of {data['_rake']} (_rake), the pots "
                                 f"allow {taken}")
    if second and hand.runs != 2:
        raise InvalidHandHistory("expected a hand run twice (_second_board), got one board")
    expected = data.get("finishing_stacks")
    if expected is not None:
        recorded = _list(data, "finishing_stacks", int | float)
        expected = [int(v) if float(v).is_integer() else v for v in recorded]
    return Replay(hand, [s.stack for s in hand.seats], expected)


def _rake(data: dict[str, Any]) -> RakeRule | None:
    """The rule that takes a history's ``_rake`` again: any rake we write is at most 10 %
    of the pot, so 10 % capped at that amount takes exactly it, from every pot in the same
    proportions."""
    rake = data.get("_rake", 0)
    if isinstance(rake, bool) or not isinstance(rake, int) or rake < 0:
        raise InvalidHandHistory(f"expected _rake to be a whole number of chips, got {rake!r}")
    if not rake:
        return None
    return RakeRule(MAX_PERCENT_HUNDREDTHS, caps=((2, rake),), no_flop_no_drop=False)


def _table(data: dict[str, Any], game: Game) -> tuple[Stakes, list[int], int]:
    """Stakes, starting stacks and the bomb pot ante (0 for none) of a PHH table.

    A table with no blinds and one ante for everybody is a bomb pot.
    """
    stacks = [_chips(v, "starting_stacks") for v in _list(data, "starting_stacks")]
    n = len(stacks)
    if not 2 <= n <= 10 or min(stacks) <= 0:
        raise InvalidHandHistory(f"expected 2 to 10 positive starting stacks, got {stacks}")
    blinds = _per_player(data, "blinds_or_straddles", n)
    antes = _per_player(data, "antes", n)
    min_bet = min_bet_of(data, game)
    if not any(blinds) and len(set(antes)) == 1 and antes[0] > 0:
        if min_bet is None or _chips(min_bet, "min_bet") <= 0:
            raise InvalidHandHistory(f"expected a positive min_bet, got {min_bet!r}")
        return Stakes(0, int(min_bet)), stacks, antes[0]
    straddle = blinds[2] if n >= 3 else 0
    if any(blinds[3:]) or blinds[1] <= 0 or not 0 <= blinds[0] <= blinds[1] or (
            straddle and (straddle < 2 * blinds[1] or stacks[2] <= straddle)):
        raise InvalidHandHistory(f"expected a small and a big blind, and perhaps a straddle "
                                 f"of at least twice the big blind by p3 with chips behind, "
                                 f"got {blinds}")
    if min_bet is None or _chips(min_bet, "min_bet") != blinds[1]:
        raise InvalidHandHistory(f"expected min_bet equal to the big blind, got {min_bet!r}")
    if not any(antes):
        return Stakes(blinds[0], blinds[1], straddle=straddle), stacks, 0
    if len(set(antes)) == 1:
        return Stakes(blinds[0], blinds[1], antes[0], straddle=straddle), stacks, 0
    if not any(antes[:1] + antes[2:]):
        return Stakes(blinds[0], blinds[1], antes[1], big_blind_ante=True,
                      straddle=straddle), stacks, 0
    raise InvalidHandHistory(f"expected equal antes or a big-blind ante, got {antes}")


_KINDS: dict[Any, str] = {str: "strings", int | float: "numbers"}


def _list(data: dict[str, Any], key: str, kind: Any = object) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, kind) for v in value):
        raise InvalidHandHistory(f"expected {key} to be a list of {_KINDS.get(kind, 'values')}, "
                                 f"got {value!r}")
    return value


def _per_player(data: dict[str, Any], key: str, n: int) -> list[int]:
    value = data.get(key, 0)
    values = [value] * n if isinstance(value, int | float) else _list(data, key)
    if len(values) != n:
        raise InvalidHandHistory(f"expected {n} {key}, got {len(values)}")
    return [_chips(v, key) for v in values]


def _chips(value: Any, key: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        raise InvalidHandHistory(f"expected whole chips in {key}, got {value!r}")
    return int(value)


def _words(action: str) -> list[str]:
    return action.split("#", 1)[0].split()


def _known(cards: list[Card | None]) -> list[Card]:
    if None in cards:
        raise InvalidHandHistory("expected every card of _second_board to be known")
    return [c for c in cards if c is not None]


def _deck(actions: list[list[str]], n: int, second: list[list[Card]] | None = None,
          game: Game = Game.NLHE) -> Deck:
    """A deck stacked so the engine deals exactly the cards the history shows (and
    then the streets of the ``second`` board of a hand run twice).

    Unknown hole cards (``????``) of a seat that does not fold are filled with
    the weakest spare cards on the recorded board, so that a hand the history
    mucks unseen loses, as it did at the table.
    """
    k = game.hole_cards
    holes: list[list[Card | None]] = [[None] * k for _ in range(n)]
    board: list[Card] = []
    folded: set[int] = set()
    for words in actions:
        match words:
            case ["d", "dh", player, cards]:
                holes[_player(player, n)] = _cards(cards, k)
            case ["d", "db", cards]:
                board += [c for c in _cards(cards, None) if c is not None]
            case [player, "sm", cards] if cards != "-":
                hole = holes[_player(player, n)]
                seen = _cards(cards, k)
                hole[:] = [h if h is not None else c for h, c in zip(hole, seen, strict=True)]
            case [player, "f"]:
                folded.add(_player(player, n))
    again = [c for street in second or [] for c in street]
    known = [c for hole in holes for c in hole if c is not None] + board + again
    if len(set(known)) != len(known):
        raise InvalidHandHistory("the same card is dealt twice")
    spare = [c for c in FULL_DECK if c not in set(known)]
    board = board[:5]
    filled = []
    for p, hole in enumerate(holes):
        on_board = board if len(board) == 5 and p not in folded else None
        filled.append(_fill(hole, spare, on_board, game.omaha))
    board += [spare.pop(0) for _ in range(5 - len(board))]
    order = [h[r] for r in range(k) for h in filled]
    for street in (board[:3], board[3:4], board[4:5]):
        order += [spare.pop(0), *street]
    for street in second or []:
        order += [spare.pop(0), *street]
    return Deck(order + spare)


def _fill(hole: list[Card | None], spare: list[Card], board: list[Card] | None,
          omaha: bool = False) -> list[Card]:
    """``hole`` with its unknown cards taken from ``spare`` (weakest on ``board`` if given;
    an Omaha hand takes the weakest of the lowest sixteen spare cards)."""
    known = [c for c in hole if c is not None]
    need = len(hole) - len(known)
    if not need:
        return known
    picks = list(spare[:need])
    if board is not None:
        pool = spare[:16] if omaha else spare
        picks = list(min(combinations(pool, need),
                         key=lambda cs: hand_rank([*known, *cs], board, omaha=omaha)))
    for c in picks:
        spare.remove(c)
    return [c if c is not None else picks.pop(0) for c in hole]


def _player(label: str, n: int) -> int:
    if label[:1] != "p" or not label[1:].isdigit() or not 1 <= int(label[1:]) <= n:
        raise InvalidHandHistory(f"expected a player p1 to p{n}, got {label!r}")
    return int(label[1:]) - 1


def _cards(text: str, count: int | None) -> list[Card | None]:
    tokens = [text[i : i + 2] for i in range(0, len(text), 2)]
    if count is not None and len(tokens) != count:
        raise InvalidHandHistory(f"expected {count} cards, got {text!r}")
    try:
        return [None if t == "??" else parse_cards(t)[0] for t in tokens]
    except HoldemError as exc:
        raise InvalidHandHistory(f"bad cards {text!r}: {exc.message}") from None


def _play(hand: Hand, actions: list[list[str]]) -> None:
    n = len(hand.seats)
    shows: dict[int, bool] = {}
    # A bomb pot's preflop checks are written for PHH readers; the engine has no such round.
    before_flop = hand.bomb_pot > 0
    for number, words in enumerate(actions, 1):
        if words[:2] == ["d", "db"]:
            before_flop = False
        if not words or words[0] == "d" or (before_flop and words[1:] == ["cc"]):
            continue
        seat = _player(words[0], n)
        line = " ".join(words)
        try:
            if words[1:2] == ["sm"]:
                shows[seat] = len(words) > 2
            else:
                _bet(hand, seat, words)
            _resolve_showdown(hand, shows, final=False)
        except HoldemError as exc:
            raise InvalidHandHistory(f"action {number} {line!r}: {exc.message}") from None
    for seat in list(hand.asked):  # the history was run twice: everyone agreed
        hand.run_twice(seat)
    _resolve_showdown(hand, shows, final=True)
    if not hand.is_complete:
        raise InvalidHandHistory(
            f"the history ends before the hand does (p{(hand.actor or 0) + 1} to act)"
        )


def _bet(hand: Hand, seat: int, words: list[str]) -> None:
    if hand.actor != seat:
        if words[1:] == ["cc"] and _nothing_to_call(hand, seat):
            return  # a check pokerkit asks for where our engine has no decision to make
        expected = "nobody" if hand.actor is None else f"p{hand.actor + 1}"
        raise InvalidHandHistory(f"expected {expected} to act, got p{seat + 1}")
    match words[1:]:
        case ["f"]:
            hand.fold(seat)
        case ["cc"]:
            (hand.check if hand.can_check(seat) else hand.call)(seat)
        case ["cbr", amount] if amount.isdigit():
            (hand.bet if hand.level == 0 else hand.raise_to)(seat, int(amount))
        case _:
            raise InvalidHandHistory(f"expected an action f, cc, cbr AMOUNT or sm, got {words!r}")


def _nothing_to_call(hand: Hand, position: int) -> bool:
    """No decision pending for the seat and nothing for it to call."""
    seat = hand.seats[position]
    pending = position in hand.to_act and hand.phase is not Phase.SHOWDOWN
    return seat.status.contending and not pending and all(seat.bet >= o.bet for o in hand.seats)


def _resolve_showdown(hand: Hand, shows: dict[int, bool], *, final: bool) -> None:
    while hand.phase is Phase.SHOWDOWN and hand.actor is not None:
        choice = shows.get(hand.actor)
        if choice is None and not final:
            return
        (hand.show if choice else hand.muck)(hand.actor)


_DEALT = re.compile(r'"d dh p(\d+) ([^"?]+)"')
_SHOWN = re.compile(r'"p(\d+) sm ([^"]+)"')


def phh_for_viewer(text: str, position: int | None) -> str:
    """The PHH text as player ``position`` (1-based ``pN``; None: an admin) may read it.

    Hole cards of other players become ``????`` unless they were shown.
    """
    if position is None:
        return text
    shown = {int(n) for n, _ in _SHOWN.findall(text)}

    def mask(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number == position or number in shown:
            return match.group(0)
        return f'"d dh p{number} {"?" * len(match.group(2))}"'

    return _DEALT.sub(mask, text)


# ---- the fair shuffle's proof --------------------------------------------------------

_BOARD = re.compile(r'"d db ([^"]+)"')


def phh_fields(proof: FairnessProof) -> dict[str, Any]:
    """The proof of a hand's deck as user-defined PHH fields (``_`` prefixed, as PHH asks)."""
    return {"_fair_scheme": SCHEME, "_commitment": proof.commitment,
            "_server_seed": proof.server_seed,
            "_client_seeds": [f"{seat}:{proof.client_seeds[seat]}"
                              for seat in sorted(proof.client_seeds)]}


def proof_from_phh(text: str) -> FairnessProof | None:
    """The proof written by :func:`phh_fields`, or None for a history without one.

    Raises :class:`InvalidHandHistory` when the text is not PHH, and
    :class:`app.poker.fairness.ShuffleMismatch` when the seed does not match its
    commitment.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidHandHistory(f"not valid PHH (TOML): {exc}") from None
    if "_server_seed" not in data:
        return None
    if data.get("_fair_scheme") != SCHEME:
        raise InvalidHandHistory(f"expected the shuffle scheme {SCHEME!r}, "
                                 f"got {data.get('_fair_scheme')!r}")
    seeds = [str(item).split(":", 1) for item in _list(data, "_client_seeds", str)]
    if any(len(pair) != 2 or not pair[0].isdigit() for pair in seeds):
        raise InvalidHandHistory("expected _client_seeds as \"seat:seed\" strings")
    return FairnessProof.from_dict({
        "server_seed": data["_server_seed"], "commitment": data.get("_commitment"),
        "client_seeds": [{"seat": int(seat), "seed": seed} for seat, seed in seeds]})


def dealt_from_phh(text: str) -> DealtCards:
    """Every card a PHH history shows, by where it was dealt (``????`` cards are None)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidHandHistory(f"not valid PHH (TOML): {exc}") from None
    n = len(_list(data, "starting_stacks"))
    k = game_of(data).hole_cards
    holes: list[tuple[Card | None, ...]] = [(None,) * k] * n
    for number, cards in _DEALT.findall(text):
        position = int(number) - 1
        if not 0 <= position < n:
            raise InvalidHandHistory(f"expected players p1 to p{n}, got p{number}")
        holes[position] = tuple(_cards(cards, k))
    board = [c for cards in _BOARD.findall(text) for c in _cards(cards, None)]
    if None in board:
        raise InvalidHandHistory("expected every board card to be known")
    second = [c for cards in _list(data, "_second_board", str)
              for c in _known(_cards(cards, None))] if "_second_board" in data else []
    return DealtCards(holes, [c for c in board if c is not None], second)


def verify_history(text: str) -> tuple[FairnessProof, int]:
    """Check every card a PHH history shows against the deck its revealed seeds make.

    Returns the proof and how many cards were checked; raises :class:`NoProof`
    for a history without seeds and :class:`app.poker.fairness.ShuffleMismatch`
    naming the first card that differs.
    """
    proof = proof_from_phh(text)
    if proof is None:
        raise NoProof("this hand history carries no shuffle seeds: it cannot be verified")
    return proof, verify_deal(proof, dealt_from_phh(text))
