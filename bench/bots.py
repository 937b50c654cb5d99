"""Bots as a player meets them: simple exploit strategies against each style, and bots
against bots, in big blinds per 100 hands with a 95% confidence interval.

    .venv/bin/python bench/bots.py [--hands 5000] [--seed 31] [--iterations 200]
    .venv/bin/python bench/bots.py --game plo [--hands 2000]

``--iterations`` is the deals sampled per decision after the flop (the table's default).

Six seats, the exploiter in seat 0 against five bots of one style (or a mix), every
hand from the same stacks (100 or 15 big blinds), the button going round
(:mod:`bench.bot_matches`). Then the checks of issue #31: a bot holding QQ+ or AK
facing the all-in of a player who has moved all-in every hand so far calls; at 15 big
blinds or fewer the bots' pushes into unopened pots and their calls in the big blind
against a small blind's push agree with the push/fold chart; and the time of one
decision (p50, p99, max) at these six-seat tables. Prints Markdown for RESULTS.md.

With ``--game`` other than ``nlhe`` (``flhe``, ``plhe``, ``plo``, ``plo5``) it plays the
exploits of that game at 100 big blinds ("shove" bets the most the limit allows) and
times the decisions; the charts' checks are No-Limit's and are left out.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.poker.bots import DEFAULT_ITERATIONS, BotStyle
from app.poker.events import ActionKind
from app.poker.hand_class import class_index
from app.poker.pushfold import PUSH_FOLD_BB, calls, pushes
from app.poker.state import Game
from bench.bot_matches import Decision, Exploit, Match, Player, play_match

T, L, A = BotStyle.TIGHT, BotStyle.LOOSE, BotStyle.AGGRESSIVE
TABLES: dict[str, tuple[BotStyle, ...]] = {
    "tight": (T,) * 5, "loose": (L,) * 5, "aggressive": (A,) * 5, "mixed": (T, L, A, T, L),
}
EXPLOITS: tuple[tuple[Exploit, float], ...] = (
    (Exploit.SHOVE, 100), (Exploit.SHOVE, 15), (Exploit.CALL_DOWN, 100),
    (Exploit.MIN_RAISE, 100), (Exploit.FOLD, 100),
)
PREMIUM = {class_index(c) for c in ("AA", "KK", "QQ", "AKs", "AKo")}
IN = (ActionKind.CALL, ActionKind.ALL_IN, ActionKind.RAISE)


def cell(match: Match, player: Player) -> str:
    mean, half = match.per_100(match.seats_of(player))
    return f"{mean:+.0f} ± {half:.0f}"


def exploit_rows(hands: int, seed: int, iterations: int, game: Game = Game.NLHE
                 ) -> tuple[list[str], list[Match]]:
    lines = ["| exploit (seat 0) | " + " | ".join(f"vs 5 {t}" for t in TABLES) + " |",
             "|---" * (len(TABLES) + 1) + "|"]
    matches = []
    for number, (exploit, depth) in enumerate(EXPLOITS):
        if game is not Game.NLHE and depth != 100:
            continue
        cells = []
        for offset, styles in enumerate(TABLES.values()):
            players: dict[int, Player] = {0: exploit, **dict(enumerate(styles, start=1))}
            match = play_match(players, hands=hands, depth_bb=depth,
                               seed=seed + 10 * number + offset, iterations=iterations,
                               game=game)
            matches.append(match)
            cells.append(cell(match, exploit))
        lines.append(f"| {exploit.value}, {depth:.0f} bb | " + " | ".join(cells) + " |")
    return lines, matches


def bot_rows(hands: int, seed: int, iterations: int) -> tuple[list[str], list[Match]]:
    lines = ["| bots against bots (2 of each style) | tight | loose | aggressive |",
             "|---|---|---|---|"]
    matches = []
    for depth in (100, 15):
        players: dict[int, Player] = dict(enumerate((T, L, A) * 2))
        match = play_match(players, hands=hands, depth_bb=depth, seed=seed + 500 + int(depth),
                           iterations=iterations)
        matches.append(match)
        lines.append(f"| {depth:.0f} bb | " + " | ".join(cell(match, s) for s in (T, L, A))
                     + " |")
    return lines, matches


def premium_calls(matches: Iterable[Match]) -> tuple[int, int]:
    """QQ+/AK facing the all-in of a seat that moved all-in in every hand it acted in
    (three in four hands or more: it does not act when the others fold to its big
    blind), with 20 hands or more counted: (calls, spots)."""
    spots = [d for m in matches for d in m.decisions
             if d.hand_class in PREMIUM and d.facing_shove_by is not None
             and d.hands_seen >= 20 and d.shoves_seen >= 0.75 * d.hands_seen]
    return sum(d.action in IN for d in spots), len(spots)


def chart_agreement(decisions: list[Decision]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(agreeing, spots) for pushes into unopened pots and for big-blind calls of a
    small blind's push, at 15 big blinds or fewer."""
    opens = [d for d in decisions if d.preflop and d.unopened and d.behind >= 1
             and d.effective_bb <= PUSH_FOLD_BB]
    pushed = sum((d.action is ActionKind.RAISE or d.action is ActionKind.ALL_IN)
                 == pushes(d.hand_class, d.effective_bb, behind=d.behind) for d in opens)
    answers = [d for d in decisions if d.facing_shove_by is not None and d.heads_up
               and d.behind == 0
               and d.shover_behind == 1 and d.effective_bb <= PUSH_FOLD_BB]
    called = sum((d.action in IN) == calls(d.hand_class, d.effective_bb) for d in answers)
    return (pushed, len(opens)), (called, len(answers))


