"""Avatars: validated by decoding, re-encoded to 256x256, served at a stable URL."""

from __future__ import annotations

import io

import httpx
import pytest
from PIL import Image

from tests.conftest import Accounts


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
