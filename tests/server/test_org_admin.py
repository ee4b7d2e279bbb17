"""Organization administration: email invites, joining, link invites, teams, translations."""

from __future__ import annotations

from typing import Any

import pytest

from support.asserts import assert_error
from support.worlds import World


def assert_deleted(api: Any, path: str, item_id: str, what: str, left: int) -> None:
    """Deleting ``path``/``item_id`` answers 205 with no body, the item is then unknown (a 404
    naming ``what``), deleting it again answers 204 and ``left`` items remain listed."""
    r = api.delete(f"{path}/{item_id}")
    assert r.status_code == 205 and r.content == b""
    assert_error(api.get(f"{path}/{item_id}"), 404, what)
    assert api.delete(f"{path}/{item_id}").status_code == 204
    assert api.get(path).json()["count"] == left


def _member(world: World, user_id: str) -> dict | None:
    with world.storage.read() as tx:
        return tx.get("member", f"{world.org}:{user_id}")


# -- email invites ----------------------------------------------------------------------


def test_invite_users_by_email(world: World) -> None:
    api = world.client()
    r = api.post(
        f"/orgs/{world.org}/invites",
        json={
            "emails": [
                "new.person@acme.test",
                {"email": "boss@acme.test", "role": "admin"},
                "otto@acme.test",
                "eve@acme.test",
                "NEW.person@acme.test",
            ],
            "role": "edit",
        },
    )
    assert r.status_code == 200
    body = r.json()
    assert body["invited"] == 3 and body["failedSSOEmails"] == []
    assert len(body["users"]) == 3 and world.users["otto"] in body["users"]
    new_id = body["users"][0]
    user = api.get(f"/users/{new_id}").json()
    assert user["email"] == "new.person@acme.test" and user["displayName"] == "new.person"
    assert _member(world, new_id)["role"] == "edit" and _member(world, new_id)["pending"] is True
    assert _member(world, body["users"][1])["role"] == "admin"
    assert _member(world, world.users["otto"])["role"] == "edit"
    assert _member(world, world.users["eve"])["role"] == "edit"  # already a member: unchanged
    members = api.get(f"/orgs/{world.org}/members").json()
    assert members["count"] == 9
    assert world.client("otto").get(f"/orgs/{world.org}").status_code == 200


def test_invite_default_role_and_sso(world: World) -> None:
    api = world.client()
    r = api.post(f"/orgs/{world.org}/invites", json={"emails": ["a@x.test"], "sso": True})
    assert r.status_code == 200
    body = r.json()
    assert body["failedSSOEmails"] == ["a@x.test"] and body["invited"] == 1
    member = _member(world, body["users"][0])
    assert member["role"] == "read" and member["sso"] is False
    api.patch(f"/orgs/{world.org}", json={"sso": True})
    body = api.post(
        f"/orgs/{world.org}/invites", json={"emails": ["b@x.test"], "sso": True, "role": "comment"}
    ).json()
    assert body["failedSSOEmails"] == []
    member = _member(world, body["users"][0])
    assert member["sso"] is True and member["role"] == "comment"


def test_invite_validation_and_roles(world: World) -> None:
    path = f"/orgs/{world.org}/invites"
    api = world.client()
    assert_error(api.post(path, json={"emails": ["not-an-email"]}), 400, "emails")
    assert_error(api.post(path, json={"emails": []}), 400, "emails")
    assert_error(api.post(path, json={}), 400, "emails")
    assert_error(api.post(path, json={"emails": ["a@x.test"], "role": "boss"}), 400, "role")
    assert_error(world.client("carol").post(path, json={"emails": ["a@x.test"]}), 403, "admin")
    assert_error(world.client("otto").post(path, json={"emails": ["a@x.test"]}), 404)
    assert_error(world.anonymous().post(path, json={"emails": ["a@x.test"]}), 401)
    assert api.get(f"/orgs/{world.org}/members").json()["count"] == 6


def test_join_with_email_invite(world: World) -> None:
    api = world.client()
    api.post(f"/orgs/{world.org}/invites", json={"emails": ["otto@acme.test"], "role": "review"})
    with world.storage.read() as tx:
        invite = tx.list("invite", world.org)[0]
    assert invite["user"] == world.users["otto"]
    assert_error(world.client("eve").post(f"/orgs/{world.org}/invites/{invite['id']}"), 404)
    r = world.client("otto").post(f"/orgs/{world.org}/invites/{invite['id']}")
    assert r.status_code == 200 and r.json() == {}
    member = _member(world, world.users["otto"])
    assert member["pending"] is False and member["role"] == "review"
    assert_error(world.client("otto").post(f"/orgs/{world.org}/invites/{invite['id']}"), 404)
    assert_error(world.client("otto").post(f"/orgs/{world.org}/invites/nope"), 404, "invite")
    assert_error(world.anonymous().post(f"/orgs/{world.org}/invites/{invite['id']}"), 401)


