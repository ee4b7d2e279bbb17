"""Collections: list (nested or not, paged), create, get, update, delete, spaces, move, transfer."""

from __future__ import annotations

import pytest

from support.asserts import assert_error
from support.positions import position
from support.worlds import World


def _create(world: World, title: str = "Docs", as_user: str = "alice", **fields: object) -> dict:
    r = world.client(as_user).post(
        f"/orgs/{world.org}/collections", json={"title": title, **fields}
    )
    assert r.status_code == 201, r.text
    return r.json()


def test_create_collection(world: World) -> None:
    r = world.client("carol").post(f"/orgs/{world.org}/collections", json={"title": "Guides"})
    assert r.status_code == 201
    coll = r.json()
    assert coll["object"] == "collection" and coll["title"] == "Guides"
    assert coll["organization"] == world.org and coll["defaultLevel"] is None
    assert "parent" not in coll
    assert coll["urls"]["location"].endswith(f"/v1/collections/{coll['id']}")
    assert coll["urls"]["app"].endswith(f"/c/{coll['id']}")
    assert r.headers["location"] == coll["urls"]["location"]
    assert coll["permissions"] == {
        "view": True,
        "admin": False,
        "viewInviteLinks": False,
        "create": True,
    }
    child = _create(world, "Child", parent=coll["id"])
    assert child["parent"] == coll["id"]
    assert world.client().get(f"/collections/{child['id']}").json()["parent"] == coll["id"]


def test_create_collection_validation_and_roles(world: World) -> None:
    api = world.client()
    path = f"/orgs/{world.org}/collections"
    assert_error(api.post(path, json={"title": "x" * 51}), 400, "title")
    assert_error(api.post(path, json={"title": "x", "parent": "nope"}), 400, "parent")
    elsewhere = api.post(f"/orgs/{world.other_org}/collections", json={"title": "Elsewhere"})
    assert_error(
        api.post(path, json={"title": "x", "parent": elsewhere.json()["id"]}),
        400,
        "parent",
        "another organization",
    )
    assert_error(world.client("eve").post(path, json={"title": "x"}), 403, "create")
    assert_error(world.client("otto").post(path, json={"title": "x"}), 404, "organization")
    assert_error(world.anonymous().post(path, json={"title": "x"}), 401)
    # create on the parent collection is what counts: a read-level collection refuses
    locked = _create(world, "Read only")
    api.patch(f"/collections/{locked['id']}", json={"defaultLevel": "read"})
    assert_error(
        world.client("carol").post(path, json={"title": "x", "parent": locked["id"]}), 403, "create"
    )
    assert api.get(path).json()["count"] == 1


def test_list_collections_nested_and_paged(world: World) -> None:
    a = _create(world, "A")
    b = _create(world, "B")
    a1 = _create(world, "A1", parent=a["id"])
    a1x = _create(world, "A1x", parent=a1["id"])
    api = world.client("rhea")
    path = f"/orgs/{world.org}/collections"
    everything = api.get(path).json()
    assert [c["id"] for c in everything["items"]] == [a["id"], a1["id"], a1x["id"], b["id"]]
    assert everything["count"] == 4
    roots = api.get(path, params={"nested": "false"}).json()
    assert [c["id"] for c in roots["items"]] == [a["id"], b["id"]]
    first = api.get(path, params={"limit": 3}).json()
    assert len(first["items"]) == 3 and first["count"] == 4
    second = api.get(path, params={"limit": 3, "page": first["next"]["page"]}).json()
    assert [c["id"] for c in second["items"]] == [b["id"]] and "next" not in second
    assert_error(world.client("otto").get(path), 404)
    assert_error(world.anonymous().get(path), 401)
    assert_error(api.get(path, params={"limit": 1001}), 400, "limit")


def test_get_collection(world: World) -> None:
    coll = _create(world, "Docs")
    got = world.client("rhea").get(f"/collections/{coll['id']}")
    assert got.status_code == 200
    assert got.json()["id"] == coll["id"] and got.json()["permissions"]["view"] is True
    assert got.json()["permissions"]["admin"] is False
    assert_error(world.client("otto").get(f"/collections/{coll['id']}"), 404, "collection")
    assert_error(world.client().get("/collections/nope"), 404, "collection")
    assert_error(world.anonymous().get(f"/collections/{coll['id']}"), 401)


