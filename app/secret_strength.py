"""Whether a ``SECRET_KEY`` may sign production tokens: generated, long, and never published.

Two ways a key is known to others, both refused:

- **published**: it appears in a file of this project (the code, templates, docs,
  examples, tests, benchmarks: whatever of them is installed beside the package), it
  appeared in one in an earlier version (:mod:`app.published_secrets` keeps the SHA-256
  of every such value the project's history holds), or it is a value that tutorials
  publish. Anyone with a copy of the project, or of its history, could sign tokens
  with it.
- **guessable**: a pattern and dictionary attack (zxcvbn: words, names, common
  passwords, keyboard walks, sequences, repeats, dates, l33t, plus this project's own
  words) would find it in fewer than 2**128 guesses. zxcvbn counts a character it
  cannot explain as one of ten, so a random key needs about 40 characters to pass;
  ``secrets.token_urlsafe(32)`` scores over 135 bits, a hyphenated phrase of words
  and a digit run well under 100.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from zxcvbn import zxcvbn

from app.published_secrets import PUBLISHED_DIGESTS

# HS256 wants a key at least as long as its hash, 256 bits (RFC 7518, 3.2); the length of
# secrets.token_urlsafe(32).
MIN_SECRET_LENGTH = 43
MIN_SECRET_BITS = 128
# zxcvbn's work grows with the square of the length; a longer key is judged by its start,
# which is the weakest it can be.
ESTIMATED_PREFIX = 128
GENERATE_HINT = "python -c 'import secrets; print(secrets.token_urlsafe(48))'"

# Secrets published outside this project that people paste (the FastAPI tutorial's).
PUBLIC_SECRET_KEYS = frozenset({
    "09d25e094faa6ca2556c818166b7a9563b93f7099f6f0f4caa6cf63b88e8d3e7",
})
# Words a person naming a key for this project would use: cheap guesses for zxcvbn.
PROJECT_WORDS = (
    "holdem", "poker", "texas", "server", "secret", "key", "signing", "session", "token",
    "jwt", "hmac", "test", "tests", "dev", "development", "prod", "production", "staging",
    "local", "change", "changeme", "example", "placeholder", "insecure", "default",
    "crash", "cluster", "bench", "benchmark", "load", "gauntlet", "coercion", "docker",
    "compose", "admin", "password", "my", "your", "our", "app",
)

PROJECT_ROOT = Path(__file__).resolve().parents[1]
# What this project publishes, wherever a copy of it is installed (a checkout has all
# of them, the image some). The operator's own .env is not among them.
PUBLISHED_FOLDERS = ("app", "templates", "migrations", "docs", "deploy", "tests", "bench",
                     ".ci", "requirements")
PUBLISHED_FILES = (".env.example", "docker-compose.yml", "Dockerfile", "Makefile",
                   "README.md", "pyproject.toml", "alembic.ini", "package.json")
LARGEST_FILE_READ = 8 * 1024 * 1024
# A run of characters a key is written with, long enough to be accepted; the value of a
# ``NAME=value`` is a run of its own too.
_KEY_RUN = re.compile(rb"[A-Za-z0-9_\-+/=.~!@#$%^&*]{" + str(MIN_SECRET_LENGTH).encode() + rb",}")
_LETTER, _DIGIT = re.compile(rb"[A-Za-z]"), re.compile(rb"[0-9]")


def estimated_bits(secret: str) -> float:
    """log2 of the guesses a pattern and dictionary attack needs to find ``secret``.

    >>> estimated_bits("crash-test-secret-key-0123456789abcdef") < 80
    True
    """
    result = zxcvbn(secret[:ESTIMATED_PREFIX], user_inputs=PROJECT_WORDS,
                    max_length=ESTIMATED_PREFIX)
    return float(result["guesses_log10"]) * math.log2(10)


def key_runs(text: bytes) -> set[bytes]:
    """Every value in ``text`` that looks like a generated key: each run of key characters
    at least :data:`MIN_SECRET_LENGTH` long, and the part after each ``=`` in one, that
    holds a letter and a digit.

    A generated key of that length lacks a digit about once in 1,500 draws
    (``secrets.token_urlsafe``) and practically never in hex; a name written in words
    (a test's, a setting's) is left out, so renaming one does not make it a published key.

    >>> sorted(len(run) for run in key_runs(b"SECRET_KEY=" + b"k3" * 22 + b" short=1"))
    [44, 55]
    >>> key_runs(b"test_a_player_who_leaves_with_chips_and_sits_at_another_table")
    set()
    """
    runs: set[bytes] = set()
    for run in _KEY_RUN.findall(text):
        runs.add(run)
        runs.update(part for part in run.split(b"=") if len(part) >= MIN_SECRET_LENGTH)
    return {run for run in runs if _LETTER.search(run) and _DIGIT.search(run)}


def digest(secret: str | bytes) -> str:
    """The SHA-256 of ``secret`` in hex, as :data:`PUBLISHED_DIGESTS` holds it."""
    return hashlib.sha256(secret.encode() if isinstance(secret, str) else secret).hexdigest()


def _published_files(root: Path) -> Iterator[Path]:
    for name in PUBLISHED_FILES:
        if (root / name).is_file():
            yield root / name
    for folder in PUBLISHED_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path


def published_in(secret: str, root: Path = PROJECT_ROOT) -> Path | None:
    """The first file of the project at ``root`` that contains ``secret``, if any."""
    needle = secret.encode()
    for path in _published_files(root):
        try:
            if path.stat().st_size <= LARGEST_FILE_READ and needle in path.read_bytes():
                return path
        except OSError:
            continue
    return None


@lru_cache(maxsize=8)
def weak_secret_reason(secret: str, root: Path = PROJECT_ROOT) -> str | None:
    """Why ``secret`` must not sign production tokens, or ``None`` when it may.

    >>> weak_secret_reason("x" * 64)
    'is guessable (about 10 bits by a pattern and dictionary attack; 128 needed)'
    """
    if secret in PUBLIC_SECRET_KEYS:
        return "is published (a tutorial's): anyone can sign tokens with it"
    if digest(secret) in PUBLISHED_DIGESTS:
        return ("is published (in an earlier version of this project): anyone can sign "
                "tokens with it")
    found = published_in(secret, root)
    if found is not None:
        return (f"is published (in this project's {found.relative_to(root)}): anyone can "
                "sign tokens with it")
    if len(secret) < MIN_SECRET_LENGTH:
        return f"must be at least {MIN_SECRET_LENGTH} characters"
    bits = estimated_bits(secret)
    if bits < MIN_SECRET_BITS:
        return (f"is guessable (about {bits:.0f} bits by a pattern and dictionary attack; "
                f"{MIN_SECRET_BITS} needed)")
    return None
