"""The ``holdem`` command: serve, migrate, create-admin, demote, outbox, backup, eval, equity,
outs, replay, verify-hand, audit, house, protocol."""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.admin.house import HouseFunding
    from app.config import Settings

# Python's default thresholds (700, 10, 10) make a busy server run full
# collections over every live object every few seconds, stalling every table at
# once; these cut p99 at 2,000 players from about 0.5 s to under 0.1 s, and
# from seconds on a busy machine (bench/RESULTS.md, "Realtime load").
SERVER_GC_THRESHOLDS = (50_000, 20, 100)


def tune_garbage_collector() -> None:
    """Collect garbage less often: the setting for a long-running server process."""
    gc.set_threshold(*SERVER_GC_THRESHOLDS)


def _ready_to_serve(settings: Settings, *, migrate: bool) -> str | None:
    """Why the server must not start, or None once the database is ready: development
    migrates it (unless ``--no-migrate``), production refuses one behind the code."""
    from app.config import ConfigError
    from app.db.migrations import migrate as migrate_database
    from app.db.migrations import require_latest, wait_until_reachable
    from app.errors import HoldemError

    try:
        settings.check()
        wait_until_reachable(settings.database_url)
        if migrate and settings.is_development:
            print(migrate_database(settings.database_url).describe(), flush=True)
        else:
            require_latest(settings.database_url)
    except ConfigError as exc:
        return str(exc)
    except HoldemError as exc:
        return exc.message
    return None


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server with uvicorn (in development, migrating the database first)."""
    from app.allocator import share_one_arena

    # Before anything starts a thread (the migration's database driver does).
    share_one_arena()

    from app.config import ConfigError, get_settings
    from app.logs import configure_logging
    from app.main import create_app
    from app.serving import Server, uvicorn_config

    settings = get_settings().served_at(args.host, args.port)
    if (refused := _ready_to_serve(settings, migrate=args.migrate)) is not None:
        print(f"holdem serve: error: {refused}", file=sys.stderr)
        return 2
    try:
        app = create_app(settings)
    except ConfigError as exc:
        print(f"holdem serve: error: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings)
    tune_garbage_collector()
    print(f"holdem-server on http://{args.host}:{args.port}; links in mails start with "
          f"{settings.public_url}", flush=True)
    Server(uvicorn_config(app, settings, host=args.host, port=args.port),
           drain=app.state.realtime.drain, freeze_every=settings.gc_freeze_seconds).run()
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Upgrade the database to the latest migration, saying from which revision to which."""
    from app.config import get_settings
    from app.db.migrations import migrate, wait_until_reachable

    settings = get_settings()
    wait_until_reachable(settings.database_url, wait_seconds=args.wait)
    print(migrate(settings.database_url).describe(), flush=True)
    return 0


def cmd_create_admin(args: argparse.Namespace) -> int:
    """Create an admin account, or promote an existing one."""
    import asyncio
    import getpass

    from app.admin.bootstrap import create_admin
    from app.config import get_settings
    from app.errors import HoldemError

    password = args.password
    if password is None and args.prompt and sys.stdin.isatty():
        password = getpass.getpass("Password (empty keeps an existing account's): ")
        if password and password != getpass.getpass("Password again: "):
            print("holdem create-admin: error: the passwords differ", file=sys.stderr)
            return 2
    elif password is None and args.prompt:
        # Piped or redirected: the first line is the password (none keeps an existing one's).
        password = sys.stdin.readline().rstrip("\r\n")
    try:
        done = asyncio.run(create_admin(get_settings(), args.email, password or None))
    except (HoldemError, ValueError) as exc:
        print(f"holdem create-admin: error: {exc}", file=sys.stderr)
        return 2
    print(f"{done.email} is an admin ({'new account' if done.created else 'promoted'})")
    return 0


def cmd_demote(args: argparse.Namespace) -> int:
    """Make an admin a player again; their sessions end."""
    import asyncio

    from app.admin.bootstrap import demote_admin
    from app.config import get_settings

    asyncio.run(demote_admin(get_settings(), args.email, by=args.admin))
    print(f"{args.email} is no longer an admin")
    return 0