def test_join_with_link_invite(world: World) -> None:
    api = world.client()
    link = api.post(f"/orgs/{world.org}/link-invites", json={"role": "comment"}).json()
    assert_error(world.client("otto").get(f"/orgs/{world.org}"), 404)
    r = world.client("otto").post(f"/orgs/{world.org}/invites/{link['id']}")
    assert r.status_code == 200 and r.json() == {}
    assert _member(world, world.users["otto"])["role"] == "comment"
    assert world.client("otto").get(f"/orgs/{world.org}").status_code == 200
    # joining again changes nothing; links disabled are refused
    world.client("otto").post(f"/orgs/{world.org}/invites/{link['id']}")
    assert _member(world, world.users["otto"])["role"] == "comment"
    api.patch(f"/orgs/{world.org}", json={"inviteLinks": False})
    assert_error(world.client("eve").post(f"/orgs/{world.org}/invites/{link['id']}"), 403)
    assert_error(world.client("otto").post(f"/orgs/{world.other_org}/invites/{link['id']}"), 404)


# -- link invites -----------------------------------------------------------------------


def test_link_invites_crud(world: World) -> None:
    api = world.client()
    path = f"/orgs/{world.org}/link-invites"
    r = api.post(path, json={"role": "edit"})
    assert r.status_code == 201
    invite = r.json()
    assert invite["object"] == "invite" and invite["role"] == "edit"
    assert invite["redundant"] is False
    read = api.post(path, json={"role": "read"}).json()
    assert read["redundant"] is True  # the default role of the org is read
    guest = api.post(path, json={"role": None}).json()
    assert guest["role"] is None and guest["redundant"] is True
    got = api.get(f"{path}/{invite['id']}").json()
    assert got == invite
    listed = api.get(path, params={"limit": 2}).json()
    assert listed["count"] == 3 and len(listed["items"]) == 2
    rest = api.get(path, params={"limit": 2, "page": listed["next"]["page"]}).json()
    assert [i["id"] for i in listed["items"] + rest["items"]] == [
        invite["id"],
        read["id"],
        guest["id"],
    ]
    r = api.patch(f"{path}/{read['id']}", json={"role": "admin"})
    assert r.status_code == 200 and r.json()["role"] == "admin" and r.json()["redundant"] is False
    assert api.get(f"{path}/{read['id']}").json()["role"] == "admin"
    api.patch(f"/orgs/{world.org}", json={"defaultRole": "edit"})
    assert api.get(f"{path}/{invite['id']}").json()["redundant"] is True
    assert_deleted(api, path, invite["id"], "invite", left=2)


def test_link_invites_validation_and_roles(world: World) -> None:
    api = world.client()
    path = f"/orgs/{world.org}/link-invites"
    assert_error(api.post(path, json={}), 400, "role")
    assert_error(api.post(path, json={"role": "boss"}), 400, "role")
    invite = api.post(path, json={"role": "edit"}).json()
    assert_error(api.patch(f"{path}/{invite['id']}", json={"role": "boss"}), 400, "role")
    assert_error(api.patch(f"{path}/nope", json={"role": "read"}), 404, "invite")
    assert_error(api.get(f"{path}/nope"), 404, "invite")
    assert_error(world.client("eve").get(path), 403, "admin")
    assert_error(world.client("eve").post(path, json={"role": "read"}), 403)
    assert_error(world.client("eve").patch(f"{path}/{invite['id']}", json={"role": "read"}), 403)
    assert_error(world.client("eve").delete(f"{path}/{invite['id']}"), 403)
    assert_error(world.client("otto").get(path), 404)
    assert_error(world.anonymous().get(path), 401)
    other = api.post(f"/orgs/{world.other_org}/link-invites", json={"role": "read"}).json()
    assert_error(api.get(f"{path}/{other['id']}"), 404)


# -- teams ------------------------------------------------------------------------------


