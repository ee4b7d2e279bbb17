"""Schema-driven fuzzing of the server with schemathesis against its own OpenAPI: no 500s."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.python.asgi import ASGIClient

from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import ensure_owner
from gitbook_tui.server.core.clock import Clock
from support.schemathesis_session import schemathesis_session

# Operations that fetch from URLs given in the request are left out: fuzzing them would send
# traffic to arbitrary hosts. Their behaviour is tested against loopback servers instead.
EXCLUDED = (
    {"path_regex": r".*/content/import$"},
    {"path_regex": r"^/v1/orgs/\{organizationId\}/openapi", "method": ["POST", "PUT"]},
    {"path_regex": r"^/v1/integrations/\{integrationName\}/(dev|render)$"},
)
TOKEN = "fuzz-token"


@pytest.fixture(scope="module")
def fuzzed_app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    app = create_app(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite", fetch_timeout=1.0)
    ensure_owner(app.state.server.storage, Clock(), TOKEN)
    return app


@pytest.fixture(scope="module")
def fuzz_session(fuzzed_app: Any) -> Iterator[ASGIClient]:
    with schemathesis_session(fuzzed_app) as session:
        yield session


@pytest.fixture(scope="module")
def fuzzed_schema(fuzzed_app: Any) -> Any:
    """The server's own description, loaded when the test runs (not while every test process
    collects: schemathesis prepares each operation's cases as it loads them)."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", fuzzed_app)
    for rule in EXCLUDED:
        schema = schema.exclude(**rule)
    return schema


schema = schemathesis.pytest.from_fixture("fuzzed_schema")
REVIEWS_AND_COMMENTS = r"^/v1/spaces/\{spaceId\}/(change-requests|comments)"


def _fuzz_test(part: Any) -> Any:
    """A test over the operations of ``part``, each a subtest fed schema-valid and boundary
    requests (the parts let the test processes share the work)."""

    @pytest.mark.slow
    @part.parametrize()
    @settings(
        max_examples=6,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def test(case: schemathesis.Case, fuzz_session: ASGIClient) -> None:
        case.call_and_validate(
            session=fuzz_session,
            headers={"Authorization": f"Bearer {TOKEN}"},
            checks=[not_a_server_error],
        )

    return test


test_no_server_errors_in_reviews_and_comments = _fuzz_test(
    schema.include(path_regex=REVIEWS_AND_COMMENTS)
)
test_no_server_errors_in_spaces = _fuzz_test(
    schema.include(path_regex=r"^/v1/spaces").exclude(path_regex=REVIEWS_AND_COMMENTS)
)
test_no_server_errors_in_organizations = _fuzz_test(schema.include(path_regex=r"^/v1/orgs"))
test_no_server_errors_elsewhere = _fuzz_test(schema.exclude(path_regex=r"^/v1/(spaces|orgs)"))
