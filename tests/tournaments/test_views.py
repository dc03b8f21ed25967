"""The dashboard's and the public pages' views live in one module per concern (``tournaments/views/``), and each URL
names the module its page is in: from a URL to its code is one step."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from django.urls import URLPattern

ROOT = Path(__file__).resolve().parents[2]
VIEWS = ROOT / "tournaments" / "views"
URLCONFS = ("tournaments.dashboard_urls", "tournaments.public_urls")
MAX_LINES = 500


def _routes(urlconf: str) -> list[tuple[URLPattern, ast.expr]]:
    """Each of the URLconf's patterns with the expression its ``path(...)`` line names the view by."""
    module = importlib.import_module(urlconf)
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "path"]
    assert len(calls) == len(module.urlpatterns)
    return [(pattern, call.args[1]) for pattern, call in zip(module.urlpatterns, calls, strict=True)]


@pytest.mark.parametrize("urlconf", URLCONFS)
def test_each_page_is_routed_to_the_module_of_its_concern_by_that_modules_name(urlconf):
    for pattern, named in _routes(urlconf):
        view = pattern.callback
        package, _, concern = view.__module__.rpartition(".")
        assert package == "tournaments.views" and not concern.startswith("_"), (pattern, view.__module__)
        assert isinstance(named, ast.Attribute) and isinstance(named.value, ast.Name), ast.unparse(named)
        assert (named.value.id, named.attr) == (concern, view.__name__), (str(pattern.pattern), ast.unparse(named))


def test_no_module_of_the_pages_is_longer_than_a_reader_takes_in():
    modules = sorted(VIEWS.glob("*.py"))
    assert modules, "tournaments/views/ holds no module"
    lengths = {m.name: len(m.read_text(encoding="utf-8").splitlines()) for m in modules}
    assert all(n <= MAX_LINES for n in lengths.values()), lengths


def test_the_package_of_the_pages_hands_out_no_view_of_its_own():
    """Its ``__init__`` is a docstring listing the modules: a view is imported from the module it is in."""
    tree = ast.parse((VIEWS / "__init__.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(tree)
    assert len(tree.body) == 1
