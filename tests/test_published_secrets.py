"""Every value that an earlier version of the project published stays refused as a key.

The project's files are searched as they are now (:func:`app.secret_strength.published_in`);
what only the history still holds is kept as digests in :mod:`app.published_secrets`.
This test walks the whole history so that a value is recorded there before the file
holding it is changed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from app.published_secrets import PUBLISHED_DIGESTS
from app.secret_strength import PROJECT_ROOT, digest, key_runs, weak_secret_reason
from tests.conftest import random_secret


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          check=True).stdout


def _history_blobs() -> list[str]:
    listing = _git("rev-list", "--objects", "--all")
    objects = "\n".join(line.split(" ", 1)[0] for line in listing.splitlines())
    kinds = subprocess.run(["git", "cat-file", "--batch-check"], cwd=PROJECT_ROOT,
                           input=objects, capture_output=True, text=True, check=True).stdout
    return [line.split()[0] for line in kinds.splitlines() if line.split()[1] == "blob"]


def _blob_contents(blobs: list[str]) -> list[bytes]:
    out = subprocess.run(["git", "cat-file", "--batch"], cwd=PROJECT_ROOT,
                         input="\n".join(blobs).encode(), capture_output=True,
                         check=True).stdout
    contents, at = [], 0
    while at < len(out):
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        contents.append(out[header_end + 1:header_end + 1 + size])
        at = header_end + 1 + size + 1
    return contents


def history_only_runs() -> set[bytes]:
    """The key-like values any version in the history held that no tracked file holds now."""
    now = b"\n".join(path.read_bytes() for path in map(PROJECT_ROOT.joinpath,
                     _git("ls-files").splitlines()) if path.is_file())
    runs: set[bytes] = set()
    for content in _blob_contents(_history_blobs()):
        runs |= key_runs(content)
    return {run for run in runs if run not in now}


def _full_history() -> bool:
    try:
        return _git("rev-parse", "--is-shallow-repository").strip() == "false"
    except (OSError, subprocess.CalledProcessError):
        return False


@pytest.mark.skipif(not _full_history(), reason="needs a git checkout with its full history")
def test_every_value_only_the_history_holds_is_recorded_as_published() -> None:
    missing = sorted(digest(run) for run in history_only_runs()
                     if digest(run) not in PUBLISHED_DIGESTS)
    assert not missing, ("add these digests to app/published_secrets.py:\n"
                         + "\n".join(missing))


@pytest.mark.skipif(not _full_history(), reason="needs a git checkout with its full history")
def test_a_random_key_only_an_earlier_test_suite_held_is_refused() -> None:
    recorded = [run.decode() for run in history_only_runs()
                if digest(run) in PUBLISHED_DIGESTS]
    assert recorded
    for value in recorded:
        assert weak_secret_reason(value) == (
            "is published (in an earlier version of this project): anyone can sign "
            "tokens with it")


def test_a_key_whose_digest_is_recorded_is_refused_though_no_file_holds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = random_secret()
    assert weak_secret_reason(secret, tmp_path) is None
    monkeypatch.setattr("app.secret_strength.PUBLISHED_DIGESTS",
                        PUBLISHED_DIGESTS | {digest(secret)})
    weak_secret_reason.cache_clear()
    assert "earlier version" in str(weak_secret_reason(secret, tmp_path))
    weak_secret_reason.cache_clear()