def cmd_outbox(args: argparse.Namespace) -> int:
    """The last mails written to the outbox folder (development, without ``SMTP_HOST``), each
    with its links decoded: the file itself is quoted-printable, breaking links over lines."""
    from email import message_from_bytes, policy
    from email.message import EmailMessage

    from app.accounts.mail import links_in
    from app.config import get_settings

    folder = get_settings().outbox_path
    mails = []
    for path in sorted(folder.glob("*.eml")):  # named by the time written
        message = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert isinstance(message, EmailMessage)
        if args.to is None or str(message["To"]).lower() == args.to.lower():
            mails.append({"file": str(path), "to": str(message["To"]),
                          "subject": str(message["Subject"]), "links": links_in(message)})
    shown = mails[-args.last:]
    if args.json:
        print(json.dumps(shown))
        return 0
    if not shown:
        print(f"no mail{f' to {args.to}' if args.to else ''} in {folder}")
    for mail in shown:
        print(f"{mail['file']}\n  To: {mail['to']}\n  Subject: {mail['subject']}")
        print("".join(f"  {link}\n" for link in mail["links"]), end="")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    """Copy the SQLite database to ``args.path`` while the server runs: SQLite's online
    backup, a consistent copy that a commit during it cannot tear."""
    import sqlite3

    from sqlalchemy.engine import make_url

    from app.config import get_settings
    from app.db.engine import is_sqlite
    from app.errors import HoldemError

    url = make_url(get_settings().database_url)
    if not is_sqlite(url) or url.database in (None, "", ":memory:"):
        raise HoldemError("backup copies a SQLite database file; for PostgreSQL use pg_dump "
                          "(docs/HOSTING.md)")
    database, target = Path(url.database).resolve(), Path(args.path)
    if not database.is_file():
        raise HoldemError(f"no database at {database}")
    if target.exists():
        raise HoldemError(f"{target} exists: name a new file")
    read_only = f"{database.as_uri()}?mode=ro"
    try:
        with (contextlib.closing(sqlite3.connect(read_only, uri=True)) as source,
              contextlib.closing(sqlite3.connect(target)) as copy):
            source.backup(copy)
    except sqlite3.Error as exc:
        target.unlink(missing_ok=True)
        raise HoldemError(f"the copy failed: {exc}") from exc
    print(f"{database} copied to {target}")
    return 0


