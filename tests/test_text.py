"""The text policy: NFKC, no control or format characters, no blank text; look-alike names
share a skeleton."""

from __future__ import annotations

import re
import sys
import unicodedata
from typing import Annotated

import pytest
from pydantic import BaseModel, Field, ValidationError

from app.text import (
    DISPLAY_NAME_MAX,
    SKELETON_MAX,
    bounded,
    clean_text,
    normalise_display_name,
    skeleton,
)

WORD = re.compile(r"\w")


class Line(BaseModel):
    text: Annotated[str, Field(min_length=1, max_length=10), bounded(10)]


@pytest.mark.parametrize(
    "text",
    ["a\0b", "bell\a", "two\nlines", "cr\rhere", "tab\there", "\u202eevil", "zero\u200bwidth",
     "\ufeffbom", "esc\x1b[31m", "   ", "\u3000", "line\u2028sep"],
    ids=["nul", "bel", "newline", "cr", "tab", "rtl-override", "zero-width", "bom", "escape",
         "spaces", "ideographic-space", "line-separator"],
)
def test_control_format_and_blank_text_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        clean_text(text)


def test_text_is_nfkc_normalised_and_trimmed() -> None:
    assert clean_text("  ＡＬＩＣＥ ﬁ  ") == "ALICE fi"


def test_multiline_text_keeps_its_line_breaks_only() -> None:
    assert clean_text("one\ntwo", multiline=True) == "one\ntwo"
    with pytest.raises(ValueError):
        clean_text("one\r\ntwo", multiline=True)


def test_the_length_is_checked_after_normalising() -> None:
    assert Line(text=" ﬁ ").text == "fi"
    with pytest.raises(ValidationError):
        Line(text="ﷺ")  # one character, eighteen once normalised


@pytest.mark.parametrize("lookalike", ["Аlice", "ＡＬＩＣＥ", "alice", "ALICE", "Alicе", "AIice",
                                       "Αlice", "Alicé", "Alıce", "Alïce", "ɑlice", "Ꭺlice",
                                       "Aliᴄe", "ALlCE", "𝐀𝐥𝐢𝐜𝐞"])
def test_look_alike_names_share_a_skeleton(lookalike: str) -> None:
    assert skeleton(lookalike) == skeleton("Alice")


@pytest.mark.parametrize("other", ["Alicia", "Bob", "Malice", "Alice2", "Alicee"])
def test_different_names_keep_different_skeletons(other: str) -> None:
    assert skeleton(other) != skeleton("Alice")


def test_display_names_follow_the_text_policy_then_the_name_rule() -> None:
    assert normalise_display_name(" ＲｉｖｅｒＲａｔ ") == "RiverRat"
    for bad in ("Bob\u202e", "Bo\0b", "ab", "x" * 21, "bad<name>"):
        with pytest.raises(ValueError):
            normalise_display_name(bad)


def test_names_that_differ_only_by_look_alike_letters_of_one_script_collide_too() -> None:
    assert skeleton("Sam") == skeleton("Sarn")  # m and rn
    assert skeleton("B0b") == skeleton("Bob") and skeleton("Ne1l") == skeleton("Neil")


def test_every_display_name_skeleton_fits_the_stored_key() -> None:
    longest = 0
    for code in range(sys.maxunicode + 1):
        normal = unicodedata.normalize("NFKC", chr(code))
        if normal and all(WORD.fullmatch(c) for c in normal):
            longest = max(longest, -(-len(skeleton(chr(code))) // len(normal)))
    assert longest * DISPLAY_NAME_MAX <= SKELETON_MAX
