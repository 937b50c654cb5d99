"""Route dependencies of chat safety: this process's :class:`ChatKeeper`."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.realtime.chat import ChatKeeper


def get_chat(request: Request) -> ChatKeeper:
    """This process's chat safety (changes are announced through it)."""
    keeper: ChatKeeper = request.app.state.realtime.chat
    return keeper


Chat = Annotated[ChatKeeper, Depends(get_chat)]
