"""The chat word filter: listed words are masked with ``*`` before a line is stored or sent.

Matching ignores case and the simple disguises players use: leetspeak digits and symbols
(``sh1t``, ``@sshole``) and letters repeated to dodge an exact match (``shiiiit``). Only
whole words are compared, so ``Scunthorpe`` or ``assassin`` are never masked.

>>> WordFilter(["darn"]).mask("D4RRRN it")
'****** it'
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Characters commonly substituted for letters, mapped to the letter they stand for.
LEET = str.maketrans({"0": "o", "1": "i", "!": "i", "3": "e", "4": "a", "@": "a",
                      "5": "s", "$": "s", "7": "t", "8": "b", "9": "g", "+": "t"})
WORD = re.compile(r"[\w@$!+]+")

DEFAULT_WORDS: tuple[str, ...] = (
    "asshole", "bastard", "bitch", "bollocks", "cunt", "dickhead", "fag", "faggot",
    "fuck", "fucker", "fucking", "motherfucker", "nigger", "retard", "shit", "slut",
    "twat", "whore",
)


def squeeze(word: str) -> str:
    """``word`` lower-cased, de-leeted and with runs of one letter collapsed to one.

    >>> squeeze("SH1IIIT")
    'shit'
    """
    plain = word.lower().translate(LEET)
    return re.sub(r"(.)\1+", r"\1", plain)


class WordFilter:
    """Masks whole words whose squeezed form is on the list."""

    def __init__(self, words: Iterable[str] = DEFAULT_WORDS) -> None:
        self.words = frozenset(squeeze(word) for word in words if word.strip())

    def mask(self, text: str) -> str:
        """``text`` with every listed word replaced by as many ``*`` as it has characters."""
        return WORD.sub(self._mask_word, text)

    def _mask_word(self, match: re.Match[str]) -> str:
        word = match.group(0)
        core = word.strip("!")  # a trailing "!" is punctuation, not a disguised "i"
        if core and squeeze(core) in self.words:
            return word.replace(core, "*" * len(core), 1)
        return word
