"""deploy/nginx.conf in front of a real server: the client's address the app sees is the one
the proxy saw, whatever ``X-Forwarded-For`` the client writes."""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from app.config import RateLimit, Settings
from tests.conftest import free_port
from tests.realtime.harness import live_server
from tests.test_serving import login_statuses

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").is_file() else None)
pytestmark = pytest.mark.skipif(NGINX is None, reason=(
    "nginx is not installed (apt-get install -y nginx-light): the proxy's configuration "
    "cannot be run"))


def proxy_config(folder: Path, *, listen: int, upstream: int) -> Path:
    """deploy/nginx.conf as Compose runs it, with loopback for the replicas' addresses and
    the temporary files in ``folder``."""
    text = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    local = {
        "server app-full:8000;": f"server 127.0.0.1:{upstream};",
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
def nginx(folder: Path, *, upstream: int) -> Iterator[str]:
    """nginx with the deployment's configuration, proxying to ``upstream``; its URL."""
    assert NGINX is not None
    port = free_port()
    config = proxy_config(folder, listen=port, upstream=upstream)
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
        with nginx(folder, upstream=server.port) as url:
            yield url


async def test_a_rotating_forwarded_for_through_the_proxy_does_not_bypass_the_login_limit(
    settings: Settings, tmp_path: Path
) -> None:
    async with behind_the_proxy(settings, tmp_path) as url:
        statuses = await login_statuses(url, 6)
    assert statuses == [401, 401, 401, 429, 429, 429]

