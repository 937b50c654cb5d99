""".env.example documents exactly the settings app/config.py reads, and the README headings
the set-up files cite exist (as do the README's own links to its sections)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
# The readers of the environment in app/config.py: each takes the variable's name first.
READERS = frozenset({"_env", "_env_int", "_env_float", "_env_bool", "_limit"})
# Files a newcomer reads while setting up, which point into the README by heading.
SET_UP_FILES = (".env.example", "docker-compose.yml", "Makefile", "Dockerfile")
CITATION = re.compile(r'README[:,]?\s+"([^"]+)"')


def settings_read_by_config() -> set[str]:
    """Every environment variable app/config.py reads, from its source."""
    tree = ast.parse((ROOT / "app" / "config.py").read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first = node.args[0]
        reader = node.func.id if isinstance(node.func, ast.Name) else ast.unparse(node.func)
        if (reader in READERS or reader in ("os.environ.get", "os.getenv")) \
                and isinstance(first, ast.Constant) and isinstance(first.value, str):
            names.add(first.value)
    return names


def settings_in_env_example() -> set[str]:
    """The variables .env.example sets (commented examples are not settings)."""
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Z][A-Z0-9_]*)=", text, flags=re.MULTILINE))


def readme_headings() -> list[str]:
    """The README's headings, as written (outside code blocks)."""
    text = re.sub(r"^```.*?^```$", "", README.read_text(encoding="utf-8"),
                  flags=re.DOTALL | re.MULTILINE)
    return re.findall(r"^#+ (.+?)\s*$", text, flags=re.MULTILINE)


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def test_env_example_documents_every_setting_config_reads_and_nothing_else():
    read = settings_read_by_config()
    documented = settings_in_env_example()
    assert len(read) > 60  # the parser above still finds the settings
    assert sorted(read - documented) == [], "read by app/config.py, missing in .env.example"
    assert sorted(documented - read) == [], "in .env.example, never read by app/config.py"


def test_every_readme_heading_the_set_up_files_cite_exists():
    headings = set(readme_headings())
    cited = {(name, title) for name in SET_UP_FILES
             for title in CITATION.findall((ROOT / name).read_text(encoding="utf-8"))}
    assert [(name, title) for name, title in sorted(cited) if title not in headings] == []


def test_every_link_of_the_readme_to_its_own_sections_lands_on_a_heading():
    anchors = {anchor(heading) for heading in readme_headings()}
    links = set(re.findall(r"\]\(#([^)]+)\)", README.read_text(encoding="utf-8")))
    assert links and sorted(links - anchors) == []


def test_env_example_says_where_rate_limits_count():
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    section = text.split("# --- Rate limits", 1)[1].split("# ---", 1)[0]
    assert "REDIS_URL" in section
    assert "each server process's memory" not in section.replace("\n# ", " ")
