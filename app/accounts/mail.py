"""E-mail: Jinja2 templates rendered to text + HTML, kept in a database outbox, sent in the
background.

A mail is written to ``mail_outbox`` in the transaction of the change that causes it
(:meth:`Mailer.queue` with the caller's session), so a rolled-back change sends
nothing and a committed one is never forgotten. Every server process runs a sender
that claims due mails (``FOR UPDATE SKIP LOCKED`` on PostgreSQL; a compare-and-set
on the claim either way, so two processes never send the same mail), sends them,
and marks them sent; a failed send is retried with backoff, then given up and
logged. A claim lasts ``MAIL_CLAIM_SECONDS``: the mails of a process that died while
sending go out from another one once it lapses.

The one window left: a process that dies after the mail server accepted a mail
and before marking it sent leaves it to be sent again. The message keeps its
``Message-ID``, so mail systems can tell the copy.

With ``SMTP_HOST`` set, messages go out through aiosmtplib (STARTTLS, SSL or
plain, with optional login). Without it (development only: production refuses to
start), each message is written as an ``.eml`` file to the outbox folder and the
file's path is logged, so a local server needs no mail server.

Once a mail is sent (or given up), its row keeps the SHA-256 of each link token in
place of the token (the hash ``account_tokens`` stores): whoever reads the table can
tell which link was mailed, but cannot use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import message_from_string, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import aiosmtplib
import anyio.to_thread
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from sqlalchemy import event, or_, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.accounts.tokens import hash_link_token
from app.config import Settings
from app.db.engine import Database
from app.db.models import MailStatus, OutboxMail, utcnow

log = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates" / "email"
CONCURRENT_SENDS = 4
POLL_SECONDS = 1.0
BATCH = 20


@dataclass(frozen=True)
class MailKind:
    """One kind of mail: its template name and subject line."""

    template: str
    subject: str


VERIFY = MailKind("verify", "Confirm your e-mail address")
WELCOME = MailKind("welcome", "Welcome to the tables")
PASSWORD_RESET = MailKind("password_reset", "Reset your password")
PASSWORD_CHANGED = MailKind("password_changed", "Your password was changed")
EMAIL_CHANGE_NEW = MailKind("email_change_new", "Confirm your new e-mail address")
EMAIL_CHANGE_OLD = MailKind("email_change_old", "Your e-mail address is being changed")
ACCOUNT_DELETED = MailKind("account_deleted", "Your account was deleted")
SIGNUP_EXISTING = MailKind("signup_existing", "Someone tried to sign up with your address")


class Mailer:
    """Renders mails into the outbox, and sends what is due from it."""

    def __init__(self, settings: Settings, database: Database, *,
                 templates_dir: Path = TEMPLATES_DIR) -> None:
        self.settings = settings
        self.database = database
        self.sender_id = f"mailer-{secrets.token_hex(6)}"
        self._env = Environment(
            loader=FileSystemLoader(templates_dir),
            autoescape=select_autoescape(enabled_extensions=("html",), default=False),
            undefined=StrictUndefined,
            keep_trailing_newline=True,
        )
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._slots = asyncio.Semaphore(CONCURRENT_SENDS)

    def render(self, kind: MailKind, to: str, **context: Any) -> EmailMessage:
        """Build the message for ``kind`` with a text and an HTML part."""
        context = {"public_url": self.settings.public_url.rstrip("/"), **context}
        message = EmailMessage()
        message["Subject"] = kind.subject
        message["From"] = self.settings.mail_from
        message["To"] = to
        message["Date"] = format_datetime(datetime.now(UTC))
        message["Message-ID"] = make_msgid(domain="holdem-server")
        message.set_content(self._env.get_template(f"{kind.template}.txt").render(context))
        html = self._env.get_template(f"{kind.template}.html").render(context)
        message.add_alternative(html, subtype="html")
        return message

    def queue(self, session: AsyncSession, kind: MailKind, to: str, **context: Any) -> None:
        """Render now and add the mail to the outbox in ``session``'s transaction: it is
        sent once (and only if) the caller commits."""
        message = self.render(kind, to, **context)
        now = utcnow()
        session.add(OutboxMail(kind=kind.template, recipient=to, message=message.as_string(),
                               status=MailStatus.PENDING, attempts=0, not_before=now,
                               created_at=now))
        event.listen(session.sync_session, "after_commit", self._committed, once=True)

    def _committed(self, _session: object) -> None:
        self._wake.set()

    # ---- the sender --------------------------------------------------------------------

    def start(self) -> None:
        """Start this process's sender."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="mail:sender")

    async def _run(self) -> None:
        while True:
            # asyncio.timeout, not wait_for: on Python 3.11, wait_for can turn a cancellation
            # that meets its own time-out into TimeoutError, which would keep this loop
            # running and leave close() waiting for it for ever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL_SECONDS):
                    await self._wake.wait()
            self._wake.clear()
            try:
                while await self.send_due():
                    pass
            except Exception:
                log.exception("sending the outbox failed; trying again")

    async def send_due(self) -> int:
        """Claim the mails that are due, send them; how many were claimed."""
        claimed = await self._claim()
        if claimed:
            await asyncio.gather(*(self._send(row_id, text) for row_id, text in claimed))
        return len(claimed)

    async def _claim(self) -> list[tuple[int, str]]:
        now = utcnow()
        free = or_(OutboxMail.claimed_until.is_(None), OutboxMail.claimed_until < now)
        async with self.database.begin() as connection:
            rows = (await connection.execute(
                select(OutboxMail.id, OutboxMail.message)
                .where(OutboxMail.status == MailStatus.PENDING, OutboxMail.not_before <= now,
                       free)
                .order_by(OutboxMail.id).limit(BATCH)
                .with_for_update(skip_locked=True))).all()
            claimed = []
            for row in rows:
                taken = await connection.execute(
                    update(OutboxMail).where(OutboxMail.id == row.id, free)
                    .values(claimed_by=self.sender_id,
                            claimed_until=now + timedelta(
                                seconds=self.settings.mail_claim_seconds),
                            attempts=OutboxMail.attempts + 1))
                if taken.rowcount:
                    claimed.append((row.id, row.message))
        return claimed

    async def _send(self, row_id: int, text: str) -> None:
        message = message_from_string(text, policy=policy.default)
        try:
            async with self._slots:
                await self.deliver(message)
        except Exception as error:  # any failure is retried, then logged
            await self._failed(row_id, message, error)
            return
        await self._settle(row_id, status=MailStatus.SENT, sent_at=utcnow(),
                           claimed_until=None, message=without_link_tokens(text))

    async def _failed(self, row_id: int, message: EmailMessage, error: Exception) -> None:
        async with self.database.connect() as connection:
            attempts = int(await connection.scalar(
                select(OutboxMail.attempts).where(OutboxMail.id == row_id)) or 0)
        if attempts >= max(1, self.settings.mail_max_attempts):
            log.error("mail %r to %s failed for good: %s",
                      message["Subject"], message["To"], error)
            await self._settle(row_id, status=MailStatus.FAILED, last_error=str(error)[:2000],
                               message=without_link_tokens(message.as_string()))
            return
        delay = self.settings.mail_retry_seconds * 2 ** (attempts - 1)
        log.warning("mail %r to %s failed (attempt %d), retrying in %ss: %s",
                    message["Subject"], message["To"], attempts, delay, error)
        await self._settle(row_id, claimed_until=None, last_error=str(error)[:2000],
                           not_before=utcnow() + timedelta(seconds=delay))
        self._wake.set()

    async def _settle(self, row_id: int, **values: Any) -> None:
        """Record what became of a claimed mail (only while this sender holds it)."""
        async with self.database.begin() as connection:
            await connection.execute(
                update(OutboxMail).where(OutboxMail.id == row_id,
                                         OutboxMail.claimed_by == self.sender_id)
                .values(**values))

    async def drain(self, timeout: float = 10.0) -> None:
        """Send every mail that is due now and every retry, for up to ``timeout`` seconds."""
        deadline = asyncio.get_running_loop().time() + timeout
        while asyncio.get_running_loop().time() < deadline:
            if not await self.send_due() and not await self._pending():
                return
            await asyncio.sleep(0.01)

    async def _pending(self) -> bool:
        async with self.database.connect() as connection:
            return bool(await connection.scalar(
                select(OutboxMail.id).where(OutboxMail.status == MailStatus.PENDING)
                .limit(1)))

    async def close(self, timeout: float = 10.0) -> None:
        """Stop the sender (mails still due stay in the outbox for the next start)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def deliver(self, message: EmailMessage) -> None:
        """Deliver one message now: to the SMTP server, or to the outbox folder."""
        if self.settings.sends_smtp:
            await self._send_smtp(message)
        else:
            await anyio.to_thread.run_sync(self._write_outbox, message)

    async def _send_smtp(self, message: EmailMessage) -> None:
        settings = self.settings
        client = aiosmtplib.SMTP(
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password or None,
            use_tls=settings.smtp_security == "ssl",
            start_tls=settings.smtp_security == "starttls",
            timeout=settings.smtp_timeout_seconds,
        )
        # Not `async with client`: leaving it says QUIT and waits up to the timeout for the
        # answer even when the send was cancelled (the server stopping) mid-conversation,
        # where a mail server busy with the message or waiting for its data never answers.
        try:
            await client.connect()
            await client.send_message(message)
            with contextlib.suppress(aiosmtplib.SMTPException):
                await client.quit()
        finally:
            client.close()

    def _write_outbox(self, message: EmailMessage) -> None:
        folder = self.settings.outbox_path
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        recipient = re.sub(r"[^A-Za-z0-9@._-]", "_", str(message["To"]))
        path = folder / f"{stamp}-{recipient}.eml"
        path.write_bytes(message.as_bytes())
        # The path, never the link: a log is read by more people than the mail's recipient.
        log.info("mail %r to %s written to %s", message["Subject"], message["To"], path)


LINK_PATTERN = re.compile(r"https?://[^\s\"'<>]+")


def links_in(message: EmailMessage) -> list[str]:
    """The links in the plain-text part of ``message``, in order."""
    part = message.get_body(preferencelist=("plain",))
    text = part.get_content() if part is not None else ""
    return LINK_PATTERN.findall(text)


LINK_TOKEN = re.compile(r"([?&]token=)([A-Za-z0-9_.~-]+)")


def _hash_tokens(text: str) -> str:
    return LINK_TOKEN.sub(lambda m: f"{m[1]}sha256-{hash_link_token(m[2])}", text)


def without_link_tokens(text: str) -> str:
    """The stored message ``text`` with each link token replaced by its hash.

    Each text part is decoded first, so a token split by a soft line break is still
    found.
    """
    message = message_from_string(text, policy=policy.default)
    assert isinstance(message, EmailMessage)
    for part in message.walk():
        if part.get_content_maintype() == "text" and not part.is_multipart():
            assert isinstance(part, EmailMessage)
            content = part.get_content()
            hashed = _hash_tokens(content)
            if hashed != content:
                part.set_content(hashed, subtype=part.get_content_subtype())
    return message.as_string()
