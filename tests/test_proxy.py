"""deploy/nginx.conf in front of real servers: the client's address the app sees is the one
the proxy saw, whatever ``X-Forwarded-For`` the client writes; and requests are routed by
the table their query names (else by the client's address), so every player of a table
reaches the same replica; and a browser on any port reaches the sockets through it."""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import socket
import subprocess
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
import socketio

from app.config import RateLimit, Settings
from app.realtime.errors import InvalidQuery
from app.realtime.routing import routed_table
from tests.conftest import free_port
from tests.realtime.harness import live_server
from tests.test_serving import login_statuses

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None)
pytestmark = pytest.mark.skipif(NGINX is None, reason=(
    "nginx is not installed (apt-get install -y nginx-light): the proxy's configuration "
    "cannot be run"))


def proxy_config(folder: Path, *, listen: int, upstreams: list[int]) -> Path:
    """deploy/nginx.conf as Compose runs it, with loopback for the replicas' addresses and
    the temporary files in ``folder``."""
    text = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    local = {
        "server app-full:8000;": "\n        ".join(f"server 127.0.0.1:{port};"
                                                 for port in upstreams),
        "listen 80;": f"listen 127.0.0.1:{listen};",
        "worker_processes auto;": "worker_processes 1;",
        "http {": "http {\n" + "".join(f"    {kind}_temp_path {folder}/{kind};\n" for kind in (
            "client_body", "proxy", "fastcgi", "uwsgi", "scgi")) + "    access_log off;",
    }
    for found, replaced in local.items():
        assert text.count(found) == 1, f"deploy/nginx.conf no longer has {found!r}"
        text = text.replace(found, replaced)
    config = folder / "nginx.conf"
    config.write_text(text, encoding="utf-8")
    return config


@contextlib.contextmanager
def nginx(folder: Path, *, upstreams: list[int]) -> Iterator[str]:
    """nginx with the deployment's configuration, proxying to ``upstreams``; its URL."""
    assert NGINX is not None
    port = free_port()
    config = proxy_config(folder, listen=port, upstreams=upstreams)
    process = subprocess.Popen(
        [NGINX, "-p", str(folder), "-c", str(config),
         "-g", f"daemon off; pid {folder}/nginx.pid; error_log {folder}/error.log;"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(500):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.1):
                break
            assert process.poll() is None, process.communicate()[1]
            time.sleep(0.02)
        else:
            raise AssertionError("nginx did not start")
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=20)


@contextlib.asynccontextmanager
async def behind_the_proxy(settings: Settings, folder: Path) -> AsyncIterator[str]:
    """The app trusting the proxy's address (loopback here), and the proxy in front."""
    trusting = dataclasses.replace(settings, forwarded_allow_ips="127.0.0.1",
                                   rate_limit_login_ip=RateLimit(3, 300))
    async with live_server(trusting) as server:
        with nginx(folder, upstreams=[server.port]) as url:
            yield url


async def test_a_rotating_forwarded_for_through_the_proxy_does_not_bypass_the_login_limit(
    settings: Settings, tmp_path: Path
) -> None:
    async with behind_the_proxy(settings, tmp_path) as url:
        statuses = await login_statuses(url, 6)
    assert statuses == [401, 401, 401, 429, 429, 429]



class Named(BaseHTTPRequestHandler):
    """Answers every request with the name of its server."""

    def do_GET(self) -> None:
        body = self.server.name.encode()  # type: ignore[attr-defined]
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        pass


@contextlib.contextmanager
def named_upstreams(*names: str) -> Iterator[list[int]]:
    """Small HTTP servers on loopback, each answering its own name; their ports."""
    servers = []
    for name in names:
        server = ThreadingHTTPServer(("127.0.0.1", 0), Named)
        server.name = name  # type: ignore[attr-defined]
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    try:
        yield [server.server_address[1] for server in servers]
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()


def reached(url: str, query: str, *, source: str = "127.0.0.1") -> str:
    """The upstream a Socket.IO polling request with ``query``, sent from the loopback
    address ``source``, reached."""
    with httpx.Client(transport=httpx.HTTPTransport(local_address=source)) as http:
        answer = http.get(f"{url}/socket.io/?EIO=4&transport=polling{query}")
        assert answer.status_code == 200, answer.text
        return answer.text