def _add_account_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``migrate``, ``create-admin`` and ``demote`` subcommands."""
    migrate = sub.add_parser("migrate", help="upgrade the database to the latest migration")
    migrate.add_argument("--wait", type=float, default=0, metavar="SECONDS",
                         help="keep trying to reach the database this long (container start-up)")
    migrate.set_defaults(func=_one_line_errors(cmd_migrate))

    admin = sub.add_parser("create-admin", help="create an admin account or promote one")
    admin.add_argument("email", metavar="EMAIL")
    admin.add_argument("--password",
                       help="the password (else prompted for, or the first line of stdin "
                            "when it is not a terminal)")
    admin.add_argument("--no-prompt", dest="prompt", action="store_false",
                       help="never prompt; promote without changing the password")
    admin.set_defaults(func=cmd_create_admin)

    demote = sub.add_parser("demote", help="make an admin a player again")
    demote.add_argument("email", metavar="EMAIL")
    demote.add_argument("--admin", metavar="EMAIL",
                        help="your admin account, named in the audit log (else the house)")
    demote.set_defaults(func=_one_line_errors(cmd_demote))

    outbox = sub.add_parser("outbox", help="the last mails written to the outbox folder "
                                           "(no SMTP_HOST), with their links")
    outbox.add_argument("--to", metavar="EMAIL", help="only the mails to this address")
    outbox.add_argument("--last", type=_how_many, default=1, metavar="N",
                        help="how many of the latest mails (default 1)")
    outbox.add_argument("--json", action="store_true", help="print one JSON list")
    outbox.set_defaults(func=_one_line_errors(cmd_outbox))

    backup = sub.add_parser("backup", help="copy the SQLite database while the server runs")
    backup.add_argument("path", metavar="FILE", help="the copy to write (a new file)")
    backup.set_defaults(func=_one_line_errors(cmd_backup))


Command = Callable[[argparse.Namespace], int]


def _one_line_errors(command: Command) -> Command:
    """Bad cards or options print one line on stderr and exit with status 2, no traceback."""

    def run(args: argparse.Namespace) -> int:
        from app.errors import HoldemError

        try:
            return command(args)
        except HoldemError as exc:
            print(f"holdem {args.command}: error: {exc.message}", file=sys.stderr)
            return 2

    run.__doc__ = command.__doc__
    return run


def _hand_texts(hands: Sequence[str]) -> Iterator[str]:
    """The hands given, with ``-`` replaced by the non-blank lines of stdin."""
    for hand in hands:
        if hand == "-":
            yield from (line.strip() for line in sys.stdin if line.strip())
        else:
            yield hand


def _whole_number(text: str, flag: str) -> int:
    """A non-negative integer option, or the error a user can act on."""
    from app.poker.equity import InvalidSampling

    if not text.strip().isdigit():
        raise InvalidSampling(f"{flag} takes a whole number, got {text!r}", value=text)
    return int(text)


@_one_line_errors
def cmd_eval(args: argparse.Namespace) -> int:
    """Print the category, rank and best five cards of each hand."""
    from app.poker.cards import InvalidCard, format_cards, parse_cards
    from app.poker.evaluator import evaluate

    for text in _hand_texts(args.hands):
        cards = parse_cards(text)
        if not args.wild and any(card.is_joker for card in cards):
            raise InvalidCard("'Xx' is a joker, a wild card: ask for wild cards with --wild",
                              token="Xx")
        value = evaluate(cards)
        if args.json:
            print(json.dumps({"cards": [str(c) for c in cards], "category": value.name,
                              "rank": int(value.rank), "best": [str(c) for c in value.best]}))
        else:
            print(f"{format_cards(cards, ' ')}: {value.name}, "
                  f"best {format_cards(value.best, ' ')} (rank {value.rank})")
    return 0


@_one_line_errors
def cmd_equity(args: argparse.Namespace) -> int:
    """Print each hand's or range's win, tie and equity, exact or Monte Carlo."""
    from app.tools.service import hands_equity

    seed = _whole_number(args.seed, "--seed")
    iterations = (None if args.iterations is None
                  else _whole_number(args.iterations, "--iterations"))
    result = hands_equity(args.hands, args.board, args.dead, seed=seed, iterations=iterations)
    if args.json:
        hands = [{"hand": h.hand, "win": h.win, "tie": h.tie, "equity": h.equity}
                 for h in result.hands]
        print(json.dumps({"exact": result.exact, "boards": result.boards, "hands": hands}))
        return 0
    how = "exact" if result.exact else f"Monte Carlo, seed {seed}"
    ranges = any(h.combos is not None for h in result.hands)
    print(f"{how}: {result.boards:,} {'deals' if ranges else 'boards'}")
    labels = [h.hand if h.combos is None else f"{h.hand} ({h.combos} combos)"
              for h in result.hands]
    width = max(5, *map(len, labels))
    for label, h in zip(labels, result.hands, strict=True):
        error = "" if result.exact else f" ± {h.stderr:.2%}"
        print(f"{label:<{width}} win {h.win:7.2%}   tie {h.tie:7.2%}   "
              f"equity {h.equity:7.2%}{error}")
    return 0


@_one_line_errors
def cmd_outs(args: argparse.Namespace) -> int:
    """Print the outs of a hand on a flop or turn, with the chance and odds to hit."""
    from app.poker.cards import format_cards
    from app.poker.outs import outs

    found = outs(args.hand, args.board, opponents=args.vs, dead=args.dead)
    if args.json:
        print(json.dumps({
            "hand": format_cards(found.hand), "board": format_cards(found.board),
            "category": found.category, "outs": [str(c) for c in found.cards],
            "count": found.count, "unseen": found.unseen, "splits": [str(c) for c in found.splits],
            "next_card": found.next_card, "by_river": found.by_river,
            "odds": found.odds, "odds_by_river": found.odds_by_river}))
        return 0
    print(f"{format_cards(found.hand)} on {format_cards(found.board)} ({found.category}): "
          f"{found.count} outs of {found.unseen} unseen cards {format_cards(found.cards, ' ')}")
    chances = [f"next card {found.next_card:.1%} ({found.odds or 'no outs'})"]
    if found.by_river is not None:
        chances.append(f"by the river {found.by_river:.1%} ({found.odds_by_river or 'no outs'})")
    print(", ".join(chances))
    return 0


def _add_poker_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``eval``, ``equity`` and ``outs`` subcommands."""
    ev = sub.add_parser("eval", help="rank hands of 5 to 7 cards")
    ev.add_argument("--json", action="store_true", help="one JSON object per hand")
    ev.add_argument("--wild", action="store_true",
                    help="play jokers (Xx) as wild cards; without it a joker is refused")
    ev.add_argument("hands", nargs="+", metavar="HAND",
                    help="cards as one quoted string, e.g. 'Ah Kh Qh Jh Th'; - reads stdin")
    ev.set_defaults(func=cmd_eval)

    eq = sub.add_parser("equity", help="win, tie and equity of 2 to 9 hands or ranges")
    eq.add_argument("--json", action="store_true", help="print one JSON object")
    eq.add_argument("--board", default="", metavar="CARDS", help="0, 3, 4 or 5 board cards")
    eq.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    eq.add_argument("--iterations", metavar="N",
                    help="Monte Carlo deals when there are too many boards to enumerate")
    eq.add_argument("--seed", default="0", metavar="S", help="Monte Carlo seed")
    eq.add_argument("hands", nargs="+", metavar="HAND",
                    help="two cards like AhKh, ?? for random, or a range like QQ+,AKs,22-55")
    eq.set_defaults(func=cmd_equity)

    ou = sub.add_parser("outs", help="cards that make a hand win or improve")
    ou.add_argument("--json", action="store_true", help="print one JSON object")
    ou.add_argument("--board", required=True, metavar="CARDS", help="a flop or a turn")
    ou.add_argument("--dead", default="", metavar="CARDS", help="cards out of play")
    ou.add_argument("hand", metavar="HAND")
    ou.add_argument("vs", nargs="*", metavar="VS_HAND", help="known opponent hands")
    ou.set_defaults(func=cmd_outs)


