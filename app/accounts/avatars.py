"""Avatars: uploads validated by decoding, re-encoded to 256x256 WebP; generated defaults."""

from __future__ import annotations

import hashlib
import warnings
from functools import lru_cache
from io import BytesIO

from PIL import Image, ImageDraw, ImageOps, UnidentifiedImageError

from app.accounts.errors import AvatarInvalid, AvatarTooLarge, AvatarTooManyPixels

MAX_UPLOAD_BYTES = 1024 * 1024
# Bounds checked on the header, before any pixel is decoded: a 12-megapixel photo fits,
# a 1x25,000,000 strip (48 KB of PNG, 25 MB once decoded) does not.
MAX_SIDE = 6_000
MAX_PIXELS = 12_000_000
# Decoding is the costly part: at most this many uploads decode at once per process.
DECODES_AT_ONCE = 2
# Any image Pillow opens anywhere in the process is refused well before it is a bomb.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS
# Pillow warns between one and two times that limit; check_dimensions refuses those anyway.
warnings.filterwarnings("ignore", category=Image.DecompressionBombWarning)
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
            check_dimensions(*image.size)
            # JPEGs decode straight at a reduced scale: far less memory for the same result.
            image.draft("RGB", (SIZE * 2, SIZE * 2))
            image.load()
            upright = ImageOps.exif_transpose(image)
            has_alpha = upright.mode in ("RGBA", "LA", "PA") or "transparency" in upright.info
            converted = upright.convert("RGBA" if has_alpha else "RGB")
    except Image.DecompressionBombError:
        raise AvatarTooManyPixels("avatar has too many pixels", max_side=MAX_SIDE,
                                  max_pixels=MAX_PIXELS) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        raise AvatarInvalid("avatar must be a PNG, JPEG or WebP image") from None
    fitted = ImageOps.fit(converted, (SIZE, SIZE), method=Image.Resampling.LANCZOS)
    return _encode(fitted)


def check_dimensions(width: int, height: int) -> None:
    """Raise :class:`AvatarTooManyPixels` for a side over 6,000 or over 12 megapixels."""
    if max(width, height) > MAX_SIDE or width * height > MAX_PIXELS:
        raise AvatarTooManyPixels(
            f"avatar must be at most {MAX_SIDE} pixels a side and "
            f"{MAX_PIXELS // 1_000_000} megapixels, got {width}x{height}",
            max_side=MAX_SIDE, max_pixels=MAX_PIXELS,
        )


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
