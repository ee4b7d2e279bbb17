"""Core behaviour of the local server: auth, errors, organizations, members, ETag, rate limits."""

from __future__ import annotations

from fastapi.testclient import TestClient

from gitbook_tui.server.app import create_app
from gitbook_tui.server.core.faults import parse_faults
from support.asserts import assert_error
from support.worlds import World


def test_every_operation_requires_a_bearer_token(world: World) -> None:
    assert_error(world.anonymous().get("/user"), 401, "authorization")
    bad = world.anonymous()
    bad.headers["Authorization"] = "Bearer nope"
    assert_error(bad.get("/orgs"), 401, "not valid")


def test_current_user(world: World) -> None:
    body = world.client("eve").get("/user").json()
    assert body["object"] == "user"
    assert body["id"] == world.users["eve"]
    assert body["email"] == "eve@acme.test"
    assert body["urls"]["location"].endswith(f"/v1/users/{world.users['eve']}")


def test_unknown_route_is_404_in_error_shape(world: World) -> None:
    assert_error(world.client().get("/nowhere"), 404, "endpoint")


def test_list_orgs_only_those_the_caller_belongs_to(world: World) -> None:
    alice = world.client("alice").get("/orgs").json()
    assert {o["id"] for o in alice["items"]} == {world.org, world.other_org}
    assert alice["count"] == 2
    rhea = world.client("rhea").get("/orgs").json()
    assert [o["id"] for o in rhea["items"]] == [world.org]
    assert rhea["items"][0]["permissions"]["admin"] is False
    assert alice["items"][0]["object"] == "organization"


def test_get_org_hidden_from_non_members(world: World) -> None:
    assert world.client("alice").get(f"/orgs/{world.org}").json()["title"] == "Acme Docs"
    assert_error(world.client("otto").get(f"/orgs/{world.org}"), 404, "organization")


def test_patch_org_validates_and_persists(world: World) -> None:
    c = world.client("alice")
    r = c.patch(f"/orgs/{world.org}", json={"title": "Acme", "hostname": "acme-docs", "ai": False})
    assert r.status_code == 200
    assert r.json()["title"] == "Acme" and r.json()["ai"] is False
    assert c.get(f"/orgs/{world.org}").json()["hostname"] == "acme-docs"
    assert_error(c.patch(f"/orgs/{world.org}", json={"hostname": "Not Valid!"}), 400, "hostname")
    assert_error(c.patch(f"/orgs/{world.org}", json={"defaultRole": "boss"}), 400, "defaultRole")
    assert_error(world.client("eve").patch(f"/orgs/{world.org}", json={"title": "x"}), 403)


def test_malformed_json_is_400(world: World) -> None:
    r = world.client().patch(
        f"/orgs/{world.org}", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert_error(r, 400, "json")


def test_orgs_by_email_domain(world: World) -> None:
    body = world.client("otto").get("/email-domains/acme.test/orgs").json()
    assert [o["id"] for o in body["organizations"]] == [world.org]
    assert world.client().get("/email-domains/none.test/orgs").json() == {"organizations": []}


def test_members_paginate_with_opaque_tokens(world: World) -> None:
    c = world.client()
    first = c.get(f"/orgs/{world.org}/members", params={"limit": 4}).json()
    assert first["count"] == 6 and len(first["items"]) == 4
    second = c.get(
        f"/orgs/{world.org}/members", params={"limit": 4, "page": first["next"]["page"]}
    ).json()
    assert len(second["items"]) == 2 and "next" not in second
    names = [m["user"]["displayName"] for m in first["items"] + second["items"]]
    assert len(set(names)) == 6
    assert_error(c.get(f"/orgs/{world.org}/members", params={"limit": 1001}), 400, "limit")
    assert_error(c.get(f"/orgs/{world.org}/members", params={"page": "garbage!"}), 400, "page")
    admins = c.get(f"/orgs/{world.org}/members", params={"role": "admin"}).json()
    assert [m["role"] for m in admins["items"]] == ["admin"]


def test_etag_and_304(world: World) -> None:
    c = world.client()
    first = c.get(f"/orgs/{world.org}")
    etag = first.headers["etag"]
    again = c.get(f"/orgs/{world.org}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    c.patch(f"/orgs/{world.org}", json={"title": "Changed"})
    changed = c.get(f"/orgs/{world.org}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["etag"] != etag


def test_rate_limit_headers_and_429(db_path, clock) -> None:
    from gitbook_tui.server.bootstrap import ensure_owner

    app = create_app(db_path, clock=clock, faults="rate-limit=3/min")
    token = ensure_owner(app.state.server.storage, clock)
    c = TestClient(
        app, base_url="http://testserver/v1", headers={"Authorization": f"Bearer {token}"}
    )
    seen = [c.get("/user") for _ in range(4)]
    assert [r.status_code for r in seen] == [200, 200, 200, 429]
    assert seen[0].headers["x-ratelimit-limit"] == "3"
    assert seen[0].headers["x-ratelimit-remaining"] == "2"
    assert int(seen[3].headers["retry-after"]) >= 1
    assert_error(seen[3], 429, "rate limit")


def test_fault_spec_parsing() -> None:
    f = parse_faults("latency=200ms,error-rate=0.1,rate-limit=30/min")
    assert (f.latency, f.error_rate, f.rate_limit, f.rate_window) == (0.2, 0.1, 30, 60.0)
    import pytest

    with pytest.raises(ValueError, match="unknown fault"):
        parse_faults("boom=1")


def test_injected_errors_are_5xx(db_path, clock) -> None:
    from gitbook_tui.server.bootstrap import ensure_owner

    app = create_app(db_path, clock=clock, faults="error-rate=1")
    token = ensure_owner(app.state.server.storage, clock)
    c = TestClient(
        app, base_url="http://testserver/v1", headers={"Authorization": f"Bearer {token}"}
    )
    assert_error(c.get("/user"), 503, "injected")


def test_create_and_read_space(world: World, make_space) -> None:
    space = make_space("User guide", emoji="📘")
    assert space["object"] == "space" and space["title"] == "User guide"
    assert space["visibility"] == "private" and space["editMode"] == "live"
    assert space["permissions"]["admin"] is True
    got = world.client("rhea").get(f"/spaces/{space['id']}").json()
    assert got["permissions"]["edit"] is False and got["permissions"]["view"] is True
    assert_error(world.client("otto").get(f"/spaces/{space['id']}"), 404, "space")
    assert_error(
        world.client("eve").post(f"/orgs/{world.org}/spaces", json={"title": "x"}), 403, "create"
    )
    assert_error(
        world.client().post(f"/orgs/{world.org}/spaces", json={"title": "x" * 51}), 400, "title"
    )
    listed = world.client().get(f"/orgs/{world.org}/spaces").json()
    assert [s["id"] for s in listed["items"]] == [space["id"]]