def _phh_files(paths: Sequence[str]) -> Iterator[Path]:
    """The files named, and every ``.phh`` file under the folders named."""
    for name in paths:
        path = Path(name)
        if path.is_dir():
            yield from sorted(f for f in path.rglob("*.phh") if f.is_file())
        else:
            yield path


def _replay_report(path: Path) -> dict[str, Any]:
    """Replay one PHH file; a file that cannot be replayed is reported, never raised."""
    from app.errors import HoldemError
    from app.poker.phh import replay

    report: dict[str, Any] = {"file": str(path), "ok": False, "finishing_stacks": None,
                              "expected": None, "match": None, "error": None}
    try:
        result = replay(path.read_text(encoding="utf-8"))
    except HoldemError as exc:
        report["error"] = exc.message
    except (OSError, UnicodeDecodeError) as exc:
        report["error"] = f"cannot read the file: {exc}"
    except Exception as exc:  # a bug in one file must not stop the others
        report["error"] = f"internal error: {type(exc).__name__}: {exc}"
    else:
        report.update(ok=True, finishing_stacks=result.finishing_stacks,
                      expected=result.expected, match=result.match)
    return report


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay PHH hand histories through the engine.

    A file that cannot be read or replayed is bad input: one line on stderr, and the
    command exits 2. A replay whose finishing stacks differ from the file's exits 1.
    """
    total = failed = differ = 0
    for path in _phh_files(args.paths):
        report = _replay_report(path)
        total += 1
        failed += not report["ok"]
        differ += report["match"] is False
        if not report["ok"]:
            print(f"holdem replay: error: {path}: {report['error']}", file=sys.stderr)
        if args.json:
            print(json.dumps(report), flush=True)
        elif report["match"] is False:
            print(f"DIFF  {path}: {report['finishing_stacks']} != {report['expected']}")
        elif report["ok"]:
            print(f"ok    {path}: {report['finishing_stacks']}")
    if not args.json:
        print(f"{total} files: {total - failed} replayed, {differ} differ, {failed} failed")
    return 2 if failed else 1 if differ else 0


def _add_replay_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``replay`` subcommand."""
    rp = sub.add_parser("replay", help="replay PHH hand histories through the engine")
    rp.add_argument("--json", action="store_true", help="one JSON object per file")
    rp.add_argument("paths", nargs="+", metavar="PATH", help=".phh files or folders (recursive)")
    rp.set_defaults(func=cmd_replay)


