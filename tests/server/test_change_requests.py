"""Change requests: CRUD, content edits, update/merge (three-way), changes, PDF, reviews."""

from __future__ import annotations

import base64
import copy
import re
from datetime import timedelta
from typing import Any

import pytest

from gitbook_tui.server.content.store import find_page, get_revision, page_markdown
from support.asserts import assert_error
from support.worlds import World


def crs(space: dict) -> str:
    return f"/spaces/{space['id']}/change-requests"


def create_cr(world: World, space: dict, subject: str = "Edits", as_user: str = "eve") -> dict:
    r = world.client(as_user).post(crs(space), json={"subject": subject})
    assert r.status_code == 201, r.text
    return r.json()


def edit(
    world: World, space: dict, cr: dict, changes: list[dict], as_user: str = "eve", **params: Any
) -> Any:
    return world.client(as_user).post(
        f"{crs(space)}/{cr['id']}/content", json={"changes": changes}, params=params
    )


def insert(title: str, markdown: str, **extra: Any) -> dict:
    return {"operation": "insert_page", "title": title, "document": {"markdown": markdown}, **extra}


def revision(world: World, rev_id: str) -> dict:
    with world.storage.read() as tx:
        return copy.deepcopy(get_revision(tx, rev_id))


def titles(pages: list[dict]) -> list:
    return [
        (p["title"], titles(p.get("pages", []))) if p.get("pages") else p["title"] for p in pages
    ]


def markdown(world: World, rev_id: str, page_id: str) -> str:
    with world.storage.read() as tx:
        found = find_page(get_revision(tx, rev_id)["pages"], page_id)
        assert found is not None, page_id
        return page_markdown(tx, found[0])


def page_id(world: World, rev_id: str, title: str) -> str:
    def walk(pages: list[dict]) -> str | None:
        for p in pages:
            if p["title"] == title:
                return str(p["id"])
            found = walk(p.get("pages", []))
            if found:
                return found
        return None

    found = walk(revision(world, rev_id)["pages"])
    assert found, title
    return found


def space_revision(world: World, space: dict) -> str:
    return str(world.client().get(f"/spaces/{space['id']}").json()["revision"])


def seeded(world: World, make_space: Any) -> tuple[dict, dict[str, str]]:
    """A space whose main content has pages Intro and Guide (with child Setup)."""
    space = make_space("Guide")
    cr = create_cr(world, space, "Seed")
    r = edit(world, space, cr, [insert("Intro", "Hello"), insert("Guide", "Guide body")])
    assert r.status_code == 200, r.text
    rev = r.json()["revision"]
    guide = page_id(world, rev, "Guide")
    r = edit(world, space, cr, [insert("Setup", "Steps", into=guide)])
    assert r.status_code == 200, r.text
    assert world.client("eve").post(f"{crs(space)}/{cr['id']}/merge").status_code == 200
    main = space_revision(world, space)
    return space, {t: page_id(world, main, t) for t in ("Intro", "Guide", "Setup")}


# -- create / get / list / patch ------------------------------------------------------------


def test_create_and_get_change_request(world: World, make_space: Any) -> None:
    space = make_space()
    r = world.client("eve").post(crs(space), json={"subject": "Fix typos", "agentTaskId": "t1"})
    assert r.status_code == 201
    cr = r.json()
    assert r.headers["location"].endswith(f"/v1/spaces/{space['id']}/change-requests/{cr['id']}")
    assert cr["object"] == "change-request" and cr["number"] == 1
    assert cr["status"] == "draft" and cr["subject"] == "Fix typos"
    assert cr["createdBy"]["id"] == world.users["eve"] and cr["createdBy"]["object"] == "user"
    assert cr["space"] == space["id"]
    assert cr["revisionInitial"] == cr["revisionMergedAncestor"] == space["revision"]
    assert cr["revision"] != space["revision"]
    assert cr["comments"] == 0 and cr["outdated"] is False
    assert cr["urls"]["location"].endswith(f"/change-requests/{cr['id']}")
    assert f"/s/{space['id']}/" in cr["urls"]["app"]
    assert "mergedAt" not in cr and "revisionMerged" not in cr
    rev = revision(world, cr["revision"])
    assert rev["type"] == "edits" and rev["parents"] == [space["revision"]]
    assert rev["changeRequest"] == cr["id"]

    assert world.client("rhea").get(f"{crs(space)}/{cr['id']}").json() == cr
    assert world.client("rhea").get(f"{crs(space)}/1").json()["id"] == cr["id"]
    assert create_cr(world, space, as_user="carol")["number"] == 2
    with world.storage.read() as tx:
        stored = tx.get("change-request", cr["id"])
    assert stored is not None and stored["contributors"] == [] and stored["number"] == 1


