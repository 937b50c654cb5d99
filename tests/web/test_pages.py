"""Every page renders, the e-mailed link paths open the client's pages, and a missing
Socket.IO client file is said plainly (no browser needed)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from app.web import router

PAGES = ["/", "/login", "/signup", "/forgot", "/reset?token=abc", "/verify?token=abc",
         "/account", "/admin", "/table/abc123", "/table/abc123/ledger", "/odds",
         "/leaderboard"]
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


@pytest.mark.parametrize("path", PAGES)
async def test_every_page_renders_with_its_script(client: httpx.AsyncClient, path: str) -> None:
    response = await client.get(path, headers=BROWSER)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert response.headers["cache-control"] == "no-store"
    assert '<script type="module" src="/static/js/pages/' in response.text


async def test_mailed_link_paths_open_the_verify_and_reset_pages(
    client: httpx.AsyncClient,
) -> None:
    verify = await client.get("/auth/verify-email?token=tok-1")
    reset = await client.get("/auth/reset-password?token=tok-2")
    assert 'value="tok-1"' in verify.text and "Confirm my address" in verify.text
    assert 'value="tok-2"' in reset.text and 'name="new_password"' in reset.text


async def test_static_files_are_served_with_a_version(client: httpx.AsyncClient) -> None:
    page = await client.get("/login")
    assert "/static/css/app.css?v=" in page.text
    css = await client.get("/static/css/app.css")
    assert css.status_code == 200 and "text/css" in css.headers["content-type"]


async def test_a_missing_socketio_client_is_explained_on_live_pages(
    client: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(router, "SOCKETIO_JS", tmp_path / "socket.io.min.js")
    lobby = await client.get("/")
    assert "The Socket.IO browser client is missing" in lobby.text
    assert "vendor/socket.io.min.js?v=" not in lobby.text
    assert "is missing" not in (await client.get("/login")).text


async def test_table_ids_are_checked(client: httpx.AsyncClient) -> None:
    assert (await client.get("/table/not%20valid!")).status_code == 422


async def test_the_leaderboard_is_a_page_for_browsers_and_json_for_clients(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/leaderboard", headers=BROWSER)
    assert page.headers["content-type"].startswith("text/html")
    data = await client.get("/leaderboard", headers={"Accept": "application/json"})
    assert data.json() == {"period": "week", "game": None, "items": []}
    assert (await client.get("/leaderboard")).json()["items"] == []
