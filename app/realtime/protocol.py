"""docs/PROTOCOL.md, generated from the event schemas (``holdem protocol --write``).

Every example below is validated against its pydantic model when the page is
rendered, so the page cannot show a payload the server would refuse; a test
fails when the committed page differs from :func:`render`.
"""

from __future__ import annotations

import inspect
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from app.accounts import errors as account_errors
from app.db import ledger
from app.errors import HoldemError, ServiceUnavailable
from app.poker import errors as engine_errors
from app.realtime import errors as table_errors
from app.realtime import schemas as s
from app.realtime.protocol_examples import (
    ACK_FIELDS,
    ACKS,
    EVENT_EXAMPLES,
    HAND_VIEW,
    INTRO,
    REQUEST_EXAMPLES,
    SERVER_EXAMPLES,
    TABLE_EVENT_TYPES,
)
from app.tournaments import errors as tournament_errors
from app.tournaments import schemas as ts

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "PROTOCOL.md"


@dataclass(frozen=True)
class Request:
    """A client→server event: its name, payload model and whether it needs a login."""

    name: str
    model: type[BaseModel]
    login: bool = True


REQUESTS = (
    Request("lobby:list", s.LobbyListRequest, login=False),
    Request("table:create", s.TableCreate),
    Request("table:quick-seat", s.QuickSeat),
    Request("table:join", s.TableJoin),
    Request("table:unwatch", s.TableRef),
    Request("table:sit", s.TableSit),
    Request("table:leave", s.TableRef),
    Request("table:sit-out", s.TableRef),
    Request("table:sit-in", s.TableRef),
    Request("table:top-up", s.TableTopUp),
    Request("table:wait", s.TableRef),
    Request("table:unwait", s.TableRef),
    Request("table:chat", s.TableChat),
    Request("table:seed", s.TableSeed),
    Request("table:action", s.TableAction),
    Request("table:run-it-twice", s.TableRunItTwice),
    Request("tournament:list", ts.TournamentListRequest, login=False),
    Request("tournament:register", ts.TournamentRef),
    Request("tournament:unregister", ts.TournamentRef),
    Request("tournament:deal", ts.TournamentRef),
)

SERVER_EVENTS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("table:snapshot", s.Snapshot),
    ("table:event", s.TableEvent),
    ("table:turn", s.TurnInfo),
    ("table:batch", s.TableBatch),
    ("lobby:table", s.TableSummary),
    ("lobby:table-removed", s.LobbyRemoved),
    ("lobby:tournament", ts.TournamentSummary),
    ("lobby:tournament-removed", ts.TournamentRemoved),
    ("user:notice", s.Notice),
)

OBJECTS: tuple[type[BaseModel], ...] = (
    s.PlayerPublic, s.SeatPublic, s.TableConfigPublic, s.ChatLine, s.FairnessPublic,
    s.ErrorBody,
)

REQUEST_DOCS = {
    "lobby:list": "List the open tables and subscribe to `lobby:table` updates.",
    "table:unwatch": "Stop receiving a table's events (a seat you hold is kept).",
    "table:leave": "Stand up. Cashed out at once, or at the end of the hand you are in "
                   "(your turns are then checked or folded for you).",
    "table:sit-out": "Stop being dealt in; the seat is kept for a while, then cashed out.",
    "table:sit-in": "Be dealt in again, from the next time the big blind reaches you.",
    "table:wait": "Join the waiting list of a table with no free seat.",
    "table:unwait": "Leave the waiting list.",
    "tournament:register": "Enter a tournament (or late-register, or re-enter after busting "
                           "where allowed). A sit & go starts when full; a multi-table "
                           "tournament at its start time. The tournament seats you: a "
                           "`user:notice` `tournament_seat` names your table (join it with "
                           "`table:join`); you move tables the same way.",
    "tournament:unregister": "Withdraw before the start; the buy-in and fee are refunded.",
    "tournament:deal": "Agree to split the prizes left by ICM (2 to 10 players left, by "
                       "their chips after the last finished hand; bots accept any deal). "
                       "When every person still in agrees to the same offer the tournament "
                       "ends: the hand in play is void and each is paid their share "
                       "(`user:notice` `tournament_finished`). A new hand's result makes a "
                       "new offer that needs everyone's agreement again.",
}

ERROR_CLASSES: tuple[type[HoldemError], ...] = (
    table_errors.InvalidPayload, account_errors.NotAuthenticated, account_errors.AccountBanned,
    table_errors.TableNotFound, table_errors.TableClosed, table_errors.InviteRequired,
    table_errors.NoSuchSeat, table_errors.SeatTaken, table_errors.AlreadySeated,
    table_errors.NotSeated, table_errors.InvalidBuyIn, ledger.InsufficientCredits,
    table_errors.HandInProgress, table_errors.NotWaiting, account_errors.RateLimited,
    table_errors.StaleAction, table_errors.DuplicateAction, engine_errors.NotYourTurn,
    engine_errors.NotInHand, engine_errors.WrongPhase, engine_errors.HandOver,
    engine_errors.InvalidAction, engine_errors.CannotCheck, engine_errors.CannotRaise,
    engine_errors.BetTooSmall, engine_errors.BetTooLarge, engine_errors.NotAsked,
    table_errors.TableLimit,
    table_errors.TablesElsewhere, table_errors.TableMoved, ServiceUnavailable,
    table_errors.InternalError,
    table_errors.TournamentSeat, tournament_errors.TournamentNotFound,
    tournament_errors.RegistrationClosed, tournament_errors.TournamentFull,
    tournament_errors.AlreadyRegistered, tournament_errors.ReentryNotAllowed,
    tournament_errors.NotRegistered, tournament_errors.WrongTournamentState,
)


