"""The container set-up without a Docker engine: docker-compose.yml against the Compose
specification's schema and what it must promise, the Dockerfile's pins, the lock files
against pyproject.toml, and the image's files serving on their own."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.conftest import free_port, production_env
from tests.test_cli_server import holdem_env, wait_for_health

ROOT = Path(__file__).resolve().parents[1]
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
# The Compose specification's JSON schema, as check-jsonschema ships it from PyPI.
COMPOSE_SCHEMA = resources.files("check_jsonschema") / "builtin_schemas/vendor/compose-spec.json"
PINNED_IMAGE = re.compile(r"^[\w./-]+:\d+\.\d+(\.\d+)?(-[\w.-]+)?(@sha256:[0-9a-f]{64})?$")


def compose() -> dict[str, Any]:
    return yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))


def services_for(profile: str | None) -> dict[str, Any]:
    """The services ``docker compose [--profile P] up`` starts."""
    return {name: service for name, service in compose()["services"].items()
            if not service.get("profiles") or profile in service["profiles"]}


def started_by(command: str) -> dict[str, Any]:
    """The services a ``docker compose [--profile P]... up [OPTIONS] [SERVICE...]`` command
    starts: the services named and what they depend on, else every service of the active
    profiles and every service without one (naming a service activates its profiles)."""
    words = command.split()
    assert words[:2] == ["docker", "compose"] and "up" in words, command
    before, after = words[2:words.index("up")], words[words.index("up") + 1:]
    profiles = {before[i + 1] for i, word in enumerate(before) if word == "--profile"}
    named = [word for i, word in enumerate(after) if not word.startswith("-")
             and not (i and after[i - 1] in ("--scale", "--timeout", "-t"))]
    services = compose()["services"]
    if not named:
        return {name: s for name, s in services.items()
                if not s.get("profiles") or profiles & set(s["profiles"])}
    started: dict[str, Any] = {}
    while named:
        name = named.pop()
        if name not in started:
            started[name] = services[name]
            named.extend(services[name].get("depends_on", {}))
    return started


def documented_up_commands() -> list[str]:
    """Every ``docker compose ... up`` command of the README, the host's guide and the
    compose file's comments."""
    texts = [(ROOT / "README.md").read_text(encoding="utf-8"),
             (ROOT / "docs" / "HOSTING.md").read_text(encoding="utf-8"),
             COMPOSE.read_text(encoding="utf-8")]
    return [re.sub(r"\s+#.*", "", found).strip() for text in texts
            for found in re.findall(r"docker compose [^\n]*\bup\b[^\n]*", text)]


def host_ports(service: dict[str, Any]) -> list[str]:
    """The host ports a service publishes, each with its protocol (``443/udp``)."""
    published = []
    for port in map(str, service.get("ports", [])):
        mapping, _, protocol = port.partition("/")
        published.append(f"{mapping.rsplit(':', 1)[0]}/{protocol or 'tcp'}")
    return published


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8"))
    lines = [line.strip() for line in text.splitlines()]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1])
            for line in lines if line and not line.startswith("#")]


