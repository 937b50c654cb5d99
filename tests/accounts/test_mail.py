"""Mail rendering, the outbox used without SMTP, and retries."""

from __future__ import annotations

import logging
from dataclasses import replace
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from app.accounts import mail
from app.accounts.mail import Mailer, links_in
from app.config import Settings

KINDS = [mail.VERIFY, mail.WELCOME, mail.PASSWORD_RESET, mail.PASSWORD_CHANGED,
         mail.EMAIL_CHANGE_NEW, mail.EMAIL_CHANGE_OLD, mail.ACCOUNT_DELETED]
CONTEXT = {"display_name": "Ann <b>", "link": "http://testserver/auth/x?token=abc",
           "expires_in": "1 hour", "balance": 10_000, "changed_at": "today",
           "new_email": "new@example.com", "new_email_masked": "n**@example.com",
           "deleted_at": "today"}


def outbox_settings(tmp_path: Path) -> Settings:
    return Settings(outbox_dir=str(tmp_path / "outbox"), smtp_host="", mail_retry_seconds=0)


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.template)
def test_every_mail_has_a_text_and_an_escaped_html_part(
    tmp_path: Path, kind: mail.MailKind
) -> None:
    message = Mailer(outbox_settings(tmp_path)).render(kind, "ann@example.com", **CONTEXT)
    assert message["Subject"] == kind.subject
    text = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    assert text is not None and html is not None
    assert "Ann <b>" in text.get_content()
    assert "Ann &lt;b&gt;" in html.get_content()


async def test_without_smtp_mail_lands_in_the_outbox_and_the_link_is_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    mailer = Mailer(outbox_settings(tmp_path))
    with caplog.at_level(logging.INFO, logger="app.accounts.mail"):
        mailer.send(mail.VERIFY, "ann@example.com", **CONTEXT)
        await mailer.close()
    files = list((tmp_path / "outbox").glob("*.eml"))
    assert len(files) == 1
    message = message_from_bytes(files[0].read_bytes(), policy=policy.default)
    assert isinstance(message, EmailMessage)
    assert links_in(message)[0] == CONTEXT["link"]
    assert CONTEXT["link"] in caplog.text


async def test_a_failed_send_is_logged_and_retried(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    mailer = Mailer(outbox_settings(tmp_path))
    attempts: list[str] = []
    original = mailer.deliver

    async def flaky(message: EmailMessage) -> None:
        attempts.append(str(message["To"]))
        if len(attempts) < 3:
            raise ConnectionRefusedError("mail server down")
        await original(message)

    monkeypatch.setattr(mailer, "deliver", flaky)
    with caplog.at_level(logging.WARNING, logger="app.accounts.mail"):
        mailer.send(mail.WELCOME, "ann@example.com", **CONTEXT)
        await mailer.close()
    assert len(attempts) == 3
    assert caplog.text.count("retrying") == 2
    assert len(list((tmp_path / "outbox").glob("*.eml"))) == 1


async def test_a_mail_that_keeps_failing_is_given_up_with_an_error_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    port_nobody_listens_on = 9
    settings = replace(outbox_settings(tmp_path), smtp_host="127.0.0.1",
                       smtp_port=port_nobody_listens_on, smtp_security="none",
                       mail_max_attempts=2, smtp_timeout_seconds=2)
    mailer = Mailer(settings)
    with caplog.at_level(logging.WARNING, logger="app.accounts.mail"):
        mailer.send(mail.WELCOME, "ann@example.com", **CONTEXT)
        await mailer.close()
    assert "failed for good" in caplog.text
