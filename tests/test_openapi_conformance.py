"""Schemathesis against the app's own OpenAPI schema, over real HTTP to a real server, as
an admin, on SQLite and on PostgreSQL: no 500s, and every answer (status code, content
type, body) is one the schema documents. Bounded and deterministic: a fixed number of
derandomised examples per operation."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
import schemathesis
import uvicorn
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis import APIOperation, Case
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from app.admin.bootstrap import create_admin
from app.config import Settings
from app.main import create_app
from tests.conftest import PASSWORD, assert_ledger_reconciles, free_port
from tests.web.conftest import LiveServer

EXAMPLES_PER_OPERATION = 12  # about 35 operations: some 400 cases per database
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
ADMIN_EMAIL = "fuzz-admin@example.com"


@dataclass
class Api:
    """The running server, its schema and an admin session."""

    base_url: str
    schema: schemathesis.BaseSchema
    token: str = ""

    def log_in(self) -> None:
        response = httpx.post(f"{self.base_url}/auth/login",
                              json={"email": ADMIN_EMAIL, "password": PASSWORD})
        assert response.status_code == 200, response.text
        self.token = response.json()["access_token"]


@pytest.fixture
def api(settings: Settings) -> Iterator[Api]:
    settings = dataclasses.replace(settings, rate_limits_enabled=False)
    asyncio.run(create_admin(settings, ADMIN_EMAIL, PASSWORD))
    port = free_port()
    app = create_app(settings)
    spec = app.openapi()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical",
                            lifespan="on")
    server = LiveServer(settings, f"http://127.0.0.1:{port}", uvicorn.Server(config))
    server.start()
    try:
        running = Api(server.base_url, schemathesis.openapi.from_dict(spec))
        running.log_in()
        yield running
    finally:
        server.stop()
    # Admin credit adjustments and house funding move chips: every one must reconcile.
    asyncio.run(assert_ledger_reconciles(settings.database_url))


def exercise(api: Api, operation: APIOperation) -> str | None:
    """Run the examples of one operation; the first failure, described, or None."""

    @given(case=operation.as_strategy())
    @hypothesis_settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, deadline=None,
                         database=None, suppress_health_check=list(HealthCheck),
                         print_blob=False)
    def run(case: Case) -> None:
        headers = {"Authorization": f"Bearer {api.token}"}
        response = case.call(base_url=api.base_url, headers=headers, timeout=30)
        if operation.path == "/auth/logout" and response.status_code == 204:
            api.log_in()  # the fuzzer just ended the admin's session
        case.validate_response(response, checks=CHECKS)

    try:
        run()
    except (Exception, BaseExceptionGroup) as failure:  # reported per operation below
        return f"{operation.label}: {failure}"
    return None


@pytest.mark.slow
def test_every_operation_answers_as_documented_and_never_500(api: Api) -> None:
    operations = [result.ok() for result in api.schema.get_all_operations()]
    assert len(operations) > 25
    failures = [failure for operation in operations
                if (failure := exercise(api, operation)) is not None]
    assert not failures, "\n\n".join(failures)


def test_the_schema_documents_every_error_answer_and_the_display_name_rule(
    settings: Settings,
) -> None:
    spec = create_app(settings).openapi()
    error_ref = {"$ref": "#/components/schemas/ErrorBody"}
    signup = spec["paths"]["/auth/signup"]["post"]["responses"]
    for status in ("400", "401", "403", "409", "413", "422", "429"):
        assert signup[status]["content"]["application/json"]["schema"] == error_ref, status
    assert "Retry-After" in signup["429"]["headers"]
    for path, status in (("/admin/users/{user_id}", "404"), ("/users/me/avatar", "413"),
                         ("/hands/{hand_id}", "404")):
        operation = next(iter(spec["paths"][path].values()))
        assert operation["responses"][status]["content"]["application/json"]["schema"] \
            == error_ref, path
    name = spec["components"]["schemas"]["UserCreate"]["properties"]["display_name"]
    assert "look-alike" in name["description"] and name["minLength"] == 3
    credits = spec["components"]["schemas"]["CreditAdjustment"]["properties"]["amount"]
    assert credits["type"] == "integer"
