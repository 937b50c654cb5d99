"""The ``holdem`` command: serve, migrate, create-admin, eval, equity, outs, replay."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server with uvicorn."""
    import uvicorn

    from app.config import get_settings
    from app.main import configure_logging, create_app

    configure_logging(get_settings())
    print(f"holdem-server on http://{args.host}:{args.port}", flush=True)
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="info")
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    """Upgrade the database to the latest migration."""
    from app.config import get_settings
    from app.db.migrations import upgrade

    settings = get_settings()
    upgrade(settings.database_url)
    print("database is at the latest migration", flush=True)
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
    try:
        done = asyncio.run(create_admin(get_settings(), args.email, password or None))
    except (HoldemError, ValueError) as exc:
        print(f"holdem create-admin: error: {exc}", file=sys.stderr)
        return 2
    print(f"{done.email} is an admin ({'new account' if done.created else 'promoted'})")
    return 0


def _add_account_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``migrate`` and ``create-admin`` subcommands."""
    migrate = sub.add_parser("migrate", help="upgrade the database to the latest migration")
    migrate.set_defaults(func=cmd_migrate)

    admin = sub.add_parser("create-admin", help="create an admin account or promote one")
    admin.add_argument("email", metavar="EMAIL")
    admin.add_argument("--password", help="the password (prompted for a new account if absent)")
    admin.add_argument("--no-prompt", dest="prompt", action="store_false",
                       help="never prompt; promote without changing the password")
    admin.set_defaults(func=cmd_create_admin)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="holdem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)
    _add_account_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