def render() -> str:
    """The whole page."""
    parts = [INTRO.strip(), "", _errors(), "", "## Client → server events", ""]
    for request in REQUESTS:
        parts += [_request(request), ""]
    parts += ["## Server → client events", ""]
    for name, model in SERVER_EVENTS:
        parts += [_server_event(name, model), ""]
    parts += [_table_events(), "## Objects", ""]
    for model in OBJECTS:
        parts += [f"### `{model.__name__}`", "", _description(model), "", _fields(model), ""]
    parts += [HAND_VIEW.strip()]
    return "\n".join(parts).rstrip() + "\n"


def write(path: Path = DOC_PATH) -> Path:
    """Write the page to ``path`` (docs/PROTOCOL.md by default)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(), encoding="utf-8")
    return path


def _errors() -> str:
    rows = ["## Error codes", "",
            "Every refused request is acked `{\"ok\": false, \"error\": {\"code\", \"message\", "
            "...details}}` and changed nothing.", "",
            "| code | meaning |", "|---|---|"]
    for cls in ERROR_CLASSES:
        rows.append(f"| `{cls.code}` | {_first_line(cls.__doc__).replace('``', '`')} |")
    return "\n".join(rows)


def _request(request: Request) -> str:
    model = request.model
    doc = REQUEST_DOCS.get(request.name) or _description(model)
    example = REQUEST_EXAMPLES[request.name]
    model.model_validate(example)
    ack = ACKS[request.name]
    who = "" if request.login else " Anonymous connections may send it."
    return "\n".join([
        f"### `{request.name}`", "", doc + who, "", _fields(model), "",
        "Example payload:", "", _json(example), "", f"Ack: {ACK_FIELDS[request.name]}", "",
        _json(ack),
    ])


def _server_event(name: str, model: type[BaseModel]) -> str:
    example = SERVER_EXAMPLES[name]
    model.model_validate(example)
    return "\n".join([f"### `{name}`", "", _description(model), "", _fields(model), "",
                      "Example:", "", _json(example)])


def _table_events() -> str:
    lines = ["## `table:event` types", "",
             "The `event` object of a `table:event`, by `type`. Hand events come from the "
             "engine (`app/poker/events.py`) through the viewer's projection.", ""]
    for kind, meaning in TABLE_EVENT_TYPES.items():
        lines += [f"### `{kind}`", "", meaning, "", _json(EVENT_EXAMPLES[kind]), ""]
    return "\n".join(lines)


def _fields(model: type[BaseModel]) -> str:
    schema = model.model_json_schema()
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        return "No fields: send `{}` (or nothing)."
    required = set(schema.get("required", []))
    rows = ["| field | type | required | description |", "|---|---|---|---|"]
    for name, prop in properties.items():
        described = prop.get("description", "")
        if "default" in prop and prop["default"] is not None and name not in required:
            described = f"{described} (default `{json.dumps(prop['default'])}`)".strip()
        rows.append(f"| `{name}` | {_type(prop, schema.get('$defs', {}))} | "
                    f"{'yes' if name in required else 'no'} | {described} |")
    return "\n".join(rows)


def _type(prop: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in prop:
        target = defs[prop["$ref"].rsplit("/", 1)[-1]]
        if "enum" in target:
            return " \\| ".join(f"`{json.dumps(v)}`" for v in target["enum"])
        return f"`{target.get('title', 'object')}`"
    if "anyOf" in prop:
        return " or ".join(_type(p, defs) for p in prop["anyOf"])
    if "enum" in prop:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in prop["enum"])
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    kind = prop.get("type", "any")
    if kind == "array":
        return f"array of {_type(prop.get('items', {}), defs)}"
    bounds = [f"{key} {prop[key]}" for key in ("minimum", "exclusiveMinimum", "maximum",
                                               "minLength", "maxLength") if key in prop]
    return f"{kind}" + (f" ({', '.join(bounds)})" if bounds else "")


def _description(model: type[BaseModel]) -> str:
    text = inspect.cleandoc(model.__doc__ or "").replace("``", "`")
    text = re.sub(r"^`[a-z:-]+`: ", "", text)
    return text[:1].upper() + text[1:]


def _first_line(doc: str | None) -> str:
    return (doc or "").strip().splitlines()[0] if doc else ""


def _json(value: Any) -> str:
    return "```json\n" + json.dumps(value, indent=2, ensure_ascii=False) + "\n```"
