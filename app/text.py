"""One policy for every string a user types: names, table names, chat, reasons, searches.

Text is NFKC-normalised (full-width ``ＡＬＩＣＥ`` becomes ``ALICE``) and trimmed. Control
and format characters are refused (NUL, BEL, escape, zero-width and bidi overrides such as
U+202E), and so are line breaks outside multi-line text and text that is only blank. So a
NUL never reaches the database and nothing a user writes can reorder what others see.

Display names are also compared by :func:`skeleton`, which folds case and maps common
Cyrillic, Greek and digit look-alikes to Latin letters, so ``Аlice`` (Cyrillic А) and
``ＡＬＩＣＥ`` are the same name as ``Alice``.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from pydantic import AfterValidator, Field

# Unicode categories refused everywhere: controls, formats (bidi, zero-width), surrogates,
# private use, unassigned, and the line and paragraph separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
LINE_BREAK = "\n"

DISPLAY_NAME_RULE = (
    "3 to 20 letters, digits, single spaces, '.', '_' and '-', starting and ending with a "
    "letter or digit; NFKC-normalised, and refused when it looks like another player's name "
    "(case, full-width forms and Cyrillic or Greek look-alikes are folded)"
)
DISPLAY_NAME_PATTERN = re.compile(r"^\w[\w .\-]{1,18}\w$")

# Capitals that look like a Latin letter other than their own lower case (Greek Eta is H,
# its small form looks like n); applied before case folding.
CAPITAL_LOOKALIKES = str.maketrans({
    "Η": "H", "Μ": "M", "Ν": "N", "Ζ": "Z", "Υ": "Y", "Β": "B", "Κ": "K", "Ρ": "P",
    "Τ": "T", "Χ": "X", "Α": "A", "Ε": "E", "Ι": "l", "Ο": "O",
    "В": "B", "Н": "H", "М": "M", "Т": "T", "К": "K", "Р": "P", "С": "C", "Х": "X",
    "А": "A", "Е": "E", "О": "O", "Ѕ": "S", "І": "l", "Ј": "J", "Ү": "Y", "Ԍ": "G",
    "I": "l",
})
# Small letters (and digits) that look like a Latin small letter; applied after folding.
SMALL_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o",
    "п": "n", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "l",
    "ї": "l", "ј": "j", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ь": "b",
    "г": "r", "з": "3", "α": "a", "β": "b", "γ": "y", "ε": "e", "ι": "l", "κ": "k",
    "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "ς": "c", "τ": "t", "υ": "u", "χ": "x",
    "ω": "w", "μ": "u", "η": "n", "ζ": "z",
    "0": "o", "1": "l", "i": "l", "|": "l",
})


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
    """The form names are compared in: ``Аlice`` (Cyrillic А), ``ＡＬＩＣＥ`` and ``alice``
    share one.

    >>> skeleton("Аlice") == skeleton("ＡＬＩＣＥ") == skeleton("alice")
    True
    """
    text = unicodedata.normalize("NFKC", name).translate(CAPITAL_LOOKALIKES).casefold()
    text = unicodedata.normalize("NFKD", text.translate(SMALL_LOOKALIKES))
    return "".join(c for c in text if not unicodedata.combining(c))


def normalise_display_name(value: str) -> str:
    """A display name under the text policy and :data:`DISPLAY_NAME_RULE`."""
    name = clean_text(value)
    if not 3 <= len(name) <= 20:
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
