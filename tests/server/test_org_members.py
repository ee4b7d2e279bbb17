"""Members and team membership: role changes, removal, a member's spaces, team members,
team grants on spaces, and one installation's spaces."""

from __future__ import annotations

from support.worlds import World


def _space(world: World, title: str = "Guide") -> str:
    r = world.client().post(f"/orgs/{world.org}/spaces", json={"title": title})
    assert r.status_code in (200, 201), r.text
    return str(r.json()["id"])


def test_an_admin_changes_a_role_and_a_non_admin_may_not(world: World) -> None:
    eve = world.users["eve"]
    r = world.client().patch(f"/orgs/{world.org}/members/{eve}", json={"role": "review"})
    assert r.status_code == 200 and r.json()["role"] == "review"
    assert r.json()["object"] == "member" and r.json()["user"]["id"] == eve
    r = world.client("carol").patch(f"/orgs/{world.org}/members/{eve}", json={"role": "admin"})
    assert r.status_code == 403
    assert "admins" in r.json()["error"]["message"]


def test_the_last_admin_stays(world: World) -> None:
    alice = world.users["alice"]
    r = world.client().patch(f"/orgs/{world.org}/members/{alice}", json={"role": "edit"})
    assert r.status_code == 400 and "last admin" in r.json()["error"]["message"]
    assert world.client().delete(f"/orgs/{world.org}/members/{alice}").status_code == 400


def test_removing_a_member_takes_their_grants_and_teams(world: World) -> None:
    api = world.client()
    eve = world.users["eve"]
    space = _space(world)
    assert api.post(
        f"/spaces/{space}/permissions", json={"role": "admin", "users": [eve]}
    ).is_success
    team = api.put(f"/orgs/{world.org}/teams", json={"title": "T", "members": [eve]}).json()
    spaces = api.get(f"/orgs/{world.org}/members/{eve}/spaces").json()
    assert [(i["space"]["id"], i["permission"]) for i in spaces["items"]] == [(space, "admin")]
    assert api.delete(f"/orgs/{world.org}/members/{eve}").status_code == 205
    assert api.delete(f"/orgs/{world.org}/members/{eve}").status_code == 204
    assert api.get(f"/spaces/{space}/permissions/users").json()["items"] == []
    assert api.get(f"/orgs/{world.org}/teams/{team['id']}").json()["members"] == 0
    assert api.get(f"/orgs/{world.org}/members/{eve}").status_code == 404


def test_team_members_are_listed_added_and_removed(world: World) -> None:
    api = world.client()
    u = world.users
    team = api.put(f"/orgs/{world.org}/teams", json={"title": "T", "members": [u["eve"]]}).json()
    path = f"/orgs/{world.org}/teams/{team['id']}/members"
    r = api.put(path, json={"add": [u["rita"], "cody@acme.test"], "remove": [u["eve"]]})
    assert r.status_code == 204
    items = api.get(path).json()["items"]
    assert {i["organization"]["user"]["id"] for i in items} == {u["rita"], u["cody"]}
    assert items[0]["team"] == {"role": "member"} and items[0]["permissions"]["view"]
    r = api.put(path, json={"add": ["nobody@elsewhere.test"]})
    assert r.status_code == 400 and "nobody@elsewhere.test" in r.json()["error"]["message"]
    assert world.client("carol").put(path, json={"add": [u["eve"]]}).status_code == 403


def test_team_grants_on_a_space(world: World) -> None:
    api = world.client()
    space = _space(world)
    team = api.put(f"/orgs/{world.org}/teams", json={"title": "Docs", "members": []}).json()
    assert api.post(
        f"/spaces/{space}/permissions", json={"role": "review", "teams": [team["id"]]}
    ).is_success
    listed = api.get(f"/spaces/{space}/permissions/teams").json()["items"]
    assert [(i["team"]["title"], i["permission"]) for i in listed] == [("Docs", "review")]
    base = f"/spaces/{space}/permissions/teams/{team['id']}"
    assert api.patch(base, json={"role": "edit"}).status_code == 204
    assert api.get(f"/spaces/{space}/permissions/teams").json()["items"][0]["permission"] == "edit"
    assert world.client("eve").delete(base).status_code in (403, 404)
    assert api.delete(base).status_code == 205
    assert api.delete(base).status_code == 204
    assert api.get(f"/spaces/{space}/permissions/teams").json()["items"] == []


