"""The reads a blame makes by the hundred (a revision, a page at a revision) are answered past
FastAPI's routing and dependency solving, with the very answers, errors and role checks
FastAPI's route gives; anything else (a query to validate, a path an earlier route takes)
is left to FastAPI."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.responses import Response

from gitbook_tui.server.core.context import Ctx, token_key
from gitbook_tui.server.core.direct_reads import DirectReads, RoutePath
from gitbook_tui.server.core.middleware import Receive, Scope, Send
from support.asserts import assert_error
from support.worlds import World


class Routed:
    """The app, noting for each request the route FastAPI chose (``scope["route"]``; none:
    answered before FastAPI's routing)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.routes: list[Any] = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] == "http":
            self.routes.append(scope.get("route"))


@pytest.fixture
def routed(world: World) -> Iterator[tuple[Routed, dict[str, TestClient]]]:
    recorder = Routed(world.app)
    clients: dict[str, TestClient] = {}
    for name in ("alice", "rhea", "otto"):
        client = TestClient(
            recorder, base_url="http://testserver/v1", raise_server_exceptions=False
        )
        client.__enter__()
        client.headers["Authorization"] = f"Bearer tok-{name}"
        clients[name] = client
    yield recorder, clients
    for client in clients.values():
        client.__exit__(None, None, None)


def history(world: World, make_space: Any) -> tuple[str, str, str]:
    """A space whose page came with a merged change request: (space, its revision, page)."""
    space = make_space("Guide")
    alice = world.client("alice")
    crs = f"/spaces/{space['id']}/change-requests"
    cr = alice.post(crs, json={"subject": "First"}).json()
    page = {"operation": "insert_page", "title": "Intro", "document": {"markdown": "# Hi\n\nÉté."}}
    r = alice.post(f"{crs}/{cr['id']}/content", json={"changes": [page]})
    assert r.status_code == 200, r.text
    assert alice.post(f"{crs}/{cr['id']}/merge").status_code == 200
    revision = alice.get(f"/spaces/{space['id']}").json()["revision"]
    pages = alice.get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    return space["id"], revision, pages[0]["id"]


def both(
    recorder: Routed, client: TestClient, path: str, query: str, fastapi_query: str
) -> tuple[Any, Any]:
    """The answer to ``path?query`` (expected direct) and to the same read in a form only
    FastAPI's validation reads (expected routed by FastAPI)."""
    recorder.routes.clear()
    direct = client.get(f"{path}?{query}" if query else path)
    routed = client.get(f"{path}?{fastapi_query}")
    assert recorder.routes[0] is None, "not answered directly"
    assert recorder.routes[1] is not None, "not routed by FastAPI"
    return direct, routed


def test_a_revision_and_a_page_at_it_are_answered_directly_as_fastapi_answers(
    world: World, make_space: Any, routed: tuple[Routed, dict[str, TestClient]]
) -> None:
    recorder, clients = routed
    space, revision, page = history(world, make_space)
    for path, query in (
        (f"/spaces/{space}/revisions/{revision}", ""),
        (f"/spaces/{space}/revisions/{revision}", "metadata=false"),
        (f"/spaces/{space}/revisions/{revision}/page/{page}", "format=markdown"),
        (f"/spaces/{space}/revisions/{revision}/page/{page}", ""),  # the document
        (f"/spaces/{space}/revisions/{revision}/page/{page}", "format=document&evaluated=true"),
    ):
        # "metadata=1": true to FastAPI, not in the plain form the direct path reads
        extra = "metadata=0" if "metadata=false" in query else "metadata=1"
        direct, fastapi = both(recorder, clients["rhea"], path, query, f"{query}&{extra}")
        assert direct.status_code == fastapi.status_code == 200
        assert direct.content == fastapi.content
        assert direct.headers["etag"] == fastapi.headers["etag"]
        assert direct.headers["content-type"] == fastapi.headers["content-type"]
        assert "x-ratelimit-remaining" in direct.headers
    page_json = clients["rhea"].get(
        f"/spaces/{space}/revisions/{revision}/page/{page}?format=markdown"
    )
    assert page_json.json()["markdown"] == "# Hi\n\nÉté."


def test_the_callers_role_and_token_are_checked_on_every_direct_read(
    world: World, make_space: Any, routed: tuple[Routed, dict[str, TestClient]]
) -> None:
    recorder, clients = routed
    space, revision, page = history(world, make_space)
    other, other_revision, _ = history(world, make_space)
    paths = (
        f"/spaces/{space}/revisions/{revision}",
        f"/spaces/{space}/revisions/{revision}/page/{page}",
    )
    for path in paths:  # otto is in no organization of the space
        direct, fastapi = both(recorder, clients["otto"], path, "", "metadata=1")
        assert direct.status_code == fastapi.status_code
        assert direct.status_code in (403, 404)
        assert direct.json() == fastapi.json()
    for path, what in (
        (f"/spaces/{space}/revisions/nope", "revision"),
        (f"/spaces/{space}/revisions/{other_revision}", "revision"),  # another space's
        (f"/spaces/{space}/revisions/{revision}/page/nope", "page"),
        (f"/spaces/nope/revisions/{revision}/page/{page}", "space"),
    ):
        direct, fastapi = both(recorder, clients["alice"], path, "", "metadata=1")
        assert_error(direct, 404, what)
        assert direct.json() == fastapi.json()
    assert clients["rhea"].get(paths[1]).status_code == 200
    with world.storage.transaction() as tx:  # the token revoked: refused at once
        tx.delete("token", token_key("tok-rhea"))
    for path in paths:
        assert_error(clients["rhea"].get(path), 401, "not valid")
    anonymous = TestClient(recorder, base_url="http://testserver/v1")
    assert_error(anonymous.get(paths[0]), 401)
    assert other


def test_query_values_only_fastapi_reads_or_refuses_are_left_to_it(
    world: World, make_space: Any, routed: tuple[Routed, dict[str, TestClient]]
) -> None:
    recorder, clients = routed
    space, revision, page = history(world, make_space)
    path = f"/spaces/{space}/revisions/{revision}/page/{page}"
    rhea = clients["rhea"]
    recorder.routes.clear()
    assert_error(rhea.get(f"{path}?format=html"), 400, "format")
    assert_error(rhea.get(f"{path}?metadata=maybe"), 400, "metadata")
    assert rhea.get(f"{path}?format=markdown&format=document").status_code == 200
    assert all(route is not None for route in recorder.routes)
    recorder.routes.clear()
    assert rhea.get(f"{path}?format=markdown&unknown=1").status_code == 200  # ignored, as FastAPI
    assert recorder.routes == [None]


def test_a_direct_answer_is_etag_validated(
    world: World, make_space: Any, routed: tuple[Routed, dict[str, TestClient]]
) -> None:
    _recorder, clients = routed
    space, revision, page = history(world, make_space)
    path = f"/spaces/{space}/revisions/{revision}/page/{page}?format=markdown"
    first = clients["rhea"].get(path)
    again = clients["rhea"].get(path, headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


# -- the middleware alone ----------------------------------------------------------------------


async def _fallback(scope: Scope, receive: Receive, send: Send) -> None:
    await Response(b"app", media_type="text/plain")(scope, receive, send)


async def _direct(ctx: Ctx, x: str) -> Response:
    return Response(f"direct {x}".encode(), media_type="text/plain")


async def _other(ctx: Ctx, y: str) -> Response:
    raise AssertionError("never called: FastAPI answers its routes")


async def _no_query(query: list[tuple[str, str]]) -> dict[str, Any]:
    return {}


def test_a_path_an_earlier_route_takes_is_left_to_the_app() -> None:
    routes = [
        RoutePath("/a/special", frozenset({"POST"}), _other),  # another method: not in the way
        RoutePath("/a/taken", frozenset({"GET"}), _other),
        RoutePath("/a/{x}", frozenset({"GET", "HEAD"}), _direct),
    ]
    direct = DirectReads(_fallback, routes, {_direct: _no_query})
    client = TestClient(direct)
    assert client.get("/a/taken").text == "app"
    assert client.get("/b/taken").text == "app"
    assert client.post("/a/one").text == "app"


def test_an_endpoint_without_a_get_route_or_of_another_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="_direct"):
        DirectReads(
            _fallback, [RoutePath("/a/{x}", frozenset({"POST"}), _direct)], {_direct: _no_query}
        )
    with pytest.raises(TypeError, match="_direct"):
        DirectReads(
            _fallback, [RoutePath("/a/{z}", frozenset({"GET"}), _direct)], {_direct: _no_query}
        )
