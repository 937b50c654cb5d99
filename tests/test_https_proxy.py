"""deploy/Caddyfile in front of a real production server: HTTPS with a certificate the
proxy made itself, mail links that start with the ``PUBLIC_URL`` it serves, a login whose
Secure cookie sticks, and the sockets through it on a port other than 443."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import aiohttp
import httpx
import pytest
import socketio

from app.accounts.tokens import SESSION_COOKIE
from app.config import Settings
from tests.conftest import Accounts, Mailbox, free_port, link_of, production, token_of
from tests.realtime.harness import live_server

ROOT = Path(__file__).resolve().parents[1]
CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(CADDY is None, reason=(
    "Caddy is not installed (apt-get install -y caddy): the HTTPS profile's proxy cannot "
    "be run"))


def caddy_config(folder: Path, *, upstream: str) -> Path:
    """deploy/Caddyfile as Compose runs it, with loopback for the app's address, and
    ports of this test's own for the redirects."""
    text = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    local = {
        "reverse_proxy app:8000": f"reverse_proxy {upstream}",
        # An address, not a name: the certificate comes from Caddy's own authority, which
        # is not to go into this machine's trust store.
        "\tadmin off\n": f"\tadmin off\n\tskip_install_trust\n\thttp_port {free_port()}\n",
    }
    for found, replaced in local.items():
        assert text.count(found) == 1, f"deploy/Caddyfile no longer has {found!r}"
        text = text.replace(found, replaced)
    config = folder / "Caddyfile"
    config.write_text(text, encoding="utf-8")
    return config


@contextlib.contextmanager
def caddy(folder: Path, *, public_url: str, upstream: str) -> Iterator[ssl.SSLContext]:
    """Caddy serving ``public_url`` in front of ``upstream``; a context trusting its
    certificate authority (and nothing else)."""
    assert CADDY is not None
    config = caddy_config(folder, upstream=upstream)
    env = {**os.environ, "PUBLIC_URL": public_url, "HOME": str(folder),
           "XDG_DATA_HOME": str(folder / "data"), "XDG_CONFIG_HOME": str(folder / "config")}
    process = subprocess.Popen([CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
    port = int(public_url.rsplit(":", 1)[1])
    try:
        # Up once a TLS handshake with the certificate it made succeeds (its authority's
        # root is written before the site's certificate is ready).
        for _ in range(1000):
            if root.is_file():
                trusted = ssl.create_default_context(cafile=str(root))
                with contextlib.suppress(OSError), \
                        socket.create_connection(("127.0.0.1", port), 0.5) as raw, \
                        trusted.wrap_socket(raw, server_hostname="127.0.0.1"):
                    break
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.02)
        else:
            raise AssertionError("caddy did not start")
        yield trusted
    finally:
        process.terminate()
        process.wait(timeout=20)


async def test_a_player_signs_up_logs_in_and_connects_over_https_through_the_proxy(
    settings: Settings, mailbox: Mailbox, tmp_path: Path
) -> None:
    public_url = f"https://127.0.0.1:{free_port()}"
    secured = production(settings, forwarded_allow_ips="127.0.0.1", public_url=public_url)
    async with live_server(secured) as server:
        upstream = f"127.0.0.1:{server.port}"
        with caddy(tmp_path, public_url=public_url, upstream=upstream) as trusted:
            async with httpx.AsyncClient(base_url=public_url, verify=trusted,
                                         timeout=30) as web:
                accounts = Accounts(web, mailbox, server.app)
                player = await accounts.signup()
                mailed = await mailbox.wait_for(player.email, "confirm your e-mail")
                assert link_of(mailed).startswith(f"{public_url}/")
                verified = await web.post("/auth/verify-email", json={"token": token_of(mailed)})
                assert verified.status_code == 200, verified.text
                login = await accounts.login(player)
                assert login.status_code == 200, login.text
                assert all("secure" in cookie.lower()
                           for cookie in login.headers.get_list("set-cookie"))
                # The Secure cookie goes back over HTTPS: the login sticks.
                me = await web.get("/users/me", headers={"Authorization": ""})
                assert me.status_code == 200 and me.json()["email"] == player.email
                session = web.cookies[SESSION_COOKIE]
                # Engine.IO's polling handshake, then a WebSocket with the session cookie.
                polling = await web.get("/socket.io/?EIO=4&transport=polling",
                                        headers={"Origin": public_url})
                assert polling.status_code == 200, polling.text
            http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(ssl=trusted))
            client = socketio.AsyncClient(reconnection=False, http_session=http)
            try:
                await client.connect(public_url, transports=["websocket"], wait_timeout=10,
                                     headers={"Origin": public_url,
                                              "Cookie": f"{SESSION_COOKIE}={session}"})
                mine = await client.call("lobby:mine", {}, timeout=10)
                assert mine["ok"] is True and mine["tables"] == []
            finally:
                await client.disconnect()
                await http.close()