def test_the_compose_file_follows_the_compose_specification():
    schema = json.loads(COMPOSE_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft7Validator(schema).validate(compose())


def test_plain_docker_compose_up_starts_the_app_alone_with_its_volume():
    assert set(started_by("docker compose up")) == {"app"}
    assert set(services_for(None)) == {"app"}
    app = compose()["services"]["app"]
    assert app["volumes"] == ["holdem-data:/srv/holdem/var"]
    # Plain HTTP on this machine's loopback only: production's Secure cookies stick there,
    # and players elsewhere come through the HTTPS profile.
    assert app["ports"] == ["127.0.0.1:8000:8000"]


def test_every_documented_up_command_starts_something_and_no_host_port_twice():
    commands = documented_up_commands()
    assert "docker compose up" in commands and len(commands) >= 3
    for command in commands:
        started = started_by(command)
        assert started, command
        ports = [port for service in started.values() for port in host_ports(service)]
        assert len(ports) == len(set(ports)), (command, ports)


def test_the_full_profile_runs_replicas_on_postgresql_and_redis_behind_a_proxy():
    full = started_by("docker compose up proxy")
    assert full == started_by("docker compose --profile full up proxy")
    assert set(full) == {"migrate", "app-full", "proxy", "postgres", "redis"}
    for name in ("migrate", "app-full"):
        env = full[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+asyncpg://holdem:")
        assert env["DATABASE_URL"].endswith("@postgres:5432/holdem")
    assert full["app-full"]["environment"]["REDIS_URL"] == "redis://redis:6379/0"
    assert full["migrate"]["command"][:2] == ["holdem", "migrate"]
    assert full["migrate"]["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    assert full["app-full"]["command"][:2] == ["holdem", "serve"]
    assert full["app-full"]["deploy"]["replicas"] >= 2
    assert full["app-full"]["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"},
        "redis": {"condition": "service_healthy"},
    }
    assert full["proxy"]["depends_on"] == {"app-full": {"condition": "service_healthy"}}
    assert full["proxy"]["ports"] == ["8000:80"]
    assert full["proxy"]["volumes"] == ["./deploy/nginx.conf:/etc/nginx/nginx.conf:ro"]
    assert "pg_isready" in " ".join(full["postgres"]["healthcheck"]["test"])
    assert "ping" in full["redis"]["healthcheck"]["test"]
    # Only the proxy is reachable from outside.
    assert [name for name, s in full.items() if "ports" in s] == ["proxy"]


@pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is not installed "
                    "(apt-get install -y nginx-light)")
def test_the_proxy_configuration_is_valid_nginx(tmp_path: Path) -> None:
    # The upstream name resolves only inside Compose's network: check against loopback.
    text = (ROOT / "deploy" / "nginx.conf").read_text(encoding="utf-8")
    assert "server app-full:8000;" in text and "proxy_set_header Upgrade" in text
    config = tmp_path / "nginx.conf"
    config.write_text(text.replace("app-full:8000", "127.0.0.1:8000"), encoding="utf-8")
    checked = subprocess.run(
        [shutil.which("nginx") or "nginx", "-t", "-p", str(tmp_path), "-c", str(config),
         "-g", f"pid {tmp_path}/nginx.pid; error_log stderr;"],
        capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr


def test_the_https_profile_puts_caddy_with_automatic_certificates_in_front_of_the_app():
    started = started_by("docker compose --profile https up -d")
    assert set(started) == {"app", "caddy"}
    caddy = started["caddy"]
    assert caddy["ports"] == ["80:80", "443:443", "443:443/udp"]
    assert caddy["volumes"][0] == "./deploy/Caddyfile:/etc/caddy/Caddyfile:ro"
    assert {"caddy-data:/data", "caddy-config:/config"} <= set(caddy["volumes"])
    assert caddy["depends_on"] == {"app": {"condition": "service_healthy"}}
    # A required ${PUBLIC_URL:?} would stop every profile: the container checks it.
    assert caddy["environment"]["PUBLIC_URL"] == "${PUBLIC_URL:-}"
    check = caddy["command"][2].replace("$$", "$")
    for public_url, status in (("", 1), ("http://poker.example.com", 1),
                               ("https://poker.example.com", 0)):
        ran = subprocess.run(["sh", "-c", check.replace("exec caddy", "exit 0 # caddy")],
                             env={"PUBLIC_URL": public_url}, capture_output=True, text=True,
                             timeout=10)
        assert ran.returncode == status, (public_url, ran.stderr)
        assert ("set PUBLIC_URL" in ran.stderr) == bool(status)
    text = (ROOT / "deploy" / "Caddyfile").read_text(encoding="utf-8")
    assert "{$PUBLIC_URL} {" in text and "reverse_proxy app:8000" in text


@pytest.mark.skipif(shutil.which("caddy") is None, reason="Caddy is not installed "
                    "(apt-get install -y caddy)")
def test_the_https_proxy_configuration_is_valid_caddy(tmp_path: Path) -> None:
    checked = subprocess.run(
        [shutil.which("caddy") or "caddy", "validate", "--adapter", "caddyfile", "--config",
         str(ROOT / "deploy" / "Caddyfile")],
        env={"PUBLIC_URL": "https://poker.example.com", "HOME": str(tmp_path),
             "XDG_DATA_HOME": str(tmp_path / "data"),
             "XDG_CONFIG_HOME": str(tmp_path / "config")},
        capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr


def test_the_app_alone_runs_embedded_on_sqlite():
    alone = compose()["services"]["app"]
    assert alone["environment"]["DATABASE_URL"].startswith("sqlite+aiosqlite:////srv/holdem/var/")
    assert "REDIS_URL" not in alone["environment"]
    assert alone["volumes"] == ["holdem-data:/srv/holdem/var"]
    assert set(started_by("docker compose up proxy")).isdisjoint({"app"})


def test_every_app_runs_in_production_and_requires_a_secret_key_and_a_mail_server():
    for name in ("app", "migrate", "app-full"):
        env = compose()["services"][name]["environment"]
        assert env["ENV"] == "production"
        assert re.fullmatch(r"\$\{SECRET_KEY:\?[^}]+\}", env["SECRET_KEY"]), env["SECRET_KEY"]
        assert re.fullmatch(r"\$\{SMTP_HOST:\?[^}]+\}", env["SMTP_HOST"]), env["SMTP_HOST"]
        # /metrics is off unless the operator sets it up with a token.
        assert env["METRICS_ENABLED"] == "${METRICS_ENABLED:-false}"


def test_only_the_proxys_own_network_is_believed_about_client_addresses():
    services = compose()["services"]
    # The embedded app trusts the HTTPS proxy's fixed address alone, unless told.
    caddy = services["caddy"]["networks"]["https"]["ipv4_address"]
    assert caddy == "${CADDY_ADDRESS:-172.30.251.2}"
    assert services["app"]["environment"]["FORWARDED_ALLOW_IPS"] == (
        "${FORWARDED_ALLOW_IPS:-" + caddy + "}")
    assert services["app"]["networks"]["https"]["ipv4_address"] != caddy
    on_https_network = {name for name, s in services.items() if "https" in s.get("networks", [])}
    assert on_https_network == {"app", "caddy"}
    # The replicas trust the network they share with the proxy, and nobody else is on it.
    trusted = services["app-full"]["environment"]["FORWARDED_ALLOW_IPS"]
    subnet = compose()["networks"]["proxy"]["ipam"]["config"][0]["subnet"]
    assert trusted == subnet == "${PROXY_SUBNET:-172.30.250.0/24}"
    on_proxy_network = {name for name, s in services.items() if "proxy" in s.get("networks", [])}
    assert on_proxy_network == {"proxy", "app-full"}
    assert services["proxy"]["networks"] == ["proxy"]
    text = COMPOSE.read_text(encoding="utf-8")
    assert "development-only-secret" not in text
    assert not re.search(r"SECRET_KEY:?-", text), "no default secret"


def test_base_images_are_pinned_by_version():
    images = [service["image"] for service in compose()["services"].values()
              if not service.get("build")]
    images += [args.split()[0] for instruction, args in dockerfile_instructions()
               if instruction == "FROM"]
    assert len(images) == 6
    for image in images:
        assert PINNED_IMAGE.match(image), f"{image} is not pinned to a version"


def test_the_image_defaults_to_production_and_installs_from_the_lock_file():
    steps = dockerfile_instructions()
    env = " ".join(args for instruction, args in steps if instruction == "ENV")
    assert re.search(r"\bENV=production\b", env)
    runs = [args for instruction, args in steps if instruction == "RUN"]
    assert "pip install --require-hashes -r requirements/base.txt" in runs
    assert any(run.startswith("pip install --no-deps -e .") for run in runs)
    assert not any(re.search(r"pip install (?!--)", run) and "-r " not in run
                   and "--no-deps" not in run for run in runs)
    command = next(args for instruction, args in steps if instruction == "CMD")
    assert "holdem migrate --wait" in command and "holdem serve" in command


def locked(path: Path) -> dict[str, str]:
    """Package name → pinned version in a requirements lock file."""
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", path.read_text(), flags=re.MULTILINE)
    return {canonicalize_name(name): version for name, version in pins}


@pytest.mark.parametrize(("lock", "extras"), [("base.txt", ()), ("dev.txt", ("dev",))])
def test_the_lock_files_pin_every_declared_dependency_with_hashes(
    lock: str, extras: tuple[str, ...]
):
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    declared = [Requirement(text) for text in project["dependencies"]]
    for extra in extras:
        declared += [Requirement(text) for text in project["optional-dependencies"][extra]]
    path = ROOT / "requirements" / lock
    pins = locked(path)
    for requirement in declared:
        version = pins.get(canonicalize_name(requirement.name))
        assert version is not None, f"{requirement.name} is not in requirements/{lock}"
        assert requirement.specifier.contains(version, prereleases=True), (requirement, version)
    blocks = re.split(r"\n(?=[A-Za-z0-9_.-]+==)", path.read_text())
    assert all("--hash=sha256:" in block for block in blocks if "==" in block.split("\n")[0])
    if lock == "dev.txt":
        assert set(locked(ROOT / "requirements" / "base.txt").items()) <= set(pins.items())


def image_files(destination: Path) -> None:
    """Copy what the Dockerfile's final stage copies from the build context."""
    final_stage = False
    for instruction, args in dockerfile_instructions():
        if instruction == "FROM":
            final_stage = " AS " not in args.upper()
        if not final_stage or instruction != "COPY" or args.startswith("--from"):
            continue
        *sources, target = args.split()
        for source in sources:
            into = destination / target
            if len(sources) > 1 or target.endswith("/"):
                into = into / Path(source).name
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, into, ignore=shutil.ignore_patterns(
                    "__pycache__", "vendor"))
            else:
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(ROOT / source, into)


def test_the_image_files_migrate_and_serve_in_production(tmp_path: Path):
    image = tmp_path / "srv"
    image.mkdir()
    image_files(image)
    assert (image / "alembic.ini").is_file() and (image / "migrations" / "env.py").is_file()
    assert (image / "app" / "cli.py").is_file() and (image / "templates" / "web").is_dir()
    env = {**holdem_env(image, DATABASE_URL=f"sqlite+aiosqlite:///{image}/var/h.sqlite3",
                        **production_env()),
           "PYTHONPATH": str(image)}
    migrate = subprocess.run([sys.executable, "-m", "app.cli", "migrate", "--wait", "5"],
                             cwd=image, env=env, capture_output=True, text=True, timeout=120,
                             check=False)
    assert migrate.returncode == 0, migrate.stderr
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1",
                                "--port", str(port)], cwd=image, env=env, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert wait_for_health(process, f"http://127.0.0.1:{port}").status_code == 200
        login = httpx.get(f"http://127.0.0.1:{port}/login", timeout=10)
        assert login.status_code == 200 and "<form" in login.text
    finally:
        process.terminate()
        process.communicate(timeout=30)
