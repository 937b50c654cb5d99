"""How the server's processes log: readable lines in development, JSON in production."""

from __future__ import annotations

import json
import logging

from app.config import Settings


class JsonLogFormatter(logging.Formatter):
    """One JSON object per line, for production log collectors."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def configure_logging(settings: Settings) -> None:
    """Readable lines in development, JSON lines in production (app loggers at INFO)."""
    handler = logging.StreamHandler()
    if settings.is_development:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    else:
        handler.setFormatter(JsonLogFormatter())
    app_logger = logging.getLogger("app")
    app_logger.handlers[:] = [handler]
    app_logger.setLevel(logging.INFO)
    app_logger.propagate = False
