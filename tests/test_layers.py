"""The packages of app/ stack in one direction: poker at the bottom, storage and accounts
over it, one table's runtime over those, the socket edge and the hosting of tables over
the table, the features built on tables over that, and the application composing them at
the top. No module imports one above it, and no two modules import each other, even
through others.

Code above a table uses it only through the face ``app/table`` offers it (the modules of
:data:`TABLE_FACE`, and a :class:`~app.table.table.Table`'s own methods, never its core,
dealing or mailbox); inside, no module is over 400 lines and no class over 25 methods
but those listed with a reason. The README's Layout map names every module of the table
and of the socket edge, and nothing else.

Read from the source with ``ast``: every import counts, including those inside functions
and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app"

# From the bottom up; a module may import its own layer and those below it.
LAYERS: tuple[tuple[str, ...], ...] = (
    # The package itself holds only its version.
    ("app.errors", "app"),
    ("app.poker",),
    ("app.published_secrets", "app.secret_strength", "app.allocator", "app.collector",
     "app.config", "app.text", "app.chat", "app.metrics", "app.offload", "app.logs", "app.db",
     "app.integrity"),
    ("app.accounts",),
    ("app.table",),
    ("app.hosting",),
    ("app.realtime",),
    ("app.tournaments", "app.admin", "app.hands", "app.tools", "app.leaderboard",
     "app.settle_up", "app.stats", "app.moderation", "app.web"),
    ("app.protocol",),
    ("app.body_limit", "app.security_headers", "app.serving", "app.worker", "app.main",
     "app.cli"),
)
# The REST edge of accounts is an application part, not something tables build on.
ACCOUNT_EDGES = ("app.accounts.router",)


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(APP.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_of(path): path for path in APP.rglob("*.py")}


def _targets(module: str, node: ast.AST) -> Iterable[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        base = node.module or ""
        if node.level:
            package = module.split(".")
            if _modules()[module].name != "__init__.py":
                package = package[:-1]
            base = ".".join([*package[:len(package) - node.level + 1], base]).strip(".")
        for alias in node.names:
            # ``from app.table import projection`` imports the module projection.
            name = f"{base}.{alias.name}"
            yield name if name in _modules() else base


@cache
def imports() -> dict[str, frozenset[str]]:
    """Every module of app/ and the modules of app/ it imports."""
    graph = {}
    for module, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[module] = frozenset(target for node in ast.walk(tree)
                                  for target in _targets(module, node)
                                  if target == "app" or target.startswith("app."))
    return graph


def _within(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for after in edges.get(node, ()):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return groups


def _layer(module: str) -> int:
    if module == "app":
        return 0
    matches = [(len(prefix), index) for index, layer in enumerate(LAYERS)
               for prefix in layer if prefix != "app" and _within(module, [prefix])]
    assert matches, f"{module} belongs to no layer: add it to LAYERS"
    return max(matches)[1]


@cache
def third_party_imports() -> dict[str, frozenset[str]]:
    """Every module of app/ and the top-level packages outside app/ it imports."""
    found = {}
    for module, path in _modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                names.add(node.module.split(".")[0])
        found[module] = frozenset(names - {"app"})
    return found


def test_the_poker_core_imports_only_itself_and_the_base_error() -> None:
    wrong = {(module, target) for module, targets in imports().items()
             if _within(module, ["app.poker"]) for target in targets
             if not _within(target, ["app.poker", "app.errors"])}
    assert wrong == set()
    assert imports()["app.errors"] == frozenset()


def test_no_module_imports_a_layer_above_its_own() -> None:
    wrong = {(module, target) for module, targets in imports().items()
             for target in targets if _layer(target) > _layer(module)}
    assert wrong == set()


def test_a_table_knows_nothing_of_sockets_or_of_the_accounts_rest_edge() -> None:
    table = [module for module in imports() if _within(module, ["app.table"])]
    assert table, "app/table is missing"
    assert {(m, "socketio") for m in table if "socketio" in third_party_imports()[m]} == set()
    assert {(m, t) for m in table for t in imports()[m]
            if _within(t, ["app.realtime", *ACCOUNT_EDGES])} == set()


def test_hosting_knows_nothing_of_sockets_or_of_the_socket_edge() -> None:
    hosting = [module for module in imports() if _within(module, ["app.hosting"])]
    assert len(hosting) > 5, "app/hosting is missing"
    assert {(m, "socketio") for m in hosting if "socketio" in third_party_imports()[m]} == set()
    assert {(m, t) for m in hosting for t in imports()[m] if _within(t, ["app.realtime"])} == set()


# The packages that make up the runtime of tables, kept to small modules and classes.
RUNTIME = ("app.hosting", "app.realtime")
# One table's runtime too: the same limits.
SIZED = ("app.table", *RUNTIME)
MAX_MODULE_LINES = 400
MAX_CLASS_METHODS = 25
# Kept over the limits: the schemas of every socket event, one pydantic model after
# another and documented together (docs/PROTOCOL.md is generated from them); the link to
# the other processes over Redis, one concern whose requests, answers, news and shared
# keys use the same connection and channel names; a table's stored state as plain data,
# every record with its to_dict/from_dict pair read and written together; and the table
# store, one transaction per tick for every table (group commit) with its fenced writes
# and chip movements, the SQL of one commit.
OVER_THE_LIMITS = frozenset({"app.realtime.schemas", "app.realtime.cluster",
                             "app.table.state", "app.table.store"})


def _runtime_modules(packages: tuple[str, ...] = RUNTIME) -> list[str]:
    return sorted(module for module in _modules() if _within(module, packages))


def test_no_module_of_the_runtime_is_over_400_lines_nor_a_class_over_25_methods() -> None:
    long_modules, big_classes = set(), set()
    for module in _runtime_modules(SIZED):
        if module in OVER_THE_LIMITS:
            continue
        text = _modules()[module].read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            long_modules.add(module)
        big_classes |= {(module, node.name) for node in ast.walk(ast.parse(text))
                        if isinstance(node, ast.ClassDef) and sum(
                            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                            for item in node.body) > MAX_CLASS_METHODS}
    assert (long_modules, big_classes) == (set(), set())


def _assigned_attributes(tree: ast.AST) -> Iterable[ast.Attribute]:
    for node in ast.walk(tree):
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign))
                   else [])
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
            elif isinstance(target, ast.Starred):
                targets.append(target.value)
            elif isinstance(target, ast.Attribute):
                yield target


# Set on objects of other libraries that are configured that way: python-socketio's
# server learns its manager started; the FastAPI application is given its WebSocket app.
SET_ON_LIBRARY_OBJECTS = frozenset({("app.realtime.rooms", "self.server.manager_initialized"),
                                    ("app.realtime.wiring", "app.websockets")})


def test_no_object_of_the_runtime_has_an_attribute_set_by_another() -> None:
    """Collaborators and callbacks are given to a constructor, never set on an object
    after it is built: only ``self.name = ...`` assigns an attribute."""
    foreign = set()
    for module in _runtime_modules():
        tree = ast.parse(_modules()[module].read_text(encoding="utf-8"))
        foreign |= {(module, ast.unparse(node)) for node in _assigned_attributes(tree)
                    if not (isinstance(node.value, ast.Name) and node.value.id == "self")}
    assert foreign == SET_ON_LIBRARY_OBJECTS


def test_only_the_command_line_imports_the_protocol_documentation() -> None:
    importers = {module for module, targets in imports().items()
                 if any(_within(t, ["app.protocol"]) for t in targets)
                 and not _within(module, ["app.protocol"])}
    assert importers == {"app.cli"}


def test_no_modules_import_each_other_even_through_others() -> None:
    edges = {module: set(targets) - {module} for module, targets in imports().items()}
    # A package's __init__ that only re-exports is not an edge back to its modules.
    assert _cycles(edges) == []


# What app/table offers the code above it: the table itself and what opening one takes
# (table), the requests it answers (commands), the data it holds and is asked with
# (state), its errors, the storage features share (store), and what a tournament table
# asks its tournament (assigned). Its core, mailbox, dealing, clock, seats, waiting list,
# bots, messages and projections stay inside.
TABLE_FACE = frozenset({"app.table.table", "app.table.commands", "app.table.state",
                        "app.table.errors", "app.table.store", "app.table.assigned",
                        "app.table.events", "app.table.acks"})
# The layers a table is made of, by the names a table holds them under.
TABLE_INSIDES = frozenset({"core", "dealing", "mailbox"})


def _outside_the_table() -> list[str]:
    return sorted(module for module in imports() if not _within(module, ["app.table"]))


def test_code_outside_a_table_imports_only_the_modules_app_table_offers_it() -> None:
    wrong = {(module, target) for module in _outside_the_table()
             for target in imports()[module]
             if _within(target, ["app.table"]) and target not in TABLE_FACE}
    assert wrong == set()


def test_code_outside_a_table_never_reaches_into_its_core_dealing_or_mailbox() -> None:
    reached = set()
    for module in _outside_the_table():
        tree = ast.parse(_modules()[module].read_text(encoding="utf-8"))
        reached |= {(module, node.lineno, ast.unparse(node)) for node in ast.walk(tree)
                    if isinstance(node, ast.Attribute) and node.attr in TABLE_INSIDES}
    assert reached == set()


# The packages whose every module the README's Layout map names, one a line.
MAPPED = ("app/table/", "app/hosting/", "app/realtime/")


def _layout_map() -> list[str]:
    """The lines of the map in the README's Layout section (its first code block)."""
    text = (APP.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Layout\n", 1)[1].split("\n## ", 1)[0]
    return section.split("```", 2)[1].splitlines()[1:]


def modules_the_readme_maps() -> set[str]:
    """The files and folders the Layout map names under each of :data:`MAPPED`: an entry
    is the first word of a line, a ``.py`` file or a ``folder/``; an entry indented under
    a folder is in that folder."""
    named: set[str] = set()
    package: str | None = None
    folders: list[tuple[int, str]] = []
    for line in _layout_map():
        word = line.split()[0] if line.strip() else ""
        column = len(line) - len(line.lstrip())
        if column == 0:
            package, folders = (word if word in MAPPED else None), []
            continue
        if package is None or not word.endswith((".py", "/")):
            continue
        folders = [(at, folder) for at, folder in folders if at < column]
        path = package + "".join(folder for _, folder in folders) + word
        named.add(path)
        if word.endswith("/"):
            folders.append((column, word))
    return named


def modules_in_the_tree() -> set[str]:
    """The modules of :data:`MAPPED` (a folder stands for its ``__init__.py``)."""
    found = set()
    for package in MAPPED:
        for path in (APP.parent / package).rglob("*.py"):
            relative = path.relative_to(APP.parent).as_posix()
            found.add(relative.removesuffix("__init__.py"))
    return found - set(MAPPED)


def test_the_readme_layout_names_every_module_of_the_table_and_the_socket_edge() -> None:
    assert len(modules_in_the_tree()) > 25
    assert sorted(modules_in_the_tree() - modules_the_readme_maps()) == []


def test_every_module_the_readme_layout_names_exists() -> None:
    assert sorted(modules_the_readme_maps() - modules_in_the_tree()) == []

