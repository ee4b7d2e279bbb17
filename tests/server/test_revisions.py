"""A space's history: ``GET …/revisions/{id}`` (parents, type, mergedFrom, git) and
``GET …/revisions/{id}/changes`` for every kind of revision, in the official shapes."""

from __future__ import annotations

from typing import Any

import pytest

from gitbook_tui.server.content.space_revision import set_space_revision
from gitbook_tui.server.content.store import create_revision, get_revision, shared_copy
from support.asserts import assert_error
from support.official_schema import schema_errors
from support.worlds import World

Space = dict[str, Any]


def crs(space: Space) -> str:
    return f"/spaces/{space['id']}/change-requests"


def merged_change(world: World, space: Space, changes: list[dict[str, Any]], subject: str) -> dict:
    """A change request with ``changes``, merged by eve; its JSON after the merge."""
    eve = world.client("eve")
    cr = eve.post(crs(space), json={"subject": subject}).json()
    r = eve.post(f"{crs(space)}/{cr['id']}/content", json={"changes": changes})
    assert r.status_code == 200, r.text
    assert eve.post(f"{crs(space)}/{cr['id']}/merge").status_code == 200
    return eve.get(f"{crs(space)}/{cr['id']}").json()


def insert(title: str, markdown: str) -> dict[str, Any]:
    return {"operation": "insert_page", "title": title, "document": {"markdown": markdown}}


def space_and_head(tx: Any, space: Space) -> tuple[dict[str, Any], dict[str, Any]]:
    """The stored space and the revision it stands at, read in ``tx``."""
    current = tx.get("space", space["id"])
    assert current is not None
    return current, get_revision(tx, current["revision"])


def copied_revision(
    tx: Any, space: Space, source: dict[str, Any], revision_id: str, parent: str, **fields: Any
) -> dict[str, Any]:
    """Store revision ``revision_id`` of ``space`` on ``parent`` with ``source``'s pages and
    files (``fields``: its type, created_at and extras)."""
    pages, files = shared_copy(source)
    return create_revision(
        tx,
        revision_id=revision_id,
        space_id=space["id"],
        parents=[parent],
        pages=pages,
        files=files,
        **fields,
    )


@pytest.fixture
def history(world: World, make_space: Any) -> dict[str, Any]:
    """A space with: its initial revision, a merge creating two pages, a merge editing one,
    a direct Git Sync commit and a rollback."""
    space = make_space("History")
    initial = space["revision"]
    first = merged_change(
        world,
        space,
        [insert("Intro", "# Intro\n\nHello.\n"), insert("Guide", "# Guide\n")],
        "Add pages",
    )
    pages = {
        p["title"]: p["id"]
        for p in world.client().get(f"/spaces/{space['id']}/content/pages").json()["pages"]
    }
    second = merged_change(
        world,
        space,
        [
            {
                "operation": "update_page",
                "page": pages["Intro"],
                "document": {"markdown": "# Intro\n\nHello there.\n"},
            }
        ],
        "Reword <b>[red]intro[/red]</b>",
    )
    with world.storage.transaction() as tx:
        current, base = space_and_head(tx, space)
        synced = copied_revision(
            tx,
            space,
            base,
            "rev-git",
            parent=base["id"],
            type="import",
            created_at="2026-11-01T10:00:00.000Z",
            git={
                "oid": "a" * 40,
                "message": "Sync from main",
                "createdByGitBook": False,
                "ref": "refs/heads/main",
            },
        )
        old = get_revision(tx, first["revisionMerged"])
        copied_revision(
            tx,
            space,
            old,
            "rev-rollback",
            parent=synced["id"],
            type="rollback",
            created_at="2026-11-01T11:00:00.000Z",
        )
        set_space_revision(tx, current, "rev-rollback", "2026-11-01T11:00:00.000Z")
    return {"space": space, "initial": initial, "first": first, "second": second, "pages": pages}


def get(world: World, space: Space, rev: str, suffix: str = "", **params: Any) -> Any:
    r = world.client("rhea").get(f"/spaces/{space['id']}/revisions/{rev}{suffix}", params=params)
    assert r.status_code == 200, r.text
    return r.json()


def test_a_merge_revision_names_its_parents_and_change_request(world: World, history: dict) -> None:
    space, second = history["space"], history["second"]
    rev = get(world, space, second["revisionMerged"])
    assert rev["object"] == "revision" and rev["type"] == "merge"
    assert rev["parents"] == [history["first"]["revisionMerged"], second["revision"]]
    assert rev["mergedFrom"]["number"] == second["number"]
    assert rev["mergedFrom"]["subject"] == "Reword <b>[red]intro[/red]</b>"
    assert rev["urls"]["app"].endswith(f"/~/revisions/{second['revisionMerged']}")
    assert {p["title"] for p in rev["pages"]} == {"Intro", "Guide"}
    # the tree is the one part the official schema cannot accept (docs/schema-conformance.md)
    assert schema_errors("components/schemas/Revision", {**rev, "pages": []}) == []


