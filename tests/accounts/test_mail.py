"""Mail rendering, the outbox used without SMTP, and retries."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlalchemy import select, update

from app.accounts import mail
from app.accounts.mail import Mailer, links_in
from app.config import Settings
from app.db.engine import Database
from app.db.models import MailStatus, OutboxMail, utcnow

KINDS = [mail.VERIFY, mail.WELCOME, mail.PASSWORD_RESET, mail.PASSWORD_CHANGED,
         mail.EMAIL_CHANGE_NEW, mail.EMAIL_CHANGE_OLD, mail.ACCOUNT_DELETED]
CONTEXT = {"display_name": "Ann <b>", "link": "http://testserver/auth/x?token=abc",
           "expires_in": "1 hour", "balance": 10_000, "changed_at": "today",
           "new_email": "new@example.com", "new_email_masked": "n**@example.com",
           "deleted_at": "today"}


def outbox_settings(tmp_path: Path) -> Settings:
    return Settings(outbox_dir=str(tmp_path / "outbox"), smtp_host="", mail_retry_seconds=0)


async def _queue(mailer: Mailer, database: Database, kind: mail.MailKind, to: str) -> None:
    async with database.sessions() as session:
        mailer.queue(session, kind, to, **CONTEXT)
        await session.commit()


async def _rows(database: Database) -> list[OutboxMail]:
    async with database.sessions() as session:
        return list(await session.scalars(select(OutboxMail).order_by(OutboxMail.id)))


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.template)
def test_every_mail_has_a_text_and_an_escaped_html_part(
    tmp_path: Path, kind: mail.MailKind
) -> None:
    renderer = Mailer(outbox_settings(tmp_path), Database("sqlite+aiosqlite://"))
    message = renderer.render(kind, "ann@example.com", **CONTEXT)
    assert message["Subject"] == kind.subject
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    assert "Ann <b>" in text.get_content()
    assert "Ann &lt;b&gt;" in html.get_content()


async def test_without_smtp_mail_lands_in_the_outbox_and_the_link_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, database: Database
) -> None:
    mailer = Mailer(outbox_settings(tmp_path), database)
    with caplog.at_level(logging.INFO, logger="app.accounts.mail"):
        await _queue(mailer, database, mail.VERIFY, "ann@example.com")
        await mailer.drain()
    files = list((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 1
    message = message_from_bytes(files[0].read_bytes(), policy=policy.default)
    assert isinstance(message, EmailMessage)
    assert links_in(message)[0] == CONTEXT["link"]
    assert CONTEXT["link"] in caplog.text
    (row,) = await _rows(database)
    assert row.status is MailStatus.SENT and row.attempts == 1 and row.sent_at is not None


async def test_a_rolled_back_change_sends_nothing(tmp_path: Path, database: Database) -> None:
    mailer = Mailer(outbox_settings(tmp_path), database)
    async with database.sessions() as session:
        mailer.queue(session, mail.WELCOME, "ann@example.com", **CONTEXT)
        await session.rollback()
    await mailer.drain()
    assert await _rows(database) == []
    assert not (tmp_path / "outbox").exists()


async def test_a_failed_send_is_logged_and_retried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
    database: Database,
) -> None:
    mailer = Mailer(outbox_settings(tmp_path), database)
    attempts: list[str] = []
    original = mailer.deliver

    async def flaky(message: EmailMessage) -> None:
        attempts.append(str(message["To"]))
        if len(attempts) < 3:
            raise ConnectionRefusedError("mail server down")
        await original(message)

    monkeypatch.setattr(mailer, "deliver", flaky)
    with caplog.at_level(logging.WARNING, logger="app.accounts.mail"):
        await _queue(mailer, database, mail.WELCOME, "ann@example.com")
        await mailer.drain()
    assert len(attempts) == 3
    assert caplog.text.count("retrying") == 2
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1
    (row,) = await _rows(database)
    assert row.status is MailStatus.SENT and row.attempts == 3


async def test_a_mail_that_keeps_failing_is_given_up_with_an_error_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, database: Database
) -> None:
    port_nobody_listens_on = 9
    settings = replace(outbox_settings(tmp_path), smtp_host="127.0.0.1",
                       smtp_port=port_nobody_listens_on, smtp_security="none",
                       mail_max_attempts=2, smtp_timeout_seconds=2)
    mailer = Mailer(settings, database)
    with caplog.at_level(logging.WARNING, logger="app.accounts.mail"):
        await _queue(mailer, database, mail.WELCOME, "ann@example.com")
        await mailer.drain()
    assert "failed for good" in caplog.text
    (row,) = await _rows(database)
    assert row.status is MailStatus.FAILED and row.attempts == 2 and row.last_error


async def test_two_senders_racing_send_each_mail_once(
    tmp_path: Path, database: Database
) -> None:
    first, second = (Mailer(outbox_settings(tmp_path), database) for _ in range(2))
    for n in range(30):
        await _queue(first, database, mail.WELCOME, f"player{n}@example.com")
    await asyncio.gather(first.drain(), second.drain())
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 30
    rows = await _rows(database)
    assert {r.status for r in rows} == {MailStatus.SENT} and {r.attempts for r in rows} == {1}


async def test_a_claim_left_by_a_dead_sender_lapses_and_the_mail_goes_out_once(
    tmp_path: Path, database: Database
) -> None:
    mailer = Mailer(outbox_settings(tmp_path), database)
    await _queue(mailer, database, mail.WELCOME, "ann@example.com")
    async with database.sessions() as session:
        await session.execute(update(OutboxMail).values(
            claimed_by="mailer-dead", claimed_until=utcnow() + timedelta(seconds=60),
            attempts=1))
        await session.commit()
    assert await mailer.send_due() == 0  # still claimed by the sender that died
    async with database.sessions() as session:
        await session.execute(update(OutboxMail).values(
            claimed_until=utcnow() - timedelta(seconds=1)))
        await session.commit()
    await mailer.drain()
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1
    (row,) = await _rows(database)
    assert row.status is MailStatus.SENT and row.claimed_by == mailer.sender_id
