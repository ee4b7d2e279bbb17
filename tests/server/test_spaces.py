"""Spaces: update, lock, delete/restore (7-day window), duplicate, move, transfer."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gitbook_tui.server.bootstrap import add_member
from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision
from support.asserts import assert_error
from support.positions import position
from support.worlds import World


def _collection(world: World, title: str = "Docs", **fields: object) -> dict:
    r = world.client().post(f"/orgs/{world.org}/collections", json={"title": title, **fields})
    assert r.status_code == 201, r.text
    return r.json()


def _seed_content(world: World, space_id: str) -> tuple[list, list]:
    """Give the space a revision with a page tree and a file (as an edit would)."""
    with world.storage.transaction() as tx:
        doc = tx.put_blob("# Intro\n\nHello world.\n")
        blob = tx.put_blob(b"\x89PNG fake")
        now = "2026-11-01T09:00:00.000Z"
        page = {
            "id": "pg1",
            "title": "Intro",
            "type": "document",
            "slug": "intro",
            "emoji": None,
            "icon": None,
            "description": "",
            "hidden": False,
            "noIndex": False,
            "createdAt": now,
            "updatedAt": now,
            "document": doc,
            "pages": [],
        }
        file = {
            "id": "f1",
            "name": "logo.png",
            "contentType": "image/png",
            "size": 9,
            "dimensions": None,
            "blob": blob,
        }
        space = tx.get("space", space_id)
        rev = create_revision(
            tx,
            revision_id="rev-seeded",
            space_id=space_id,
            parents=[space["revision"]],
            pages=[page],
            files=[file],
            type="edits",
            created_at=now,
        )
        set_space_revision(tx, space, rev["id"], now)
    return [page], [file]


# -- PATCH ------------------------------------------------------------------------------


def test_patch_space_metadata_persists(world: World, make_space) -> None:
    space = make_space("Guide")
    c = world.client("eve")
    r = c.patch(f"/spaces/{space['id']}", json={"title": "Handbook", "emoji": "📗"})
    assert r.status_code == 200
    body = r.json()
    assert body["object"] == "space" and body["id"] == space["id"]
    assert body["title"] == "Handbook" and body["emoji"] == "📗"
    assert body["urls"]["location"].endswith(f"/v1/spaces/{space['id']}")
    assert body["permissions"]["edit"] is True and body["permissions"]["admin"] is False
    got = world.client("rhea").get(f"/spaces/{space['id']}").json()
    assert got["title"] == "Handbook" and got["emoji"] == "📗"
    r = c.patch(f"/spaces/{space['id']}", json={"emoji": None})
    assert r.status_code == 200 and r.json()["emoji"] == ""


def test_patch_space_admin_fields(world: World, make_space) -> None:
    space = make_space("Guide")
    r = world.client().patch(
        f"/spaces/{space['id']}", json={"visibility": "public", "defaultLevel": "comment"}
    )
    assert r.status_code == 200
    assert r.json()["visibility"] == "public" and r.json()["defaultLevel"] == "comment"
    assert "published" in r.json()["urls"]
    got = world.client("rhea").get(f"/spaces/{space['id']}").json()
    assert got["defaultLevel"] == "comment" and got["permissions"]["comment"] is True
    r = world.client().patch(f"/spaces/{space['id']}", json={"defaultLevel": None})
    assert r.json()["defaultLevel"] is None
    assert world.client("rhea").get(f"/spaces/{space['id']}").json()["permissions"]["comment"] is (
        False
    )


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"title": "x" * 51}, "title"),
        ({"title": None}, "title"),
        ({"emoji": "x" * 51}, "emoji"),
        ({"editMode": "frozen"}, "editMode"),
        ({"visibility": "everyone"}, "visibility"),
        ({"visibility": "in-collection"}, "visibility"),
        ({"defaultLevel": "boss"}, "defaultLevel"),
        ({}, "body"),
    ],
)
def test_patch_space_validation(world: World, make_space, payload: dict, field: str) -> None:
    space = make_space("Guide")
    assert_error(world.client().patch(f"/spaces/{space['id']}", json=payload), 400, field)


def test_patch_in_collection_visibility_needs_a_collection(world: World, make_space) -> None:
    coll = _collection(world)
    space = make_space("Inside", parent=coll["id"], visibility="private")
    r = world.client().patch(f"/spaces/{space['id']}", json={"visibility": "in-collection"})
    assert r.status_code == 200 and r.json()["visibility"] == "in-collection"


def test_patch_space_roles(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}"
    assert_error(world.anonymous().patch(path, json={"title": "x"}), 401)
    assert_error(world.client("rhea").patch(path, json={"title": "x"}), 403, "edit")
    assert_error(world.client("rita").patch(path, json={"title": "x"}), 403, "edit")
    assert_error(world.client("eve").patch(path, json={"visibility": "public"}), 403, "admin")
    assert_error(world.client("eve").patch(path, json={"editMode": "locked"}), 403, "admin")
    assert_error(world.client("otto").patch(path, json={"title": "x"}), 404, "space")
    assert_error(world.client().patch("/spaces/nope", json={"title": "x"}), 404, "space")
    assert world.client().get(path).json()["title"] == "Guide"


def test_locked_space_refuses_patches_except_unlocking(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}"
    r = world.client().patch(path, json={"editMode": "locked"})
    assert r.status_code == 200 and r.json()["editMode"] == "locked"
    assert r.json()["permissions"]["edit"] is False and r.json()["permissions"]["merge"] is False
    assert world.client("eve").get(path).json()["permissions"]["edit"] is False
    assert_error(world.client().patch(path, json={"title": "New"}), 403, "locked")
    assert_error(world.client("eve").patch(path, json={"emoji": "🔒"}), 403, "locked")
    assert_error(
        world.client().patch(path, json={"editMode": "locked", "title": "x"}), 403, "locked"
    )
    r = world.client().patch(path, json={"editMode": "live", "title": "Unlocked"})
    assert r.status_code == 200
    assert r.json()["editMode"] == "live" and r.json()["title"] == "Unlocked"
    assert world.client("eve").get(path).json()["permissions"]["edit"] is True


# -- DELETE / restore -------------------------------------------------------------------


def test_delete_space_is_soft_and_hides_it(world: World, make_space) -> None:
    space = make_space("Guide")
    other = make_space("Other")
    c = world.client()
    r = c.delete(f"/spaces/{space['id']}")
    assert r.status_code == 205 and r.content == b""
    assert_error(c.get(f"/spaces/{space['id']}"), 404, "space")
    listed = c.get(f"/orgs/{world.org}/spaces").json()
    assert [s["id"] for s in listed["items"]] == [other["id"]]
    with world.storage.read() as tx:
        assert tx.get("space", space["id"])["deletedAt"] == "2026-11-01T09:00:00.000Z"
    # deleting again: nothing to delete, 204 (the deletion rule, docs/schema-conformance.md)
    assert c.delete(f"/spaces/{space['id']}").status_code == 204


def test_delete_space_roles(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}"
    assert_error(world.anonymous().delete(path), 401)
    assert_error(world.client("carol").delete(path), 403, "admin")
    assert_error(world.client("otto").delete(path), 404, "space")  # invisible: as for a read
    assert world.client().get(path).status_code == 200


def test_restore_space_within_seven_days(world: World, make_space) -> None:
    space = make_space("Guide")
    c = world.client()
    c.delete(f"/spaces/{space['id']}")
    world.clock.advance(timedelta(days=6, hours=23))
    assert_error(world.client("eve").post(f"/spaces/{space['id']}/restore"), 403, "admin")
    r = c.post(f"/spaces/{space['id']}/restore")
    assert r.status_code == 200
    assert r.json()["id"] == space["id"] and "deletedAt" not in r.json()
    assert c.get(f"/spaces/{space['id']}").status_code == 200
    assert [s["id"] for s in c.get(f"/orgs/{world.org}/spaces").json()["items"]] == [space["id"]]
    assert_error(c.post(f"/spaces/{space['id']}/restore"), 400, "not deleted")


def test_restore_after_seven_days_is_refused(world: World, make_space) -> None:
    space = make_space("Guide")
    c = world.client()
    c.delete(f"/spaces/{space['id']}")
    world.clock.advance(timedelta(days=8))
    assert_error(c.post(f"/spaces/{space['id']}/restore"), 404, "permanently deleted")
    assert_error(c.get(f"/spaces/{space['id']}"), 404)
    assert_error(c.post("/spaces/nope/restore"), 404, "space")
    assert_error(world.client("otto").post(f"/spaces/{space['id']}/restore"), 404)


def test_restore_space_whose_collection_was_deleted(world: World, make_space) -> None:
    coll = _collection(world)
    space = make_space("Inside", parent=coll["id"])
    assert space["visibility"] == "in-collection"
    c = world.client()
    assert c.delete(f"/collections/{coll['id']}").status_code == 205
    r = c.post(f"/spaces/{space['id']}/restore")
    assert r.status_code == 200
    assert "parent" not in r.json() and r.json()["visibility"] == "private"
    assert space["id"] in [s["id"] for s in c.get(f"/orgs/{world.org}/spaces").json()["items"]]


# -- duplicate --------------------------------------------------------------------------


def test_duplicate_space_copies_content_into_a_new_revision(world: World, make_space) -> None:
    coll = _collection(world)
    space = make_space("Guide", parent=coll["id"], emoji="📘")
    pages, files = _seed_content(world, space["id"])
    r = world.client("carol").post(f"/spaces/{space['id']}/duplicate")
    assert r.status_code == 201
    copy = r.json()
    assert copy["object"] == "space" and copy["id"] != space["id"]
    assert copy["title"] == "Guide (copy)" and copy["emoji"] == "📘"
    assert copy["parent"] == coll["id"]
    assert r.headers["location"].endswith(f"/v1/spaces/{copy['id']}")
    assert copy["revision"] not in (space["revision"], "rev-seeded")
    with world.storage.read() as tx:
        rev = tx.get("revision", copy["revision"])
        source = tx.get("space", space["id"])
    assert rev["space"] == copy["id"]
    assert rev["pages"] == pages and rev["files"] == files
    assert source["revision"] == "rev-seeded"
    listed = world.client().get(f"/collections/{coll['id']}/spaces").json()
    assert [s["id"] for s in listed["items"]] == [space["id"], copy["id"]]


def test_duplicate_truncates_title_and_checks_roles(world: World, make_space) -> None:
    space = make_space("T" * 50)
    r = world.client().post(f"/spaces/{space['id']}/duplicate")
    assert r.status_code == 201
    assert r.json()["title"] == ("T" * 50 + " (copy)")[:50]
    assert len(r.json()["title"]) == 50
    assert_error(world.client("eve").post(f"/spaces/{space['id']}/duplicate"), 403, "create")
    assert_error(world.client("otto").post(f"/spaces/{space['id']}/duplicate"), 404)
    assert_error(world.anonymous().post(f"/spaces/{space['id']}/duplicate"), 401)
    assert_error(world.client().post("/spaces/nope/duplicate"), 404, "space")


# -- move -------------------------------------------------------------------------------


def test_move_space_between_collections_and_positions(world: World, make_space) -> None:
    coll = _collection(world)
    a, b, c_ = make_space("A"), make_space("B"), make_space("C")
    api = world.client()
    r = api.post(f"/spaces/{a['id']}/move", json={"parent": coll["id"]})
    assert r.status_code == 200 and r.json()["parent"] == coll["id"]
    assert [s["id"] for s in api.get(f"/collections/{coll['id']}/spaces").json()["items"]] == [
        a["id"]
    ]
    assert [s["id"] for s in api.get(f"/orgs/{world.org}/spaces").json()["items"]] == [
        b["id"],
        c_["id"],
    ]
    r = api.post(
        f"/spaces/{c_['id']}/move",
        json=position("before", "space", b["id"]),
    )
    assert r.status_code == 200
    assert [s["id"] for s in api.get(f"/orgs/{world.org}/spaces").json()["items"]] == [
        c_["id"],
        b["id"],
    ]
    r = api.post(
        f"/spaces/{a['id']}/move",
        json={"parent": None, **position("after", "space", c_["id"])},
    )
    assert r.status_code == 200 and "parent" not in r.json()
    assert [s["id"] for s in api.get(f"/orgs/{world.org}/spaces").json()["items"]] == [
        c_["id"],
        a["id"],
        b["id"],
    ]


def test_move_space_out_of_collection_drops_in_collection_visibility(
    world: World, make_space
) -> None:
    coll = _collection(world)
    space = make_space("Inside", parent=coll["id"])
    r = world.client().post(f"/spaces/{space['id']}/move", json={"parent": None})
    assert r.status_code == 200 and r.json()["visibility"] == "private"


def test_move_space_validation_and_roles(world: World, make_space) -> None:
    a, b = make_space("A"), make_space("B")
    coll = _collection(world)
    api = world.client()
    path = f"/spaces/{a['id']}/move"
    assert_error(api.post(path, json={}), 400, "body")
    assert_error(api.post(path, json={"parent": "nope"}), 400, "parent")
    assert_error(api.post(path, json=position("before", "space", "nope")), 400, "position.before")
    assert_error(
        api.post(path, json={"parent": coll["id"], **position("after", "space", b["id"])}),
        400,
        "position.after",
    )
    assert_error(api.post(path, json=position("before", "collection", "x")), 400, "position.before")
    # b is already last at the root: moving it there again changes nothing
    assert_error(api.post(f"/spaces/{b['id']}/move", json={"parent": None}), 409, "change")
    assert_error(api.post(path, json=position("before", "space", b["id"])), 409)
    assert_error(world.client("carol").post(path, json={"parent": coll["id"]}), 403, "admin")
    assert_error(world.client("otto").post(path, json={"parent": None}), 404)
    assert_error(world.anonymous().post(path, json={"parent": None}), 401)
    other_org_coll = world.client().post(
        f"/orgs/{world.other_org}/collections", json={"title": "Elsewhere"}
    )
    assert_error(api.post(path, json={"parent": other_org_coll.json()["id"]}), 400, "parent")


# -- transfer ---------------------------------------------------------------------------


def test_transfer_space_to_another_org(world: World, make_space) -> None:
    coll = _collection(world)
    space = make_space("Guide", parent=coll["id"])
    api = world.client()
    api.put(f"/orgs/{world.org}/teams", json={"title": "Writers"})
    team = api.get(f"/orgs/{world.org}/teams").json()["items"][0]
    api.post(f"/spaces/{space['id']}/permissions", json={"role": "edit", "teams": [team["id"]]})
    api.post(
        f"/spaces/{space['id']}/permissions", json={"role": "edit", "users": [world.users["otto"]]}
    )
    r = api.post(f"/spaces/{space['id']}/transfer", json={"organization": world.other_org})
    assert r.status_code == 200
    body = r.json()
    assert body["organization"] == world.other_org and "parent" not in body
    assert body["visibility"] == "private"
    listed = api.get(f"/orgs/{world.other_org}/spaces").json()
    assert space["id"] in [s["id"] for s in listed["items"]]
    assert api.get(f"/collections/{coll['id']}/spaces").json()["items"] == []
    with world.storage.read() as tx:
        assert tx.list("team-grant", space["id"]) == []
        assert tx.get("grant", f"{space['id']}:{world.users['otto']}")["organization"] == (
            world.other_org
        )
    assert_error(world.client("rhea").get(f"/spaces/{space['id']}"), 404)


def test_transfer_space_validation_and_roles(world: World, make_space) -> None:
    space = make_space("Guide")
    path = f"/spaces/{space['id']}/transfer"
    api = world.client()
    assert_error(api.post(path, json={}), 400, "organization")
    assert_error(api.post(path, json={"organization": "nowhere"}), 404, "organization")
    assert_error(api.post(path, json={"organization": world.org}), 409, "organization")
    assert_error(world.client("otto").post(path, json={"organization": world.other_org}), 404)
    assert_error(world.anonymous().post(path, json={"organization": world.other_org}), 401)
    assert_error(
        world.client("carol").post(path, json={"organization": world.other_org}), 403, "admin"
    )
    # an admin of this organization who is only a reader in the target organization
    with world.storage.transaction() as tx:
        add_member(tx, world.clock, world.org, world.users["eve"], "admin")
        add_member(tx, world.clock, world.other_org, world.users["eve"], "read")
    assert_error(
        world.client("eve").post(path, json={"organization": world.other_org}), 403, "admin"
    )
    assert world.client().get(f"/spaces/{space['id']}").json()["organization"] == world.org
