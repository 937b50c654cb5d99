"""Hand ranges in the usual shorthand: ``QQ+,AKs,A2s+,KTo+,22-55,AhKh``.

A range is a set of two-card combos. Each comma-separated part is one of:

- a pair ``QQ`` (6 combos), ``QQ+`` (QQ and every higher pair), ``22-55``;
- two ranks with ``s`` (suited, 4 combos), ``o`` (offsuit, 12) or neither (16):
  ``AKs``, ``KTo``, ``AJ``; with ``+`` the lower card climbs to one below the
  higher (``A2s+`` is A2s to AKs); ``A2s-A5s`` is a span of the lower card;
- one exact combo, ``AhKh``.

>>> len(parse_range("QQ+,AKs")), len(parse_range("22+,A2s+"))
(22, 126)
>>> format_range(parse_range("AKs")[:2])
'AcKc,AdKd'
"""

from __future__ import annotations

import re
from itertools import combinations

from app.errors import HoldemError
from app.poker.cards import RANKS, Card, parse_cards

Combo = tuple[Card, Card]
MAX_RANGE_TEXT = 400
_PART = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)(\+?)")
_SPAN = re.compile(r"([2-9TJQKA])([2-9TJQKA])([so]?)-([2-9TJQKA])([2-9TJQKA])([so]?)")


class InvalidRange(HoldemError):
    """A hand range that is not in the shorthand (``QQ+,AKs,A2s+,KTo+,22-55,AhKh``)."""

    code = "invalid_range"


def parse_range(text: str) -> tuple[Combo, ...]:
    """Every combo of a range, in a stable order (by part, then by card ids), no repeats."""
    if not isinstance(text, str) or not text.strip():
        raise InvalidRange("expected a range such as 'QQ+,AKs', got nothing")
    if len(text) > MAX_RANGE_TEXT:
        raise InvalidRange(f"a range is at most {MAX_RANGE_TEXT} characters, got {len(text)}")
    seen: dict[frozenset[Card], Combo] = {}
    for part in text.replace(" ", "").split(","):
        for combo in _part(part):
            seen.setdefault(frozenset(combo), combo)
    return tuple(seen.values())


def is_range(text: str) -> bool:
    """Whether ``text`` reads as a range rather than two exact cards or ``??``."""
    cleaned = text.replace(" ", "")
    if cleaned in ("", "??"):
        return False
    try:
        parse_cards(cleaned)
    except HoldemError:
        return True
    return False


def format_range(combos: tuple[Combo, ...] | list[Combo]) -> str:
    """Combos as text, ``AcKc,AdKd``."""
    return ",".join(f"{a}{b}" for a, b in combos)


def _part(part: str) -> list[Combo]:
    upper = part.upper().replace("S", "s").replace("O", "o")
    if (span := _SPAN.fullmatch(upper)) is not None:
        return _span(part, *span.groups())
    if (match := _PART.fullmatch(upper)) is not None:
        high, low, kind, plus = match.groups()
        return _class(part, high, low, kind, plus == "+")
    try:
        cards = parse_cards(part)
    except HoldemError:
        cards = ()
    if len(cards) != 2:
        raise InvalidRange(f"{part!r} is not a hand class such as 'AKs', 'QQ+', '22-55' or "
                           f"two cards such as 'AhKh'", part=part)
    return [(max(cards), min(cards))]


def _class(part: str, high: str, low: str, kind: str, plus: bool) -> list[Combo]:
    hi, lo = RANKS.index(high), RANKS.index(low)
    if hi < lo:
        hi, lo = lo, hi
    if hi == lo:
        if kind:
            raise InvalidRange(f"{part!r}: a pair is neither suited nor offsuit", part=part)
        return [c for r in range(lo, 13 if plus else lo + 1) for c in _pair(r)]
    lows = range(lo, hi) if plus else range(lo, lo + 1)
    return [c for r in lows for c in _two_ranks(hi, r, kind)]


def _span(part: str, h1: str, l1: str, k1: str, h2: str, l2: str, k2: str) -> list[Combo]:
    a, b = sorted((RANKS.index(h1), RANKS.index(l1)))
    c, d = sorted((RANKS.index(h2), RANKS.index(l2)))
    if a == b and c == d and not k1 and not k2:
        return [x for r in range(min(a, c), max(a, c) + 1) for x in _pair(r)]
    if b == d and a != b and c != d and k1 == k2:
        return [x for r in range(min(a, c), max(a, c) + 1) for x in _two_ranks(b, r, k1)]
    raise InvalidRange(f"{part!r}: a span joins two pairs ('22-55') or two hands with the "
                       f"same top card ('A2s-A5s')", part=part)


def _pair(rank: int) -> list[Combo]:
    cards = [Card.from_id(rank * 4 + s) for s in range(4)]
    return [(b, a) for a, b in combinations(cards, 2)]


def _two_ranks(high: int, low: int, kind: str) -> list[Combo]:
    combos = []
    for s1 in range(4):
        for s2 in range(4):
            if (kind == "s" and s1 != s2) or (kind == "o" and s1 == s2):
                continue
            combos.append((Card.from_id(high * 4 + s1), Card.from_id(low * 4 + s2)))
    return combos
