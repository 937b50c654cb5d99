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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.config import get_settings
from app.logs import configure_logging
from app.main import create_app
from bench.serving import serve, server_args


def main() -> None:
    args = server_args(__doc__.splitlines()[0], gc_default="700,10,10")
    settings = get_settings().served_at(args.host, args.port)
    configure_logging(settings)
    serve(create_app(settings), args)

if __name__ == "__main__":
    main()
