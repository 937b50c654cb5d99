"""The chat word filter: listed words are masked with ``*`` before a line is stored or sent.

Matching ignores case and the simple disguises players use: leetspeak digits and symbols
(``sh1t``, ``@sshole``) and letters repeated to dodge an exact match (``shiiiit``). Only
whole words are compared, so ``Scunthorpe`` or ``assassin`` are never masked, and a
repeated letter only ever adds: a listed ``butt`` masks ``buttt`` but not ``but``.

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
RUN = re.compile(r"(.)\1*", re.DOTALL)

DEFAULT_WORDS: tuple[str, ...] = (
    "asshole", "bastard", "bitch", "bollocks", "cunt", "dickhead", "fag", "faggot",
    "fuck", "fucker", "fucking", "motherfucker", "nigger", "retard", "shit", "slut",
    "twat", "whore",
)


def runs(word: str) -> tuple[str, tuple[int, ...]]:
    """``word`` lower-cased and de-leeted as its letters with runs collapsed, and the
    length of each run.

    >>> runs("Sh1IIt")
    ('shit', (1, 1, 3, 1))
    """
    plain = word.lower().translate(LEET)
    groups = [(found.group(1), len(found.group(0))) for found in RUN.finditer(plain)]
    return "".join(letter for letter, _ in groups), tuple(n for _, n in groups)


class WordFilter:
    """Masks whole words that are a listed word with letters repeated (or none)."""

    def __init__(self, words: Iterable[str] = DEFAULT_WORDS) -> None:
        # Squeezed form -> the run lengths of each listed word with that form.
        self._listed: dict[str, list[tuple[int, ...]]] = {}
        for word in words:
            if word.strip():
                letters, counts = runs(word.strip())
                self._listed.setdefault(letters, []).append(counts)
        self.words = frozenset(self._listed)

    def masks(self, word: str) -> bool:
        """Whether ``word`` is a listed word, disguised or not.

        >>> WordFilter(["butt"]).masks("BUTTTT"), WordFilter(["butt"]).masks("but")
        (True, False)
        """
        letters, counts = runs(word)
        return any(all(seen >= least for seen, least in zip(counts, listed, strict=True))
                   for listed in self._listed.get(letters, ()))

    def mask(self, text: str) -> str:
        """``text`` with every listed word replaced by as many ``*`` as it has characters."""
        return WORD.sub(self._mask_word, text)

    def _mask_word(self, match: re.Match[str]) -> str:
        word = match.group(0)
        core = word.strip("!")  # a trailing "!" is punctuation, not a disguised "i"
        if core and self.masks(core):
            return word.replace(core, "*" * len(core), 1)
        return word
