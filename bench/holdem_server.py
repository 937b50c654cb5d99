"""holdem-server for bench/load.py: ``holdem serve`` with the two settings under test exposed.

    .venv/bin/python bench/holdem_server.py [--port 8765] [--gc-threshold 50000,20,100]
                                            [--no-deflate]

The app is built exactly as ``holdem serve`` builds it (settings from the
environment); only the collector thresholds and uvicorn's WebSocket
per-message deflate are set from the command line, each to Python's and
uvicorn's own default when not given. Logs at warning level so the log
writes do not weigh on the measurement.
"""

from __future__ import annotations

import argparse
import gc
import sys
from pathlib import Path

import uvicorn

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import get_settings
from app.main import configure_logging, create_app
from bench import gcpauses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--gc-threshold", default="700,10,10",
                        help="gen0,gen1,gen2 thresholds for gc.set_threshold")
    parser.add_argument("--no-deflate", action="store_true",
                        help="turn off uvicorn's WebSocket per-message deflate")
    parser.add_argument("--gc-stats", default="",
                        help="write the collections' count and pauses to this JSON file at exit")
    args = parser.parse_args()
    if args.gc_stats:
        gcpauses.record(args.gc_stats)
    configure_logging(get_settings())
    app = create_app()
    gc.set_threshold(*(int(x) for x in args.gc_threshold.split(",")))
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ws_per_message_deflate=not args.no_deflate, backlog=4096)


if __name__ == "__main__":
    main()
