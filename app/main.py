"""The ASGI application: FastAPI for REST, Socket.IO beside it."""

from __future__ import annotations

from fastapi import FastAPI

from app import __version__
from app.config import Settings, get_settings


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for ``settings`` (the environment's by default)."""
    settings = settings or get_settings()
    app = FastAPI(title="holdem-server", version=__version__)
    app.state.settings = settings

    @app.get("/health", tags=["meta"])
    async def health() -> dict[str, str]:
        """Liveness: the server answers."""
        return {"status": "ok", "version": __version__}

    return app
