"""The protocol page's generator (docs/PROTOCOL.md), and the tables' part of it.

Each feature describes its share of the protocol as a :class:`ProtocolPart`
(its requests, server events, errors and their examples); :mod:`app.protocol`
composes the parts into the page. Every example is validated against its
pydantic model when the page is rendered, so the page cannot show a payload the
server would refuse; a test fails when the committed page differs from the
rendering.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Request:
    """A client→server event: its name, payload model and whether it needs a login."""

    name: str
    model: type[BaseModel]
    login: bool = True


@dataclass(frozen=True)
class ProtocolPart:
    """One feature's share of the protocol, with the examples the page shows."""

    requests: tuple[Request, ...]
    server_events: tuple[tuple[str, type[BaseModel]], ...]
    errors: tuple[type[HoldemError], ...]
    # Text for a request whose model's docstring does not say enough, by name.
    request_docs: dict[str, str]
    request_examples: dict[str, dict[str, Any]]
    acks: dict[str, dict[str, Any]]
    # What an ack holds besides ``ok``, in words, by request name.
    ack_fields: dict[str, str]
    server_examples: dict[str, dict[str, Any]]


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
)

SERVER_EVENTS: tuple[tuple[str, type[BaseModel]], ...] = (
    ("table:snapshot", s.Snapshot),
    ("table:event", s.TableEvent),
    ("table:turn", s.TurnInfo),
    ("table:batch", s.TableBatch),
    ("lobby:table", s.TableSummary),
    ("lobby:table-removed", s.LobbyRemoved),
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
}

# The errors of the tables (and of what they build on); :func:`app.realtime.cluster.answer_error`
# maps another process's answer back to these classes.
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
    table_errors.TournamentSeat,
)

TABLES = ProtocolPart(
    requests=REQUESTS, server_events=SERVER_EVENTS, errors=ERROR_CLASSES,
    request_docs=REQUEST_DOCS, request_examples=REQUEST_EXAMPLES, acks=ACKS,
    ack_fields=ACK_FIELDS, server_examples=SERVER_EXAMPLES,
)


def render(parts: Sequence[ProtocolPart]) -> str:
    """The whole page for the protocol made of ``parts``; server events are grouped by
    their prefix (``table:``, ``lobby:``, ``user:``), in the order the prefixes first
    appear."""
    parts = list(parts)
    docs = {name: text for part in parts for name, text in part.request_docs.items()}
    examples = {name: ex for part in parts for name, ex in part.request_examples.items()}
    acks = {name: ack for part in parts for name, ack in part.acks.items()}
    ack_fields = {name: text for part in parts for name, text in part.ack_fields.items()}
    server_examples = {name: ex for part in parts for name, ex in part.server_examples.items()}
    errors = [cls for part in parts for cls in part.errors]
    out = [INTRO.strip(), "", _errors(errors), "", "## Client → server events", ""]
    for part in parts:
        for request in part.requests:
            out += [_request(request, docs, examples[request.name], acks[request.name],
                             ack_fields[request.name]), ""]
    out += ["## Server → client events", ""]
    for name, model in _by_prefix([e for part in parts for e in part.server_events]):
        out += [_server_event(name, model, server_examples[name]), ""]
    out += [_table_events(), "## Objects", ""]
    for model in OBJECTS:
        out += [f"### `{model.__name__}`", "", _description(model), "", _fields(model), ""]
    out += [HAND_VIEW.strip()]
    return "\n".join(out).rstrip() + "\n"


def _by_prefix(events: list[tuple[str, type[BaseModel]]]) -> list[tuple[str, type[BaseModel]]]:
    prefixes = list(dict.fromkeys(name.split(":", 1)[0] for name, _ in events))
    return sorted(events, key=lambda event: prefixes.index(event[0].split(":", 1)[0]))


def _errors(classes: list[type[HoldemError]]) -> str:
    rows = ["## Error codes", "",
            "Every refused request is acked `{\"ok\": false, \"error\": {\"code\", \"message\", "
            "...details}}` and changed nothing.", "",
            "| code | meaning |", "|---|---|"]
    for cls in classes:
        rows.append(f"| `{cls.code}` | {_first_line(cls.__doc__).replace('``', '`')} |")
    return "\n".join(rows)


def _request(request: Request, docs: dict[str, str], example: dict[str, Any],
             ack: dict[str, Any], ack_fields: str) -> str:
    model = request.model
    doc = docs.get(request.name) or _description(model)
    model.model_validate(example)
    who = "" if request.login else " Anonymous connections may send it."
    return "\n".join([
        f"### `{request.name}`", "", doc + who, "", _fields(model), "",
        "Example payload:", "", _json(example), "", f"Ack: {ack_fields}", "",
        _json(ack),
    ])


def _server_event(name: str, model: type[BaseModel], example: dict[str, Any]) -> str:
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
