"""The two requirements files, checked: production installs ``requirements.txt`` alone, so every package the app's
code imports (everything outside ``tests/``) must come from it or from what its packages require; the test tooling
lives in ``requirements-dev.txt``, which starts from the runtime file, and every pin is exact."""

from __future__ import annotations

import ast
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

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


def _pins(path: Path) -> dict[str, str]:
    pins = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line or line.startswith("-r "):
            continue
        requirement = Requirement(line)
        pins[_canonical(requirement.name)] = str(requirement.specifier)
    return pins


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _with_dependencies(names: set[str]) -> set[str]:
    """The distributions installed by ``names`` and, recursively, what they require (extras asked for included)."""
    seen: set[str] = set()
    todo = [(name, frozenset[str]()) for name in names]
    while todo:
        name, extras = todo.pop()
        if name in seen and not extras:
            continue
        seen.add(name)
        for line in metadata.requires(name) or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is not None and not any(marker.evaluate({"extra": extra}) for extra in {"", *extras}):
                continue
            todo.append((_canonical(requirement.name), frozenset(requirement.extras)))
    return seen


def _runtime_nodes(tree: ast.AST):
    """Every node but those under ``if TYPE_CHECKING:`` (imports for the type checker only, never run)."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                todo.extend(child.orelse)
            else:
                todo.append(child)


def _imported_top_levels() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            for node in _runtime_nodes(ast.parse(path.read_text(), str(path))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], path.relative_to(ROOT))
    found.update({"manage": ROOT / "manage.py"})
    return found


def test_every_pin_is_exact_and_the_dev_file_starts_from_the_runtime_one():
    runtime, dev = _pins(ROOT / "requirements.txt"), _pins(ROOT / "requirements-dev.txt")
    assert all(spec.startswith("==") for spec in {**runtime, **dev}.values())
    assert (ROOT / "requirements-dev.txt").read_text().count("-r requirements.txt") == 1
    assert not set(runtime) & set(dev), "a package pinned in both files"
    assert {"pytest", "pytest-django", "playwright"} <= set(dev) and not {"pytest", "playwright"} & set(runtime)


def test_the_app_imports_only_what_the_runtime_requirements_install():
    installed_by_runtime = _with_dependencies(set(_pins(ROOT / "requirements.txt")))
    distributions = metadata.packages_distributions()
    ours = set(APPS) | {"manage"}
    missing = {}
    for module, where in _imported_top_levels().items():
        if module in ours or module in sys.stdlib_module_names or module == "__future__":
            continue
        owners = {_canonical(name) for name in distributions.get(module, [])}
        if not owners & installed_by_runtime:
            missing[module] = str(where)
    assert not missing, f"imported by the app but not installed by requirements.txt: {missing}"
