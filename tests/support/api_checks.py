"""The API's OpenAPI schema loaded for schemathesis, and the checks every answer must pass.

The schema is the one ``/api/schema/`` serves, loaded through the WSGI
application; requests built from it go through the same application in-process.
"""

from __future__ import annotations

import os
import re

import schemathesis
from django.core.wsgi import get_wsgi_application
from schemathesis.core import NOT_SET

from core.api import ERROR_CODES
from tests.support.people import token_for

#: Seeded and derandomized, so the same command generates the same cases every run: inputs are never
#: drawn from answers (which carry ids that differ from run to run) nor from literals in the source.
#: The coverage phase sends the boundary and invalid values of every field (a fixed set); the fuzzing
#: phase ``PODIUM_FUZZ_EXAMPLES`` random cases more per operation.  For a deeper search than CI's, raise
#: it and change the seed: ``PODIUM_FUZZ_EXAMPLES=200 PODIUM_FUZZ_SEED=7 pytest -m fuzz``.
CONFIG = schemathesis.Config.from_str(
    f"""
seed = {int(os.environ.get("PODIUM_FUZZ_SEED", "20261122"))}

[generation]
mode = "all"
deterministic = true
database = "none"
max-examples = {int(os.environ.get("PODIUM_FUZZ_EXAMPLES", "10"))}

[phases.examples.extra-data-sources]
responses = false

[phases.coverage.extra-data-sources]
responses = false

[phases.fuzzing.extra-data-sources]
responses = false

[phases.fuzzing.error-feedback]
enabled = false

[analysis.constants]
enabled = false
"""
)

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application(), config=CONFIG)

#: A documented code line of an error response (see :func:`core.api.error_responses`).
CODE_LINE = re.compile(r"^- `([a-z_]+)`:", re.MULTILINE)


@schemathesis.check
def error_code_documented(ctx, response, case):
    """A 4xx carries a code its operation documents for that status (or an engine's rule code where documented)."""
    if not 400 <= response.status_code < 500 or case.method.upper() != case.operation.method.upper():
        return None  # a method the path does not have answers 405, which OpenAPI does not describe
    try:
        body = response.json()
    except ValueError:
        return None  # not JSON: the content type and body checks report it
    error = body.get("error") if isinstance(body, dict) else None
    code = error.get("code") if isinstance(error, dict) else None
    documented = case.operation.definition.raw.get("responses", {}).get(str(response.status_code), {})
    description = documented.get("description", "")
    if code in CODE_LINE.findall(description):
        return True
    if "rule code" in description and "rule" in error and code not in ERROR_CODES:
        return True
    raise AssertionError(f"{response.status_code} {code!r} is not a code documented for {case.operation.label}")


CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_headers_conformance,
    schemathesis.checks.response_schema_conformance,
    error_code_documented,
]


V1 = "/api/v1"


class Api:
    """Calls an operation of the schema as a signed-in user (``None``: anonymously) and validates the answer.

    ``call("post", "/events/{event_id}/register/", 201, event_id=3)`` builds the request from the schema's
    operation, sends it through the WSGI application, runs :data:`CHECKS` on the answer, checks its status
    and returns its JSON (``None`` for an empty body).
    """

    def __init__(self, user=None):
        self.user = user
        self.headers = {}
        if user is not None:
            self.headers = {"Authorization": f"Token {token_for(user)}"}

    def __call__(self, method: str, path: str, status: int, body=NOT_SET, headers=None, query=None, **path_parameters):
        media_type = None if body is NOT_SET else "application/json"
        case = schema[V1 + path][method.upper()].Case(
            path_parameters=path_parameters, body=body, media_type=media_type, query=query
        )
        response = case.call_and_validate(headers={**self.headers, **(headers or {})}, checks=CHECKS)
        assert response.status_code == status, f"{method.upper()} {path}: {response.status_code} {response.text}"
        return response.json() if response.content else None
