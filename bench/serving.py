"""What the two benchmark servers share: their command line and how they run.

Both take ``--host``, ``--port``, ``--gc-threshold``, ``--gc-freeze``, ``--no-deflate``
and ``--gc-stats``, so bench/load.py starts either the same way (``--gc-freeze`` defaults
to ``GC_FREEZE_SECONDS``, which bench/load.py sets for both).
"""

from __future__ import annotations

import argparse
import gc
import os
from typing import Any

import uvicorn

from app.allocator import share_one_arena
from app.collector import FREEZE_SECONDS
from app.serving import Server, connection_options
from bench import gcpauses


def server_args(description: str, *, gc_default: str) -> argparse.Namespace:
    """Parse a benchmark server's options; start timing collections if asked. Every
    thread allocates from one malloc arena, as under ``holdem serve``."""
    share_one_arena()
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--gc-threshold", default=gc_default,
                        help="gen0,gen1,gen2 thresholds for gc.set_threshold "
                             "(empty: leave them as they are)")
    parser.add_argument("--no-deflate", action="store_true",
                        help="turn off uvicorn's WebSocket per-message deflate")
    parser.add_argument("--gc-freeze", type=float,
                        default=float(os.environ.get("GC_FREEZE_SECONDS", FREEZE_SECONDS)),
                        help="collect the young objects and freeze the survivors this often, "
                             "in seconds, as holdem serve does (0: never)")
    parser.add_argument("--gc-stats", default="",
                        help="write the collections' count and pauses to this JSON file at exit")
    args = parser.parse_args()
    if args.gc_stats:
        gcpauses.record(args.gc_stats)
    return args


def serve(app: Any, args: argparse.Namespace) -> None:
    """Set the collector thresholds (after the app is built), then run one uvicorn worker
    as holdem serve does (its collector freezing too, unless ``--gc-freeze 0``)."""
    if args.gc_threshold:
        gc.set_threshold(*(int(x) for x in args.gc_threshold.split(",")))
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            backlog=4096, **connection_options(deflate=not args.no_deflate))
    Server(config, freeze_every=args.gc_freeze).run()
