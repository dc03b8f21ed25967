"""docs/python-api.md: its example runs as written, and every import path it promises exists (no database)."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "python-api.md"


def test_the_pages_example_runs():
    text = PAGE.read_text(encoding="utf-8")
    (example,) = re.findall(r"```python\n(.*?)```", text, re.S)
    exec(compile(example, str(PAGE), "exec"), {})  # noqa: S102 - our own documentation's example


def test_every_import_path_the_page_promises_exists():
    text = PAGE.read_text(encoding="utf-8")
    promised = re.findall(r"`from ([\w.]+) import ([\w, ]+)`", text)
    assert len(promised) >= 8
    for module, names in promised:
        loaded = importlib.import_module(module)
        for name in (n.strip() for n in names.split(",")):
            assert hasattr(loaded, name), f"{module}.{name}"
    for package in re.findall(r"`(rules\.\w+)\.FORMAT`", text):
        assert importlib.import_module(package).FORMAT.slug
