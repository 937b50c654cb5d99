"""The chat word filter masks listed words however they are disguised, and nothing else."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from app.chat.wordfilter import DEFAULT_WORDS, WordFilter


@pytest.mark.parametrize("text, masked", [
    ("SHIT happens", "**** happens"),
    ("sh1t happens", "**** happens"),
    ("shiiiiit happens", "******** happens"),
    ("sh!t happens", "**** happens"),
    ("you @sshole!", "you *******!"),
    ("what the fuuuck?!", "what the ******?!"),
], ids=["case", "leet-digit", "repeated-letters", "leet-symbol", "leet-at", "punctuation-kept"])
def test_a_listed_word_is_masked_however_it_is_disguised(text: str, masked: str) -> None:
    assert WordFilter().mask(text) == masked


@pytest.mark.parametrize("text", [
    "Scunthorpe united", "an assassin class", "hello!!", "nice hand, well played"
])
def test_words_that_merely_contain_a_listed_word_are_left_alone(text: str) -> None:
    assert WordFilter().mask(text) == text


def test_repeated_letters_only_add_to_a_listed_word_never_take_away() -> None:
    butt = WordFilter(["butt"])
    assert butt.mask("but I fold") == "but I fold"
    assert butt.mask("nice BUUTTT") == "nice ******"
    assert WordFilter().mask("I flew to Niger") == "I flew to Niger"


def test_a_custom_list_replaces_the_default_one() -> None:
    custom = WordFilter(["Darn", "  "])
    assert custom.mask("darn it, shit") == "**** it, shit"
    assert custom.words == frozenset({"darn"})


def test_the_first_migration_of_the_word_list_seeds_the_built_in_words() -> None:
    path = Path(__file__).parents[2] / "migrations" / "versions" / "0012_chat_safety.py"
    spec = importlib.util.spec_from_file_location("chat_safety_migration", path)
    assert spec is not None and spec.loader is not None
    migration = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(migration)
    assert migration.FIRST_WORDS == DEFAULT_WORDS