def test_the_proxy_routes_by_table_then_by_address(tmp_path: Path) -> None:
    with named_upstreams("a", "b") as ports, nginx(tmp_path, upstreams=ports) as url:
        tables = [f"t{n:04x}" for n in range(24)]
        # Every request naming a table reaches that table's upstream, from any address.
        routes = {table: {reached(url, f"&table={table}", source=f"127.0.0.{1 + n % 3}")
                          for n in range(4)} for table in tables}
        assert all(len(upstreams) == 1 for upstreams in routes.values()), routes
        spread = Counter(next(iter(upstreams)) for upstreams in routes.values())
        assert set(spread) == {"a", "b"}, spread
        # Without a table, the client's address decides: one address, one upstream.
        addresses = [f"127.0.0.{n}" for n in range(1, 25)]
        by_address = {address: {reached(url, "", source=address) for _ in range(3)}
                      for address in addresses}
        assert all(len(upstreams) == 1 for upstreams in by_address.values()), by_address
        assert {next(iter(u)) for u in by_address.values()} == {"a", "b"}, by_address


async def test_a_browser_reaches_the_sockets_through_the_proxy_on_any_port(
    settings: Settings, tmp_path: Path
) -> None:
    # A browser sends its page's origin, port included; the app compares it with the Host
    # the proxy passes on, so the proxy must pass the port on too.
    async with behind_the_proxy(settings, tmp_path) as url:
        async with httpx.AsyncClient(timeout=10) as web:
            polling = await web.get(f"{url}/socket.io/?EIO=4&transport=polling",
                                    headers={"Origin": url})
        assert polling.status_code == 200, polling.text
        client = socketio.AsyncClient(reconnection=False)
        try:
            await client.connect(url, headers={"Origin": url}, transports=["websocket"],
                                 wait_timeout=10)
            assert client.transport() == "websocket"
        finally:
            await client.disconnect()


def _variants(table: str, other: str) -> list[str]:
    """Ways of naming ``table`` in a query that a proxy and an app could read apart:
    another case, a second argument, percent-encoding, empty or bare names."""
    encoded = "".join(f"%{ord(c):02X}" for c in table)
    return [f"table={table}", f"TABLE={other}&table={table}", f"table={table}&TABLE={other}",
            f"Table={table}", f"table={other}&table={table}", f"table={encoded}",
            f"table={table[:-1]}%{ord(table[-1]):02x}", f"t%61ble={table}",
            f"t%61ble={other}&table={table}", f"table=&table={table}", f"table&table={table}",
            f"x=1&table={table}&EIO=4", f"table={table}%00", "table="]


def test_the_proxy_and_the_app_read_the_same_table_or_the_app_refuses(tmp_path: Path) -> None:
    # For every query: the app refuses it at connect, or the proxy sends it where it
    # sends the table the app reads from it (so a client cannot reach one process while
    # naming another table to it).
    with named_upstreams("a", "b") as ports, nginx(tmp_path, upstreams=ports) as url:
        tables = [f"t{n:04x}" for n in range(12)]
        home = {table: reached(url, f"&table={table}") for table in tables}
        by_address = reached(url, "")
        others = [next(o for o in tables if home[o] != home[t]) for t in tables]
        for table, other in zip(tables, others, strict=True):
            for query in _variants(table, other):
                raw = f"EIO=4&transport=polling&{query}"
                try:
                    read = routed_table(raw)
                except InvalidQuery:
                    continue
                expected = home[read] if read is not None else by_address
                assert reached(url, f"&{query}") == expected, (query, read)
        # The refused family is the one the two readings tell apart.
        refused = [q for q in _variants("t0001", "t0002") if _refused(q)]
        assert len(refused) == len(_variants("t0001", "t0002")) - 2, refused


def _refused(query: str) -> bool:
    try:
        routed_table(query)
    except InvalidQuery:
        return True
    return False
