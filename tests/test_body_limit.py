"""Request bodies are refused over their route's limit (413) before they are read, against
a real server, whose memory stays bounded under 100 MB bodies."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

import httpx
import pytest

from app.body_limit import JSON_BODY_BYTES, SOCKET_BODY_BYTES
from app.config import RateLimit, Settings
from tests.conftest import PASSWORD, Mailbox
from tests.memory import peak_growth
from tests.realtime.harness import LiveServer, live_server

MB = 1_000_000
CHUNK = b"x" * 65_536
LOGIN = json.dumps({"email": "someone@example.com", "password": PASSWORD}).encode()


@dataclass
class Answer:
    """A raw HTTP response: status and JSON body."""

    status: int
    body: dict[str, object]

    @property
    def code(self) -> object:
        """The error code of an error body."""
        error = self.body.get("error")
        return error.get("code") if isinstance(error, dict) else None


async def send_body(writer: asyncio.StreamWriter, size: int, *, chunked: bool) -> None:
    """Write ``size`` bytes of body (as chunks when ``chunked``), until the server hangs up."""
    sent = 0
    with contextlib.suppress(ConnectionError):
        while sent < size:
            piece = CHUNK[: size - sent]
            writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            await writer.drain()
            sent += len(piece)
        if chunked:
            writer.write(b"0\r\n\r\n")
            await writer.drain()


async def post(
    server: LiveServer, path: str, size: int, *, chunked: bool = False, body: bytes = b"",
    content_type: str = "application/json", method: str = "POST",
) -> Answer:
    """Send ``size`` filler bytes (or exactly ``body``) over a raw connection; the answer."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    length = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size or len(body)}"
    writer.write(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {content_type}\r\n"
                 f"{length}\r\n\r\n".encode())
    sending = asyncio.create_task(
        send_body(writer, size, chunked=chunked) if size else _write(writer, body))
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 60)
        lines = head.decode().split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        payload = await reader.readexactly(int(headers["content-length"]))
        return Answer(int(lines[0].split()[1]), json.loads(payload))
    finally:
        sending.cancel()
        with contextlib.suppress(asyncio.CancelledError, ConnectionError):
            await sending
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()


async def _write(writer: asyncio.StreamWriter, body: bytes) -> None:
    writer.write(body)
    await writer.drain()


@pytest.fixture
async def server(settings: Settings, mailbox: Mailbox) -> AsyncIterator[LiveServer]:
    async with live_server(settings) as running:
        yield running


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
async def test_four_100_mb_logins_are_refused_and_the_server_stays_small(
    server: LiveServer, chunked: bool
) -> None:
    with peak_growth() as growth:
        answers = await asyncio.gather(
            *(post(server, "/auth/login", 100 * MB, chunked=chunked) for _ in range(4)))
    assert [answer.status for answer in answers] == [413] * 4
    assert {answer.code for answer in answers} == {"payload_too_large"}
    assert answers[0].body["error"]["max_bytes"] == JSON_BODY_BYTES  # type: ignore[index]
    # 400 MB was offered; the server holds at most a few 64 KiB buffers of it.
    assert growth.mib < 32, f"the server grew by {growth.mib:.0f} MiB"


async def test_a_large_body_is_refused_even_when_the_answer_would_be_429(
    settings: Settings, mailbox: Mailbox
) -> None:
    tight = replace(settings, rate_limit_login_ip=RateLimit(1, 300))
    async with live_server(tight) as server:
        assert (await post(server, "/auth/login", 0, body=LOGIN)).status == 401
        assert (await post(server, "/auth/login", 0, body=LOGIN)).status == 429
        with peak_growth() as growth:
            for chunked in (False, True):
                answer = await post(server, "/auth/login", 100 * MB, chunked=chunked)
                assert (answer.status, answer.code) == (413, "payload_too_large")
    assert growth.mib < 32, f"the server grew by {growth.mib:.0f} MiB"


async def test_a_json_body_just_over_the_limit_is_refused_and_one_under_it_is_read(
    server: LiveServer,
) -> None:
    over = await post(server, "/auth/login", JSON_BODY_BYTES + 1, chunked=True)
    assert (over.status, over.code) == (413, "payload_too_large")
    padded = LOGIN[:-1] + b"," + b'"pad": "' + b"x" * 60_000 + b'"}'
    assert len(padded) < JSON_BODY_BYTES
    under = await post(server, "/auth/login", 0, body=padded)
    assert under.status == 422  # read and validated: the extra field is refused


async def test_the_avatar_route_has_its_own_larger_limit(server: LiveServer) -> None:
    multipart = "multipart/form-data; boundary=b"
    form = (b'--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n'
            b"Content-Type: image/png\r\n\r\n" + b"x" * 900_000 + b"\r\n--b--\r\n")
    within = await post(server, "/users/me/avatar", 0, body=form, content_type=multipart,
                        method="PUT")
    assert within.status == 401, within  # past the body limit, stopped by the missing session
    beyond = await post(server, "/users/me/avatar", 2 * MB, content_type=multipart,
                        method="PUT")
    assert (beyond.status, beyond.code) == (413, "payload_too_large")


async def test_socket_io_bodies_are_bounded_too(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as web:
        opened = await web.get("/socket.io/", params={"EIO": "4", "transport": "polling"})
    sid = json.loads(opened.text[1:])["sid"]
    for chunked in (False, True):
        answer = await post(server, f"/socket.io/?EIO=4&transport=polling&sid={sid}",
                            SOCKET_BODY_BYTES + 1, chunked=chunked, content_type="text/plain")
        assert (answer.status, answer.code) == (413, "payload_too_large")
