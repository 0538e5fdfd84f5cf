"""Schemathesis against the portal's own OpenAPI document, over real HTTP to a real portal.

Owns: every documented `/api` operation, given generated requests (valid and invalid),
never answers 5xx and answers only what the schema says (status code, content type,
headers, body); and a stateful walk along the schema's links (create -> poll, respond,
cancel, change the deadline, read events and detail), so operations also run on real ids.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import settings
from schemathesis import Case, Response
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from choice.contract import Preferences
from choice.contract.compat import parse_request
from choice.contract.field_errors import InvalidInput
from tests.portal_process import PortalProcess
from tests.tally import faults

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance]
EXAMPLES_PER_OPERATION = 20
WALKS, STEPS_PER_WALK = 15, 8
AREA = "Schemathesis (OpenAPI)"
QUICK_WAIT = 0.05
CREATE = "POST /api/interactions"
USABLE_REQUEST: dict[str, Any] = {
    "title": "Pick one", "prompt": "The walk needs a question it can answer.",
    "options": [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}],
    "default_selection_ids": ["a"],
}


@pytest.fixture(scope="module")
def api_schema(portal: PortalProcess) -> schemathesis.BaseSchema:
    document = httpx.get(f"{portal.base_url}/schema/openapi.json", timeout=10).json()
    schema = schemathesis.openapi.from_dict(document)
    schema.config.update(base_url=portal.base_url,
                         headers={"Authorization": f"Bearer {portal.token}"})
    schema.config.generation.update(max_examples=EXAMPLES_PER_OPERATION, deterministic=True,
                                    database="none")
    # The coverage phase enumerates every boundary of the request schemas: ~1,000 requests
    # and ~15 s here, mostly on the create body; the fuzzing phase (valid and invalid data)
    # covers the same ground within the time budget.
    schema.config.phases.coverage.enabled = False
    return schema


def without_long_waits(case: Case) -> None:
    """`wait` blocks up to 60 s by design: keep an accepted one short so the suite does not
    sit in it. Values outside 0..60 and non-numbers are kept: they must be refused."""
    query = case.query or {}
    try:
        seconds = float(query.get("wait"))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return
    if QUICK_WAIT < seconds <= 60:
        query["wait"] = QUICK_WAIT


fuzzed = (schemathesis.pytest.from_fixture("api_schema")
          # An SSE stream never ends: there is no response to check.
          .exclude(path="/api/stream"))


@fuzzed.parametrize()
def test_every_operation_answers_as_documented(case: Case) -> None:
    without_long_waits(case)
    with faults(AREA) as seen:
        seen.tries()
        case.call_and_validate(checks=CHECKS)


def usable_create_body(case: Case) -> None:
    """A generated request rarely passes the cross-field rules (options vs. mode, min/max,
    defaults), and a walk that never creates anything follows no link: keep a generated
    request the portal's own validator accepts, replace any other with a plain one."""
    if case.operation.label != CREATE:
        return
    try:
        parse_request(case.body, Preferences(), None)
    except InvalidInput:
        case.body = dict(USABLE_REQUEST)
    if case.query:
        case.query.pop("shape", None)


def test_walks_along_the_links_answer_as_documented(api_schema: schemathesis.BaseSchema) -> None:
    walked: list[tuple[str, int]] = []
    # Schemathesis reads `default_selection_ids` as a reference to a resource nothing
    # produces, so it would start every walk at the listing instead of at create; without
    # the listing, create (the source of every link) is where walks start.
    links = api_schema.exclude(name="GET /api/interactions")
    with faults(AREA) as seen:

        class Walk(links.as_state_machine()):  # type: ignore[misc]
            def before_call(self, case: Case) -> None:
                usable_create_body(case)
                without_long_waits(case)

            def validate_response(self, response: Response, case: Case,
                                  additional_checks: Any = None, **kwargs: Any) -> None:
                seen.tries()
                case.validate_response(response, checks=CHECKS, transport_kwargs=kwargs)
                walked.append((case.operation.label, response.status_code))

        Walk.run(settings=settings(max_examples=WALKS, stateful_step_count=STEPS_PER_WALK,
                                   deadline=None, derandomize=True, database=None))
    created = [status for label, status in walked if label == CREATE and status == 201]
    followed = {label for label, status in walked if label != CREATE and status in (200, 409)}
    assert created, walked
    assert followed, walked
