"""Every response carries the browser security headers; pages allow only this origin."""

from __future__ import annotations

import httpx
import pytest

PAGES = ["/", "/login", "/signup", "/forgot", "/account", "/admin", "/table/abc",
         "/auth/reset-password?token=x"]
OTHERS = ["/health", "/users/me", "/nowhere", "/openapi.json", "/static/css/app.css"]


def assert_framing_and_sniffing_refused(response: httpx.Response) -> None:
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert "frame-ancestors 'none'" in response.headers["content-security-policy"]


@pytest.mark.parametrize("path", PAGES + OTHERS)
async def test_every_answer_refuses_framing_and_sniffing(
    client: httpx.AsyncClient, path: str
) -> None:
    assert_framing_and_sniffing_refused(await client.get(path))


@pytest.mark.parametrize("path", PAGES)
async def test_pages_may_load_and_connect_only_to_this_origin(
    client: httpx.AsyncClient, path: str
) -> None:
    response = await client.get(path)
    assert response.status_code == 200
    policy = dict(part.strip().split(" ", 1)
                  for part in response.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'"
    assert policy["style-src"] == "'self'"
    assert policy["connect-src"] == "'self'"
    assert policy["object-src"] == "'none'"
    assert "unsafe-inline" not in response.headers["content-security-policy"]
    assert "<script>" not in response.text and " style=" not in response.text


async def test_refusals_before_the_app_carry_the_headers_too(client: httpx.AsyncClient) -> None:
    response = await client.post("/auth/login", content=b"x" * 100_000,
                                 headers={"Content-Type": "application/json"})
    assert response.status_code == 413
    assert_framing_and_sniffing_refused(response)


async def test_the_api_docs_keep_working_under_their_own_policy(
    client: httpx.AsyncClient,
) -> None:
    response = await client.get("/docs")
    assert response.status_code == 200
    assert "https://cdn.jsdelivr.net" in response.headers["content-security-policy"]
    assert_framing_and_sniffing_refused(response)
