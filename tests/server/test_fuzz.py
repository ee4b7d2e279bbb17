"""Schema-driven fuzzing of the server with schemathesis against its own OpenAPI: no 500s."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error

from gitbook_tui.server.app import create_app
from gitbook_tui.server.bootstrap import ensure_owner
from gitbook_tui.server.core.clock import Clock

_DB = Path(tempfile.mkdtemp(prefix="gitbook-tui-fuzz-")) / "fuzz.sqlite"
_APP = create_app(_DB, clock=Clock(), fetch_timeout=1.0)
_TOKEN = ensure_owner(_APP.state.server.storage, Clock(), "fuzz-token")

# Operations that fetch from URLs given in the request are left out: fuzzing them would send
# traffic to arbitrary hosts. Their behaviour is tested against loopback servers instead.
schema = (
    schemathesis.openapi.from_asgi("/openapi.json", _APP)
    .exclude(path_regex=r".*/content/import$")
    .exclude(path_regex=r"^/v1/orgs/\{organizationId\}/openapi", method=["POST", "PUT"])
    .exclude(path_regex=r"^/v1/integrations/\{integrationName\}/(dev|render)$")
)


@pytest.mark.slow
@schema.parametrize()
@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_no_server_errors(case: schemathesis.Case) -> None:
    case.call_and_validate(
        headers={"Authorization": f"Bearer {_TOKEN}"}, checks=[not_a_server_error]
    )