def test_create_and_read_team(world: World, make_space) -> None:
    api = world.client()
    r = api.put(
        f"/orgs/{world.org}/teams",
        json={"title": "Writers", "members": [world.users["eve"], world.users["cody"]]},
    )
    assert r.status_code == 201
    team = r.json()
    assert team["object"] == "team" and team["title"] == "Writers"
    assert team["members"] == 2 and team["spaces"] == 0
    assert team["createdAt"] == "2026-11-01T09:00:00.000Z"
    assert team["permissions"] == {"admin": True, "view": True}
    space = make_space("Guide")
    api.post(f"/spaces/{space['id']}/permissions", json={"role": "edit", "teams": [team["id"]]})
    got = world.client("rhea").get(f"/orgs/{world.org}/teams/{team['id']}")
    assert got.status_code == 200
    assert got.json()["spaces"] == 1 and got.json()["permissions"] == {"admin": False, "view": True}
    api.delete(f"/spaces/{space['id']}")
    assert api.get(f"/orgs/{world.org}/teams/{team['id']}").json()["spaces"] == 0
    assert_error(world.client("otto").get(f"/orgs/{world.org}/teams/{team['id']}"), 404)
    assert_error(api.get(f"/orgs/{world.org}/teams/nope"), 404, "team")
    assert_error(api.get(f"/orgs/{world.other_org}/teams/{team['id']}"), 404, "team")


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "title"),
        ({"title": ""}, "title"),
        ({"title": "t" * 65}, "title"),
        ({"title": "T", "members": ["ghost"]}, "members"),
        ({"title": "T", "members": "eve"}, "members"),
    ],
)
def test_create_team_validation(world: World, payload: dict, field: str) -> None:
    assert_error(world.client().put(f"/orgs/{world.org}/teams", json=payload), 400, field)


def test_team_members_must_belong_to_the_org(world: World) -> None:
    r = world.client().put(
        f"/orgs/{world.org}/teams", json={"title": "T", "members": [world.users["otto"]]}
    )
    assert_error(r, 400, "members", world.users["otto"])
    assert_error(world.client("carol").put(f"/orgs/{world.org}/teams", json={"title": "T"}), 403)
    assert_error(world.client("otto").put(f"/orgs/{world.org}/teams", json={"title": "T"}), 404)
    assert_error(world.anonymous().put(f"/orgs/{world.org}/teams", json={"title": "T"}), 401)
    assert world.client().get(f"/orgs/{world.org}/teams").json()["count"] == 0


def test_list_teams_with_filters(world: World) -> None:
    api = world.client()
    for title in ("Docs Writers", "Reviewers", "API writers"):
        api.put(f"/orgs/{world.org}/teams", json={"title": title})
    path = f"/orgs/{world.org}/teams"
    everything = world.client("rhea").get(path).json()
    assert [t["title"] for t in everything["items"]] == ["Docs Writers", "Reviewers", "API writers"]
    found = api.get(path, params={"title": "WRITERS"}).json()
    assert [t["title"] for t in found["items"]] == ["Docs Writers", "API writers"]
    assert api.get(path, params={"owner": world.users["alice"]}).json()["count"] == 3
    assert api.get(path, params={"owner": world.users["eve"]}).json()["count"] == 0
    assert_error(api.get(path, params={"owner": world.users["otto"]}), 400, "owner")
    page = api.get(path, params={"limit": 2}).json()
    assert len(page["items"]) == 2 and page["next"]["page"]
    assert_error(world.client("otto").get(path), 404)


def test_update_and_delete_team(world: World, make_space) -> None:
    api = world.client()
    team = api.put(
        f"/orgs/{world.org}/teams", json={"title": "Old", "members": [world.users["cody"]]}
    )
    team = team.json()
    path = f"/orgs/{world.org}/teams/{team['id']}"
    r = api.patch(path, json={"title": "New"})
    assert r.status_code == 200 and r.json()["title"] == "New" and r.json()["members"] == 1
    assert api.get(path).json()["title"] == "New"
    assert_error(api.patch(path, json={"title": ""}), 400, "title")
    assert_error(api.patch(path, json={}), 400, "title")
    assert_error(world.client("eve").patch(path, json={"title": "x"}), 403)
    assert_error(api.patch(f"/orgs/{world.org}/teams/nope", json={"title": "x"}), 404)
    space = make_space("Guide")
    api.post(f"/spaces/{space['id']}/permissions", json={"role": "admin", "teams": [team["id"]]})
    assert world.client("cody").get(f"/spaces/{space['id']}").json()["permissions"]["admin"]
    assert_error(world.client("eve").delete(path), 403)
    r = api.delete(path)
    assert r.status_code == 205 and r.content == b""
    assert_error(api.get(path), 404)
    assert world.client("cody").get(f"/spaces/{space['id']}").json()["permissions"]["admin"] is (
        False
    )
    assert api.delete(path).status_code == 204


