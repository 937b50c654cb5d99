"""Avatars: validated by decoding, re-encoded to 256x256, served at a stable URL."""

from __future__ import annotations

import asyncio
import io
import struct
import zlib

import httpx
import pytest
from PIL import Image

from app.accounts.avatars import MAX_PIXELS, MAX_SIDE, MAX_UPLOAD_BYTES
from app.config import Settings
from tests.conftest import Accounts, Mailbox
from tests.memory import peak_growth
from tests.realtime.harness import live_server


def image_bytes(kind: str, size: tuple[int, int] = (640, 480)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, format=kind)
    return out.getvalue()


def decoded(content: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(content))
    image.load()
    return image


async def test_a_player_without_an_avatar_gets_a_generated_one(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    url = (await client.get("/users/me", headers=player.headers)).json()["avatar_url"]
    response = await client.get(url)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/webp"
    assert decoded(response.content).size == (256, 256)
    assert (await client.get(url)).content == response.content


@pytest.mark.parametrize("kind", ["PNG", "JPEG", "WEBP"])
async def test_an_uploaded_image_is_resized_and_served_at_the_same_url(
    client: httpx.AsyncClient, accounts: Accounts, kind: str
) -> None:
    player = await accounts.player()
    url = (await client.get("/users/me", headers=player.headers)).json()["avatar_url"]
    before = (await client.get(url)).content
    response = await client.put("/users/me/avatar", headers=player.headers,
                                files={"file": (f"me.{kind.lower()}", image_bytes(kind))})
    assert response.status_code == 200, response.text
    assert response.json()["avatar_url"] == url
    served = await client.get(url)
    assert served.content != before
    image = decoded(served.content)
    assert image.size == (256, 256) and image.format == "WEBP"
    assert image.convert("RGB").getpixel((128, 128))[0] > 150


async def test_the_avatar_supports_conditional_requests(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    url = f"/users/{player.public_id}/avatar"
    etag = (await client.get(url)).headers["etag"]
    assert (await client.get(url, headers={"If-None-Match": etag})).status_code == 304


@pytest.mark.parametrize(
    "upload",
    [b"definitely not an image", image_bytes("GIF"), image_bytes("BMP"), image_bytes("PNG")[:60]],
    ids=["text", "gif", "bmp", "truncated-png"],
)
async def test_anything_but_a_png_jpeg_or_webp_is_refused(
    client: httpx.AsyncClient, accounts: Accounts, upload: bytes
) -> None:
    player = await accounts.player()
    response = await client.put("/users/me/avatar", headers=player.headers,
                                files={"file": ("avatar.png", upload, "image/png")})
    assert response.status_code == 422
    assert response.json()["error"]["code"] == "avatar_invalid"


async def test_an_upload_over_one_megabyte_is_refused(
    client: httpx.AsyncClient, accounts: Accounts
) -> None:
    player = await accounts.player()
    big = image_bytes("PNG", (10, 10)) + b"\0" * (1024 * 1024)
    response = await client.put("/users/me/avatar", headers=player.headers,
                                files={"file": ("big.png", big, "image/png")})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "avatar_too_large"


async def test_an_unknown_user_has_no_avatar(client: httpx.AsyncClient) -> None:
    assert (await client.get("/users/0123456789abcdef/avatar")).status_code == 404


async def test_uploading_needs_a_session(client: httpx.AsyncClient) -> None:
    response = await client.put("/users/me/avatar",
                                files={"file": ("a.png", image_bytes("PNG"), "image/png")})
    assert response.status_code == 401


def strip_png(width: int, height: int) -> bytes:
    """A valid greyscale PNG of ``width`` x ``height`` black pixels, zlib-compressed to
    almost nothing (a 1x25,000,000 one is about 50 KB)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))

    row = b"\0" * (1 + width)  # filter byte, then one byte per pixel
    packer = zlib.compressobj(9)
    rows_per_step = max(1, 1_000_000 // len(row))
    parts = []
    for start in range(0, height, rows_per_step):
        parts.append(packer.compress(row * min(rows_per_step, height - start)))
    parts.append(packer.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(parts))
            + chunk(b"IEND", b""))


@pytest.mark.parametrize("size", [(1, 25_000_000), (25_000_000, 1), (4_000, 4_000)],
                         ids=["tall-strip", "wide-strip", "16-megapixels"])
async def test_an_image_too_large_in_pixels_is_refused_from_its_header(
    client: httpx.AsyncClient, accounts: Accounts, size: tuple[int, int]
) -> None:
    player = await accounts.player()
    upload = strip_png(*size)
    assert len(upload) < MAX_UPLOAD_BYTES
    response = await client.put("/users/me/avatar", headers=player.headers,
                                files={"file": ("strip.png", upload, "image/png")})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "avatar_too_many_pixels"
    assert error["max_side"] == MAX_SIDE and error["max_pixels"] == MAX_PIXELS


async def test_concurrent_pixel_bombs_leave_the_server_memory_bounded(
    settings: Settings, mailbox: Mailbox
) -> None:
    bomb = strip_png(1, 25_000_000)  # 25 MB once decoded, 100 MB as RGB(A)
    async with (live_server(settings) as server,
                httpx.AsyncClient(base_url=server.url, timeout=30) as web):
        accounts = Accounts(web, mailbox, server.app)
        player = await accounts.player()

        async def upload() -> httpx.Response:
            return await web.put("/users/me/avatar", headers=player.headers,
                                 files={"file": ("bomb.png", bomb, "image/png")})

        with peak_growth() as growth:
            answers = await asyncio.gather(*(upload() for _ in range(6)))
    assert [answer.status_code for answer in answers] == [422] * 6
    # Six uploads of a 50 KB file: what the server holds is the uploads, never the pixels.
    assert growth.mib < 40, f"the server grew by {growth.mib:.0f} MiB"


@pytest.mark.parametrize("public_id", ["abc%00def", "ABCDEF", "x" * 33])
async def test_a_malformed_public_id_is_refused_before_the_database(
    client: httpx.AsyncClient, public_id: str
) -> None:
    response = await client.get(f"/users/{public_id}/avatar")
    assert response.status_code == 422, response.text
