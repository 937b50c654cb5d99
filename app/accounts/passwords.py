"""Password hashing (argon2id through passlib) and the password policy.

Hashing runs on :data:`HASHING_THREADS` threads of its own at a lower CPU priority
(:func:`app.offload.lower_priority`). argon2 releases the GIL and spreads each hash over
its lanes' threads: on the event loop's default pool, a burst of sign-ups ran dozens of
hashes at once and took the cores the tables' loop needed; here at most two run, and
they take the CPU the tables leave.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import TypeVar

from passlib.context import CryptContext

from app.accounts.errors import WeakPassword
from app.config import Settings
from app.offload import lower_priority

HASHING_THREADS = 2
_hashers = ThreadPoolExecutor(HASHING_THREADS, thread_name_prefix="password-hashing",
                              initializer=lower_priority)
Answer = TypeVar("Answer")

MIN_LENGTH = 10
MAX_LENGTH = 128

# Well-known passwords long enough to pass the length rule; compared case-insensitively.
COMMON_PASSWORDS = frozenset(
    {
        "1234567890", "12345678910", "123456789a", "0987654321", "1111111111",
        "0123456789", "1q2w3e4r5t", "1qaz2wsx3edc", "1234qwer!@", "abcd123456",
        "qwertyuiop", "qwerty1234", "qwerty12345", "qwerty123456", "asdfghjkl1",
        "password12", "password123", "password1234", "passw0rd123", "p@ssw0rd12",
        "iloveyou12", "iloveyou123", "football12", "baseball12", "basketball",
        "superman12", "princess12", "sunshine12", "starwars12", "trustno1234",
        "letmein123", "welcome123", "welcome1234", "changeme123", "administrator",
        "admin12345", "admin123456", "q1w2e3r4t5", "zaq12wsxcv", "monkey1234",
        "dragon1234", "master1234", "michael123", "jennifer12", "charlie123",
        "pokerstars", "pokerface1", "texasholdem", "holdem1234", "fullhouse1",
        "royalflush", "aaaaaaaaaa", "abcdefghij", "abcdefghijk", "1234554321",
    }
)


def password_problems(password: str, *, email: str, display_name: str | None = None) -> list[str]:
    """Why ``password`` breaks the policy (empty when it is acceptable).

    >>> password_problems("short", email="a@example.com")
    ['at least 10 characters']
    """
    problems: list[str] = []
    if len(password) < MIN_LENGTH:
        problems.append(f"at least {MIN_LENGTH} characters")
    if len(password) > MAX_LENGTH:
        problems.append(f"at most {MAX_LENGTH} characters")
    folded = password.casefold()
    local_part = email.partition("@")[0].casefold()
    if folded in {email.casefold(), local_part} or email.casefold() in folded:
        problems.append("not your e-mail address")
    if display_name and folded == display_name.casefold():
        problems.append("not your display name")
    if folded in COMMON_PASSWORDS or len(set(folded)) <= 2:
        problems.append("not a common or easily guessed password")
    return problems


def check_password_policy(password: str, *, email: str, display_name: str | None = None) -> None:
    """Raise :class:`WeakPassword` listing every rule ``password`` breaks."""
    problems = password_problems(password, email=email, display_name=display_name)
    if problems:
        raise WeakPassword("password too weak: " + "; ".join(problems), reasons=problems)


@lru_cache(maxsize=8)
def _context(time_cost: int, memory_kib: int, parallelism: int) -> CryptContext:
    return CryptContext(
        schemes=["argon2"],
        argon2__type="ID",
        argon2__time_cost=time_cost,
        argon2__memory_cost=memory_kib,
        argon2__parallelism=parallelism,
    )


def _context_for(settings: Settings) -> CryptContext:
    return _context(settings.argon2_time_cost, settings.argon2_memory_kib,
                    settings.argon2_parallelism)


async def _hashing(function: Callable[..., Answer], *args: object) -> Answer:
    return await asyncio.wrap_future(_hashers.submit(function, *args))


async def hash_password(password: str, settings: Settings) -> str:
    """An argon2id hash of ``password`` (computed on the hashing threads)."""
    context = _context_for(settings)
    return await _hashing(context.hash, password)


async def verify_password(
    password: str, password_hash: str | None, settings: Settings
) -> tuple[bool, str | None]:
    """Whether ``password`` matches, and a new hash when the stored one uses old parameters.

    With no stored hash it still spends the time of one verification, so callers
    take as long for unknown accounts as for known ones.
    """
    context = _context_for(settings)
    if password_hash is None:
        await _hashing(context.hash, password)
        return False, None
    return await _hashing(context.verify_and_update, password, password_hash)
