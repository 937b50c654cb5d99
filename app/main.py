"""The ASGI application: FastAPI for REST, Socket.IO beside it."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException

from app import __version__
from app.accounts.avatars import DECODES_AT_ONCE, MAX_UPLOAD_BYTES
from app.accounts.hooks import AccountHooks
from app.accounts.mail import Mailer
from app.accounts.ratelimit import RateLimiter
from app.accounts.router import auth_router, users_router
from app.admin import tables as admin_tables
from app.admin.router import router as admin_router
from app.body_limit import SOCKET_BODY_BYTES, BodyLimitMiddleware, BodyLimits
from app.config import Settings, get_settings
from app.db.engine import Database
from app.errors import HoldemError, problems_summary, validation_problems
from app.hands.router import router as hands_router
from app.integrity.watch import IntegrityWatch
from app.leaderboard.router import router as leaderboard_router
from app.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from app.metrics import Metrics
from app.moderation.router import router as moderation_router
from app.offload import Offload
from app.realtime.server import RealtimeApp
from app.realtime.wiring import install as install_realtime
from app.security_headers import SecurityHeadersMiddleware
from app.settle_up.router import router as settle_up_router
from app.stats.router import router as stats_router
from app.tools.router import router as tools_router
from app.tournaments.handlers import install as install_tournaments
from app.tournaments.router import admin_router as tournaments_admin_router
from app.tournaments.router import router as tournaments_router
from app.web.router import mount_web
from app.worker import WorkerProcess

log = logging.getLogger(__name__)

# The avatar upload is the one large body: the image plus its multipart framing.
BODY_LIMITS = BodyLimits(
    paths={"/users/me/avatar": MAX_UPLOAD_BYTES + 16 * 1024},
    prefixes={"/socket.io/": SOCKET_BODY_BYTES},
)
HTTP_ERROR_CODES = {
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def error_body(code: str, message: str, **details: Any) -> dict[str, Any]:
    """The JSON shape of every error: ``{"error": {"code", "message", ...}}``."""
    return {"error": {"code": code, "message": message, **details}}


async def _holdem_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HoldemError)
    log.info("%s %s -> %s %s", request.method, request.url.path, exc.status, exc.code)
    headers = getattr(exc, "headers", None)
    if headers is None and "retry_after" in exc.details:
        headers = {"Retry-After": str(exc.details["retry_after"])}
    return JSONResponse({"error": exc.to_dict()}, status_code=exc.status, headers=headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    # The first part of each location is where the value came from: body, query, path.
    problems = validation_problems(exc.errors(), source_parts=1)
    log.info("%s %s -> 422 invalid_payload", request.method, request.url.path)
    return JSONResponse(
        jsonable_encoder(error_body("invalid_payload",
                                    problems_summary(problems, "The request is invalid."),
                                    problems=problems)),
        status_code=422,
    )


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    code = HTTP_ERROR_CODES.get(exc.status_code, "http_error")
    return JSONResponse(error_body(code, str(exc.detail)), status_code=exc.status_code,
                        headers=exc.headers)


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return JSONResponse(error_body("internal_error", "something went wrong on our side"),
                        status_code=500)


def install_error_handlers(app: FastAPI) -> None:
    """Map typed errors, invalid payloads and HTTP errors to the one JSON error shape."""
    app.add_exception_handler(Exception, _unexpected_error)
    app.add_exception_handler(HoldemError, _holdem_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)


def summaries_from_docstrings(router: APIRouter) -> None:
    """Use each route's one-line docstring as its OpenAPI summary (``/docs``)."""
    for route in router.routes:
        if isinstance(route, APIRoute) and route.summary is None and route.endpoint.__doc__:
            route.summary = route.endpoint.__doc__.strip().splitlines()[0].rstrip(".")
        included = getattr(route, "original_router", None)
        if isinstance(included, APIRouter):
            summaries_from_docstrings(included)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application for ``settings`` (the environment's by default)."""
    settings = settings or get_settings()
    settings.check()
    database = Database(settings.database_url)
    mailer = Mailer(settings, database)

    worker = WorkerProcess(settings) if settings.worker == "process" else None
    # Without a worker process, its periodic work runs here.
    watch = IntegrityWatch(settings, database) if worker is None else None
    offload = Offload(settings.offload_processes)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if worker is None:
            mailer.start()
        else:
            worker.start()
        if watch is not None:
            watch.start()
        lag = asyncio.create_task(metrics.watch_loop(), name="metrics:loop-lag")
        await realtime.start()
        yield
        await realtime.stop()
        lag.cancel()
        if watch is not None:
            await watch.stop()
        if worker is None:
            await mailer.close()
        else:
            await worker.stop()
        await offload.close()
        await database.dispose()

    app = RealtimeApp(title="holdem-server", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    app.state.database = database
    app.state.mailer = mailer
    app.state.worker = worker
    app.state.integrity_watch = watch
    app.state.offload = offload
    app.state.rate_limiter = RateLimiter(enabled=settings.rate_limits_enabled,
                                         redis_url=settings.redis_url,
                                         prefix=f"holdem:{settings.redis_channel}")
    app.state.account_hooks = AccountHooks()
    app.state.avatar_slots = asyncio.Semaphore(DECODES_AT_ONCE)
    metrics = Metrics()
    realtime = install_realtime(
        app, settings, database, limiter=app.state.rate_limiter,
        hooks=app.state.account_hooks, metrics=metrics,
        features={"tournaments": install_tournaments, "admin_tables": admin_tables.register})
    app.state.realtime = realtime
    install_error_handlers(app)
    # Added last, so they are the outermost: Socket.IO's HTTP bodies are bounded too, and
    # every answer (a 413 included) carries the security headers.
    app.add_middleware(BodyLimitMiddleware, limits=BODY_LIMITS)
    app.add_middleware(SecurityHeadersMiddleware)

    def operator(request: Request) -> bool:
        """The caller holds the metrics token."""
        token, given = settings.metrics_token, request.headers.get("authorization", "")
        return bool(token) and secrets.compare_digest(given.encode(),
                                                      f"Bearer {token}".encode())

    @app.get("/health", tags=["meta"], responses={503: {"description": "Not ready"}})
    async def health(request: Request) -> JSONResponse:
        """Readiness: the database answers, Redis too when several processes share the
        tables; whether this process runs tables, and how many it holds the lease of
        (which process it is: in production only with the metrics token)."""
        database_up = await database.reachable()
        cluster = realtime.cluster
        redis = "off" if cluster is None else "up" if await cluster.reachable() else "down"
        ready = database_up and redis != "down"
        tables = realtime.host
        body = {"status": "ok" if ready else "unavailable", "version": __version__,
                "database": "up" if database_up else "down", "redis": redis,
                "tables": "running" if tables.live.running else "elsewhere",
                "process": tables.leases.process_id,
                "leases": await tables.ownership.leases_held(),
                "draining": tables.live.draining}
        if not (settings.is_development or operator(request)):
            del body["process"]  # the host name and process id, for operators only
        return JSONResponse(body, status_code=200 if ready else 503,
                            headers=None if ready else {"Retry-After": "5"})

    if settings.metrics_enabled:

        @app.get("/metrics", tags=["meta"], include_in_schema=False)
        async def prometheus(request: Request) -> Response:
            """Prometheus metrics (with ``METRICS_TOKEN`` set: only with that bearer token)."""
            if settings.metrics_token and not operator(request):
                return JSONResponse({"error": {"code": "not_authenticated",
                                               "message": "metrics need the metrics token"}},
                                    status_code=401)
            return Response(metrics.render(), media_type=METRICS_CONTENT_TYPE)

    app.include_router(auth_router)
    app.include_router(users_router)
    app.include_router(admin_router)
    app.include_router(hands_router)
    app.include_router(tournaments_router)
    app.include_router(tournaments_admin_router)
    app.include_router(tools_router)
    app.include_router(leaderboard_router)
    app.include_router(stats_router)
    app.include_router(moderation_router)
    app.include_router(settle_up_router)
    mount_web(app)
    summaries_from_docstrings(app.router)
    return app
