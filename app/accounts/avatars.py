"""Avatars: uploads validated by decoding, re-encoded to 256x256 WebP; generated defaults."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageOps, UnidentifiedImageError

from app.accounts.errors import AvatarInvalid, AvatarTooLarge

MAX_UPLOAD_BYTES = 1024 * 1024
MAX_PIXELS = 25_000_000
SIZE = 256
CONTENT_TYPE = "image/webp"
ACCEPTED_FORMATS = frozenset({"PNG", "JPEG", "WEBP"})
GRID = 5


def _encode(image: Image.Image) -> bytes:
    out = BytesIO()
    image.save(out, format="WEBP", quality=85, method=4)
    return out.getvalue()


def normalise_avatar(data: bytes) -> bytes:
    """Check an upload is a PNG, JPEG or WebP image and return it as a 256x256 WebP.

    Raises :class:`AvatarTooLarge` over 1 MB and :class:`AvatarInvalid` for anything
    that does not decode as one of the accepted formats.
    """
    if len(data) > MAX_UPLOAD_BYTES:
        raise AvatarTooLarge("avatar must be at most 1 MB", max_bytes=MAX_UPLOAD_BYTES)
    try:
        with Image.open(BytesIO(data), formats=sorted(ACCEPTED_FORMATS)) as image:
            if image.width * image.height > MAX_PIXELS:
                raise AvatarInvalid("image has too many pixels")
            image.load()
            upright = ImageOps.exif_transpose(image)
            has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
            converted = upright.convert("RGBA" if has_alpha else "RGB")
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, ValueError,
            SyntaxError):
        raise AvatarInvalid("avatar must be a PNG, JPEG or WebP image") from None
    fitted = ImageOps.fit(converted, (SIZE, SIZE), method=Image.Resampling.LANCZOS)
    return _encode(fitted)


@lru_cache(maxsize=1024)
def default_avatar(seed: str) -> bytes:
    """A symmetric 5x5 identicon for ``seed`` (a public id), as a 256x256 WebP."""
    digest = hashlib.sha256(seed.encode()).digest()
    hue = digest[0] / 255 * 360
    colour = _hsl_to_rgb(hue, 0.55, 0.45)
    image = Image.new("RGB", (SIZE, SIZE), (240, 240, 236))
    draw = ImageDraw.Draw(image)
    cell = 40
    margin = (SIZE - cell * GRID) // 2
    bits = int.from_bytes(digest[1:5], "big")
    for row in range(GRID):
        for column in range((GRID + 1) // 2):
            if bits >> (row * 3 + column) & 1:
                for x in {column, GRID - 1 - column}:
                    left, top = margin + x * cell, margin + row * cell
                    draw.rectangle((left, top, left + cell - 1, top + cell - 1), fill=colour)
    return _encode(image)


def _hsl_to_rgb(hue: float, saturation: float, lightness: float) -> tuple[int, int, int]:
    chroma = (1 - abs(2 * lightness - 1)) * saturation
    second = chroma * (1 - abs((hue / 60) % 2 - 1))
    sector = int(hue // 60) % 6
    red, green, blue = [
        (chroma, second, 0.0), (second, chroma, 0.0), (0.0, chroma, second),
        (0.0, second, chroma), (second, 0.0, chroma), (chroma, 0.0, second),
    ][sector]
    offset = lightness - chroma / 2
    return (round((red + offset) * 255), round((green + offset) * 255),
            round((blue + offset) * 255))