# -- translations -----------------------------------------------------------------------


def test_translations_crud(world: World) -> None:
    api = world.client()
    path = f"/orgs/{world.org}/translations"
    r = api.post(path, json={"title": "Europe", "languages": ["fr", "de", "fr"]})
    assert r.status_code == 201
    item = r.json()
    assert item["object"] == "translation-settings" and item["title"] == "Europe"
    assert item["languages"] == ["fr", "de"]
    assert item["permissions"] == {"view": True, "edit": True}
    assert item["urls"]["location"].endswith(f"/v1/orgs/{world.org}/translations/{item['id']}")
    got = world.client("rhea").get(f"{path}/{item['id']}").json()
    assert got["title"] == "Europe" and got["permissions"] == {"view": True, "edit": False}
    world.clock.advance(__import__("datetime").timedelta(hours=1))
    r = api.put(f"{path}/{item['id']}", json={"title": "Asia", "languages": ["ja"]})
    assert r.status_code == 200
    assert r.json()["title"] == "Asia" and r.json()["languages"] == ["ja"]
    assert r.json()["updatedAt"] > r.json()["createdAt"]
    r = api.put(f"{path}/{item['id']}", json={"title": "Nothing"})
    assert r.json()["languages"] == []
    second = api.post(path, json={"title": "Second"}).json()
    listed = world.client("rhea").get(path).json()
    assert [t["id"] for t in listed["items"]] == [item["id"], second["id"]]
    assert_deleted(api, path, item["id"], "translation", left=1)


def test_translations_validation_and_roles(world: World) -> None:
    api = world.client()
    path = f"/orgs/{world.org}/translations"
    assert_error(api.post(path, json={}), 400, "title")
    assert_error(api.post(path, json={"title": "x" * 101}), 400, "title")
    assert_error(api.post(path, json={"title": "x", "languages": ["klingon"]}), 400, "languages")
    assert_error(api.post(path, json={"title": "x", "languages": "fr"}), 400, "languages")
    item = api.post(path, json={"title": "Europe"}).json()
    assert_error(api.put(f"{path}/{item['id']}", json={"languages": ["fr"]}), 400, "title")
    assert_error(api.put(f"{path}/nope", json={"title": "x"}), 404, "translation")
    assert_error(world.client("eve").post(path, json={"title": "x"}), 403, "admin")
    assert_error(world.client("eve").put(f"{path}/{item['id']}", json={"title": "x"}), 403)
    assert_error(world.client("eve").delete(f"{path}/{item['id']}"), 403)
    assert_error(world.client("otto").get(path), 404)
    assert_error(world.client("otto").get(f"{path}/{item['id']}"), 404)
    assert_error(world.anonymous().get(path), 401)
    assert api.get(f"{path}/{item['id']}").json()["title"] == "Europe"


def test_content_link_invites_grant_a_level_on_a_space(world: World) -> None:
    c = world.client()
    space = c.post(f"/orgs/{world.org}/spaces", json={"title": "Shared"}).json()
    url = f"/orgs/{world.org}/link-invites"
    invite = c.post(url, json={"level": "comment", "space": space["id"]})
    assert invite.status_code == 201, invite.text
    body = invite.json()
    assert body["level"] == "comment" and body["space"]["id"] == space["id"]
    assert "role" not in body
    changed = c.patch(f"{url}/{body['id']}", json={"level": "review"}).json()
    assert changed["level"] == "review"
    assert_error(c.patch(f"{url}/{body['id']}", json={"role": "read"}), 400, "level")
    # otto (no member of this organization) joins as a guest with that level on the space
    assert world.client("otto").post(f"/orgs/{world.org}/invites/{body['id']}").status_code == 200
    perms = c.get(f"/spaces/{space['id']}/permissions/users").json()["items"]
    assert {(p["user"]["id"], p["permission"]) for p in perms} >= {(world.users["otto"], "review")}
    assert world.client("otto").get(f"/spaces/{space['id']}").status_code == 200


def test_content_link_invite_validation(world: World) -> None:
    c = world.client()
    url = f"/orgs/{world.org}/link-invites"
    assert_error(c.post(url, json={"level": "read"}), 400, "space")
    assert_error(c.post(url, json={"level": "read", "space": "a", "collection": "b"}), 400)
    assert_error(c.post(url, json={"role": "read", "level": "read", "space": "a"}), 400)
    assert_error(c.post(url, json={"level": "read", "space": "nope"}), 404, "space")
    assert_error(c.post(url, json={}), 400, "role")
