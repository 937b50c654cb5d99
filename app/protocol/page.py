"""The protocol page's generator (docs/PROTOCOL.md).

Each feature describes its share of the protocol as a :class:`ProtocolPart`
(its requests, server events, errors and their examples: the tables' in
:mod:`app.protocol.tables`, the tournaments' in :mod:`app.protocol.tournaments`);
:mod:`app.protocol` composes the parts into the page. Every example is validated against its
pydantic model when the page is rendered, so the page cannot show a payload the
server would refuse; a test fails when the committed page differs from the
rendering.
"""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError
from pydantic.json_schema import JsonSchemaMode

from app.errors import HoldemError
from app.protocol.table_examples import (
    EVENT_EXAMPLES,
    HAND_VIEW,
    INTRO,
    TABLE_EVENT_TYPES,
)
from app.table.events import TABLE_EVENT_RECORDS


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
    # The objects the page describes after the events.
    objects: tuple[type[BaseModel], ...] = ()
    # The records an ack's body is made from, by request name (its example is one of them).
    ack_records: dict[str, tuple[type[BaseModel], ...]] = field(default_factory=dict)


def render(parts: Sequence[ProtocolPart]) -> str:
    """The whole page for the protocol made of ``parts``; server events are grouped by
    their prefix (``table:``, ``lobby:``, ``user:``), in the order the prefixes first
    appear."""
    parts = list(parts)
    docs = {name: text for part in parts for name, text in part.request_docs.items()}
    examples = {name: ex for part in parts for name, ex in part.request_examples.items()}
    acks = {name: ack for part in parts for name, ack in part.acks.items()}
    ack_fields = {name: text for part in parts for name, text in part.ack_fields.items()}
    ack_records = {name: records for part in parts
                   for name, records in part.ack_records.items()}
    server_examples = {name: ex for part in parts for name, ex in part.server_examples.items()}
    errors = [cls for part in parts for cls in part.errors]
    out = [INTRO.strip(), "", _errors(errors), "", "## Client → server events", ""]
    for part in parts:
        for request in part.requests:
            out += [_request(request, docs, examples[request.name], acks[request.name],
                             ack_fields[request.name], ack_records.get(request.name, ())), ""]
    out += ["## Server → client events", ""]
    for name, model in _by_prefix([e for part in parts for e in part.server_events]):
        out += [_server_event(name, model, server_examples[name]), ""]
    out += [_table_events(), "## Objects", ""]
    for model in (model for part in parts for model in part.objects):
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
             ack: dict[str, Any], ack_fields: str,
             records: tuple[type[BaseModel], ...]) -> str:
    model = request.model
    doc = docs.get(request.name) or _description(model)
    model.model_validate(example)
    who = "" if request.login else " Anonymous connections may send it."
    return "\n".join([
        f"### `{request.name}`", "", doc + who, "", _fields(model), "",
        "Example payload:", "", _json(example), "", f"Ack: {ack_fields}", "",
        *_ack_records(records, ack), _json(ack),
    ])


def _ack_records(records: tuple[type[BaseModel], ...], ack: dict[str, Any]) -> list[str]:
    """The fields of the records an ack is made from (besides ``ok``); its example, unless
    it shows a refusal, must be one of them."""
    if not records:
        return []
    body = {key: value for key, value in ack.items() if key != "ok"}
    if ack["ok"] and not any(_valid(record, body) for record in records):
        raise ValueError(f"the ack {ack} is none of {[r.__name__ for r in records]}")
    lines = []
    for record in records:
        doc = " ".join((record.__doc__ or "").split()).replace("``", "`")
        lines += [f"`{record.__name__}`: {doc}", "",
                  _fields(record, "serialization"), ""]
    return lines


def _valid(model: type[BaseModel], data: dict[str, Any]) -> bool:
    try:
        model.model_validate(data)
    except ValidationError:
        return False
    return True


def _server_event(name: str, model: type[BaseModel], example: dict[str, Any]) -> str:
    model.model_validate(example)
    return "\n".join([f"### `{name}`", "", _description(model), "", _fields(model), "",
                      "Example:", "", _json(example)])


def _table_events() -> str:
    lines = ["## `table:event` types", "",
             "The `event` object of a `table:event`, by `type`. Hand events come from the "
             "engine (`app/poker/events.py`) through the viewer's projection; the table's "
             "own events are the records of `app/table/events.py`, whose fields are "
             "listed.", ""]
    records = {record.model_fields["type"].default: record for record in TABLE_EVENT_RECORDS}
    for kind, meaning in TABLE_EVENT_TYPES.items():
        example = EVENT_EXAMPLES[kind]
        record = records.get(kind)
        fields = []
        if record is not None:
            record.model_validate(example)
            fields = [_fields(record, "serialization"), ""]
        lines += [f"### `{kind}`", "", meaning, "", *fields, _json(example), ""]
    return "\n".join(lines)


def _fields(model: type[BaseModel], mode: JsonSchemaMode = "validation") -> str:
    schema = model.model_json_schema(mode=mode)
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
    if "anyOf" in prop or "oneOf" in prop:
        options = [_type(p, defs) for p in prop.get("anyOf", prop.get("oneOf", []))]
        return " or ".join(dict.fromkeys(options))
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