def cmd_audit(args: argparse.Namespace) -> int:
    """Reconcile every account and table with the ledger; exit 1 when anything is off."""
    import asyncio

    from app.admin.audit import AuditReport, audit
    from app.admin.schemas import AuditPublic
    from app.config import get_settings
    from app.db.engine import Database

    async def run() -> AuditReport:
        database = Database(get_settings().database_url)
        try:
            return await audit(database)
        finally:
            await database.dispose()

    report = asyncio.run(run())
    if args.json:
        print(AuditPublic.of(report).model_dump_json())
    else:
        print(report.describe())
    return 0 if report.balanced else 1


def _house_funding(args: argparse.Namespace) -> HouseFunding | None:
    """The funding ``holdem house`` is asked for (``None``: only show the house), naming the
    option that is missing or invalid."""
    from pydantic import ValidationError

    from app.admin.house import HouseFunding
    from app.errors import HoldemError

    if args.amount is None:
        if args.reason or args.admin:
            raise HoldemError("--reason and --admin go with --fund CREDITS")
        return None
    if not args.reason:
        raise HoldemError("--fund needs --reason (why, kept with the ledger entry)")
    if not args.admin:
        raise HoldemError("--fund needs --admin EMAIL (the admin account the audit log names)")
    try:
        return HouseFunding(amount=args.amount, reason=args.reason)
    except ValidationError as exc:
        error = exc.errors()[0]
        flag, value = {"amount": ("--fund", args.amount),
                       "reason": ("--reason", args.reason)}[str(error["loc"][0])]
        raise HoldemError(f"invalid {flag} {value!r}: {error['msg']}") from None


@_one_line_errors
def cmd_house(args: argparse.Namespace) -> int:
    """Show the bots' bankroll, or fund it as an admin (a ledger entry and an audit-log line)."""
    import asyncio

    from sqlalchemy import select

    from app.admin.house import fund, house_report
    from app.config import get_settings
    from app.db.engine import Database
    from app.db.models import Role, User
    from app.errors import HoldemError
    from app.table.store import house_account

    settings = get_settings()
    funding = _house_funding(args)

    async def run() -> str:
        database = Database(settings.database_url)
        try:
            async with database.sessions() as session:
                house = await house_account(session, bankroll=settings.house_initial_bankroll)
                if funding is not None:
                    admin = await session.scalar(select(User).where(User.email == args.admin))
                    if admin is None or admin.role != Role.ADMIN:
                        raise HoldemError(f"{args.admin!r} is not an admin account")
                    await fund(session, admin, house, funding)
                await session.commit()
                report = await house_report(session, house,
                                            table_share=settings.house_table_share)
                return report.model_dump_json(indent=2)
        finally:
            await database.dispose()

    print(asyncio.run(run()))
    return 0


def _add_house_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    house = sub.add_parser("house", help="the bots' bankroll: show it, or fund it as an admin")
    house.add_argument("--fund", dest="amount", type=int, metavar="CREDITS",
                       help="add this many credits (needs --reason and --admin)")
    house.add_argument("--reason", default="", help="why, kept with the ledger entry "
                                                    "(3 to 100 characters)")
    house.add_argument("--admin", default="", metavar="EMAIL",
                       help="your admin account, which the audit log names")
    house.set_defaults(func=cmd_house)


async def _stored_phh(hand_id: str) -> str:
    """The full PHH text of a stored hand, from the configured database."""
    from app.config import get_settings
    from app.db.engine import Database
    from app.db.tables import HandRecord
    from app.hands.service import HandNotFound

    database = Database(get_settings().database_url)
    try:
        async with database.sessions() as session:
            hand = await session.get(HandRecord, hand_id)
    finally:
        await database.dispose()
    if hand is None:
        raise HandNotFound(f"no stored hand with id {hand_id}", hand_id=hand_id)
    return hand.phh


def _history_text(source: str) -> str:
    """A PHH file's text, or the stored hand's when ``source`` is a hand id."""
    import asyncio
    import re

    from app.errors import HoldemError

    path = Path(source)
    if path.is_file():
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise HoldemError(f"cannot read {source}: {exc}") from None
    if re.fullmatch(r"[0-9a-f]{32}", source):
        return asyncio.run(_stored_phh(source))
    raise HoldemError(f"{source!r} is neither a PHH file nor a hand id (32 hex characters)")


