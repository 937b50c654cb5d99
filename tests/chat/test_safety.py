"""What a process holds about chat safety: mutes, ignore lists and the word list, kept
current by news, and the chat lines waiting for the log."""

from __future__ import annotations

import pytest

from app.chat.safety import PENDING_KEPT, ChatSafety, Muted, SaidLine


def test_a_muted_player_is_refused_until_the_mute_ends_saying_until_when() -> None:
    safety = ChatSafety(ttl=60)
    safety.know(1, muted_until=1_000.0, ignored=(), now=0)
    with pytest.raises(Muted) as refused:
        safety.verify_can_chat(1, now=999.0)
    assert refused.value.code == "muted" and refused.value.details["until"] == 1_000.0
    assert "1970-01-01 00:16 UTC" in refused.value.message
    safety.verify_can_chat(1, now=1_000.0)  # over
    safety.verify_can_chat(2, now=0)  # nobody muted them


def test_news_of_a_mute_or_unmute_changes_a_known_player_at_once() -> None:
    safety = ChatSafety(ttl=60)
    safety.know(1, muted_until=None, ignored=(), now=0)
    safety.apply({"kind": "chat_mute", "user_id": 1, "until": 500.0})
    assert safety.muted_until(1, now=10) == 500.0
    safety.apply({"kind": "chat_mute", "user_id": 1, "until": None})
    assert safety.muted_until(1, now=10) is None
    # A player this process never read is read in full when needed, not half-known.
    safety.apply({"kind": "chat_mute", "user_id": 2, "until": 500.0})
    assert not safety.knows(2, now=10)


def test_a_record_goes_stale_after_its_ttl() -> None:
    safety = ChatSafety(ttl=60)
    safety.know(1, muted_until=None, ignored=(), now=100)
    assert safety.knows(1, now=159.9) and not safety.knows(1, now=160)


def test_ignorers_are_indexed_by_whom_they_ignore_and_follow_every_change() -> None:
    safety = ChatSafety(ttl=60)
    safety.know(1, muted_until=None, ignored=["rude"], now=0)
    safety.know(2, muted_until=None, ignored=["rude", "loud"], now=0)
    assert safety.ignorers_of("rude") == {1, 2} and safety.ignorers_of("loud") == {2}
    safety.apply({"kind": "chat_ignores", "user_id": 2, "ignored": ["loud"]})
    assert safety.ignorers_of("rude") == {1} and safety.ignores(2) == {"loud"}
    safety.forget(1)
    assert safety.ignorers_of("rude") == frozenset() and safety.ignores(1) == frozenset()


def test_news_of_a_new_word_list_replaces_the_filter() -> None:
    safety = ChatSafety(["darn"])
    assert safety.filter.mask("darn it") == "**** it"
    safety.apply({"kind": "chat_words", "words": ["heck"]})
    assert safety.filter.mask("darn heck") == "darn ****"
    safety.apply({"kind": "somebody_else's", "words": []})
    assert safety.filter.mask("heck") == "****"


def test_lines_wait_for_the_log_in_order_and_come_back_first_when_not_stored() -> None:
    safety = ChatSafety()
    lines = [SaidLine("t", 1, f"said {n}", f"said {n}", float(n)) for n in range(3)]
    for line in lines[:2]:
        safety.said(line)
    taken = safety.take_said()
    safety.said(lines[2])
    safety.put_back(taken)
    assert safety.take_said() == lines and safety.take_said() == []


def test_the_lines_waiting_are_bounded() -> None:
    safety = ChatSafety()
    for n in range(PENDING_KEPT + 5):
        safety.said(SaidLine("t", 1, "x", "x", float(n)))
    kept = safety.take_said()
    assert len(kept) == PENDING_KEPT and kept[0].at == 5.0
