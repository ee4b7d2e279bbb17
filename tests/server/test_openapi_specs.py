"""OpenAPI specifications: create/get/put/delete, versions and content, and synchronous
fetching of sources from a real local HTTP server (JSON, YAML, slow, too large, 404)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest
from fastapi.testclient import TestClient

from support.asserts import assert_error
from support.local_http import local_http
from support.worlds import World

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches

PETSTORE_JSON = json.dumps(
    {
        "openapi": "3.0.3",
        "info": {"title": "Petstore", "version": "1.0.0"},
        "paths": {"/pets": {"get": {"responses": {"200": {"description": "ok"}}}}},
    }
)
PETSTORE_YAML = """openapi: 3.0.3
info:
  title: Petstore
  version: 2.0.0
paths:
  /pets:
    get:
      responses:
        '200':
          description: ok
"""
SWAGGER_YAML = 'swagger: "2.0"\ninfo:\n  title: Old\n  version: "1"\npaths: {}\n'


# -- a real local HTTP server serving OpenAPI documents ----------------------------------------
@dataclass
class Remote:
    base: str = ""
    docs: dict[str, tuple[str, str]] = field(default_factory=dict)
    release: threading.Event = field(default_factory=threading.Event)
    gate_reached: threading.Event = field(default_factory=threading.Event)
    gate: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return f"{self.base}{path}"


class _Handler(BaseHTTPRequestHandler):
    remote: Remote

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, text: str, content_type: str = "application/json") -> None:
        raw = text.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_GET(self) -> None:
        remote = self.remote
        if self.path == "/slow":
            remote.release.wait(5)
            self._send(200, PETSTORE_JSON)
        elif self.path == "/gate":
            remote.gate_reached.set()
            remote.gate.wait(5)
            self._send(200, PETSTORE_JSON)
        elif self.path == "/big":
            self._send(200, json.dumps({"openapi": "3.0.0", "pad": "x" * 20_000}))
        elif self.path in remote.docs:
            content_type, text = remote.docs[self.path]
            self._send(200, text, content_type)
        else:
            self._send(404, '{"error": "not found"}')


@pytest.fixture
def remote() -> Iterator[Remote]:
    state = Remote()
    state.docs.update(
        {
            "/petstore.json": ("application/json", PETSTORE_JSON),
            "/petstore.yaml": ("application/yaml", PETSTORE_YAML),
            "/swagger.yaml": ("application/yaml", SWAGGER_YAML),
            "/hello.json": ("application/json", '{"hello": "world"}'),
            "/broken.json": ("application/json", '{"openapi": '),
            "/readme.txt": ("text/plain", "just some words\n"),
        }
    )
    handler = type("Handler", (_Handler,), {"remote": state})
    with local_http(handler) as base:
        state.base = base
        yield state
        state.release.set()  # let held requests finish before the server shuts down
        state.gate.set()


# -- helpers -----------------------------------------------------------------------------------
def specs_url(world: World) -> str:
    return f"/orgs/{world.org}/openapi"


def create(world: World, slug: str, source: dict, as_user: str = "alice") -> Any:
    return world.client(as_user).post(specs_url(world), json={"slug": slug, "source": source})


def created(world: World, slug: str, source: dict) -> dict:
    r = create(world, slug, source)
    assert r.status_code == 201, r.text
    return r.json()


# -- create ------------------------------------------------------------------------------------
def test_create_from_a_json_url_fetches_and_stores_a_version(world: World, remote: Remote) -> None:
    url = remote.url("/petstore.json")
    spec = created(world, "petstore", {"url": url})
    assert spec["object"] == "openapi-spec" and spec["slug"] == "petstore"
    assert spec["sourceURL"] == url
    assert spec["processingState"] == "complete"
    assert spec["lastProcessedAt"] == spec["createdAt"]
    assert "lastProcessErrorCode" not in spec and spec["lastProcessedErrorCount"] == 0
    assert spec["permissions"] == {"view": True, "edit": True}
    assert spec["urls"]["location"].endswith(f"/v1/orgs/{world.org}/openapi/petstore")
    assert spec["visibility"] == "private"
    versions = world.client().get(f"{specs_url(world)}/petstore/versions").json()
    assert versions["count"] == 1
    version = versions["items"][0]
    assert version["object"] == "openapi-spec-version" and version["id"] == spec["lastVersion"]
    assert version["url"] == url
    assert version["urls"]["location"].endswith(f"/openapi/petstore/versions/{version['id']}")
    content = world.client().get(f"{specs_url(world)}/petstore/versions/latest/content").json()
    assert content["filesystem"] == {"openapi.json": {"text": PETSTORE_JSON, "format": "json"}}
    assert content["url"] == url and content["urls"] == {"source": url, "public": None}


def test_create_from_yaml_and_text_sources(world: World, remote: Remote) -> None:
    spec = created(world, "pets-yaml", {"url": remote.url("/petstore.yaml")})
    content = world.client().get(f"{specs_url(world)}/pets-yaml/versions/latest/content").json()
    assert content["filesystem"] == {"openapi.yaml": {"text": PETSTORE_YAML, "format": "yaml"}}
    assert spec["lastVersion"]
    created(world, "old-swagger", {"url": remote.url("/swagger.yaml")})
    text_spec = created(world, "inline", {"text": PETSTORE_YAML})
    assert "sourceURL" not in text_spec and text_spec["lastVersion"]
    latest = world.client().get(f"{specs_url(world)}/inline/versions/latest").json()
    assert latest["url"].endswith(f"/openapi/inline/versions/{latest['id']}/content")
    assert world.client().get(latest["url"]).json()["filesystem"]["openapi.yaml"]["text"] == (
        PETSTORE_YAML
    )


def test_create_validation(world: World, remote: Remote) -> None:
    url = remote.url("/petstore.json")
    assert_error(create(world, "Bad_Slug", {"url": url}), 400, "slug")
    assert_error(create(world, "-lead", {"url": url}), 400, "slug")
    assert_error(create(world, "a" * 101, {"url": url}), 400, "slug")
    long_url = "https://example.com/" + "a" * 2048
    assert_error(create(world, "long", {"url": long_url}), 400, "source.url")
    assert_error(create(world, "ftp", {"url": "ftp://example.com/spec.json"}), 400, "source.url")
    assert_error(create(world, "both", {"url": url, "text": "openapi: 3.0.0"}), 400, "source")
    assert_error(create(world, "none", {}), 400, "source")
    assert_error(world.client().post(specs_url(world), json={"slug": "x"}), 400, "source")
    assert_error(world.client().post(specs_url(world), json={"source": {"url": url}}), 400, "slug")
    created(world, "dup", {"url": url})
    assert_error(create(world, "dup", {"url": url}), 409, "dup")
    assert world.client().get(specs_url(world)).json()["count"] == 1


def test_create_permissions(world: World, remote: Remote) -> None:
    url = remote.url("/petstore.json")
    assert_error(create(world, "x", {"url": url}, as_user="eve"), 403, "create")
    assert_error(create(world, "x", {"url": url}, as_user="otto"), 404, "organization")
    assert create(world, "x", {"url": url}, as_user="carol").status_code == 201
    assert_error(world.anonymous().get(specs_url(world)), 401)


def test_fetch_timeout_is_recorded_without_a_version(world: World, remote: Remote) -> None:
    world.app.state.server.fetch_timeout = 0.3
    started = time.monotonic()
    spec = created(world, "slow", {"url": remote.url("/slow")})
    assert time.monotonic() - started < 4
    assert spec["processingState"] == "complete"
    assert spec["lastProcessErrorCode"] == "FETCH_TIMEOUT"
    assert spec["lastProcessedErrors"][0]["code"] == "FETCH_TIMEOUT"
    assert spec["lastProcessedErrorCount"] == 1
    assert "lastVersion" not in spec
    assert world.client().get(f"{specs_url(world)}/slow/versions").json()["count"] == 0
    assert_error(world.client().get(f"{specs_url(world)}/slow/versions/latest"), 404, "version")
    assert_error(
        world.client().get(f"{specs_url(world)}/slow/versions/latest/content"), 404, "version"
    )


@pytest.mark.parametrize(
    ("path", "code", "detail"),
    [
        ("/big", "FETCH_ERROR", "FETCH_TOO_LARGE"),
        ("/missing.json", "FETCH_ERROR", "FETCH_HTTP_ERROR"),
        ("/hello.json", "PARSE_ERROR", "PARSE_ERROR"),
        ("/broken.json", "PARSE_ERROR", "PARSE_ERROR"),
        ("/readme.txt", "PARSE_ERROR", "PARSE_ERROR"),
    ],
)
def test_fetch_and_parse_failures(
    world: World, remote: Remote, path: str, code: str, detail: str
) -> None:
    world.app.state.server.fetch_max_bytes = 10_000
    spec = created(world, "failing", {"url": remote.url(path)})
    assert spec["lastProcessErrorCode"] == code
    assert spec["lastProcessedErrors"][0]["code"] == detail
    assert spec["lastProcessedErrors"][0]["message"]
    assert "lastVersion" not in spec
    stored = world.client().get(f"{specs_url(world)}/failing").json()
    assert stored["lastProcessErrorCode"] == code


def test_unreachable_source_is_a_fetch_error(world: World) -> None:
    spec = created(world, "down", {"url": "http://127.0.0.1:1/spec.json"})
    assert spec["lastProcessErrorCode"] == "FETCH_ERROR"


def test_text_source_size_limit(world: World) -> None:
    world.app.state.server.fetch_max_bytes = 100
    assert_error(create(world, "big", {"text": "openapi: 3.0.0\n" + "#" * 200}), 400, "source.text")


def test_the_database_is_not_locked_while_fetching(world: World, remote: Remote) -> None:
    outcome: dict[str, Any] = {}

    def slow_create() -> None:
        with TestClient(world.app, base_url="http://testserver/v1") as c:
            c.headers["Authorization"] = "Bearer tok-alice"
            outcome["r"] = c.post(
                specs_url(world), json={"slug": "gated", "source": {"url": remote.url("/gate")}}
            )

    thread = threading.Thread(target=slow_create)
    thread.start()
    try:
        assert remote.gate_reached.wait(5)
        during = world.client("rhea").get(f"{specs_url(world)}/gated")
        assert during.status_code == 200 and during.json()["processingState"] == "progress"
        assert_error(create(world, "gated", {"text": PETSTORE_YAML}), 409)
    finally:
        remote.gate.set()
        thread.join(10)
    assert outcome["r"].status_code == 201
    assert outcome["r"].json()["processingState"] == "complete"


# -- list and get ------------------------------------------------------------------------------
def test_list_specs_paginates_and_needs_membership(world: World, remote: Remote) -> None:
    for slug in ("a", "b", "c"):
        created(world, slug, {"text": PETSTORE_YAML})
    c = world.client("rhea")
    first = c.get(specs_url(world), params={"limit": 2}).json()
    assert first["count"] == 3 and [s["slug"] for s in first["items"]] == ["a", "b"]
    assert first["items"][0]["permissions"] == {"view": True, "edit": False}
    second = c.get(specs_url(world), params={"limit": 2, "page": first["next"]["page"]}).json()
    assert [s["slug"] for s in second["items"]] == ["c"] and "next" not in second
    assert_error(world.client("otto").get(specs_url(world)), 404, "organization")


def test_get_spec(world: World) -> None:
    spec = created(world, "one", {"text": PETSTORE_YAML})
    got = world.client("rhea").get(f"{specs_url(world)}/one").json()
    assert got == {**spec, "permissions": {"view": True, "edit": False}}
    assert_error(world.client().get(f"{specs_url(world)}/nope"), 404, "nope")
    assert_error(world.client("otto").get(f"{specs_url(world)}/one"), 404)


# -- put ---------------------------------------------------------------------------------------
def test_put_new_source_adds_a_version(world: World, remote: Remote) -> None:
    first = created(world, "pets", {"url": remote.url("/petstore.json")})
    r = world.client("carol").put(
        f"{specs_url(world)}/pets", json={"source": {"url": remote.url("/petstore.yaml")}}
    )
    assert r.status_code == 200, r.text
    spec = r.json()
    assert spec["sourceURL"] == remote.url("/petstore.yaml")
    assert spec["lastVersion"] != first["lastVersion"]
    assert spec["id"] == first["id"] and spec["processingState"] == "complete"
    versions = world.client().get(f"{specs_url(world)}/pets/versions").json()["items"]
    assert [v["id"] for v in versions] == [spec["lastVersion"], first["lastVersion"]]
    old = world.client().get(f"{specs_url(world)}/pets/versions/{first['lastVersion']}")
    assert old.json()["url"] == remote.url("/petstore.json")
    old_content = world.client().get(
        f"{specs_url(world)}/pets/versions/{first['lastVersion']}/content"
    )
    assert old_content.json()["filesystem"]["openapi.json"]["text"] == PETSTORE_JSON
    # same source, same text: no new version
    again = world.client().put(
        f"{specs_url(world)}/pets", json={"source": {"url": remote.url("/petstore.yaml")}}
    )
    assert again.json()["lastVersion"] == spec["lastVersion"]
    # the source changed upstream: new version
    remote.docs["/petstore.yaml"] = ("application/yaml", PETSTORE_YAML + "# changed\n")
    changed = world.client().put(
        f"{specs_url(world)}/pets", json={"source": {"url": remote.url("/petstore.yaml")}}
    )
    assert changed.json()["lastVersion"] not in (spec["lastVersion"], first["lastVersion"])
    assert world.client().get(f"{specs_url(world)}/pets/versions").json()["count"] == 3


def test_put_failure_keeps_the_last_version(world: World, remote: Remote) -> None:
    first = created(world, "pets", {"url": remote.url("/petstore.json")})
    failed = (
        world.client()
        .put(f"{specs_url(world)}/pets", json={"source": {"url": remote.url("/missing.json")}})
        .json()
    )
    assert failed["lastProcessErrorCode"] == "FETCH_ERROR"
    assert failed["lastVersion"] == first["lastVersion"]
    assert failed["sourceURL"] == remote.url("/missing.json")
    fixed = (
        world.client()
        .put(f"{specs_url(world)}/pets", json={"source": {"text": PETSTORE_YAML}})
        .json()
    )
    assert "lastProcessErrorCode" not in fixed and "sourceURL" not in fixed
    assert fixed["lastProcessedErrorCount"] == 0
    assert fixed["lastVersion"] != first["lastVersion"]


def test_put_creates_a_missing_spec_and_validates(world: World, remote: Remote) -> None:
    url = f"{specs_url(world)}/fresh"
    r = world.client().put(url, json={"source": {"url": remote.url("/petstore.yaml")}})
    assert r.status_code == 201 and r.json()["slug"] == "fresh" and r.json()["lastVersion"]
    assert world.client().get(url).status_code == 200
    assert_error(
        world.client().put(f"{specs_url(world)}/Not_Valid", json={"source": {"text": "x"}}),
        400,
        "specSlug",
    )
    assert_error(world.client().put(url, json={}), 400, "source")
    assert_error(
        world.client("eve").put(url, json={"source": {"text": PETSTORE_YAML}}), 403, "create"
    )
    assert_error(world.client("otto").put(url, json={"source": {"text": PETSTORE_YAML}}), 404)


# -- delete ------------------------------------------------------------------------------------
def test_delete_spec(world: World) -> None:
    spec = created(world, "gone", {"text": PETSTORE_YAML})
    url = f"{specs_url(world)}/gone"
    assert_error(world.client("eve").delete(url), 403, "create")
    r = world.client("carol").delete(url)
    assert r.status_code == 205 and r.content == b""
    assert_error(world.client().get(url), 404)
    with world.storage.read() as tx:
        assert tx.list("openapi-version", spec["id"]) == []
    assert world.client().delete(url).status_code == 204
    assert_error(world.client("otto").delete(url), 404, "organization")


# -- versions ----------------------------------------------------------------------------------
def test_versions_by_id_and_pages(world: World) -> None:
    created(world, "multi", {"text": PETSTORE_YAML})
    other = created(world, "other", {"text": SWAGGER_YAML})
    for n in range(2):
        world.client().put(
            f"{specs_url(world)}/multi", json={"source": {"text": f"{PETSTORE_YAML}# {n}\n"}}
        )
    base = f"{specs_url(world)}/multi/versions"
    page = world.client("rhea").get(base, params={"limit": 2}).json()
    assert page["count"] == 3 and len(page["items"]) == 2
    rest = world.client("rhea").get(base, params={"limit": 2, "page": page["next"]["page"]}).json()
    ids = [v["id"] for v in page["items"] + rest["items"]]
    assert len(set(ids)) == 3
    latest = world.client().get(f"{base}/latest").json()
    assert latest["id"] == ids[0]
    oldest = world.client().get(f"{base}/{ids[-1]}/content").json()
    assert oldest["filesystem"]["openapi.yaml"]["text"] == PETSTORE_YAML
    assert world.client().get(f"{base}/{ids[1]}").json()["id"] == ids[1]
    assert_error(world.client().get(f"{base}/nope"), 404, "version")
    assert_error(world.client().get(f"{base}/{other['lastVersion']}"), 404, "version")
    assert_error(world.client().get(f"{base}/nope/content"), 404, "version")
    assert_error(world.client("otto").get(base), 404)
