"""The API's JSON parser: a body the database or the serializers could choke on is refused as a 400 here.

DRF's own parser turns a syntax error into ``parse_error``, but lets through
what is valid JSON and still fails further on:

* nesting deeper than the C parser's recursion limit (``[[[[...`` 100,000
  deep) raises ``RecursionError``, and nesting just short of it overflows the
  serializers and ``json.dumps`` of a JSON column;
* a NUL character (``\\u0000``), which PostgreSQL refuses in text and in
  ``jsonb``, and a lone surrogate (``\\ud800``), which no UTF-8 encoder accepts,
  in any string or key, also deep inside a dictionary field (game entries'
  ``data``, options).

So the parser refuses JSON nested deeper than :data:`MAX_DEPTH` (400
``parse_error``) and any string or key holding those characters (400
``invalid``, naming the top-level field it came in), before a view sees it.
Query parameters are checked by :mod:`core.middleware`.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext
from rest_framework import exceptions, parsers

#: The deepest nesting of arrays and objects a body may have; Podium's own bodies go 4 deep at most.
MAX_DEPTH = 32

NUL = "\x00"
_UNSAFE = re.compile("[\x00\ud800-\udfff]")


def unsafe_text(text: str) -> str | None:
    """Why ``text`` cannot be stored (a NUL or a lone surrogate), or ``None``."""
    if NUL in text:
        return gettext("Null characters are not allowed.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return gettext("Unpaired surrogate characters are not allowed.")
    return None


def shown(text: str) -> str:
    """``text`` safe to put in an answer: a NUL or a lone surrogate becomes U+FFFD."""
    return _UNSAFE.sub("\ufffd", text)


def check_body(data: Any) -> None:
    """Raise a 400 if ``data`` (parsed JSON) nests deeper than :data:`MAX_DEPTH` or holds unsafe text.

    Iterative, so its own depth is no limit; linear in the size of ``data``.
    """
    # (value, depth, top-level field it sits in)
    stack: list[tuple[Any, int, str | None]] = [(data, 1, None)]
    while stack:
        value, depth, field = stack.pop()
        if isinstance(value, dict | list) and depth > MAX_DEPTH:
            raise exceptions.ParseError(
                gettext("JSON parse error - nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}
            )
        if isinstance(value, dict):
            for key, item in value.items():
                here = field if field is not None else shown(key)
                problem = unsafe_text(key)
                if problem:
                    raise exceptions.ValidationError({here: [gettext("A key: %(problem)s") % {"problem": problem}]})
                stack.append((item, depth + 1, here))
        elif isinstance(value, list):
            stack.extend((item, depth + 1, field) for item in value)
        elif isinstance(value, str):
            problem = unsafe_text(value)
            if problem:
                raise exceptions.ValidationError({field or "body": [problem]})


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, with the checks of :func:`check_body` (and nesting the C parser cannot follow)."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise exceptions.ParseError(
                gettext("JSON parse error - nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}
            ) from None
        check_body(data)
        return data
