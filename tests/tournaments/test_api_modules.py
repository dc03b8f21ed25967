"""The tournaments API is a package of modules split by concern, like its services: from an endpoint's URL, the URL
file names the module its view lives in."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

from django.urls import URLPattern

from tournaments import api_urls

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tournaments" / "apis"

#: Past this a module holds more than one concern (the services' largest modules are about 600 lines).
MOST_LINES = 500


def test_the_api_is_a_package_of_modules_none_longer_than_500_lines():
    assert PACKAGE.is_dir(), "tournaments/apis/ is a package, one module per concern"
    lengths = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in PACKAGE.glob("*.py")}
    assert len(lengths) > 5
    assert {name: n for name, n in lengths.items() if n > MOST_LINES} == {}


def test_the_url_file_names_the_module_of_every_view():
    """``path("...", events.EventDetailApi.as_view(), ...)``: the module the URL names holds the view."""
    tree = ast.parse((ROOT / "tournaments" / "api_urls.py").read_text(encoding="utf-8"))
    named = {
        node.attr: node.value.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.endswith("Api") and isinstance(node.value, ast.Name)
    }
    patterns = [p for p in api_urls.urlpatterns if isinstance(p, URLPattern)]
    assert patterns
    for pattern in patterns:
        view = pattern.callback.view_class
        assert view.__module__ == f"tournaments.apis.{named[view.__name__]}", pattern.name
        assert getattr(importlib.import_module(view.__module__), view.__name__) is view


def test_the_package_re_exports_no_view():
    """Code imports a view from its module: ``tournaments.apis`` itself is only the list of its modules."""
    package = importlib.import_module("tournaments.apis")
    assert package.__doc__
    assert [name for name in vars(package) if name.endswith(("Api", "Output"))] == []
