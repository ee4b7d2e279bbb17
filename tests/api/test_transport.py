"""The client's transport rules: error classes, secrecy, parsing, what is sent."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from gitbook_tui.api import (
    APIStatusError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    InternalServerError,
    NotFoundError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    ResponseValidationError,
)
from gitbook_tui.api.config import Profile, profile_from_config, save_config
from support.scripted_server import BASE, ORG, TOKEN, Script, fail, make_client, reply


# -- error classes --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("status", "cls"),
    [
        (400, BadRequestError),
        (401, AuthenticationError),
        (403, PermissionDeniedError),
        (404, NotFoundError),
        (409, ConflictError),
        (412, PreconditionFailedError),
        (429, RateLimitError),
        (500, InternalServerError),
        (502, InternalServerError),
        (503, InternalServerError),
    ],
)
async def test_one_error_class_per_status_family(status: int, cls: type[APIStatusError]) -> None:
    script = Script(fail(status, "The server's own words"))
    client, _ = make_client(script, max_retries=0)
    async with client:
        with pytest.raises(cls) as info:
            await client.orgs.get("org1")
    error = info.value
    assert isinstance(error, APIStatusError)
    assert (error.status, error.message) == (status, "The server's own words")
    assert (error.method, error.path) == ("GET", "/orgs/org1")
    assert "The server's own words" in str(error)


async def test_error_without_json_body_uses_the_reason_phrase() -> None:
    client, _ = make_client(Script(reply(418, content=b"<html>teapot</html>")))
    async with client:
        with pytest.raises(APIStatusError) as info:
            await client.orgs.get("org1")
    assert info.value.status == 418
    assert "I'm a teapot" in str(info.value)


async def test_401_gives_a_clear_message() -> None:
    client, _ = make_client(Script(fail(401, "The access token is not valid.")))
    async with client:
        with pytest.raises(AuthenticationError) as info:
            await client.users.me()
    text = str(info.value)
    assert "Authentication failed" in text
    assert "The access token is not valid." in text
    assert "gitbook-tui auth login" in text


async def test_token_never_in_errors_reprs_or_logs(
    caplog: pytest.LogCaptureFixture, tmp_path: Any
) -> None:
    caplog.set_level(logging.DEBUG)
    errors: list[Exception] = []
    scripts = [
        Script(fail(401, f"Bad token {TOKEN}")),  # a server echoing the token back
        Script(fail(500)),
        Script(fail(429, headers={"Retry-After": "999"})),
        Script(httpx.ConnectError),
        Script(httpx.ReadTimeout),
        Script(reply(content=b"{not json")),
        Script(reply(body={"title": 3})),
    ]
    for script in scripts:
        client, _ = make_client(script)
        async with client:
            assert TOKEN not in repr(client) and TOKEN not in str(client)
            with pytest.raises(Exception) as info:
                await client.orgs.get("org1")
            errors.append(info.value)
    assert script.requests[0].headers["authorization"] == f"Bearer {TOKEN}"
    for error in errors:
        assert TOKEN not in str(error), error
        assert TOKEN not in repr(error), error
        assert TOKEN not in "".join(str(a) for a in error.args)
    profile = Profile("default", BASE, TOKEN)
    save_config({"profiles": {"p": {"api_url": BASE, "token": TOKEN}}}, tmp_path / "c.toml")
    stored = profile_from_config("p", tmp_path / "c.toml")
    assert stored.token == TOKEN
    for shown in (repr(profile), str(profile), repr(stored), str(stored)):
        assert TOKEN not in shown
    assert caplog.records, "expected debug logging during the failing requests"
    assert TOKEN not in caplog.text
    for record in caplog.records:
        assert TOKEN not in record.getMessage()


# -- parsing --------------------------------------------------------------------------------
async def test_malformed_json_raises_response_validation_error() -> None:
    client, _ = make_client(Script(reply(content=b'{"id": "org1",')))
    async with client:
        with pytest.raises(ResponseValidationError) as info:
            await client.orgs.get("org1")
    assert info.value.operation == "getOrganizationById"
    assert "not JSON" in str(info.value)


@pytest.mark.parametrize(
    ("body", "field"),
    [({"object": "organization", "title": "No id"}, "id"), ({"id": "org1", "title": 5}, "title")],
)
async def test_model_mismatch_names_operation_and_field(body: dict[str, Any], field: str) -> None:
    client, _ = make_client(Script(reply(body=body)))
    async with client:
        with pytest.raises(ResponseValidationError) as info:
            await client.orgs.get("org1")
    error = info.value
    assert error.operation == "getOrganizationById"
    assert error.field == field
    text = str(error)
    assert "getOrganizationById" in text and f"'{field}'" in text
    assert "pydantic" not in text.lower() and "validation error" not in text.lower()
    assert error.__cause__ is None and error.__suppress_context__


async def test_unknown_enum_values_and_extra_fields_are_accepted() -> None:
    body = {**ORG, "type": "brand-new-kind", "defaultRole": "superuser", "shinyNewField": [1]}
    client, _ = make_client(Script(reply(body=body)))
    async with client:
        org = await client.orgs.get("org1")
    assert org.type == "brand-new-kind"
    assert org.defaultRole == "superuser"
    assert org.model_extra == {"shinyNewField": [1]}


async def test_bearer_token_and_paths_sent() -> None:
    script = Script(reply())
    client, _ = make_client(script)
    async with client:
        await client.orgs.get("org 1%é")
    request = script.requests[0]
    assert request.headers["authorization"] == f"Bearer {TOKEN}"
    assert request.url.raw_path == b"/v1/orgs/org%201%25%C3%A9"


# -- memory -----------------------------------------------------------------------------------
async def test_an_answer_is_freed_with_its_last_reference_not_by_the_cycle_collector() -> None:
    """httpx ties an answer and its stream in a reference cycle: with the cycle left, every
    body (a 1 MB page read at 40 revisions: ~50 MB) stayed in memory until a full pass of
    the cyclic collector."""
    import gc
    import weakref

    answers: list[weakref.ref[httpx.Response]] = []

    def answer(request: httpx.Request) -> httpx.Response:
        response = httpx.Response(200, json=ORG)
        answers.append(weakref.ref(response))
        return response

    client, _ = make_client(Script(answer))
    async with client:
        gc.disable()
        try:
            org = await client.orgs.get("org1")
            assert org.id == ORG["id"]
            assert answers and answers[0]() is None
        finally:
            gc.enable()


async def test_a_large_answer_is_stored_in_the_cache_off_the_event_loop(tmp_path: Path) -> None:
    """A 1 MB page written to the response cache held the event loop (the screen) for its
    write; a large answer is written by a worker thread, and is in the cache once read."""
    import threading

    from gitbook_tui.cache import ResponseCache

    class WhereStored(ResponseCache):
        threads: list[bool] = []

        def put(self, *args: Any) -> None:
            self.threads.append(threading.current_thread() is threading.main_thread())
            super().put(*args)

    big = {**ORG, "title": "x" * 300_000}
    cache = WhereStored(tmp_path / "cache.sqlite")
    client, _ = make_client(Script(reply(body=big), reply(body=ORG)), cache=cache)
    async with client:
        assert (await client.orgs.get("org1")).title == big["title"]
        assert (await client.orgs.get("org2")).id == ORG["id"]
        cached = await client.orgs.get("org1", read="cache-only")
        assert cached.title == big["title"]
    assert WhereStored.threads == [False, True]  # the large answer off the loop's thread


# -- what goes on the wire ------------------------------------------------------------------
async def test_requests_go_out_as_httpx_sends_them() -> None:
    """The client builds its requests itself (one parse of the URL instead of three): what
    it sends is what ``httpx.AsyncClient.request`` sends for the same call."""
    ours, theirs = Script(reply()), Script(reply())
    client, _ = make_client(ours)
    plain = httpx.AsyncClient(
        base_url=BASE + "/",
        transport=httpx.MockTransport(theirs),
        timeout=client.timeout,
        headers={"Accept": "*/*", "User-Agent": "gitbook-tui", "Authorization": f"Bearer {TOKEN}"},
    )
    calls: list[tuple[str, str, list[tuple[str, Any]], Any, dict[str, str] | None]] = [
        ("GET", "orgs/org%201%25%C3%A9", [], None, None),
        ("GET", "spaces/s1/content", [("format", "markdown"), ("q", "a b&c=é")], None, None),
        ("GET", "orgs", [("limit", 5), ("flag", True)], None, {"If-None-Match": 'W/"e1"'}),
        ("POST", "orgs/o1/spaces", [], {"title": "Ünïcode", "n": 1}, None),
        ("DELETE", "spaces/s1", [], None, {"X-Extra": "1"}),
    ]
    async with client, plain:
        for method, path, params, body, headers in calls:
            await client._send(method, path, params=params, body=body, headers=headers)
            await plain.request(
                method,
                path,
                params=httpx.QueryParams(params) if params else None,
                json=body,
                headers=headers,
            )
    assert len(ours.requests) == len(theirs.requests) == len(calls)
    for sent, expected in zip(ours.requests, theirs.requests, strict=True):
        assert sent.method == expected.method
        assert sent.url == expected.url
        assert sent.headers.multi_items() == expected.headers.multi_items()
        assert sent.content == expected.content
        assert sent.extensions["timeout"] == expected.extensions["timeout"]


async def test_cookies_the_server_sets_are_sent_back() -> None:
    script = Script(reply(headers={"Set-Cookie": "__cf_bm=abc; Path=/"}), reply())
    client, _ = make_client(script)
    async with client:
        await client.orgs.get("org1")
        await client.orgs.get("org1")
    assert "cookie" not in script.requests[0].headers
    assert script.requests[1].headers["cookie"] == "__cf_bm=abc"
