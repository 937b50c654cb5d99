"""``holdem hands export``: a player's hands for trackers, read from ``DATABASE_URL``.

The same export as ``GET /hands/export`` (see :mod:`app.hands.exports`), for the
operator of a server: the player is named by e-mail, and the file is written where
``--output`` says (the standard output for text).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from app.errors import HoldemError

if TYPE_CHECKING:
    from app.hands.exports import ExportFile

#: The formats (kept here so that building the parser imports no database code).
FORMATS = ("pokerstars", "ohh")


def add_hands_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``hands`` subcommand and its ``export``."""
    hands = sub.add_parser("hands", help="stored hands: export a player's for trackers")
    actions = hands.add_subparsers(dest="action", required=True)
    export = actions.add_parser(
        "export", help="a player's hands in a date range, in PokerStars text or OHH JSON")
    export.add_argument("--user", required=True, metavar="EMAIL",
                        help="the player whose hands (as they saw them)")
    export.add_argument("--since", required=True, type=_moment, metavar="WHEN",
                        help="ISO 8601 date or time (UTC unless it names a zone)")
    export.add_argument("--until", type=_moment, metavar="WHEN", default=None,
                        help="end of the range, excluded (default: now)")
    export.add_argument("--format", choices=FORMATS, default=FORMATS[0])
    export.add_argument("--zip", action="store_true", help="a zip of one file per table "
                                                          "(needs --output)")
    export.add_argument("--output", type=Path, metavar="FILE",
                        help="write here (default: the standard output)")
    export.set_defaults(func=cmd_hands_export)


def _moment(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an ISO 8601 date or time, got {text!r}"
                                         ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def cmd_hands_export(args: argparse.Namespace) -> int:
    """Write the export; a bad range, user or option prints one line and exits 2."""
    try:
        if args.zip and args.output is None:
            raise HoldemError("a zip needs --output FILE")
        out = asyncio.run(_export(args))
        if out.left_out:
            print(f"left out {out.left_out} hands of games the format cannot write yet",
                  file=sys.stderr)
        if args.output is None:
            sys.stdout.write(out.content.decode())
        else:
            args.output.write_bytes(out.content)
            print(f"wrote {args.output}", file=sys.stderr)
    except (HoldemError, OSError) as exc:
        message = exc.message if isinstance(exc, HoldemError) else str(exc)
        print(f"holdem hands export: error: {message}", file=sys.stderr)
        return 2
    return 0


async def _export(args: argparse.Namespace) -> ExportFile:
    from sqlalchemy import select

    from app.config import get_settings
    from app.db.engine import Database
    from app.db.models import User
    from app.hands.exports import Archive, ExportFormat, export_hands

    database = Database(get_settings().database_url)
    try:
        async with database.sessions() as session:
            user = await session.scalar(select(User).where(User.email == args.user))
            if user is None:
                raise HoldemError(f"no account with the e-mail {args.user!r}")
            return await export_hands(
                session, user.id, since=args.since, until=args.until or datetime.now(UTC),
                fmt=ExportFormat(args.format), archive=Archive.ZIP if args.zip else Archive.TEXT)
    finally:
        await database.dispose()
