"""The OpenAPI schema for the tests, generated in-process the way ``/api/schema/`` serves it, and ways to read it.

- :func:`generate`: the schema and what drf-spectacular reported while building it.
- :func:`operation`, :func:`component`, :func:`enum_values`, :func:`request_component`, :func:`response_schema`: one operation, a referenced component, an enum's values, a request body's component, a response's schema.
- ``CODE_LINE``: a documented error code line; ``V1``: the API's path prefix.
"""

from __future__ import annotations

import contextlib
import io
import re

from drf_spectacular.drainage import GENERATOR_STATS
from drf_spectacular.generators import SchemaGenerator

V1 = "/api/v1"
CODE_LINE = re.compile(r"^- `([a-z_]+)`:", re.MULTILINE)


def generate() -> tuple[dict, str]:
    """The schema as ``/api/schema/`` serves it, and what drf-spectacular reported while building it."""
    GENERATOR_STATS.reset()
    with contextlib.redirect_stderr(io.StringIO()) as reported:
        schema = SchemaGenerator().get_schema(request=None, public=True)
    if GENERATOR_STATS:
        return schema, reported.getvalue() or "warnings or errors (reported before, so not printed again)"
    return schema, ""


def operation(schema: dict, method: str, path: str) -> dict:
    return schema["paths"][V1 + path][method]


def component(schema: dict, ref: dict) -> tuple[str, dict]:
    name = ref["$ref"].rsplit("/", 1)[1]
    return name, schema["components"]["schemas"][name]


def enum_values(schema: dict, prop: dict) -> list:
    """The values of an enum property (a reference, or one wrapped in ``allOf`` to carry a description)."""
    return component(schema, prop["allOf"][0] if "allOf" in prop else prop)[1]["enum"]


def request_component(schema: dict, method: str, path: str) -> tuple[str, dict]:
    return component(schema, operation(schema, method, path)["requestBody"]["content"]["application/json"]["schema"])


def response_schema(schema: dict, method: str, path: str, status: int) -> dict:
    return operation(schema, method, path)["responses"][str(status)]["content"]["application/json"]["schema"]