def test_pending_members_were_never_seen(world: World) -> None:
    api = world.client()
    api.post(f"/orgs/{world.org}/invites", json={"emails": ["new@acme.test"], "role": "edit"})
    members = api.get(f"/orgs/{world.org}/members", params={"limit": 100}).json()["items"]
    new = next(m for m in members if m["user"]["email"] == "new@acme.test")
    assert "lastSeenAt" not in new and new["joinedAt"]
    alice = next(m for m in members if m["id"] == world.users["alice"])
    assert alice["lastSeenAt"]


def test_an_installation_on_chosen_spaces(world: World) -> None:
    api = world.client()
    one, two = _space(world, "One"), _space(world, "Two")
    body = {"title": "Hook", "organization": world.org, "visibility": "private"}
    assert api.post("/integrations/hook", json=body).is_success
    inst = api.post(
        "/integrations/hook/installations",
        json={"organization": world.org, "space_selection": "selected"},
    ).json()
    base = f"/integrations/hook/installations/{inst['id']}/spaces"
    assert api.get(base).json()["items"] == []
    assert api.post(base, json={"space": one}).status_code == 201
    assert [i["space"] for i in api.get(base).json()["items"]] == [one]
    assert api.get("/integrations/hook/installations").json()["items"][0]["spaces"] == 1
    org_items = api.get(f"/orgs/{world.org}/installations").json()["items"]
    assert [(i["integration"]["name"], i["installation"]["id"]) for i in org_items] == [
        ("hook", inst["id"])
    ]
    assert world.client("eve").post(base, json={"space": two}).status_code == 403
    assert api.delete(f"{base}/{one}").status_code == 205
    assert api.delete(f"{base}/{one}").status_code == 204
    path = f"/integrations/hook/installations/{inst['id']}"
    assert world.client("eve").delete(path).status_code == 403
    assert api.delete(path).status_code == 205
    assert api.get("/integrations/hook/installations").json()["items"] == []


def test_uninstalling_from_one_space_keeps_the_others(world: World) -> None:
    api = world.client()
    one, two = _space(world, "One"), _space(world, "Two")
    body = {"title": "Hook", "organization": world.org, "visibility": "private"}
    assert api.post("/integrations/hook", json=body).is_success
    inst = api.post("/integrations/hook/installations", json={"organization": world.org}).json()
    base = f"/integrations/hook/installations/{inst['id']}/spaces"
    assert {one, two} <= {i["space"] for i in api.get(base).json()["items"]}
    assert api.delete(f"{base}/{one}").status_code == 205
    left = {i["space"] for i in api.get(base).json()["items"]}
    assert two in left and one not in left


def _site(world: World, title: str) -> str:
    r = world.client().post(f"/orgs/{world.org}/sites", json={"title": title})
    assert r.status_code in (200, 201), r.text
    return str(r.json()["id"])


def test_an_installation_on_chosen_sites(world: World) -> None:
    api = world.client()
    one, two = _site(world, "One"), _site(world, "Two")
    body = {"title": "Hook", "organization": world.org, "visibility": "private"}
    assert api.post("/integrations/hook", json=body).is_success
    inst = api.post("/integrations/hook/installations", json={"organization": world.org}).json()
    base = f"/integrations/hook/installations/{inst['id']}/sites"
    assert {one, two} <= {i["site"] for i in api.get(base).json()["items"]}
    assert world.client("eve").delete(f"{base}/{one}").status_code == 403
    assert api.delete(f"{base}/{one}").status_code == 205
    assert api.delete(f"{base}/{one}").status_code == 204
    left = {i["site"] for i in api.get(base).json()["items"]}
    assert two in left and one not in left
    assert {i["site"] for i in api.get("/integrations/hook/sites").json()["items"]} == left
    assert world.client("eve").post(base, json={"siteId": one}).status_code == 403
    made = api.post(base, json={"siteId": one}, params={"extended": True})
    assert made.status_code == 201 and made.json()["site"]["id"] == one
    assert one in {i["site"] for i in api.get(base).json()["items"]}
    assert api.post(base, json={"siteId": "nope"}).status_code == 404
