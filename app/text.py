"""One policy for every string a user types: names, table names, chat, reasons, searches.

Text is NFKC-normalised (full-width ``ＡＬＩＣＥ`` becomes ``ALICE``) and trimmed. Control
and format characters are refused (NUL, BEL, escape, zero-width and bidi overrides such as
U+202E), and so are line breaks outside multi-line text and text that is only blank. So a
NUL never reaches the database and nothing a user writes can reorder what others see.

Display names are also compared by :func:`skeleton`: the confusable skeleton of Unicode
Technical Standard #39 (computed by ICU from the Unicode confusables data) with case folded
and marks stripped, so ``Аlice`` (Cyrillic А), ``Alıce``, ``Alïce``, ``ɑlice``, ``Ꭺlice``
(Cherokee), ``Aliᴄe`` and ``ＡＬＩＣＥ`` are the same name as ``Alice``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

import icu
from pydantic import AfterValidator, Field

# Unicode categories refused everywhere: controls, formats (bidi, zero-width), surrogates,
# private use, unassigned, and the line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
LINE_BREAK = "\n"

DISPLAY_NAME_RULE = (
    "3 to 20 letters, digits, single spaces, '.', '_' and '-', starting and ending with a "
    "letter or digit; NFKC-normalised, and refused as a look-alike of another player's name "
    "when both share a Unicode confusable skeleton (UTS #39, case and accents folded)"
)
DISPLAY_NAME_PATTERN = re.compile(r"^\w[\w .\-]{1,18}\w$")
DISPLAY_NAME_MAX = 20
# A character's skeleton is at most 7 characters (a Hangul syllable: its jamo, each mapped
# to its prototype), so a name's skeleton fits in this many.
SKELETON_MAX = 7 * DISPLAY_NAME_MAX

# ICU's spoof checker computes the UTS #39 skeleton from the Unicode confusables data.
_SPOOF_CHECKER = icu.SpoofChecker()
# Rounds of folding at most: each round can only reveal look-alikes that case folding
# uncovered (Cherokee Ꭺ becomes A, then a); two rounds settle every name seen so far.
_FOLD_ROUNDS = 4


def clean_text(value: str, *, multiline: bool = False) -> str:
    """``value`` NFKC-normalised and trimmed; :class:`ValueError` when the policy refuses it.

    >>> clean_text("  ＨＩ  ")
    'HI'
    """
    text = unicodedata.normalize("NFKC", value).strip()
    for character in text:
        if multiline and character == LINE_BREAK:
            continue
        if unicodedata.category(character) in REFUSED_CATEGORIES:
            raise ValueError(
                f"must not contain control or format characters (found U+{ord(character):04X})"
            )
    if not text:
        raise ValueError("must not be blank")
    return text


def bounded(max_length: int, *, min_length: int = 1, multiline: bool = False) -> AfterValidator:
    """A validator applying :func:`clean_text` and checking the length it leaves."""

    def check(value: str) -> str:
        text = clean_text(value, multiline=multiline)
        if not min_length <= len(text) <= max_length:
            raise ValueError(f"must be {min_length} to {max_length} characters")
        return text

    return AfterValidator(check)


def skeleton(name: str) -> str:
    """The form names are compared in: the UTS #39 confusable skeleton, with case folded
    and marks stripped, so ``Аlice`` (Cyrillic А), ``Alıce``, ``Ꭺlice``, ``ＡＬＩＣＥ`` and
    ``alice`` share one.

    Each round folds case, maps every character to its confusable prototype (small
    letters), does the same for the capitals of the result (so ``I`` and ``l`` meet ``i``:
    a name and its capitals are one name) and strips combining marks.

    >>> skeleton("Аlice") == skeleton("Alıce") == skeleton("ＡＬＩＣＥ") == skeleton("alice")
    True
    >>> skeleton("Sam") == skeleton("Sarn")  # m looks like rn
    True
    """
    text = unicodedata.normalize("NFKC", name)
    for _ in range(_FOLD_ROUNDS):
        small = _prototypes(text.casefold()).casefold()
        folded = _strip_marks(_prototypes(small.upper()).casefold())
        if folded == text:
            break
        text = folded
    return text


def _prototypes(text: str) -> str:
    """Every character replaced by its UTS #39 prototype (NFD, as the standard defines)."""
    skeleton: str = _SPOOF_CHECKER.getSkeleton(0, text)
    return skeleton


def _strip_marks(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def normalise_display_name(value: str) -> str:
    """A display name under the text policy and :data:`DISPLAY_NAME_RULE`."""
    name = clean_text(value)
    if not 3 <= len(name) <= DISPLAY_NAME_MAX:
        raise ValueError("display name must be 3 to 20 characters")
    if not DISPLAY_NAME_PATTERN.fullmatch(name) or "  " in name:
        raise ValueError(
            "display name may use letters, digits, single spaces, '.', '_' and '-', "
            "and must start and end with a letter or digit"
        )
    return name


# One line of text (a table name, a reason, a search) of at most N characters:
#   Annotated[str, Field(min_length=1, max_length=N), bounded(N)]
# (Field documents the limits; bounded applies the policy and checks them after NFKC.)
DisplayName = Annotated[
    str,
    Field(min_length=3, max_length=40, description=f"Display name: {DISPLAY_NAME_RULE}",
          examples=["River Rat"]),
    AfterValidator(normalise_display_name),
]