def test_update_collection(world: World) -> None:
    coll = _create(world, "Docs")
    api = world.client()
    r = api.patch(
        f"/collections/{coll['id']}",
        json={"title": "Manuals", "description": "All manuals", "defaultLevel": "edit"},
    )
    assert r.status_code == 200
    assert r.json()["title"] == "Manuals" and r.json()["description"] == "All manuals"
    assert r.json()["defaultLevel"] == "edit"
    got = world.client("rhea").get(f"/collections/{coll['id']}").json()
    assert got["title"] == "Manuals" and got["defaultLevel"] == "edit"
    r = api.patch(f"/collections/{coll['id']}", json={"defaultLevel": None, "description": None})
    assert r.json()["defaultLevel"] is None and "description" not in r.json()


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"title": "x" * 51}, "title"),
        ({"title": None}, "title"),
        ({"description": "d" * 101}, "description"),
        ({"defaultLevel": "owner"}, "defaultLevel"),
        ({}, "body"),
    ],
)
def test_update_collection_validation(world: World, payload: dict, field: str) -> None:
    coll = _create(world)
    assert_error(world.client().patch(f"/collections/{coll['id']}", json=payload), 400, field)


def test_update_collection_roles(world: World) -> None:
    coll = _create(world)
    path = f"/collections/{coll['id']}"
    assert_error(world.client("carol").patch(path, json={"title": "x"}), 403, "admin")
    assert_error(world.client("otto").patch(path, json={"title": "x"}), 404)
    assert_error(world.anonymous().patch(path, json={"title": "x"}), 401)
    assert_error(world.client().patch("/collections/nope", json={"title": "x"}), 404)


def test_delete_collection_deletes_subcollections_and_spaces(world: World, make_space) -> None:
    coll = _create(world, "Docs")
    sub = _create(world, "Sub", parent=coll["id"])
    keep = _create(world, "Keep")
    s1 = make_space("S1", parent=coll["id"])
    s2 = make_space("S2", parent=sub["id"])
    api = world.client()
    assert_error(world.client("carol").delete(f"/collections/{coll['id']}"), 403, "admin")
    # invisible to otto: a 404 as for a read, and nothing is deleted
    assert_error(world.client("otto").delete(f"/collections/{coll['id']}"), 404, "collection")
    assert world.client().get(f"/collections/{coll['id']}").status_code == 200
    assert_error(world.anonymous().delete(f"/collections/{coll['id']}"), 401)
    r = api.delete(f"/collections/{coll['id']}")
    assert r.status_code == 205 and r.content == b""
    assert_error(api.get(f"/collections/{coll['id']}"), 404)
    assert_error(api.get(f"/collections/{sub['id']}"), 404)
    assert [c["id"] for c in api.get(f"/orgs/{world.org}/collections").json()["items"]] == [
        keep["id"]
    ]
    for space in (s1, s2):
        assert_error(api.get(f"/spaces/{space['id']}"), 404)
        with world.storage.read() as tx:
            assert tx.get("space", space["id"])["deletedAt"]
    assert api.delete(f"/collections/{coll['id']}").status_code == 204  # nothing left


def test_list_spaces_in_collection(world: World, make_space) -> None:
    coll = _create(world, "Docs")
    s1 = make_space("S1", parent=coll["id"])
    s2 = make_space("S2", parent=coll["id"])
    s3 = make_space("S3", parent=coll["id"])
    make_space("Root")
    api = world.client()
    api.delete(f"/spaces/{s2['id']}")
    listed = world.client("rhea").get(f"/collections/{coll['id']}/spaces").json()
    assert [s["id"] for s in listed["items"]] == [s1["id"], s3["id"]]
    assert listed["count"] == 2 and listed["items"][0]["object"] == "space"
    page = api.get(f"/collections/{coll['id']}/spaces", params={"limit": 1}).json()
    assert len(page["items"]) == 1 and "next" in page
    # a guest who was given one space but not the collection cannot list the collection
    api.post(
        f"/spaces/{s1['id']}/permissions", json={"role": "read", "users": [world.users["otto"]]}
    )
    assert world.client("otto").get(f"/spaces/{s1['id']}").status_code == 200
    assert_error(world.client("otto").get(f"/collections/{coll['id']}/spaces"), 404)
    # a guest given the collection sees its spaces
    api.post(
        f"/collections/{coll['id']}/permissions",
        json={"role": "read", "users": [world.users["otto"]]},
    )
    otto = world.client("otto").get(f"/collections/{coll['id']}/spaces").json()
    assert [s["id"] for s in otto["items"]] == [s1["id"], s3["id"]]
    assert_error(world.anonymous().get(f"/collections/{coll['id']}/spaces"), 401)
    assert_error(api.get("/collections/nope/spaces"), 404)


