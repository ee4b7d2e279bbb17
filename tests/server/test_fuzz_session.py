"""The fuzz tests' in-process schemathesis session: what the app gets and what a check sees."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI, Request, Response
from schemathesis.checks import not_a_server_error
from schemathesis.core.failures import FailureGroup

from support.schemathesis_session import schemathesis_session


def _app() -> FastAPI:
    app = FastAPI()

    @app.get("/boom")
    def boom() -> dict[str, Any]:
        raise RuntimeError("a bug in a handler")

    @app.get("/fails")
    def fails() -> Response:
        return Response("no", status_code=503)

    @app.post("/echo")
    async def echo(request: Request) -> dict[str, Any]:
        return {
            "query": request.url.query,
            "header": request.headers.get("x-name"),
            "body": (await request.body()).decode(),
        }

    return app


def test_a_server_error_fails_the_fuzz_check_and_an_exception_reaches_the_test() -> None:
    app = _app()
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    with schemathesis_session(app) as session:
        case = schema["/fails"]["GET"].Case()
        with pytest.raises(FailureGroup, match="Server error"):
            case.call_and_validate(session=session, checks=[not_a_server_error])
        case = schema["/boom"]["GET"].Case()
        with pytest.raises(RuntimeError, match="a bug in a handler"):
            case.call_and_validate(session=session, checks=[not_a_server_error])


def test_long_urls_latin1_headers_and_bodies_reach_the_app_as_sent() -> None:
    query = "q=" + "a" * 70_000  # longer than httpx accepts for a URL
    with schemathesis_session(_app()) as session:
        answer = session.post(f"/echo?{query}", headers={"x-name": "Zoë"}, data="hé")
    assert answer.status_code == 200
    assert answer.json() == {"query": query, "header": "Zoë", "body": "hé"}
