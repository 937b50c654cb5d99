"""docs/HOSTING.md, the host's one page, stays true: every command it gives exists, every
setting it names is one the server reads or Compose asks for, and the README sends a host
there first."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from app.cli import build_parser
from tests.test_docker import COMPOSE, started_by
from tests.test_env_example import settings_in_env_example

ROOT = Path(__file__).resolve().parents[1]
GUIDE = (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8")


def test_the_readme_sends_a_host_to_the_guide_before_anything_else():
    top = (ROOT / "README.md").read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert "(docs/HOSTING.md)" in top


def test_every_holdem_command_of_the_guide_exists():
    (commands,) = [action for action in build_parser()._actions
                   if isinstance(action, argparse._SubParsersAction)]
    named = set(re.findall(r"\bholdem ([a-z][a-z-]+)", GUIDE))
    assert named <= set(commands.choices), named - set(commands.choices)
    assert {"create-admin", "house", "backup", "audit", "outbox"} <= named


def test_every_setting_the_guide_names_is_read_by_the_server_or_compose():
    named = set(re.findall(r"\b([A-Z][A-Z0-9]*_[A-Z0-9_]+|[A-Z]{4,})(?==|`)", GUIDE))
    compose_variables = set(re.findall(r"\$\{([A-Z_]+)", COMPOSE.read_text(encoding="utf-8")))
    known = settings_in_env_example() | compose_variables
    assert {"PUBLIC_URL", "SECRET_KEY", "SMTP_HOST", "MAIL_FROM"} <= named
    assert named <= known, named - known


def test_the_guide_starts_the_app_behind_the_https_proxy():
    ups = [line.strip() for line in GUIDE.splitlines() if line.startswith("docker compose")
           and " up" in line]
    assert ups and all(set(started_by(re.sub(r"\s+#.*", "", up))) == {"app", "caddy"}
                       for up in ups)
