"""The chat keeper reads a player's mute and ignore list once, not per chat line, and
reads again only once its copy is older than the TTL or news changed it."""

from __future__ import annotations

from datetime import timedelta

from fastapi import FastAPI
from sqlalchemy import insert

from app.db.chat import IgnoredPlayer
from app.db.models import utcnow
from app.realtime.chat import ChatKeeper
from tests.conftest import Accounts


async def test_a_record_is_read_once_and_again_after_its_ttl(
    app: FastAPI, accounts: Accounts
) -> None:
    keeper: ChatKeeper = app.state.realtime.chat
    me, rude = await accounts.signup(), await accounts.signup()
    until = utcnow() + timedelta(minutes=5)
    await accounts.set(me.id, muted_until=until)
    await accounts.execute(insert(IgnoredPlayer).values(user_id=me.id, ignored_id=rude.id,
                                                        created_at=utcnow()))
    await keeper.ready_all([me.id, me.id, rude.id])
    safety = keeper.safety
    assert safety.ignores(me.id) == {rude.public_id} and safety.ignores(rude.id) == set()
    assert safety.ignorers_of(rude.public_id) == {me.id}
    now = until.timestamp() - 60
    assert safety.muted_until(me.id, now) == until.timestamp()

    # A change in the database alone is not read while the copy is fresh ...
    await accounts.set(me.id, muted_until=None)
    await keeper.ready(me.id)
    assert safety.muted_until(me.id, now) == until.timestamp()
    # ... news changes it at once, and a stale copy is read again.
    await keeper.announce({"kind": "chat_mute", "user_id": me.id, "until": None})
    assert safety.muted_until(me.id, now) is None
    await accounts.set(me.id, muted_until=until)
    safety.know(me.id, muted_until=None, ignored=[], now=0)  # read long ago
    await keeper.ready(me.id)
    assert safety.muted_until(me.id, now) == until.timestamp()
