"""Permissions of spaces and collections: grants, user list, update, removal, aggregate."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from support.asserts import assert_error
from support.worlds import ROLES, World

KINDS = ("spaces", "collections")


@pytest.fixture
def target(world: World, make_space) -> Callable[[str], str]:
    """``target(kind)`` creates a space or a collection as alice and returns its path."""

    def _make(kind: str) -> str:
        if kind == "spaces":
            return f"/spaces/{make_space('Guide')['id']}"
        r = world.client().post(f"/orgs/{world.org}/collections", json={"title": "Docs"})
        return f"/collections/{r.json()['id']}"

    return _make


def _team(world: World, title: str, *members: str) -> str:
    r = world.client().put(
        f"/orgs/{world.org}/teams",
        json={"title": title, "members": [world.users[m] for m in members]},
    )
    assert r.status_code == 201, r.text
    return r.json()["id"]


def _aggregate(world: World, path: str, as_user: str = "alice", **params: str) -> dict[str, str]:
    r = world.client(as_user).get(f"{path}/permissions/aggregate", params=params)
    assert r.status_code == 200, r.text
    ids = {v: k for k, v in world.users.items()}
    return {ids.get(e["user"]["id"], e["user"]["id"]): e["permission"] for e in r.json()["items"]}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.slow
def test_grant_users_and_teams(world: World, target, kind: str) -> None:
    path = target(kind)
    team = _team(world, "Writers", "cody")
    r = world.client().post(
        f"{path}/permissions",
        json={"role": "edit", "users": [world.users["otto"]], "teams": [team]},
    )
    assert r.status_code == 204 and r.content == b""
    listed = world.client().get(f"{path}/permissions/users").json()
    assert listed["count"] == 1
    entry = listed["items"][0]
    assert entry["permission"] == "edit"
    assert entry["user"]["object"] == "user" and entry["user"]["id"] == world.users["otto"]
    perms = world.client("otto").get(path).json()["permissions"]
    assert perms["view"] is True
    if kind == "spaces":
        assert perms["edit"] is True and perms["admin"] is False
        assert world.client("cody").get(path).json()["permissions"]["edit"] is True
    else:
        assert perms["create"] is False and perms["admin"] is False
    with world.storage.read() as tx:
        grant = tx.get("team-grant", f"{path.rsplit('/', 1)[1]}:{team}")
    assert grant["role"] == "edit" and grant["targetKind"] == kind[:-1]
    got = world.client().get(f"/orgs/{world.org}/teams/{team}").json()
    assert got["spaces"] == (1 if kind == "spaces" else 0)


@pytest.mark.parametrize("kind", KINDS)
def test_grant_validation_and_roles(world: World, target, kind: str) -> None:
    path = f"{target(kind)}/permissions"
    otto = world.users["otto"]
    api = world.client()
    assert_error(api.post(path, json={"users": [otto]}), 400, "role")
    assert_error(api.post(path, json={"role": "boss", "users": [otto]}), 400, "role")
    assert_error(api.post(path, json={"role": "read"}), 400, "users")
    assert_error(api.post(path, json={"role": "read", "users": []}), 400, "users")
    assert_error(api.post(path, json={"role": "read", "teams": []}), 400, "teams")
    assert_error(api.post(path, json={"role": "read", "users": ["ghost"]}), 404, "user")
    assert_error(api.post(path, json={"role": "read", "teams": ["ghost"]}), 404, "team")
    assert_error(world.client("carol").post(path, json={"role": "read", "users": [otto]}), 403)
    assert_error(world.client("otto").post(path, json={"role": "read", "users": [otto]}), 404)
    assert_error(world.anonymous().post(path, json={"role": "read", "users": [otto]}), 401)
    assert api.get(f"{path}/users").json()["count"] == 0


def test_team_of_another_org_cannot_be_granted(world: World, target) -> None:
    path = target("spaces")
    r = world.client().put(f"/orgs/{world.other_org}/teams", json={"title": "Elsewhere"})
    team = r.json()["id"]
    assert_error(
        world.client().post(f"{path}/permissions", json={"role": "read", "teams": [team]}),
        404,
        "team",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_list_user_permissions_paginates(world: World, target, kind: str) -> None:
    path = target(kind)
    names = ["otto", "rhea", "cody"]
    world.client().post(
        f"{path}/permissions", json={"role": "comment", "users": [world.users[n] for n in names]}
    )
    api = world.client("rhea")
    first = api.get(f"{path}/permissions/users", params={"limit": 2}).json()
    assert first["count"] == 3 and len(first["items"]) == 2
    second = api.get(
        f"{path}/permissions/users", params={"limit": 2, "page": first["next"]["page"]}
    ).json()
    assert len(second["items"]) == 1 and "next" not in second
    seen = [e["user"]["id"] for e in first["items"] + second["items"]]
    assert seen == [world.users[n] for n in names]
    assert_error(world.client("otto").get(f"/{kind}/nope/permissions/users"), 404)
    assert_error(world.anonymous().get(f"{path}/permissions/users"), 401)


@pytest.mark.parametrize("kind", KINDS)
def test_remove_user_permission(world: World, target, kind: str) -> None:
    path = target(kind)
    otto = world.users["otto"]
    api = world.client()
    api.post(f"{path}/permissions", json={"role": "read", "users": [otto]})
    assert world.client("otto").get(path).status_code == 200
    assert_error(world.client("carol").delete(f"{path}/permissions/users/{otto}"), 403)
    assert_error(world.anonymous().delete(f"{path}/permissions/users/{otto}"), 401)
    r = api.delete(f"{path}/permissions/users/{otto}")
    assert r.status_code == 205 and r.content == b""
    assert api.get(f"{path}/permissions/users").json()["count"] == 0
    assert_error(world.client("otto").get(path), 404)
    again = api.delete(f"{path}/permissions/users/{otto}")
    assert again.status_code == 204 and again.content == b""


@pytest.mark.parametrize("kind", KINDS)
def test_update_user_permission(world: World, target, kind: str) -> None:
    path = target(kind)
    otto = world.users["otto"]
    api = world.client()
    api.post(f"{path}/permissions", json={"role": "read", "users": [otto]})
    r = api.patch(f"{path}/permissions/users/{otto}", json={"role": "admin"})
    assert r.status_code == 204 and r.content == b""
    assert api.get(f"{path}/permissions/users").json()["items"][0]["permission"] == "admin"
    assert world.client("otto").get(path).json()["permissions"]["admin"] is True
    # null: a guest, read-only access
    assert api.patch(f"{path}/permissions/users/{otto}", json={"role": None}).status_code == 204
    assert api.get(f"{path}/permissions/users").json()["items"][0]["permission"] == "read"
    perms = world.client("otto").get(path).json()["permissions"]
    assert perms["view"] is True and perms["admin"] is False
    assert_error(api.patch(f"{path}/permissions/users/{otto}", json={"role": "boss"}), 400, "role")
    # every field of the body is optional: without a role the permission stays as it is
    before = api.get(f"{path}/permissions/users").json()["items"]
    assert api.patch(f"{path}/permissions/users/{otto}", json={}).status_code == 204
    assert api.get(f"{path}/permissions/users").json()["items"] == before
    assert_error(api.patch(f"{path}/permissions/users/ghost", json={"role": "read"}), 404, "user")
    assert_error(
        api.patch(f"{path}/permissions/users/{world.users['eve']}", json={"role": "read"}), 404
    )
    assert_error(
        world.client("carol").patch(f"{path}/permissions/users/{otto}", json={"role": "admin"}),
        403,
    )


@pytest.mark.parametrize("kind", KINDS)
def test_aggregate_lists_everyone_with_access(world: World, target, kind: str) -> None:
    path = target(kind)
    roles = _aggregate(world, path)
    assert roles == {name: role for name, role in ROLES.items() if role}  # every member
    world.client().post(
        f"{path}/permissions", json={"role": "review", "users": [world.users["otto"]]}
    )
    roles = _aggregate(world, path, "rhea")
    assert roles["otto"] == "review" and len(roles) == 7
    assert _aggregate(world, path, role="review") == {"rita": "review", "otto": "review"}
    r = world.client().get(f"{path}/permissions/aggregate", params={"limit": 4}).json()
    assert r["count"] == 7 and len(r["items"]) == 4 and "next" in r
    assert_error(
        world.client().get(f"{path}/permissions/aggregate", params={"role": "boss"}), 400, "role"
    )
    assert_error(world.anonymous().get(f"{path}/permissions/aggregate"), 401)
    assert_error(world.client().get(f"/{kind}/nope/permissions/aggregate"), 404)


# -- inheritance, checked through `permissions` booleans and the aggregate -------------------


def test_collection_default_level_is_inherited_by_its_spaces(world: World, make_space) -> None:
    api = world.client()
    coll = api.post(f"/orgs/{world.org}/collections", json={"title": "Docs"}).json()
    sub = api.post(
        f"/orgs/{world.org}/collections", json={"title": "Sub", "parent": coll["id"]}
    ).json()
    space = make_space("Inside", parent=sub["id"])
    path = f"/spaces/{space['id']}"
    assert world.client("rhea").get(path).json()["permissions"]["edit"] is False
    api.patch(f"/collections/{coll['id']}", json={"defaultLevel": "edit"})
    perms = world.client("rhea").get(path).json()["permissions"]
    assert perms["edit"] is True and perms["admin"] is False
    assert world.client("rhea").get(f"/collections/{sub['id']}").json()["permissions"][
        "create"
    ] is (False)
    roles = _aggregate(world, path)
    assert roles["rhea"] == "edit" and roles["carol"] == "edit" and roles["alice"] == "admin"
    assert _aggregate(world, f"/collections/{coll['id']}")["rhea"] == "edit"
    # the space's own level wins over the inherited one
    api.patch(path, json={"defaultLevel": "comment"})
    assert _aggregate(world, path)["rhea"] == "comment"
    assert world.client("rhea").get(path).json()["permissions"]["edit"] is False


def test_team_grant_raises_a_role(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}"
    assert world.client("cody").get(path).json()["permissions"]["edit"] is False
    team = _team(world, "Editors", "cody", "rhea")
    world.client().post(f"{path}/permissions", json={"role": "edit", "teams": [team]})
    perms = world.client("cody").get(path).json()["permissions"]
    assert (
        perms["edit"] is True
        and perms["review"] is True
        and perms["admin"] is False
        and perms["comment"] is True
    )
    roles = _aggregate(world, path)
    assert roles["cody"] == "edit" and roles["rhea"] == "edit"
    assert roles["carol"] == "create" and roles["rita"] == "review"
    # a team grant never lowers anybody
    low = _team(world, "Readers", "carol")
    world.client().post(f"{path}/permissions", json={"role": "read", "teams": [low]})
    assert _aggregate(world, path)["carol"] == "create"
    team_json = world.client().get(f"/orgs/{world.org}/teams/{team}").json()
    assert team_json["spaces"] == 1 and team_json["members"] == 2
    # a team granted on a collection reaches the collection's spaces
    coll = world.client().post(f"/orgs/{world.org}/collections", json={"title": "C"}).json()
    inside = make_space("Inside", parent=coll["id"])
    world.client().post(
        f"/collections/{coll['id']}/permissions", json={"role": "edit", "teams": [team]}
    )
    assert _aggregate(world, f"/spaces/{inside['id']}")["cody"] == "edit"
    assert world.client().get(f"/orgs/{world.org}/teams/{team}").json()["spaces"] == 2


def test_direct_grant_to_a_non_member_guest(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}"
    assert "otto" not in _aggregate(world, path)
    assert_error(world.client("otto").get(path), 404)
    world.client().post(
        f"{path}/permissions", json={"role": "comment", "users": [world.users["otto"]]}
    )
    perms = world.client("otto").get(path).json()["permissions"]
    assert perms["view"] is True and perms["comment"] is True
    assert perms["edit"] is False and perms["admin"] is False
    assert _aggregate(world, path)["otto"] == "comment"
    # a guest of a collection is a guest of its spaces too
    coll = world.client().post(f"/orgs/{world.org}/collections", json={"title": "C"}).json()
    inside = make_space("Inside", parent=coll["id"])
    world.client().post(
        f"/collections/{coll['id']}/permissions",
        json={"role": None, "users": [world.users["otto"]]},
    )
    assert world.client("otto").get(f"/spaces/{inside['id']}").json()["permissions"]["view"]
    assert _aggregate(world, f"/spaces/{inside['id']}")["otto"] == "read"
    assert _aggregate(world, f"/collections/{coll['id']}")["otto"] == "read"


def test_org_admin_is_always_admin(world: World, make_space) -> None:
    api = world.client()
    coll = api.post(f"/orgs/{world.org}/collections", json={"title": "C"}).json()
    api.patch(f"/collections/{coll['id']}", json={"defaultLevel": "read"})
    space = make_space("Guide", parent=coll["id"])
    api.patch(f"/spaces/{space['id']}", json={"defaultLevel": "read"})
    api.post(
        f"/spaces/{space['id']}/permissions", json={"role": "read", "users": [world.users["alice"]]}
    )
    perms = api.get(f"/spaces/{space['id']}").json()["permissions"]
    assert perms["admin"] is True and perms["edit"] is True
    assert api.get(f"/collections/{coll['id']}").json()["permissions"]["admin"] is True
    roles = _aggregate(world, f"/spaces/{space['id']}")
    assert roles["alice"] == "admin" and roles["carol"] == "read"
    assert _aggregate(world, f"/spaces/{space['id']}", role="admin") == {"alice": "admin"}
