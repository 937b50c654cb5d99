"""The chat log's writer stores the waiting lines in one go, keeps them when the database
is away, and prunes only lines past their days."""

from __future__ import annotations

import time
from pathlib import Path

from sqlalchemy import select

from app.chat.log import ChatLog
from app.chat.safety import ChatSafety, SaidLine
from app.db.chat import ChatLine
from app.db.engine import Database
from tests.conftest import Accounts


async def test_waiting_lines_are_stored_as_said_and_as_shown(accounts: Accounts) -> None:
    player = await accounts.signup()
    safety = ChatSafety()
    now = time.time()
    for n, (said, shown) in enumerate([("what a sh1t river", "what a **** river"),
                                       ("nh", "nh")]):
        safety.said(SaidLine("t1", player.id, said, shown, now + n))
    await ChatLog(safety, accounts.database, days=30).flush()
    async with accounts.database.sessions() as session:
        rows = (await session.scalars(select(ChatLine).order_by(ChatLine.id))).all()
    assert [(r.table_id, r.user_id, r.said, r.shown) for r in rows] == [
        ("t1", player.id, "what a sh1t river", "what a **** river"),
        ("t1", player.id, "nh", "nh")]
    assert abs(rows[0].created_at.timestamp() - now) < 0.001
    assert safety.take_said() == []


async def test_lines_the_database_cannot_take_wait_for_the_next_flush(tmp_path: Path) -> None:
    safety = ChatSafety()
    line = SaidLine("t1", 1, "hello", "hello", 0.0)
    safety.said(line)
    away = Database(f"sqlite+aiosqlite:///{tmp_path}/missing/dir/chat.sqlite3")
    try:
        await ChatLog(safety, away, days=30).flush()
    finally:
        await away.dispose()
    assert safety.take_said() == [line]
