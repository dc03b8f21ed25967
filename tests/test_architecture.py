"""The shape of the code, checked: import contracts, the one place permission rules live, and tests that import
only from tests/support/."""

from __future__ import annotations

import ast
import configparser
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = (
    "accounts",
    "bench",
    "config",
    "core",
    "decks",
    "demo",
    "floor",
    "games",
    "leagues",
    "live",
    "notifications",
    "rules",
    "tournaments",
)


def test_the_import_contracts_hold():
    """``.importlinter``: the kernel and the pure engines import no Django and no app; the layers point down;
    services enqueue nothing themselves; no import cycle inside an app."""
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports; sys.exit(lint_imports(no_cache=True, no_logo=True))"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_demo_and_bench_commands_are_entry_points_of_their_own():
    """``manage.py demo`` and ``manage.py bench AREA`` are the commands of the top-level ``demo`` and ``bench`` apps,
    entry points beside ``config``: the layers contract puts them above the apps, and no contract needs an
    exemption (``ignore_imports``) for a command that seeds or measures every app."""
    from django.core.management import get_commands

    commands = get_commands()
    assert (commands["demo"], commands["bench"]) == ("demo", "bench")
    contracts = configparser.ConfigParser()
    contracts.read(ROOT / ".importlinter")
    layers = [line.split("|") for line in contracts["importlinter:contract:layers"]["layers"].split("\n") if line]
    above_the_apps = layers[: next(i for i, layer in enumerate(layers) if "accounts" in map(str.strip, layer))]
    assert {name.strip() for layer in above_the_apps for name in layer} == {"bench", "config", "demo"}
    exempted = [section for section in contracts.sections() if contracts.has_option(section, "ignore_imports")]
    assert not exempted, f"contracts with exemptions: {exempted}"


def test_the_kernel_engines_and_services_type_check(monkeypatch):
    """mypy over the files ``[tool.mypy]`` in pyproject.toml names: strict for the kernel and the pure engines,
    with django-stubs for the services, the readers, the forms, the selectors, the pages and the API views."""
    from mypy import api

    monkeypatch.chdir(ROOT)  # the configured files and the .mypy_cache are relative to the repository
    stdout, stderr, status = api.run([])
    assert status == 0, stdout + stderr


def _sources():
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            if "migrations" not in path.parts and "management" not in path.parts and path.name != "admin.py":
                yield path


def test_who_may_do_what_is_decided_in_the_policy_module_alone():
    rule = re.compile(r"\.is_staff\b|organiser_id\s*==|==\s*\w+\.organiser_id")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in _sources()
        if path != ROOT / "tournaments" / "policy.py"
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if rule.search(line)
    ]
    assert not offenders, "permission rules outside tournaments/policy.py:\n" + "\n".join(offenders)


def test_no_service_module_imports_a_task_module():
    """The contract above, in words a failing run makes plain even without import-linter."""
    pattern = re.compile(r"^\s*(from\s+\w+\.tasks\s+import|import\s+\w+\.tasks|from\s+\w+\s+import\s+tasks\b)", re.M)
    services = [p for app in APPS for p in (ROOT / app).rglob("services*.py")] + list(
        (ROOT / "tournaments" / "services").glob("*.py")
    )
    assert services
    offenders = [str(p.relative_to(ROOT)) for p in services if pattern.search(p.read_text())]
    assert not offenders, offenders


def test_services_hand_work_on_only_by_recording_domain_events():
    """No ``on_commit`` or Celery call in a service: follow-up work is a reader of :mod:`core.events`."""
    pattern = re.compile(r"on_commit|enqueue|apply_async|\.delay\(|from core import jobs|core\.jobs")
    services = [p for app in APPS for p in (ROOT / app).rglob("services*.py")] + list(
        (ROOT / "tournaments" / "services").glob("*.py")
    )
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in services
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if pattern.search(line) and not line.lstrip().startswith(("#", '"', "*"))
    ]
    assert not offenders, "record a domain event instead:\n" + "\n".join(offenders)


def _imported_modules(tree: ast.AST, module: str) -> set[str]:
    """Every module ``tree`` imports (``from a import b`` counts ``a`` and ``a.b``), relative imports resolved."""
    package = module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def test_no_test_module_imports_another_test_module():
    """Shared builders, scripted games and personas live in ``tests/support/``, not in one test module for others."""
    offenders = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for name in sorted(_imported_modules(ast.parse(path.read_text()), module)):
            if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_"):
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, "import shared helpers from tests.support instead:\n" + "\n".join(offenders)


def test_the_kernels_tests_sit_in_tests_rules_and_ask_for_no_database():
    """``tests/`` mirrors the code: the tests of the pure kernel (``rules/``: the registry, the engines, the deck
    rules) sit in ``tests/rules/`` and, like the kernel, ask for no database; each module of ``tests/games/`` tests
    the games app."""
    kernel = sorted((ROOT / "tests" / "rules").glob("test_*.py"))
    assert kernel, "the kernel's tests belong in tests/rules/"
    offenders = []
    for path in kernel:
        source = path.read_text()
        tree = ast.parse(source)
        imported = _imported_modules(tree, ".".join(path.relative_to(ROOT).with_suffix("").parts))
        if not any(name.split(".")[0] == "rules" for name in imported):
            offenders.append(f"{path.relative_to(ROOT)} imports nothing of rules/")
        if any(name.split(".")[0] in ("django", "rest_framework") or name == "tests.factories" for name in imported):
            offenders.append(f"{path.relative_to(ROOT)} imports Django or the factories")
        asks = {arg.arg for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) for arg in node.args.args}
        if "django_db" in source or asks & {"db", "transactional_db", "client", "admin_client"}:
            offenders.append(f"{path.relative_to(ROOT)} asks for a database")
    for path in sorted((ROOT / "tests" / "games").glob("test_*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        if not any(name.split(".")[0] == "games" for name in _imported_modules(ast.parse(path.read_text()), module)):
            offenders.append(
                f"{path.relative_to(ROOT)} imports nothing of games/: a kernel test belongs in tests/rules/"
            )
    assert not offenders, "\n".join(offenders)
