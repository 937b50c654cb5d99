"""The ``holdem`` command: serve, migrate, create-admin, eval, equity, outs, replay."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the server with uvicorn."""
    import uvicorn

    from app.main import create_app

    print(f"holdem-server on http://{args.host}:{args.port}", flush=True)
    uvicorn.run(create_app(), host=args.host, port=args.port, log_level="info")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="holdem", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(func=cmd_serve)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