@_one_line_errors
def cmd_verify_hand(args: argparse.Namespace) -> int:
    """Recompute a hand's deck from its revealed seeds and check every card it shows."""
    from app.poker.fairness import ShuffleMismatch
    from app.poker.phh import verify_history

    try:
        proof, checked = verify_history(_history_text(args.hand))
        if args.commitment is not None and proof.commitment != args.commitment:
            raise ShuffleMismatch(f"the server seed's commitment is {proof.commitment}, not "
                                  f"{args.commitment}, the one recorded before the deal")
    except ShuffleMismatch as exc:
        if args.json:
            print(json.dumps({"ok": False, "error": exc.to_dict()}))
        else:
            print(f"FAIL  {args.hand}: {exc.message}")
        return 1
    if args.json:
        print(json.dumps({"ok": True, "checked": checked, **proof.to_dict()}))
    else:
        seeds = ", ".join(f"seat {s}: {v}" for s, v in sorted(proof.client_seeds.items()))
        recorded = ", as you recorded it" if args.commitment else ""
        print(f"ok    {args.hand}: {checked} cards match the deck of server seed "
              f"{proof.server_seed} (commitment {proof.commitment}{recorded}; client seeds: "
              f"{seeds or 'none'})")
    return 0


def _port(text: str) -> int:
    """A TCP port as typed: a whole number from 1 to 65535."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 65_535:
        raise argparse.ArgumentTypeError(f"expected a port from 1 to 65535, got {text!r}")
    return int(text)


def _how_many(text: str) -> int:
    """A count as typed: a whole number from 1."""
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1, got {text!r}")
    return int(text)


def _commitment(text: str) -> str:
    """A commitment as typed: 64 hex characters, either case."""
    import re

    if not re.fullmatch(r"[0-9a-fA-F]{64}", text.strip()):
        raise argparse.ArgumentTypeError(f"expected 64 hex characters, got {text!r}")
    return text.strip().lower()


def _add_verify_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``verify-hand`` subcommand."""
    vh = sub.add_parser("verify-hand", help="check a hand's cards against its revealed seeds")
    vh.add_argument("--json", action="store_true", help="print one JSON object")
    vh.add_argument("--commitment", type=_commitment, metavar="HEX",
                    help="the commitment announced in hand_started before the deal, as you "
                         "recorded it: the revealed seed must match it")
    vh.add_argument("hand", metavar="FILE_OR_ID",
                    help="a .phh file, or the id of a hand stored in DATABASE_URL")
    vh.set_defaults(func=cmd_verify_hand)


def cmd_protocol(args: argparse.Namespace) -> int:
    """Print docs/PROTOCOL.md as generated from the event schemas, or write it."""
    from app import protocol

    if args.write:
        print(f"wrote {protocol.write()}")
    else:
        sys.stdout.write(protocol.render())
    return 0


DESCRIPTION = ("The holdem command: serve, migrate, create-admin, demote, outbox, backup, eval, "
               "equity, outs, replay, verify-hand, audit, house, hands, protocol.")


def build_parser() -> argparse.ArgumentParser:
    """The ``holdem`` argument parser (its help text is plain: no reStructuredText marks)."""
    parser = argparse.ArgumentParser(prog="holdem", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000, help="1 to 65535")
    serve.add_argument("--no-migrate", dest="migrate", action="store_false",
                       help="never migrate: refuse a database behind the code (as production "
                            "always does)")
    serve.set_defaults(func=cmd_serve)
    _add_poker_commands(sub)
    _add_account_commands(sub)
    _add_replay_command(sub)
    audit = sub.add_parser("audit", help="reconcile balances, table chips and hand results")
    audit.add_argument("--json", action="store_true", help="print one JSON object")
    audit.set_defaults(func=cmd_audit)
    _add_house_command(sub)
    _add_verify_command(sub)
    from app.hands.command import add_hands_command

    add_hands_command(sub)
    doc = sub.add_parser("protocol", help="the Socket.IO protocol page (docs/PROTOCOL.md)")
    doc.add_argument("--write", action="store_true", help="write docs/PROTOCOL.md")
    doc.set_defaults(func=cmd_protocol)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