def timing(decisions: list[Decision]) -> str:
    lines = ["| decisions | count | p50 | p99 | max |", "|---|---|---|---|---|"]
    for name, part in (("before the flop", [d for d in decisions if d.preflop]),
                       ("after the flop", [d for d in decisions if not d.preflop])):
        times = sorted(d.seconds * 1000 for d in part)
        if times:
            p50, p99 = times[len(times) // 2], times[min(len(times) - 1, len(times) * 99 // 100)]
            lines.append(f"| {name} | {len(times):,} | {p50:.2f} ms | {p99:.2f} ms | "
                         f"{times[-1]:.2f} ms |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--game", type=Game, default=Game.NLHE, choices=list(Game))
    args = parser.parse_args()
    if args.game is not Game.NLHE:
        rows, matches = exploit_rows(args.hands, args.seed, args.iterations, args.game)
        print(f"{args.game.label}: {args.hands:,} hands per match, seed {args.seed}; the "
              "exploiter's big blinds per 100 hands, 95% confidence interval:\n")
        print("\n".join(rows) + "\n")
        print(timing([d for m in matches for d in m.decisions]))
        return
    exploits, ex_matches = exploit_rows(args.hands, args.seed, args.iterations)
    bots, bot_matches = bot_rows(args.hands, args.seed, args.iterations)
    print(f"{args.hands:,} hands per match, seed {args.seed}; the exploiter's big blinds per "
          "100 hands, 95% confidence interval:\n")
    print("\n".join(exploits) + "\n\n" + "\n".join(bots) + "\n")
    shoves = [m for m in ex_matches if Exploit.SHOVE in m.players.values()]
    premium, spots = premium_calls(shoves)
    print(f"- QQ+/AK facing the all-in of a seat that shoved every hand it acted in (20+ hands): "
          f"called {premium} of {spots}")
    decisions = [d for m in (*ex_matches, *bot_matches) for d in m.decisions]
    (pushed, opens), (called, answers) = chart_agreement(decisions)
    print(f"- at <= {PUSH_FOLD_BB:.0f} bb, unopened pots: {pushed} of {opens} push-or-fold "
          f"decisions agree with the chart ({100 * pushed / max(1, opens):.1f}%)")
    bot_only = [d for m in bot_matches for d in m.decisions]
    (_, _), (called, answers) = chart_agreement(bot_only)
    print(f"- at <= {PUSH_FOLD_BB:.0f} bb, big blind against a bot's small-blind push: "
          f"{called} of {answers} calls or folds agree with the chart "
          f"({100 * called / max(1, answers):.1f}%)\n")
    print(timing(decisions))


if __name__ == "__main__":
    main()
