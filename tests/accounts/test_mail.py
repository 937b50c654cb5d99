"""Mail rendering, the outbox used without SMTP, and retries."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import subprocess
import sys
import threading
from dataclasses import replace
from datetime import timedelta
from email import message_from_bytes, message_from_string, policy
from email.message import EmailMessage
from pathlib import Path

import httpx
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from fastapi import FastAPI
from sqlalchemy import select, update

from app.accounts import mail
from app.accounts.mail import Mailer, links_in
from app.accounts.tokens import hash_link_token
from app.config import Settings
from app.db.engine import Database
from app.db.models import MailStatus, OutboxMail, utcnow
from tests.conftest import PASSWORD, Mailbox, free_port, token_of
from tests.test_cli import ROOT

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


async def test_without_smtp_mail_lands_in_the_outbox_and_its_path_not_its_link_is_logged(
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
    assert str(files[0]) in caplog.text
    assert "token=" not in caplog.text
    (row,) = await _rows(database)
    assert row.status is MailStatus.SENT and row.attempts == 1 and row.sent_at is not None


async def test_a_sent_mail_keeps_the_hash_of_its_link_token_not_the_live_link(
    client: httpx.AsyncClient, mailbox: Mailbox, app: FastAPI,
) -> None:
    email = "keeper@example.com"
    signup = await client.post("/auth/signup", json={
        "email": email, "password": PASSWORD, "display_name": "Keeper"})
    assert signup.status_code == 202, signup.text
    token = token_of(await mailbox.wait_for(email, "confirm your"))
    await app.state.mailer.drain()  # until the sender has recorded it sent
    rows = await _rows(app.state.database)
    (row,) = [r for r in rows if r.recipient == email]
    assert row.status is MailStatus.SENT
    assert token not in row.message and "token=" in row.message
    assert f"token=sha256-{hash_link_token(token)}" in stored_text(row.message)
    # The delivered link still works: only the stored copy was changed.
    verified = await client.post("/auth/verify-email", json={"token": token})
    assert verified.status_code == 200, verified.text


async def test_a_given_up_mail_keeps_no_live_link_either(
    tmp_path: Path, database: Database
) -> None:
    port_nobody_listens_on = 9
    settings = replace(outbox_settings(tmp_path), smtp_host="127.0.0.1",
                       smtp_port=port_nobody_listens_on, smtp_security="none",
                       mail_max_attempts=1, smtp_timeout_seconds=2)
    mailer = Mailer(settings, database)
    await _queue(mailer, database, mail.PASSWORD_RESET, "ann@example.com")
    await mailer.drain()
    (row,) = await _rows(database)
    assert row.status is MailStatus.FAILED
    assert "token=abc" not in stored_text(row.message)
    assert f"token=sha256-{hash_link_token('abc')}" in stored_text(row.message)


def stored_text(text: str) -> str:
    """Every text part of a stored message, decoded (quoted-printable may fold a link)."""
    message = message_from_string(text, policy=policy.default)
    return "\n".join(part.get_content() for part in message.walk()
                     if part.get_content_maintype() == "text")


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


class StalledMailServer:
    """An SMTP handler that takes a message's data in and never answers it."""

    def __init__(self) -> None:
        self.receiving = threading.Event()

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.receiving.set()
        await asyncio.sleep(3600)  # until the controller stops and cancels it
        return "250 too late"


async def test_stopping_the_sender_does_not_wait_for_a_stalled_mail_server(
    tmp_path: Path, database: Database
) -> None:
    stalled = StalledMailServer()
    controller = Controller(stalled, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings = replace(outbox_settings(tmp_path), smtp_host="127.0.0.1",
                       smtp_port=controller.port, smtp_security="none",
                       smtp_timeout_seconds=3600)
    mailer = Mailer(settings, database)
    await _queue(mailer, database, mail.WELCOME, "ann@example.com")
    mailer.start()
    try:
        assert await asyncio.to_thread(stalled.receiving.wait, 10), "no mail reached the server"
        # A stopping server cancels the send mid-conversation: it must not then wait (up to
        # SMTP_TIMEOUT_SECONDS) for an answer to a goodbye the server will never give.
        closing = asyncio.create_task(mailer.close())
        done, _ = await asyncio.wait({closing}, timeout=10)
        assert closing in done, "stopping the sender waits for the mail server's answer"
    finally:
        controller.stop()  # ends the conversation: a sender still waiting for it stops too
        await mailer.close()
    (row,) = await _rows(database)
    assert row.status is MailStatus.PENDING and row.sent_at is None  # due at the next start


async def test_stopping_the_sender_just_as_it_wakes_stops_it(
    tmp_path: Path, database: Database
) -> None:
    # A commit wakes the sender in the same turn of the loop as the server stops it (the
    # last mail settled on the way out): the stop must not be lost, or closing waits for
    # the sender for ever.
    mailer = Mailer(outbox_settings(tmp_path), database)
    mailer.start()
    await asyncio.sleep(0.05)  # the sender waits to be woken
    mailer._wake.set()
    closing = asyncio.create_task(mailer.close())
    done, _ = await asyncio.wait({closing}, timeout=10)
    assert closing in done, "the sender went on after it was stopped"


def holdem_outbox(outbox: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "OUTBOX_DIR": str(outbox), "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "app.cli", "outbox", *args], cwd=outbox.parent,
                          env=env, capture_output=True, text=True, timeout=60, check=False)


async def test_holdem_outbox_prints_the_latest_mails_links_whole(
    tmp_path: Path, database: Database
) -> None:
    long_link = CONTEXT["link"] + "&" + "x" * 90  # longer than a quoted-printable line
    mailer = Mailer(outbox_settings(tmp_path), database)
    for to in ("ann@example.com", "bob@example.com"):
        async with database.sessions() as session:
            mailer.queue(session, mail.VERIFY, to, **{**CONTEXT, "link": long_link})
            await session.commit()
        await mailer.drain()
    outbox = tmp_path / "outbox"
    (first, _) = sorted(outbox.glob("*.eml"))
    assert long_link not in first.read_text(encoding="ascii")  # broken over lines as written
    latest = holdem_outbox(outbox)
    assert latest.returncode == 0, latest.stderr
    assert "bob@example.com" in latest.stdout and "ann@example.com" not in latest.stdout
    assert f"  {long_link}\n" in latest.stdout.splitlines(keepends=True)
    ann = holdem_outbox(outbox, "--json", "--last", "5", "--to", "ANN@example.com")
    (only,) = json.loads(ann.stdout)
    assert only["file"] == str(first) and only["links"] == [long_link]
    refused = holdem_outbox(outbox, "--last", "0")
    assert refused.returncode == 2 and "expected a whole number from 1" in refused.stderr
