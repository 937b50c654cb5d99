"""The bots' styles and the numbers that make them: who enters pots, how hard they bet."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class BotStyle(StrEnum):
    """How a bot plays: which hands it enters with and how hard it bets them."""

    TIGHT = "tight"
    LOOSE = "loose"
    AGGRESSIVE = "aggressive"


@dataclass(frozen=True, slots=True)
class Profile:
    """A style's numbers. Shares of hands are fractions of all 1,326 combos, strongest
    first; equities are all-in shares of the pot."""

    open: float  # share of hands opened with a raise with four players behind
    limp: float  # share of hands that call the big blind when not raising
    reraise: float  # equity against the raiser's range to raise again before the flop
    call_margin: float  # equity above the price to call a raise that leaves chips behind
    all_in_margin: float  # equity above the price to call an all-in
    open_size: float  # open raise, in big blinds
    value: float  # after the flop: equity x (players in) to bet or raise for value
    post_margin: float  # after the flop: equity above the price to call a bet
    bluff: float  # chance of betting a weak hand when checked to, against a folder
    bet_fraction: float  # bet size as a fraction of the pot


PROFILES: dict[BotStyle, Profile] = {
    BotStyle.TIGHT: Profile(
        open=0.12, limp=0.0, reraise=0.60, call_margin=0.08, all_in_margin=0.03,
        open_size=3.0, value=1.6, post_margin=0.05, bluff=0.05, bet_fraction=0.6,
    ),
    BotStyle.LOOSE: Profile(
        open=0.16, limp=0.45, reraise=0.64, call_margin=0.0, all_in_margin=0.0,
        open_size=2.5, value=1.5, post_margin=0.0, bluff=0.1, bet_fraction=0.5,
    ),
    BotStyle.AGGRESSIVE: Profile(
        open=0.24, limp=0.0, reraise=0.56, call_margin=0.04, all_in_margin=0.01,
        open_size=3.0, value=1.3, post_margin=0.02, bluff=0.35, bet_fraction=0.75,
    ),
}