def test_create_validation_and_permissions(world: World, make_space: Any) -> None:
    space = make_space()
    assert_error(world.anonymous().post(crs(space), json={}), 401)
    assert_error(world.client("rhea").post(crs(space), json={"subject": "x"}), 403, "edit")
    assert_error(world.client("cody").post(crs(space), json={"subject": "x"}), 403)
    assert_error(world.client("otto").post(crs(space), json={"subject": "x"}), 404, "space")
    assert_error(world.client().post("/spaces/nope/change-requests", json={}), 404, "space")
    assert_error(world.client().post(crs(space), json={"subject": "x" * 101}), 400, "subject")
    assert_error(world.client().get(f"{crs(space)}/nope"), 404, "change request")
    assert_error(world.client().get(f"{crs(space)}/7"), 404, "change request")
    assert_error(world.client("otto").get(f"{crs(space)}/1"), 404, "space")
    assert world.client().post(crs(space), json={}).json()["subject"] == ""


def test_list_filters_and_order(world: World, make_space: Any) -> None:
    space = make_space()
    first = create_cr(world, space, "first", as_user="eve")
    world.clock.advance(timedelta(minutes=1))
    second = create_cr(world, space, "second", as_user="carol")
    world.clock.advance(timedelta(minutes=1))
    third = create_cr(world, space, "third", as_user="carol")
    c = world.client("carol")
    assert c.post(
        f"{crs(space)}/{second['id']}/requested-reviewers", json={"users": [world.users["rita"]]}
    ).json()["users"]
    assert c.patch(f"{crs(space)}/{third['id']}", json={"status": "open"}).status_code == 200

    def listed(**params: Any) -> list[str]:
        body = world.client("rhea").get(crs(space), params=params).json()
        assert body["count"] == len(body["items"])
        return [item["subject"] for item in body["items"]]

    assert listed() == ["third", "second"]  # default status open, newest first
    assert listed(status="draft") == ["first"]
    assert listed(status=["draft", "open"]) == ["third", "second", "first"]
    assert listed(status="open", orderBy="createdAt") == ["third", "second"]
    assert listed(status="open", creator=world.users["carol"]) == ["third", "second"]
    assert listed(status=["open", "draft"], requestedReviewer=world.users["rita"]) == ["second"]
    assert edit(world, space, second, [insert("P", "x")]).status_code == 200  # eve edits
    assert listed(status=["open", "draft"], contributor=world.users["eve"]) == ["second", "first"]
    assert listed(status=["open", "draft"], contributor=world.users["carol"]) == ["third", "second"]
    page = world.client().get(crs(space), params={"status": ["open", "draft"], "limit": 2}).json()
    assert len(page["items"]) == 2 and page["count"] == 3 and "next" in page
    assert_error(world.client().get(crs(space), params={"status": "bogus"}), 400, "status")
    assert_error(world.client().get(crs(space), params={"orderBy": "title"}), 400, "orderBy")
    assert_error(world.client("otto").get(crs(space)), 404, "space")
    assert first["id"] in [
        i["id"] for i in world.client().get(crs(space), params={"status": "draft"}).json()["items"]
    ]