def test_move_collection(world: World) -> None:
    a = _create(world, "A")
    b = _create(world, "B")
    c = _create(world, "C")
    api = world.client()
    r = api.post(f"/collections/{c['id']}/move", json={"parent": a["id"]})
    assert r.status_code == 200 and r.json()["parent"] == a["id"]
    assert api.get(f"/collections/{c['id']}").json()["parent"] == a["id"]
    roots = api.get(f"/orgs/{world.org}/collections", params={"nested": False}).json()
    assert [x["id"] for x in roots["items"]] == [a["id"], b["id"]]
    r = api.post(f"/collections/{b['id']}/move", json=position("before", "collection", a["id"]))
    assert r.status_code == 200
    roots = api.get(f"/orgs/{world.org}/collections", params={"nested": False}).json()
    assert [x["id"] for x in roots["items"]] == [b["id"], a["id"]]
    r = api.post(
        f"/collections/{c['id']}/move",
        json={"parent": None, **position("after", "collection", b["id"])},
    )
    assert r.status_code == 200 and "parent" not in r.json()
    roots = api.get(f"/orgs/{world.org}/collections", params={"nested": False}).json()
    assert [x["id"] for x in roots["items"]] == [b["id"], c["id"], a["id"]]


def test_move_collection_validation_and_roles(world: World) -> None:
    a = _create(world, "A")
    a1 = _create(world, "A1", parent=a["id"])
    a1x = _create(world, "A1x", parent=a1["id"])
    b = _create(world, "B")
    api = world.client()
    path = f"/collections/{a['id']}/move"
    assert_error(api.post(path, json={}), 400, "body")
    assert_error(api.post(path, json={"parent": a["id"]}), 400, "parent", "itself")
    assert_error(api.post(path, json={"parent": a1x["id"]}), 400, "parent", "sub-collections")
    assert_error(api.post(path, json={"parent": "nope"}), 400, "parent")
    assert_error(
        api.post(path, json=position("after", "collection", "nope")), 400, "position.after"
    )
    assert_error(api.post(path, json=position("after", "space", "s")), 400, "position.after")
    assert_error(api.post(f"/collections/{b['id']}/move", json={"parent": None}), 409, "change")
    assert_error(world.client("carol").post(path, json={"parent": b["id"]}), 403, "admin")
    assert_error(world.client("otto").post(path, json={"parent": b["id"]}), 404)
    assert_error(world.anonymous().post(path, json={"parent": b["id"]}), 401)
    assert api.get(f"/collections/{a1['id']}").json()["parent"] == a["id"]


def test_transfer_collection_moves_everything(world: World, make_space) -> None:
    coll = _create(world, "Docs")
    sub = _create(world, "Sub", parent=coll["id"])
    s1 = make_space("S1", parent=coll["id"])
    s2 = make_space("S2", parent=sub["id"])
    api = world.client()
    r = api.post(f"/collections/{coll['id']}/transfer", json={"organization": world.other_org})
    assert r.status_code == 200
    assert r.json()["organization"] == world.other_org and r.json()["object"] == "collection"
    other = api.get(f"/orgs/{world.other_org}/collections").json()
    assert [c["id"] for c in other["items"]] == [coll["id"], sub["id"]]
    assert api.get(f"/orgs/{world.org}/collections").json()["items"] == []
    for space in (s1, s2):
        assert api.get(f"/spaces/{space['id']}").json()["organization"] == world.other_org
        assert_error(world.client("rhea").get(f"/spaces/{space['id']}"), 404)
    assert world.client("otto").get(f"/collections/{sub['id']}").json()["permissions"]["admin"]
    assert [s["id"] for s in api.get(f"/collections/{sub['id']}/spaces").json()["items"]] == [
        s2["id"]
    ]


def test_transfer_collection_validation_and_roles(world: World) -> None:
    coll = _create(world)
    path = f"/collections/{coll['id']}/transfer"
    api = world.client()
    assert_error(api.post(path, json={}), 400, "organization")
    assert_error(api.post(path, json={"organization": "nowhere"}), 404, "organization")
    assert_error(api.post(path, json={"organization": world.org}), 409, "organization")
    assert_error(world.client("carol").post(path, json={"organization": world.other_org}), 403)
    assert_error(world.client("otto").post(path, json={"organization": world.other_org}), 404)
    assert_error(world.anonymous().post(path, json={"organization": world.other_org}), 401)
    assert api.get(f"/collections/{coll['id']}").json()["organization"] == world.org
