"""The browser client's pages.

Each page is a Jinja2 shell; its script fetches everything else from the REST
API and the Socket.IO protocol, exactly as any other client would. The pages
an e-mailed link opens (``/auth/verify-email``, ``/auth/reset-password``) are
served here too, beside their short forms ``/verify`` and ``/reset``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from app import __version__
from app.poker.state import Game
from app.table.state import TIMING_PROFILES

STATIC_DIR = Path(__file__).resolve().parent / "static"
TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates" / "web"
PRIVACY_NOTE = Path(__file__).resolve().parents[2] / "docs" / "PRIVACY.md"
SOCKETIO_JS = STATIC_DIR / "vendor" / "socket.io.min.js"

templates = Jinja2Templates(directory=TEMPLATES_DIR)
router = APIRouter(include_in_schema=False)
Token = Annotated[str, Query(max_length=128)]
TableId = Annotated[str, PathParam(max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


def static_url(path: str) -> str:
    """The address of a static file, with a version so browsers refetch after changes."""
    file = STATIC_DIR / path
    stamp = int(file.stat().st_mtime) if file.exists() else 0
    return f"/static/{path}?v={__version__}.{stamp}"


templates.env.globals["static_url"] = static_url
templates.env.globals["games"] = list(Game)
templates.env.globals["timing_profiles"] = list(TIMING_PROFILES.values())


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    """Render one page; nothing personal is in it, but it must not be cached stale."""
    context.setdefault("socketio_missing", not SOCKETIO_JS.exists())
    response = templates.TemplateResponse(request, f"{template}.html", context)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@router.get("/")
async def lobby(request: Request) -> HTMLResponse:
    """The lobby: live tables, create, quick seat, join or watch."""
    return page(request, "lobby", title="Lobby", needs_socket=True)


@router.get("/login")
async def login(request: Request) -> HTMLResponse:
    """Log in."""
    return page(request, "login", title="Log in")


@router.get("/signup")
async def signup(request: Request) -> HTMLResponse:
    """Create an account."""
    return page(request, "signup", title="Sign up")


@router.get("/privacy", response_class=PlainTextResponse)
async def privacy() -> PlainTextResponse:
    """What the server keeps about a person, for how long (docs/PRIVACY.md, as text)."""
    return PlainTextResponse(PRIVACY_NOTE.read_text(encoding="utf-8"),
                             media_type="text/plain; charset=utf-8")


@router.get("/forgot")
@router.get("/auth/forgot-password")
async def forgot(request: Request) -> HTMLResponse:
    """Ask for a password reset link."""
    return page(request, "forgot", title="Forgot your password?")


@router.get("/reset")
@router.get("/auth/reset-password")
async def reset(request: Request, token: Token = "") -> HTMLResponse:
    """The page a password reset link opens."""
    return page(request, "reset", title="Choose a new password", token=token)


@router.get("/verify")
@router.get("/auth/verify-email")
async def verify(request: Request, token: Token = "") -> HTMLResponse:
    """The page a verification or e-mail-change link opens; confirming takes a click."""
    return page(request, "verify", title="Confirm your e-mail address", token=token)


@router.get("/account")
async def account(request: Request) -> HTMLResponse:
    """Profile, avatar, password, e-mail, credits, ledger, deletion."""
    return page(request, "account", title="Your account")


@router.get("/tables")
async def my_tables(request: Request) -> HTMLResponse:
    """Every table you sit at, tiled on one page."""
    return page(request, "multi", title="All your tables", needs_socket=True)


@router.get("/stats")
async def stats(request: Request) -> HTMLResponse:
    """Your stats (VPIP, PFR, 3-bet, c-bet, showdowns...) and your results graph."""
    return page(request, "stats", title="Your stats")


@router.get("/history")
async def hand_history(request: Request) -> HTMLResponse:
    """Every hand you were dealt into, a page at a time, each in the replayer."""
    return page(request, "history", title="Your hands")


@router.get("/table/{table_id}")
async def table(request: Request, table_id: TableId) -> HTMLResponse:
    """One table, to play or to watch."""
    return page(request, "table", title="Table", table_id=table_id, needs_socket=True)


@router.get("/table/{table_id}/ledger")
async def table_ledger(request: Request, table_id: TableId) -> HTMLResponse:
    """A table's ledger: buy-ins, cash-outs and who pays whom to settle up."""
    return page(request, "ledger", title="Ledger", table_id=table_id)


@router.get("/tournament/{tournament_id}")
async def tournament(request: Request, tournament_id: TableId) -> HTMLResponse:
    """One tournament: structure, players, payouts, tables, registering."""
    return page(request, "tournament", title="Tournament", tournament_id=tournament_id,
                needs_socket=True)
@router.get("/odds")
async def odds(request: Request) -> HTMLResponse:
    """The odds calculator: equity of hands and ranges, outs."""
    return page(request, "odds", title="Odds calculator")


@router.get("/admin")
async def admin(request: Request) -> HTMLResponse:
    """The back office: users, tournaments and schedules, tables, the house and the
    ledger's audit, hands, chat, announcements, the audit log."""
    return page(request, "admin", title="Admin")


def wants_page(request: Request) -> bool:
    """Whether a browser navigated here (HTML first) rather than a client asking for JSON."""
    accept = request.headers.get("accept", "")
    return "text/html" in accept and "application/json" not in accept


def mount_web(app: FastAPI) -> None:
    """Serve the pages and ``/static``."""
    app.include_router(router)
    # Not checked at start-up: an install without the static files still serves the API.
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