def test_patch_change_request(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    url = f"{crs(space)}/{cr['id']}"
    world.clock.advance(timedelta(minutes=5))
    r = world.client("eve").patch(url, json={"subject": "Renamed", "status": "open"})
    assert r.status_code == 200
    assert r.json()["subject"] == "Renamed" and r.json()["status"] == "open"
    assert r.json()["updatedAt"] > cr["updatedAt"]
    assert world.client().get(url).json()["status"] == "open"
    assert world.client().patch(url, json={"status": "archived"}).json()["status"] == "archived"
    assert world.client().get(url).json()["outdated"] is False
    assert_error(world.client().patch(url, json={"status": "merged"}), 400, "status")
    assert_error(world.client().patch(url, json={"subject": "x" * 101}), 400, "subject")
    assert_error(world.client("rhea").patch(url, json={"subject": "x"}), 403)
    assert world.client().patch(url, json={"status": "open"}).json()["status"] == "open"
    assert world.client("eve").post(f"{url}/merge").status_code == 200
    assert_error(world.client().patch(url, json={"status": "open"}), 409, "merged")
    assert world.client().get(url).json()["status"] == "merged"


def test_open_comment_count(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    with world.storage.transaction() as tx:
        tx.put("comment", "c1", {"id": "c1", "status": "open"}, scope=f"cr:{cr['id']}")
        tx.put("comment", "c2", {"id": "c2", "status": "resolved"}, scope=f"cr:{cr['id']}")
        tx.put("comment", "c3", {"id": "c3", "status": "open"}, scope=f"space:{space['id']}")
    assert world.client().get(f"{crs(space)}/{cr['id']}").json()["comments"] == 1


# -- content edits --------------------------------------------------------------------------


def test_content_edits_make_one_revision_per_batch(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    r = edit(
        world,
        space,
        cr,
        [
            insert("Intro", "# Intro\n\nHello"),
            insert("Guide", "Guide body", emoji="📘"),
            insert("First", "Put first", at=0),
        ],
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["object"] == "change-request" and body["revision"] != cr["revision"]
    rev = revision(world, body["revision"])
    assert rev["type"] == "edits" and rev["parents"] == [cr["revision"]]
    assert titles(rev["pages"]) == ["First", "Intro", "Guide"]
    intro = page_id(world, body["revision"], "Intro")
    guide = page_id(world, body["revision"], "Guide")
    # The leading "# Intro" is the page's title (as Git Sync reads it), not a body heading.
    assert markdown(world, body["revision"], intro) == "Hello"
    assert rev["pages"][2]["emoji"] == "📘" and rev["pages"][1]["slug"] == "intro"
    with world.storage.read() as tx:
        stored = tx.get("change-request", cr["id"])
    assert stored is not None and stored["contributors"] == [world.users["eve"]]

    r = edit(
        world,
        space,
        cr,
        [
            {"operation": "update_page", "page": intro, "document": {"markdown": "Changed"}},
            {"operation": "update_page", "page": intro, "title": "Introduction", "into": guide},
            insert("Child", "c", into=guide, at=0),
            {"operation": "delete_page", "page": page_id(world, body["revision"], "First")},
        ],
        as_user="carol",
        compat="false",
    )
    assert r.status_code == 200, r.text
    out = r.json()
    assert set(out) == {"changeRequest", "changes", "insertedFiles"}
    new_rev = out["changeRequest"]["revision"]
    assert [c["object"] for c in out["changes"]] == [
        "updated_page",
        "updated_page",
        "created_page",
        "deleted_page",
    ]
    assert out["changes"][0]["page"]["id"] == intro
    assert out["changes"][0]["page"]["urls"]["location"].endswith(f"/content/page/{intro}")
    assert titles(revision(world, new_rev)["pages"]) == [("Guide", ["Child", "Introduction"])]
    assert markdown(world, new_rev, intro) == "Changed"
    assert revision(world, new_rev)["parents"] == [body["revision"]]
    # the earlier revision is untouched (immutable)
    assert titles(revision(world, body["revision"])["pages"]) == ["First", "Intro", "Guide"]
    with world.storage.read() as tx:
        stored = tx.get("change-request", cr["id"])
    assert stored is not None
    assert stored["contributors"] == [world.users["eve"], world.users["carol"]]
    assert stored["revision"] == new_rev

    # move back to the root at index 0
    r = edit(world, space, cr, [{"operation": "update_page", "page": intro, "into": None, "at": 0}])
    assert titles(revision(world, r.json()["revision"])["pages"]) == [
        "Introduction",
        ("Guide", ["Child"]),
    ]


def test_content_edit_validation(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    before = cr["revision"]
    assert_error(edit(world, space, cr, []), 400, "changes")
    assert_error(edit(world, space, cr, [insert(f"P{i}", "x") for i in range(51)]), 400, "changes")
    assert_error(
        edit(world, space, cr, [{"operation": "insert_page", "title": "x"}]), 400, "document"
    )
    assert_error(edit(world, space, cr, [{"operation": "explode"}]), 400, "changes.0")
    assert_error(
        edit(world, space, cr, [insert("ok", "x"), {"operation": "delete_page", "page": "ghost"}]),
        400,
        "ghost",
    )
    assert_error(
        edit(world, space, cr, [{"operation": "update_page", "page": "nope", "title": "t"}]),
        400,
        "nope",
    )
    assert_error(edit(world, space, cr, [insert("", "x")]), 400, "title")
    assert_error(edit(world, space, cr, [insert("a", "x", into="missing")]), 400, "missing")
    assert world.client().get(f"{crs(space)}/{cr['id']}").json()["revision"] == before
    assert_error(edit(world, space, cr, [insert("a", "x")], as_user="rhea"), 403)
    assert_error(edit(world, space, cr, [insert("a", "x")], as_user="otto"), 404)
    r = edit(world, space, cr, [insert("Parent", "x")])
    parent = page_id(world, r.json()["revision"], "Parent")
    r = edit(world, space, cr, [insert("Kid", "x", into=parent)])
    kid = page_id(world, r.json()["revision"], "Kid")
    assert_error(
        edit(world, space, cr, [{"operation": "update_page", "page": parent, "into": kid}]),
        400,
        "under itself",
    )


def test_revert_and_reorder_pages(world: World, make_space: Any) -> None:
    space, pages = seeded(world, make_space)
    cr = create_cr(world, space)
    r = edit(
        world,
        space,
        cr,
        [
            {"operation": "update_page", "page": pages["Intro"], "title": "Changed"},
            {"operation": "update_page", "page": pages["Intro"], "document": {"markdown": "new"}},
            {"operation": "delete_page", "page": pages["Setup"]},
            insert("Extra", "x"),
            {"operation": "update_page", "page": pages["Guide"], "at": 0},
        ],
    )
    rev = r.json()["revision"]
    assert titles(revision(world, rev)["pages"]) == ["Guide", "Changed", "Extra"]
    extra = page_id(world, rev, "Extra")
    r = edit(
        world,
        space,
        cr,
        [
            {"operation": "revert_page", "page": pages["Intro"]},
            {"operation": "revert_page", "page": pages["Setup"]},
            {"operation": "revert_page", "page": extra},
        ],
    )
    assert r.status_code == 200, r.text
    rev = r.json()["revision"]
    assert titles(revision(world, rev)["pages"]) == [("Guide", ["Setup"]), "Intro"]
    assert markdown(world, rev, pages["Intro"]) == "Hello"
    assert markdown(world, rev, pages["Setup"]) == "Steps"
    assert_error(
        edit(
            world, space, cr, [{"operation": "revert_page", "page": pages["Intro"], "block": ["b"]}]
        ),
        400,
        "block",
    )


def test_insert_files_and_refs(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    png = base64.b64encode(
        bytes.fromhex("89504e470d0a1a0a0000000d49484452000000030000000208060000009d")
    ).decode()
    r = edit(
        world,
        space,
        cr,
        [
            insert("Pic", "![Diagram](./diagram)"),
            {
                "operation": "insert_files",
                "files": [{"name": "d.png", "ref": "diagram", "base64": png}],
            },
        ],
        compat="false",
    )
    assert r.status_code == 200, r.text
    files = r.json()["insertedFiles"]
    assert files[0]["name"] == "d.png" and files[0]["contentType"] == "image/png"
    assert files[0]["dimensions"] == {"width": 3, "height": 2}
    rev_id = r.json()["changeRequest"]["revision"]
    assert markdown(world, rev_id, page_id(world, rev_id, "Pic")) == (
        f"![Diagram](/files/{files[0]['id']})"
    )
    assert revision(world, rev_id)["files"][0]["id"] == files[0]["id"]
    assert_error(
        edit(world, space, cr, [{"operation": "insert_files", "files": [{"name": "x"}]}]),
        400,
        "url or base64",
    )


def test_locked_space_rejects_edits(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    with world.storage.transaction() as tx:
        stored = tx.get("space", space["id"])
        assert stored is not None
        stored["editMode"] = "locked"
        tx.put("space", space["id"], stored)
    assert_error(world.client("eve").post(crs(space), json={}), 403, "locked")
    assert_error(edit(world, space, cr, [insert("a", "x")]), 403, "locked")
    assert_error(world.client().post(f"{crs(space)}/{cr['id']}/merge"), 403, "locked")
    assert_error(world.client().post(f"{crs(space)}/{cr['id']}/update"), 403, "locked")


# -- merge and update ---------------------------------------------------------------------------


def test_merge_sets_space_revision(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    cr = edit(world, space, cr, [insert("Intro", "Hello")]).json()
    url = f"{crs(space)}/{cr['id']}"
    assert_error(world.client("rhea").post(f"{url}/merge"), 403)
    assert_error(world.client("rita").post(f"{url}/merge"), 403)
    assert_error(world.client("otto").post(f"{url}/merge"), 404)
    world.clock.advance(timedelta(minutes=3))
    r = world.client("eve").post(f"{url}/merge")
    assert r.status_code == 200
    result = r.json()
    assert result["result"] == "merge"
    assert space_revision(world, space) == result["revision"]
    merged_rev = revision(world, result["revision"])
    assert merged_rev["type"] == "merge"
    assert merged_rev["parents"] == [space["revision"], cr["revision"]]
    assert titles(merged_rev["pages"]) == ["Intro"]
    got = world.client().get(url).json()
    assert got["status"] == "merged" and got["revisionMerged"] == result["revision"]
    assert got["mergedBy"]["id"] == world.users["eve"] and got["mergedAt"] == got["updatedAt"]
    assert got["outdated"] is False
    assert_error(world.client("eve").post(f"{url}/merge"), 409, "already merged")
    assert_error(world.client("eve").post(f"{url}/update"), 409, "merged")
    assert_error(edit(world, space, cr, [insert("a", "x")]), 409, "merged")
    assert_error(world.client("eve").post(f"{crs(space)}/99/merge"), 404)


def test_archived_change_request_cannot_merge(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    url = f"{crs(space)}/{cr['id']}"
    world.client().patch(url, json={"status": "archived"})
    assert_error(world.client().post(f"{url}/merge"), 409, "archived")
    assert_error(edit(world, space, cr, [insert("a", "x")]), 409, "archived")


def test_outdated_change_request_update_brings_main_in(world: World, make_space: Any) -> None:
    space, pages = seeded(world, make_space)
    a = create_cr(world, space, "A")
    b = create_cr(world, space, "B")
    a = edit(
        world,
        space,
        a,
        [{"operation": "update_page", "page": pages["Intro"], "document": {"markdown": "A!"}}],
    ).json()
    edit(
        world,
        space,
        b,
        [insert("From B", "b"), {"operation": "delete_page", "page": pages["Setup"]}],
    )
    assert world.client().post(f"{crs(space)}/{b['id']}/merge").json()["result"] == "merge"
    main = space_revision(world, space)

    url = f"{crs(space)}/{a['id']}"
    assert world.client().get(url).json()["outdated"] is True
    r = world.client("eve").post(f"{url}/update")
    assert r.status_code == 200 and r.json()["result"] == "update"
    updated = world.client().get(url).json()
    assert updated["outdated"] is False and updated["revision"] == r.json()["revision"]
    assert updated["revisionMergedAncestor"] == main
    rev = revision(world, updated["revision"])
    assert rev["type"] == "update" and rev["parents"] == [a["revision"], main]
    assert titles(rev["pages"]) == ["Intro", "Guide", "From B"]
    assert markdown(world, updated["revision"], pages["Intro"]) == "A!"
    # updating an up-to-date change request is a no-op
    again = world.client("eve").post(f"{url}/update").json()
    assert again == {"revision": updated["revision"], "result": "update"}
    assert world.client().get(url).json()["revision"] == updated["revision"]

    r = world.client("eve").post(f"{url}/merge")
    final = space_revision(world, space)
    assert r.json()["revision"] == final
    assert titles(revision(world, final)["pages"]) == ["Intro", "Guide", "From B"]
    assert markdown(world, final, pages["Intro"]) == "A!"


def test_outdated_change_request_merges_without_update(world: World, make_space: Any) -> None:
    space, pages = seeded(world, make_space)
    a = create_cr(world, space, "A")
    b = create_cr(world, space, "B")
    edit(world, space, a, [insert("From A", "a")])
    edit(
        world,
        space,
        b,
        [{"operation": "update_page", "page": pages["Guide"], "title": "Handbook"}],
    )
    assert world.client().post(f"{crs(space)}/{a['id']}/merge").status_code == 200
    assert world.client().get(f"{crs(space)}/{b['id']}").json()["outdated"] is True
    r = world.client().post(f"{crs(space)}/{b['id']}/merge")
    assert r.status_code == 200, r.text
    assert titles(revision(world, space_revision(world, space))["pages"]) == [
        "Intro",
        ("Handbook", ["Setup"]),
        "From A",
    ]


def test_conflicting_change_requests(world: World, make_space: Any) -> None:
    space, pages = seeded(world, make_space)
    a = create_cr(world, space, "A")
    b = create_cr(world, space, "B")
    change = {"operation": "update_page", "page": pages["Setup"]}
    edit(world, space, a, [{**change, "document": {"markdown": "from A"}}])
    b = edit(world, space, b, [{**change, "document": {"markdown": "from B"}}]).json()
    assert world.client().post(f"{crs(space)}/{a['id']}/merge").status_code == 200
    main = space_revision(world, space)

    url = f"{crs(space)}/{b['id']}"
    assert_error(world.client().post(f"{url}/merge"), 409, "conflict", "'Setup'")
    assert_error(world.client().post(f"{url}/update"), 409, "conflict", "'Setup'")
    assert space_revision(world, space) == main
    after = world.client().get(url).json()
    assert after["revision"] == b["revision"] and after["status"] == "draft"
    assert after["revisionMergedAncestor"] == b["revisionMergedAncestor"]
    assert after["outdated"] is True
    assert markdown(world, main, pages["Setup"]) == "from A"

    # deleting a page edited on the other side conflicts too
    c = create_cr(world, space, "C")
    d = create_cr(world, space, "D")
    edit(world, space, c, [{"operation": "delete_page", "page": pages["Intro"]}])
    edit(world, space, d, [{"operation": "update_page", "page": pages["Intro"], "emoji": "🎉"}])
    assert world.client().post(f"{crs(space)}/{c['id']}/merge").status_code == 200
    assert_error(world.client().post(f"{crs(space)}/{d['id']}/merge"), 409, "'Intro'", "deleted")


# -- semantic changes, PDF ------------------------------------------------------------------------


def test_semantic_changes(world: World, make_space: Any) -> None:
    space, pages = seeded(world, make_space)
    cr = create_cr(world, space)
    url = f"{crs(space)}/{cr['id']}/changes"
    assert world.client().get(url).json() == {"changes": []}
    edit(
        world,
        space,
        cr,
        [
            {"operation": "update_page", "page": pages["Intro"], "title": "Welcome"},
            {"operation": "update_page", "page": pages["Setup"], "into": None},
            {"operation": "delete_page", "page": pages["Guide"]},
            insert("New", "n"),
        ],
    )
    body = world.client("rhea").get(url).json()
    assert [(c["type"], c["page"]["title"]) for c in body["changes"]] == [
        ("page_edited", "Welcome"),
        ("page_moved", "Setup"),
        ("page_created", "New"),
        ("page_deleted", "Guide"),
    ]
    assert body["changes"][0]["attributes"]["title"] == {"before": "Intro", "after": "Welcome"}
    assert body["changes"][1]["parent"]["before"]["id"] == pages["Guide"]
    assert body["changes"][1]["page"]["path"] == "setup"
    assert "more" not in body
    limited = world.client().get(url, params={"limit": 1}).json()
    assert len(limited["changes"]) == 1 and limited["more"] == 3
    assert_error(world.client().get(url, params={"limit": -1}), 400, "limit")
    assert_error(world.client("otto").get(url), 404)


def test_pdf_export(world: World, make_space: Any) -> None:
    space = make_space("Handbook")
    cr = create_cr(world, space, "PDF please")
    r = edit(
        world, space, cr, [insert("Alpha page", "Alpha text (1)"), insert("Beta page", "Beta text")]
    )
    alpha = page_id(world, r.json()["revision"], "Alpha page")
    url = world.client("rhea").get(f"{crs(space)}/{cr['id']}/pdf").json()["url"]
    assert url.startswith("http://testserver/v1/spaces/")
    download = world.anonymous().get(url)  # the URL itself carries the access
    assert download.status_code == 200
    assert download.headers["content-type"] == "application/pdf"
    data = download.content
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    assert b"Alpha text \\(1\\)" in data and b"Beta text" in data
    # every xref offset points at its object
    xref_at = int(re.search(rb"startxref\n(\d+)", data).group(1))  # type: ignore[union-attr]
    table = data[xref_at:].split(b"\n")
    count = int(table[1].split()[1])
    for number in range(1, count):
        offset = int(table[2 + number][:10])
        assert data[offset:].startswith(b"%d 0 obj" % number)

    only = (
        world.client()
        .get(f"{crs(space)}/{cr['id']}/pdf", params={"page": alpha, "only": "true"})
        .json()["url"]
    )
    single = world.anonymous().get(only).content
    assert b"Alpha text" in single and b"Beta text" not in single
    assert_error(
        world.client().get(f"{crs(space)}/{cr['id']}/pdf", params={"page": "ghost"}), 400, "ghost"
    )
    assert_error(
        world.client().get(f"{crs(space)}/{cr['id']}/pdf", params={"only": "true"}), 400, "page"
    )
    assert_error(world.anonymous().get(url.replace("token=", "token=x")), 404)
    world.clock.advance(timedelta(hours=2))
    assert_error(world.anonymous().get(url), 403, "expired")


# -- reviews and requested reviewers ----------------------------------------------------------------


def test_reviews(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    url = f"{crs(space)}/{cr['id']}/reviews"
    assert world.client().get(url).json()["items"] == []
    world.client("eve").post(
        f"{crs(space)}/{cr['id']}/requested-reviewers", json={"users": [world.users["rita"]]}
    )
    r = world.client("rita").post(
        url, json={"status": "changes-requested", "comment": {"markdown": "Please fix"}}
    )
    assert r.status_code == 201, r.text
    review = r.json()
    assert r.headers["location"].endswith(f"/reviews/{review['id']}")
    assert review["object"] == "change-request-review" and review["status"] == "changes-requested"
    assert review["reviewer"]["id"] == world.users["rita"]
    assert review["requestedBy"]["id"] == world.users["eve"]
    assert review["revision"] == cr["revision"] and review["outdated"] is False
    assert review["comment"]["body"] == {"markdown": "Please fix"}
    assert world.client().get(f"{url}/{review['id']}").json() == review | {
        "comment": review["comment"]
        | {"permissions": review["comment"]["permissions"] | {"edit": False}}
    }
    edit(world, space, cr, [insert("Fix", "done")])
    listed = world.client("rhea").get(url).json()
    assert [i["outdated"] for i in listed["items"]] == [True]
    approved = world.client("alice").post(url, json={"status": "approved"}).json()
    assert (
        approved["outdated"] is False
        and "comment" not in approved
        and "requestedBy" not in approved
    )
    listed = world.client().get(url).json()["items"]
    assert [i["id"] for i in listed] == [approved["id"], review["id"]]
    assert [
        i["id"] for i in world.client().get(url, params={"outdated": "true"}).json()["items"]
    ] == [review["id"]]
    assert_error(world.client("eve").post(url, json={"status": "approved"}), 403, "author")
    assert_error(world.client("cody").post(url, json={"status": "approved"}), 403, "review")
    assert_error(world.client("rita").post(url, json={}), 400, "status")
    assert_error(world.client("rita").post(url, json={"status": "meh"}), 400, "status")
    assert_error(world.client().get(f"{url}/nope"), 404, "review")


def test_requested_reviewers(world: World, make_space: Any) -> None:
    space = make_space()
    cr = create_cr(world, space)
    url = f"{crs(space)}/{cr['id']}/requested-reviewers"
    r = world.client("eve").post(url, json={"users": [world.users["rita"], world.users["carol"]]})
    assert r.status_code == 200, r.text
    users = r.json()["users"]
    assert [u["user"]["id"] for u in users] == [world.users["rita"], world.users["carol"]]
    assert users[0]["object"] == "change-request-requested-reviewer" and users[0]["kind"] == "user"
    assert users[0]["requestedBy"]["id"] == world.users["eve"]
    assert users[0]["revision"] == cr["revision"]
    assert world.client().get(f"{crs(space)}/{cr['id']}").json()["status"] == "open"
    listed = world.client("rhea").get(url).json()
    assert listed["count"] == 2 and listed["items"][0]["user"]["id"] == world.users["rita"]

    assert_error(world.client("eve").post(url, json={"users": []}), 400, "users")
    assert_error(
        world.client("eve").post(url, json={"users": [world.users["otto"]]}),
        400,
        world.users["otto"],
    )
    assert_error(
        world.client("eve").post(url, json={"users": [world.users["rhea"]]}),
        400,
        world.users["rhea"],
    )
    assert_error(world.client("eve").post(url, json={"users": [world.users["eve"]]}), 400, "author")
    assert_error(world.client("eve").post(url, json={"users": ["ghost"]}), 400, "ghost")
    assert_error(world.client("cody").post(url, json={"users": [world.users["rita"]]}), 403)

    assert world.client("eve").delete(f"{url}/{world.users['rita']}").status_code == 205
    assert world.client("eve").delete(f"{url}/{world.users['rita']}").status_code == 204
    assert [i["user"]["id"] for i in world.client().get(url).json()["items"]] == [
        world.users["carol"]
    ]
    assert_error(world.client("cody").delete(f"{url}/{world.users['carol']}"), 403)
    assert world.client("carol").delete(f"{url}/{world.users['carol']}").status_code == 205


@pytest.mark.parametrize("path", ["", "/merge", "/update", "/changes", "/reviews", "/pdf"])
def test_unknown_change_request_is_404(world: World, make_space: Any, path: str) -> None:
    space = make_space()
    method = "post" if path in ("/merge", "/update") else "get"
    assert_error(
        getattr(world.client(), method)(f"{crs(space)}/missing{path}"), 404, "change request"
    )