def test_changes_of_a_merge_are_what_the_change_request_brought(
    world: World, history: dict
) -> None:
    space, second = history["space"], history["second"]
    body = get(world, space, second["revisionMerged"], "/changes")
    assert [(c["type"], c["page"]["title"]) for c in body["changes"]] == [("page_edited", "Intro")]
    assert "document" in body["changes"][0]["attributes"]
    assert body["mergedFrom"]["id"] == second["id"]
    assert "more" not in body
    created = get(world, space, history["first"]["revisionMerged"], "/changes")
    assert sorted(c["page"]["title"] for c in created["changes"]) == ["Guide", "Intro"]
    assert {c["type"] for c in created["changes"]} == {"page_created"}
    for change in created["changes"]:
        assert schema_errors("components/schemas/RevisionSemanticChange", change) == []
    assert schema_errors("components/schemas/ChangeRequest", body["mergedFrom"]) == []


def test_the_initial_revision_has_no_parents_and_no_changes(world: World, history: dict) -> None:
    space = history["space"]
    rev = get(world, space, history["initial"])
    assert rev["parents"] == [] and rev["type"] == "edits"
    assert get(world, space, history["initial"], "/changes") == {"changes": []}


def test_a_git_sync_import_carries_its_commit(world: World, history: dict) -> None:
    space = history["space"]
    rev = get(world, space, "rev-git")
    assert rev["type"] == "edits" and rev["git"]["oid"] == "a" * 40
    assert rev["git"]["message"] == "Sync from main"
    assert "git" not in get(world, space, "rev-git", metadata="false")
    assert schema_errors("components/schemas/Revision", {**rev, "pages": []}) == []


def test_a_rollback_undoes_what_came_after(world: World, history: dict) -> None:
    space = history["space"]
    rev = get(world, space, "rev-rollback")
    assert rev["type"] == "rollback" and rev["parents"] == ["rev-git"]
    body = get(world, space, "rev-rollback", "/changes")
    assert [(c["type"], c["page"]["title"]) for c in body["changes"]] == [("page_edited", "Intro")]
    assert (
        body["changes"][0]["attributes"]["document"]["before"]
        != body["changes"][0]["attributes"]["document"]["after"]
    )
    assert schema_errors("components/schemas/RevisionTypeRollback", {**rev, "pages": []}) == []


def test_an_update_revision_has_two_parents(world: World, history: dict) -> None:
    space, eve = history["space"], world.client("eve")
    cr = eve.post(crs(space), json={"subject": "Late"}).json()
    merged_change(world, space, [insert("Extra", "# Extra\n")], "Meanwhile")
    eve.post(f"{crs(space)}/{cr['id']}/content", json={"changes": [insert("Late", "# Late\n")]})
    updated = eve.post(f"{crs(space)}/{cr['id']}/update").json()
    rev = get(world, space, updated["revision"])
    assert rev["type"] == "update" and len(rev["parents"]) == 2
    body = get(world, space, updated["revision"], "/changes")
    assert [c["page"]["title"] for c in body["changes"]] == ["Extra"]


def test_changes_are_cut_at_the_limit_and_say_how_many_more(world: World, make_space: Any) -> None:
    space = make_space("Many")
    first = merged_change(
        world, space, [insert(f"Page {n}", f"# {n}\n") for n in range(12)], "Bulk"
    )
    body = get(world, space, first["revisionMerged"], "/changes")
    assert len(body["changes"]) == 10 and body["more"] == 2  # the official default limit
    body = get(world, space, first["revisionMerged"], "/changes", limit=3)
    assert len(body["changes"]) == 3 and body["more"] == 9
    assert "more" not in get(world, space, first["revisionMerged"], "/changes", limit=100)
    assert schema_errors("components/schemas/RevisionSemanticChanges", body) == []


def test_unknown_foreign_and_hidden_revisions_are_not_found(
    world: World, history: dict, make_space: Any
) -> None:
    space = history["space"]
    other = make_space("Other")
    url = f"/spaces/{space['id']}/revisions"
    assert_error(world.client().get(f"{url}/nope"), 404, "Revision")
    assert_error(world.client().get(f"{url}/nope/changes"), 404, "Revision")
    # a revision of another space is not one of this space's
    assert_error(world.client().get(f"{url}/{other['revision']}"), 404)
    assert_error(world.client("otto").get(f"{url}/{history['initial']}"), 404)
    assert_error(world.client("otto").get(f"{url}/{history['initial']}/changes"), 404)
    assert world.anonymous().get(f"{url}/{history['initial']}").status_code == 401


def test_reusable_contents_changes_are_listed(world: World, make_space: Any) -> None:
    space = make_space("Reuse")
    with world.storage.transaction() as tx:
        _, base = space_and_head(tx, space)
        copied_revision(
            tx,
            space,
            base,
            "rev-reuse",
            parent=base["id"],
            type="edits",
            created_at="2026-11-01T10:00:00.000Z",
            reusable_contents=[{"id": "rc1", "title": "Note", "document": "hash1"}],
        )
    body = get(world, space, "rev-reuse", "/changes")
    assert body["changes"] == [
        {
            "type": "reusable_content_created",
            "reusableContent": {"id": "rc1", "title": "Note", "document": "hash1"},
        }
    ]
    assert schema_errors("components/schemas/RevisionSemanticChanges", body) == []
