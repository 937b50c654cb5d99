"""Request and response bodies of the account API (separate from the ORM models)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from email_validator import EmailNotValidError, validate_email
from pydantic import AfterValidator, BaseModel, ConfigDict, Field

from app.db.models import LedgerReason, Role, UserStatus
from app.text import DisplayName, skeleton


def normalise_email(value: str) -> str:
    """The canonical, case-insensitive form of an address.

    ``Foo@Example.COM`` becomes ``foo@example.com``.
    """
    try:
        checked = validate_email(value.strip(), check_deliverability=False)
    except EmailNotValidError as error:
        raise ValueError(str(error)) from None
    return checked.normalized.lower()


def display_name_key(name: str) -> str:
    """The form display names are compared in, so ``Ann``, ``ANN`` and ``Аnn`` (Cyrillic А)
    collide: :func:`app.text.skeleton`."""
    return skeleton(name)


Email = Annotated[str, Field(max_length=320), AfterValidator(normalise_email)]
Password = Annotated[str, Field(min_length=1, max_length=256)]
LinkToken = Annotated[str, Field(min_length=1, max_length=128)]


def local_path(value: str) -> str:
    """A path of this site: starting with one ``/`` (``//host`` and ``/\\host`` are other
    sites to a browser), printable ASCII only."""
    if not value.startswith("/") or value[1:2] in ("/", "\\"):
        raise ValueError("must be a path on this site, starting with a single /")
    return value


# A page of this site to come back to (the table a friend was invited to).
NextPath = Annotated[str, Field(max_length=300, pattern=r"^[!-~]+$",
                                description="A page of this site to open once the address "
                                "is confirmed, such as /table/3f9a1c2b7d4e?invite=..."),
                     AfterValidator(local_path)]


class Strict(BaseModel):
    """Request bodies: unknown fields are refused and nothing is coerced (``"1"`` is not an
    int, ``true`` is not 1)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class UserCreate(Strict):
    """Sign-up; ``next``: where the confirmation link leads once the address is confirmed."""

    email: Email
    password: Password
    display_name: DisplayName
    next: NextPath | None = None


class UserUpdate(Strict):
    """Profile changes."""

    display_name: DisplayName


class LoginRequest(Strict):
    """E-mail and password."""

    email: Email
    password: Password


class EmailRequest(Strict):
    """An e-mail address to send a link to."""

    email: Email


class TokenRequest(Strict):
    """A token from an e-mailed link."""

    token: LinkToken


class PasswordReset(Strict):
    """A reset link's token and the new password."""

    token: LinkToken
    new_password: Password


class PasswordChange(Strict):
    """The current password and the new one."""

    current_password: Password
    new_password: Password


class EmailChange(Strict):
    """The current password and the new address."""

    current_password: Password
    new_email: Email


class AccountDelete(Strict):
    """The password, to confirm deletion."""

    password: Password


class UserPublic(BaseModel):
    """What other players see of an account."""

    public_id: str
    display_name: str | None
    avatar_url: str


class PlayerSettings(BaseModel):
    """How the tables look and play for you, kept on your account (every device and
    table reads them)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    four_color_deck: bool = Field(
        default=True, description="Diamonds blue and clubs green (false: the two-colour "
        "deck, diamonds red and clubs black)")
    sounds: bool = Field(default=True, description="Sounds at the table: your turn, time "
                         "running out")
    turn_alerts: bool = Field(default=False, description="A browser notification when it "
                              "is your turn while the tab is hidden")
    hud: bool = Field(default=False, description="Your stats about each opponent at their "
                      "seat")
    auto_muck: bool = Field(default=True, description="At the showdown, muck a hand that "
                            "has lost at once instead of being asked")
    auto_top_up: bool = Field(default=False, description="Before each hand, top your stack "
                              "up to the table's maximum buy-in from your credits")


class PlayerSettingsUpdate(PlayerSettings):
    """Any of :class:`PlayerSettings`' fields: only those given change (the defaults
    shown are those of a new account)."""


class UserPrivate(UserPublic):
    """What the owner of an account sees."""

    id: int
    email: str | None
    email_verified: bool
    role: Role
    status: UserStatus
    balance: int
    created_at: datetime
    daily_credits_available_at: datetime
    leaderboard_listed: bool
    settings: PlayerSettings


class SessionPublic(BaseModel):
    """A new session: the token for ``Authorization: Bearer`` and its CSRF companion."""

    access_token: str
    token_type: str = "bearer"
    expires_at: datetime
    csrf_token: str
    user: UserPrivate


class Message(BaseModel):
    """A human-readable acknowledgement."""

    message: str


class SignupAccepted(Message):
    """The answer to every well-formed sign-up, whether or not the address had an account."""

    email: str


class LedgerEntryPublic(BaseModel):
    """One change of a balance."""

    model_config = ConfigDict(from_attributes=True)

    id: int
    amount: int
    reason: LedgerReason
    reference: str | None
    balance_after: int
    created_at: datetime
    table_name: str | None = Field(
        default=None, description="For buy-ins and cash-outs: the name of the table (reference)")


class LedgerEntriesPublic(BaseModel):
    """A page of ledger entries, newest first, and how many there are in all."""

    items: list[LedgerEntryPublic]
    count: int
    page: int
    per_page: int


class DailyCreditsPublic(BaseModel):
    """The credits just granted and when the next grant is possible."""

    entry: LedgerEntryPublic
    balance: int
    next_available_at: datetime
