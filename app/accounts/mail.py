"""E-mail: Jinja2 templates rendered to text + HTML, sent in the background.

With ``SMTP_HOST`` set, messages go out through aiosmtplib (STARTTLS, SSL or
plain, with optional login). Without it, each message is written as an ``.eml``
file to the outbox folder and its link is logged, so a local server needs no
mail server. A failed send is logged and retried with backoff; the request that
caused the mail has long completed by then.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

import aiosmtplib
import anyio.to_thread
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.config import Settings

log = logging.getLogger(__name__)

TEMPLATES_DIR = Path(__file__).resolve().parents[2] / "templates" / "email"
CONCURRENT_SENDS = 4


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


class Mailer:
    """Renders mails and delivers them without blocking the caller."""

    def __init__(self, settings: Settings, *, templates_dir: Path = TEMPLATES_DIR) -> None:
        self.settings = settings
        self._env = Environment(
            loader=FileSystemLoader(templates_dir),
            autoescape=select_autoescape(enabled_extensions=("html",), default=False),
            undefined=StrictUndefined,
            keep_trailing_newline=True,
        )
        self._pending: set[asyncio.Task[None]] = set()
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

    def send(self, kind: MailKind, to: str, **context: Any) -> None:
        """Render now, deliver in the background (retrying on failure)."""
        message = self.render(kind, to, **context)
        task = asyncio.get_running_loop().create_task(self._deliver_with_retries(message))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def drain(self, timeout: float | None = None) -> None:
        """Wait until every queued mail is delivered or given up on."""
        if self._pending:
            await asyncio.wait(set(self._pending), timeout=timeout)

    async def close(self, timeout: float = 10.0) -> None:
        """Give pending mails ``timeout`` seconds, then cancel the rest."""
        await self.drain(timeout)
        for task in list(self._pending):
            task.cancel()
        if self._pending:
            await asyncio.wait(set(self._pending))

    async def _deliver_with_retries(self, message: EmailMessage) -> None:
        attempts = max(1, self.settings.mail_max_attempts)
        for attempt in range(1, attempts + 1):
            try:
                async with self._slots:
                    await self.deliver(message)
                return
            except Exception as error:  # any failure is retried, then logged
                if attempt == attempts:
                    log.error("mail %r to %s failed for good: %s",
                              message["Subject"], message["To"], error)
                    return
                delay = self.settings.mail_retry_seconds * 2 ** (attempt - 1)
                log.warning("mail %r to %s failed (attempt %d), retrying in %ss: %s",
                            message["Subject"], message["To"], attempt, delay, error)
                await asyncio.sleep(delay)

    async def deliver(self, message: EmailMessage) -> None:
        """Deliver one message now: to the SMTP server, or to the outbox folder."""
        if self.settings.sends_smtp:
            await self._send_smtp(message)
        else:
            await anyio.to_thread.run_sync(self._write_outbox, message)

    async def _send_smtp(self, message: EmailMessage) -> None:
        settings = self.settings
        await aiosmtplib.send(
            message,
            hostname=settings.smtp_host,
            port=settings.smtp_port,
            username=settings.smtp_username or None,
            password=settings.smtp_password or None,
            use_tls=settings.smtp_security == "ssl",
            start_tls=settings.smtp_security == "starttls",
            timeout=settings.smtp_timeout_seconds,
        )

    def _write_outbox(self, message: EmailMessage) -> None:
        folder = self.settings.outbox_path
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        recipient = re.sub(r"[^A-Za-z0-9@._-]", "_", str(message["To"]))
        path = folder / f"{stamp}-{recipient}.eml"
        path.write_bytes(message.as_bytes())
        links = links_in(message)
        log.info("mail %r to %s written to %s%s", message["Subject"], message["To"], path,
                 f"; link: {links[0]}" if links else "")


LINK_PATTERN = re.compile(r"https?://[^\s\"'<>]+")


def links_in(message: EmailMessage) -> list[str]:
    """The links in the plain-text part of ``message``, in order."""
    part = message.get_body(preferencelist=("plain",))
    text = part.get_content() if part is not None else ""
    return LINK_PATTERN.findall(text)
