"""Integrations: publish, list/get/delete, installations, events, space/site items, dev mode
(event dispatch to a real local tunnel), render forwarding and the LZ-string codec."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from gitbook_tui.server.routes.integrations import lz_compress_to_uri, lz_decompress_from_uri
from support.asserts import assert_error
from support.local_http import local_http
from support.worlds import World

# The operator lets this server's imports read the tests' folders and loopback peers.
pytestmark = pytest.mark.local_fetches

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 24
PNG_B64 = base64.b64encode(PNG).decode()


# -- a real local HTTP server acting as the integration's dev tunnel ---------------------------
@dataclass
class Remote:
    base: str = ""
    posts: list[dict[str, Any]] = field(default_factory=list)

    def url(self, path: str) -> str:
        return f"{self.base}{path}"

    def posted(self, path: str) -> list[dict[str, Any]]:
        return [p for p in self.posts if p["path"] == path]


def _ui_output(payload: dict[str, Any]) -> dict[str, Any]:
    label = f"Clicked {payload['props'].get('count', 0)} times"
    return {
        "type": "element",
        "element": {
            "type": "block",
            "children": [{"type": "button", "label": label, "onPress": {"action": "click"}}],
            "controls": [],
        },
        "state": payload.get("state", {}),
        "props": payload["props"],
    }


class _Handler(BaseHTTPRequestHandler):
    remote: Remote

    def log_message(self, *args: Any) -> None:
        pass

    def _send(self, status: int, body: Any) -> None:
        raw = json.dumps(body).encode() if not isinstance(body, bytes) else body
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        payload = json.loads(raw or b"null")
        self.remote.posts.append(
            {
                "path": self.path,
                "headers": {k.lower(): v for k, v in self.headers.items()},
                "json": payload,
            }
        )
        if self.path == "/broken":
            self._send(500, {"error": "boom"})
        elif self.path == "/bad-ui":
            self._send(200, {"type": "nope"})
        elif self.path == "/not-json":
            self._send(200, b"<html>")
        elif isinstance(payload, dict) and payload.get("type") == "ui_render":
            self._send(200, _ui_output(payload))
        else:
            self._send(200, {"ok": True})


@pytest.fixture
def remote() -> Iterator[Remote]:
    state = Remote()
    handler = type("Handler", (_Handler,), {"remote": state})
    with local_http(handler) as base:
        state.base = base
        yield state


# -- helpers -----------------------------------------------------------------------------------
def publish(world: World, name: str, as_user: str = "alice", **body: Any) -> Any:
    body.setdefault("title", "My Integration")
    body.setdefault("organization", world.org)
    body.setdefault("script", "export default {}")
    body.setdefault("scopes", ["space:content:read"])
    return world.client(as_user).post(f"/integrations/{name}", json=body)


def published(world: World, name: str, **body: Any) -> dict:
    r = publish(world, name, **body)
    assert r.status_code == 200, r.text
    return r.json()


def install(world: World, name: str, org: str, as_user: str = "alice", **body: Any) -> Any:
    return world.client(as_user).post(
        f"/integrations/{name}/installations", json={"organization": org, **body}
    )


def events(world: World, name: str, as_user: str = "alice") -> list[dict]:
    r = world.client(as_user).get(f"/integrations/{name}/events")
    assert r.status_code == 200, r.text
    return r.json()["items"]


def event_detail(world: World, name: str, event_id: str) -> dict:
    r = world.client().get(f"/integrations/{name}/events/{event_id}")
    assert r.status_code == 200, r.text
    return r.json()


def enable_dev(world: World, name: str, url: str, **body: Any) -> None:
    r = world.client().put(f"/integrations/{name}/dev", json={"tunnelUrl": url, **body})
    assert r.status_code == 204, r.text


RENDER = {
    "componentId": "counter",
    "props": {"count": 3},
    "state": {"open": True},
    "context": {"type": "document", "theme": "dark"},
}


# -- publish -----------------------------------------------------------------------------------
def test_publish_creates_an_integration(world: World) -> None:
    r = publish(
        world,
        "my-app_1.0",
        icon=PNG_B64,
        previewImages=[PNG_B64],
        secrets={"API_KEY": "s3cret"},
        description="Does things",
        categories=["content"],
        contentSecurityPolicy={"script-src": "'self'", "img-src": "*"},
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "integration" and body["name"] == "my-app_1.0"
    assert body["version"] == 1 and body["runtime"] == "v1"
    assert body["visibility"] == "private" and body["target"] == "all"
    assert body["verified"] is False
    assert body["owner"]["id"] == world.org and body["owner"]["object"] == "organization"
    assert body["permissions"] == {"admin": True, "install": True}
    assert body["contentSecurityPolicy"] == "script-src 'self'; img-src *"
    assert body["urls"]["location"].endswith("/v1/integrations/my-app_1.0")
    assert "secrets" not in body and "script" not in body
    assert "s3cret" not in r.text
    icon = world.client().get(body["urls"]["icon"])
    assert icon.status_code == 200 and icon.content == PNG
    assert icon.headers["content-type"] == "image/png"
    assert world.client().get(body["previewImages"][0]).content == PNG
    with world.storage.read() as tx:
        stored = tx.get("integration", "my-app_1.0")
        assert stored["secrets"] == {"API_KEY": "s3cret"}
        assert tx.get_text(stored["script"]["digest"]) == "export default {}"
    assert world.client("rhea").get("/integrations/my-app_1.0").json()["version"] == 1


def test_publish_again_increments_version_and_keeps_omitted_fields(world: World) -> None:
    published(world, "app", description="first", categories=["analytics"])
    r = world.client("carol").post(
        "/integrations/app", json={"title": "Renamed", "runtime": "v2", "visibility": "public"}
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == 2 and body["title"] == "Renamed" and body["runtime"] == "v2"
    assert body["description"] == "first" and body["categories"] == ["analytics"]
    assert body["permissions"]["admin"] is False
    assert world.client("otto").get("/integrations/app").json()["version"] == 2


def test_publish_validation(world: World) -> None:
    c = world.client()
    assert_error(
        c.post("/integrations/bad%20name%21", json={"title": "Xx", "organization": world.org}),
        400,
        "integrationName",
    )
    assert_error(publish(world, "app", runtime="v3"), 400, "runtime")
    assert_error(c.post("/integrations/app", json={"title": "Xx"}), 400, "organization")
    assert_error(c.post("/integrations/app", json={"organization": world.org}), 400, "title")
    assert_error(publish(world, "app", title="X"), 400, "title")
    assert_error(publish(world, "app", icon="not base64!!"), 400, "icon")
    assert_error(publish(world, "app", previewImages=[PNG_B64] * 4), 400, "previewImages")
    assert_error(publish(world, "app", scopes=["everything"]), 400, "scopes")
    assert_error(publish(world, "app", visibility="secret"), 400, "visibility")
    assert_error(
        publish(world, "app", externalLinks=[{"url": "ftp://x", "label": "x"}]),
        400,
        "externalLinks",
    )
    assert_error(publish(world, "app", organization="nope"), 404, "organization")
    assert world.client().get("/integrations/app").status_code == 404


def test_publish_permissions_and_name_ownership(world: World) -> None:
    assert_error(publish(world, "app", as_user="eve"), 403, "create")
    assert_error(publish(world, "app", as_user="otto"), 404, "organization")
    published(world, "app")
    assert_error(publish(world, "app", as_user="eve"), 403, "create")
    r = publish(world, "app", as_user="otto", organization=world.other_org)
    assert_error(r, 409, "already taken")
    assert_error(publish(world, "app", organization=world.other_org), 400, "organization")
    # the owner may be named by hostname
    assert publish(world, "by-host", organization="acme").json()["owner"]["id"] == world.org


def test_requires_authentication(world: World) -> None:
    assert_error(world.anonymous().get("/integrations"), 401)
    assert_error(world.anonymous().post("/integrations/x", json={}), 401)


# -- list and get ------------------------------------------------------------------------------
def test_list_visibility_filters_and_pagination(world: World) -> None:
    published(
        world,
        "alpha",
        visibility="public",
        categories=["analytics"],
        scopes=["site:views:read"],
        target="site",
    )
    published(
        world,
        "bravo",
        visibility="public",
        title="Bravo Blocks",
        blocks=[{"id": "b", "title": "Block", "urlUnfurl": ["https://www.figma.com/file/*"]}],
    )
    published(
        world,
        "charlie",
        visibility="public",
        contentSources=[{"id": "s", "title": "Src", "configuration": {"componentId": "cfg"}}],
        target="space",
    )
    published(world, "delta")  # private
    published(world, "echo", visibility="unlisted")
    r = publish(world, "otto-app", as_user="otto", organization=world.other_org)
    assert r.status_code == 200, r.text

    def names(user: str = "rhea", **params: Any) -> list[str]:
        r = world.client(user).get("/integrations", params=params)
        assert r.status_code == 200, r.text
        return [i["name"] for i in r.json()["items"]]

    assert names() == ["alpha", "bravo", "charlie", "delta", "echo"]
    assert names("otto") == ["alpha", "bravo", "charlie", "otto-app"]
    assert names(search="BLOCKS") == ["bravo"]
    assert names(search="charl") == ["charlie"]
    assert names(category="analytics") == ["alpha"]
    assert names(scope="site:views:read") == ["alpha"]
    assert names(blocks="true") == ["bravo"]
    assert "bravo" not in names(blocks="false")
    assert names(contentSources="true") == ["charlie"]
    assert names(blockDomain="figma.com") == ["bravo"]
    assert names(target="space") == ["bravo", "charlie", "delta", "echo"]
    assert names("otto", owner=world.other_org) == ["otto-app"]
    assert_error(world.client().get("/integrations", params={"category": "fun"}), 400, "category")
    assert_error(world.client().get("/integrations", params={"limit": 1001}), 400, "limit")

    first = world.client("rhea").get("/integrations", params={"limit": 2}).json()
    assert first["count"] == 5 and len(first["items"]) == 2
    second = (
        world.client("rhea")
        .get("/integrations", params={"limit": 2, "page": first["next"]["page"]})
        .json()
    )
    third = (
        world.client("rhea")
        .get("/integrations", params={"limit": 2, "page": second["next"]["page"]})
        .json()
    )
    assert "next" not in third
    assert [i["name"] for i in first["items"] + second["items"] + third["items"]] == names()


def test_get_integration_visibility(world: World) -> None:
    published(world, "hidden")
    published(world, "unlisted-one", visibility="unlisted")
    assert world.client("rhea").get("/integrations/hidden").json()["name"] == "hidden"
    assert_error(world.client("otto").get("/integrations/hidden"), 404, "hidden")
    assert world.client("otto").get("/integrations/unlisted-one").status_code == 200
    assert_error(world.client().get("/integrations/nothing-here"), 404, "integration")
    assert_error(world.client().get("/integrations/bad%20name"), 400, "integrationName")


# -- delete ------------------------------------------------------------------------------------
def test_delete_integration_removes_installations_and_events(world: World) -> None:
    published(world, "app", visibility="public")
    assert install(world, "app", world.org).status_code == 201
    assert_error(world.client("carol").delete("/integrations/app"), 403, "admin")
    assert_error(world.client("otto").delete("/integrations/app"), 403)
    r = world.client().delete("/integrations/app")
    assert r.status_code == 205 and r.content == b""
    assert_error(world.client().get("/integrations/app"), 404)
    with world.storage.read() as tx:
        assert tx.list("installation", "app") == []
        assert tx.list("integration-event", "app") == []
    assert world.client().delete("/integrations/app").status_code == 204


# -- installations -----------------------------------------------------------------------------
def test_install_creates_an_active_installation_and_an_event(world: World) -> None:
    published(world, "app", visibility="public")
    r = install(world, "app", world.org, externalIds=["ext-1"], configuration={"k": "v"})
    assert r.status_code == 201, r.text
    inst = r.json()
    assert inst["status"] == "active" and inst["target"] == {"organization": world.org}
    assert inst["space_selection"] == "all" and inst["site_selection"] == "all"
    assert inst["configuration"] == {"k": "v"} and inst["externalIds"] == ["ext-1"]
    assert inst["spaces"] == 0
    assert r.headers["location"] == inst["urls"]["location"]
    [event] = events(world, "app")
    assert event["status"] == "success" and event["installationId"] == inst["id"]
    assert event["integrationId"] == "app"
    payload = event["payload"]
    assert payload == {
        "eventId": event["id"],
        "type": "installation_setup",
        "installationId": inst["id"],
        "status": "active",
    }
    trace = event_detail(world, "app", event["id"])["trace"]["logs"]
    assert any("not dispatched" in log["message"] for log in trace)
    listed = world.client().get("/integrations/app/installations").json()
    assert [i["id"] for i in listed["items"]] == [inst["id"]]


def test_install_again_updates_and_records_previous(world: World) -> None:
    published(world, "app", visibility="public")
    first = install(world, "app", world.org, configuration={"a": 1}).json()
    r = install(world, "app", world.org, configuration={"a": 2})
    assert r.status_code == 201 and r.json()["id"] == first["id"]
    assert r.json()["configuration"] == {"a": 2}
    latest = events(world, "app")[0]
    assert latest["payload"]["previous"] == {"status": "active", "configuration": {"a": 1}}


def test_install_permissions_and_validation(world: World) -> None:
    published(world, "app", visibility="public")
    published(world, "private-app")
    assert_error(install(world, "app", world.org, as_user="carol"), 403, "admin")
    assert_error(install(world, "app", "no-such-org"), 404, "organization")
    assert_error(install(world, "app", world.org, as_user="otto"), 404, "organization")
    assert_error(install(world, "private-app", world.other_org), 403, "private")
    assert_error(install(world, "private-app", world.other_org, as_user="otto"), 404)
    assert_error(install(world, "app", world.org, externalIds=["x"] * 6), 400, "externalIds")
    assert_error(
        world.client().post("/integrations/app/installations", json={}), 400, "organization"
    )
    assert_error(install(world, "nope", world.org), 404, "integration")


def test_list_installations_scoping_filter_and_pages(world: World) -> None:
    published(world, "app", visibility="public")
    ours = install(world, "app", world.org, externalIds=["team-a"]).json()
    theirs = install(world, "app", world.other_org, as_user="otto", externalIds=["team-b"]).json()
    c = world.client()
    assert [i["id"] for i in c.get("/integrations/app/installations").json()["items"]] == [
        ours["id"],
        theirs["id"],
    ]
    otto = world.client("otto").get("/integrations/app/installations").json()
    assert [i["id"] for i in otto["items"]] == [theirs["id"]]
    filtered = c.get("/integrations/app/installations", params={"externalId": "team-b"}).json()
    assert [i["id"] for i in filtered["items"]] == [theirs["id"]]
    page = c.get("/integrations/app/installations", params={"limit": 1}).json()
    assert page["count"] == 2 and len(page["items"]) == 1
    rest = c.get(
        "/integrations/app/installations", params={"limit": 1, "page": page["next"]["page"]}
    ).json()
    assert [i["id"] for i in rest["items"]] == [theirs["id"]]


# -- events ------------------------------------------------------------------------------------
def test_events_list_get_and_access(world: World) -> None:
    published(world, "app", visibility="public")
    install(world, "app", world.org)
    install(world, "app", world.other_org, as_user="otto")
    items = events(world, "app", as_user="rhea")
    assert len(items) == 2
    assert items[0]["installationId"] != items[1]["installationId"]  # newest first
    detail = event_detail(world, "app", items[1]["id"])
    assert detail["event"] == items[1]
    assert {"message", "timestamp", "level"} <= set(detail["trace"]["logs"][0])
    assert_error(world.client("otto").get("/integrations/app/events"), 403, "owns")
    assert_error(world.client().get("/integrations/app/events/nope"), 404, "event")
    page = world.client().get("/integrations/app/events", params={"limit": 1}).json()
    assert page["count"] == 2 and "next" in page


# -- space and site items ----------------------------------------------------------------------
def test_integration_spaces(world: World, make_space: Callable[..., dict]) -> None:
    one, two = make_space("One"), make_space("Two")
    published(world, "app", visibility="public")
    inst = install(world, "app", world.org, externalIds=["x1"]).json()
    assert inst["spaces"] == 2
    c = world.client()
    body = c.get("/integrations/app/spaces").json()
    assert body["count"] == 2
    item = body["items"][0]
    assert item["space"] == one["id"] and item["installation"] == inst["id"]
    assert item["integration"] == "app" and item["status"] == "active"
    assert {"location", "publicEndpoint"} <= set(item["urls"])
    extended = c.get("/integrations/app/spaces", params={"extended": "true"}).json()
    assert [i["space"]["id"] for i in extended["items"]] == [one["id"], two["id"]]
    assert extended["items"][1]["space"]["object"] == "space"
    assert extended["items"][1]["space"]["title"] == "Two"
    assert c.get("/integrations/app/spaces", params={"externalId": "nope"}).json()["count"] == 0
    assert c.get("/integrations/app/spaces", params={"externalId": "x1"}).json()["count"] == 2
    page = c.get("/integrations/app/spaces", params={"limit": 1}).json()
    assert len(page["items"]) == 1 and "next" in page
    assert world.client("otto").get("/integrations/app/spaces").json()["count"] == 0
    install(world, "app", world.org, space_selection="selected")
    assert c.get("/integrations/app/spaces").json()["count"] == 0


def test_integration_sites(world: World) -> None:
    r = world.client().post(f"/orgs/{world.org}/sites", json={"title": "Handbook"})
    assert r.status_code == 201, r.text
    site = r.json()
    published(world, "app", visibility="public")
    inst = install(world, "app", world.org).json()
    c = world.client()
    body = c.get("/integrations/app/sites").json()
    assert body["count"] == 1
    assert body["items"][0]["site"] == site["id"]
    assert body["items"][0]["installation"] == inst["id"]
    extended = c.get("/integrations/app/sites", params={"extended": "true"}).json()
    full = extended["items"][0]["site"]
    assert full["object"] == "site" and full["id"] == site["id"] and full["title"] == "Handbook"
    assert "location" in full["urls"]
    assert_error(c.get("/integrations/nope/sites"), 404)


# -- development mode and event dispatch -------------------------------------------------------
def test_dev_mode_dispatches_events_to_the_tunnel(world: World, remote: Remote) -> None:
    published(world, "app", visibility="public", contentSecurityPolicy="default-src 'self'")
    enable_dev(world, "app", remote.url("/tunnel"))
    assert world.client().get("/integrations/app").json()["development"]["tunnelUrl"] == (
        remote.url("/tunnel")
    )
    assert "development" not in world.client("otto").get("/integrations/app").json()
    [enabled] = events(world, "app")
    assert enabled["payload"]["type"] == "dev_mode_enabled"
    assert enabled["status"] == "success"
    [post] = remote.posted("/tunnel")
    assert post["json"] == enabled["payload"]
    assert post["headers"]["content-security-policy"] == "default-src 'self'"

    inst = install(world, "app", world.org).json()
    setup = events(world, "app")[0]
    assert setup["payload"]["type"] == "installation_setup"
    assert setup["status"] == "success"
    assert remote.posted("/tunnel")[-1]["json"] == setup["payload"]
    assert setup["payload"]["installationId"] == inst["id"]
    logs = event_detail(world, "app", setup["id"])["trace"]["logs"]
    assert "HTTP 200" in logs[-1]["message"] and logs[-1]["level"] == "info"

    # all=false: another organization's events are recorded, not forwarded
    install(world, "app", world.other_org, as_user="otto")
    assert len(remote.posted("/tunnel")) == 2
    other = events(world, "app")[0]
    assert other["status"] == "success"
    assert (
        "owner organization"
        in event_detail(world, "app", other["id"])["trace"]["logs"][-1]["message"]
    )
    enable_dev(world, "app", remote.url("/tunnel"), all=True)
    install(world, "app", world.other_org, as_user="otto")
    assert remote.posted("/tunnel")[-1]["json"]["type"] == "installation_setup"


def test_failed_dispatch_marks_the_event_failed(world: World, remote: Remote) -> None:
    published(world, "app")
    enable_dev(world, "app", remote.url("/broken"))
    event = events(world, "app")[0]
    assert event["status"] == "failed"
    logs = event_detail(world, "app", event["id"])["trace"]["logs"]
    assert logs[-1]["level"] == "error" and "HTTP 500" in logs[-1]["message"]
    enable_dev(world, "app", "http://127.0.0.1:1/unreachable")
    event = events(world, "app")[0]
    assert event["status"] == "failed"
    assert event["payload"]["previous"]["development"]["tunnelUrl"] == remote.url("/broken")
    logs = event_detail(world, "app", event["id"])["trace"]["logs"]
    assert "delivery failed" in logs[-1]["message"]


def test_dev_mode_validation_and_permissions(world: World, remote: Remote) -> None:
    published(world, "app")
    c = world.client()
    assert_error(c.put("/integrations/app/dev", json={}), 400, "tunnelUrl")
    assert_error(c.put("/integrations/app/dev", json={"tunnelUrl": "ftp://x"}), 400, "tunnelUrl")
    assert_error(
        c.put("/integrations/app/dev", json={"tunnelUrl": "http://x/" + "a" * 300}),
        400,
        "tunnelUrl",
    )
    assert_error(
        world.client("eve").put("/integrations/app/dev", json={"tunnelUrl": remote.url("/t")}),
        403,
        "create",
    )
    assert_error(c.put("/integrations/nope/dev", json={"tunnelUrl": remote.url("/t")}), 404)
    assert_error(world.client("eve").delete("/integrations/app/dev"), 403)


def test_disable_dev_mode(world: World, remote: Remote) -> None:
    published(world, "app")
    enable_dev(world, "app", remote.url("/tunnel"))
    r = world.client().delete("/integrations/app/dev")
    assert r.status_code == 205 and r.content == b""
    assert "development" not in world.client().get("/integrations/app").json()
    latest = events(world, "app")[0]
    assert latest["payload"]["type"] == "dev_mode_disabled"
    assert latest["status"] == "success"
    assert len(remote.posted("/tunnel")) == 1  # only the enabling event went out
    install(world, "app", world.org)
    assert len(remote.posted("/tunnel")) == 1
    assert_error(world.client().post("/integrations/app/render", json=RENDER), 400, "dev")


# -- render ------------------------------------------------------------------------------------
def test_render_post_forwards_to_the_tunnel(world: World, remote: Remote) -> None:
    published(world, "app", visibility="public", contentSecurityPolicy="default-src 'none'")
    c = world.client()
    assert_error(
        c.post("/integrations/app/render", json=RENDER), 400, "PUT /v1/integrations/app/dev"
    )
    enable_dev(world, "app", remote.url("/tunnel"))
    r = c.post("/integrations/app/render", json=RENDER)
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["type"] == "element" and out["element"]["type"] == "block"
    assert out["element"]["children"][0]["label"] == "Clicked 3 times"
    assert out["state"] == {"open": True}
    sent = remote.posted("/tunnel")[-1]
    assert sent["json"]["type"] == "ui_render"
    for key in ("componentId", "props", "state", "context"):
        assert sent["json"][key] == RENDER[key]
    assert sent["headers"]["content-security-policy"] == "default-src 'none'"
    assert_error(
        c.post("/integrations/app/render", json={"props": {}, "context": {}}), 400, "componentId"
    )
    assert_error(
        world.client("otto").post("/integrations/app/render", json=RENDER), 403, "all=true"
    )


def test_render_rejects_bad_tunnel_answers(world: World, remote: Remote) -> None:
    published(world, "app")
    c = world.client()
    enable_dev(world, "app", remote.url("/bad-ui"))
    assert_error(c.post("/integrations/app/render", json=RENDER), 502, "element")
    enable_dev(world, "app", remote.url("/not-json"))
    assert_error(c.post("/integrations/app/render", json=RENDER), 502, "not JSON")
    enable_dev(world, "app", remote.url("/broken"))
    assert_error(c.post("/integrations/app/render", json=RENDER), 502, "HTTP 500")
    enable_dev(world, "app", "http://127.0.0.1:1/")
    assert_error(c.post("/integrations/app/render", json=RENDER), 502, "tunnel")


def test_render_get_with_lz_string_request(world: World, remote: Remote) -> None:
    published(world, "app")
    enable_dev(world, "app", remote.url("/tunnel"))
    c = world.client()
    encoded = lz_compress_to_uri(json.dumps(RENDER))
    r = c.get("/integrations/app/render", params={"request": encoded})
    assert r.status_code == 200, r.text
    assert r.json()["element"]["children"][0]["label"] == "Clicked 3 times"
    assert remote.posted("/tunnel")[-1]["json"]["componentId"] == "counter"
    assert_error(c.get("/integrations/app/render"), 400, "request")
    assert_error(c.get("/integrations/app/render", params={"request": "!!!"}), 400, "request")
    not_json = lz_compress_to_uri("not json")
    assert_error(c.get("/integrations/app/render", params={"request": not_json}), 400, "JSON")
    partial = lz_compress_to_uri(json.dumps({"props": {}, "context": {}}))
    assert_error(
        c.get("/integrations/app/render", params={"request": partial}), 400, "request.componentId"
    )


# -- LZ-string ---------------------------------------------------------------------------------
# Outputs of the JavaScript lz-string 1.5.0 compressToEncodedURIComponent.
LZ_VECTORS = [
    ("", "Q"),
    ("a", "IZA"),
    ("Hello, world", "BIUwNmD2A0AEDukBOYAmQ"),
    ("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "IY18ZlA"),
    ("héllo wörld ✓ 😀 日本語", "BYS4NmD2AEDuBvAnMATahkcmoXg3AAe9Qp6aA05oHlRQA"),
    ("TOBEORNOTTOBEORTOBEORNOT#", "CoeQQgoiBKByLFJGSpwQYiA"),
]


@pytest.mark.parametrize(("text", "encoded"), LZ_VECTORS)
def test_lz_string_matches_the_javascript_library(text: str, encoded: str) -> None:
    assert lz_compress_to_uri(text) == encoded
    assert lz_decompress_from_uri(encoded) == text


@pytest.mark.slow
def test_lz_string_round_trips() -> None:
    import random

    rng = random.Random(5)
    for _ in range(200):
        text = "".join(
            chr(
                rng.choice(
                    [rng.randint(32, 126), rng.randint(0x80, 0x7FF), rng.randint(0x1F600, 0x1F64F)]
                )
            )
            for _ in range(rng.randint(0, 300))
        )
        assert lz_decompress_from_uri(lz_compress_to_uri(text)) == text
    doc = json.dumps({"componentId": "x", "props": {"list": list(range(100))}})
    assert lz_decompress_from_uri(lz_compress_to_uri(doc).replace("+", " ")) == doc
    assert lz_decompress_from_uri("") is None
    assert lz_decompress_from_uri("%%%") is None
