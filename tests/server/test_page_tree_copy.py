"""Edits of a change request copy only what they change: the pages they produce are the same
as from a deep copy, and the revision they start from (cached, shared) stays as it was."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from gitbook_tui.server.content.edits import EditEnv, EditError, apply_changes
from gitbook_tui.server.content.store import get_revision, shared_copy
from gitbook_tui.server.core.storage import Storage, Tx
from support.worlds import World


def _tree(rng: random.Random, prefix: str, depth: int) -> list[dict[str, Any]]:
    nodes = []
    for n in range(rng.randint(1, 4)):
        page_id = f"{prefix}{n}"
        node: dict[str, Any] = {
            "id": page_id,
            "title": f"Page {page_id}",
            "type": rng.choice(["document", "document", "document", "group", "link"]),
            "slug": f"page-{page_id}",
            "document": f"doc-{page_id}",
            "hidden": False,
            "updatedAt": "2024-01-01T00:00:00.000Z",
            "pages": _tree(rng, f"{page_id}-", depth - 1) if depth else [],
        }
        nodes.append(node)
    return nodes


def _ids(pages: list[dict[str, Any]]) -> list[str]:
    return [i for node in pages for i in (node["id"], *_ids(node.get("pages", [])))]


def _change(rng: random.Random, ids: list[str], base_ids: list[str]) -> dict[str, Any]:
    page = rng.choice(ids) if rng.random() > 0.03 else "missing"
    kind = rng.choice(["insert", "update", "move", "slug", "delete", "revert"])
    if kind == "insert":
        return {
            "operation": "insert_page",
            "title": f"New {rng.randint(0, 99)}",
            "into": rng.choice([*ids, None]),
            "at": rng.choice([None, 0, 1]),
            "document": {"markdown": "# New\n"},
        }
    if kind == "update":
        return {"operation": "update_page", "page": page, "title": f"T{rng.randint(0, 9)}"}
    if kind == "move":
        return {"operation": "update_page", "page": page, "into": rng.choice([*ids, None])}
    if kind == "slug":
        return {"operation": "update_page", "page": page, "slug": f"s{rng.randint(0, 3)}"}
    if kind == "delete":
        return {"operation": "delete_page", "page": page}
    return {"operation": "revert_page", "page": rng.choice(base_ids)}


def _apply(
    tx: Tx, base: dict[str, Any], pages: list[dict[str, Any]], changes: list[dict[str, Any]]
) -> Any:
    env = EditEnv(
        tx=tx,
        now="2025-06-01T00:00:00.000Z",
        new_id=iter(f"new{n}" for n in range(1000)).__next__,
        space_id="space",
        base_revision_id="base",
        load_revision=lambda rev_id: base if rev_id == "base" else None,
        fetch=lambda url: (b"", ""),
    )
    try:
        apply_changes(env, pages, [], changes)
    except EditError as exc:
        return ("error", exc.message)
    return json.loads(json.dumps(pages))


@pytest.mark.parametrize("seed", range(60))
def test_copy_on_write_edits_match_a_deep_copy(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    base = {"id": "base", "space": "space", "pages": _tree(rng, "b", 2), "files": []}
    current = {"id": "current", "space": "space", "pages": _tree(rng, "p", 3), "files": []}
    current["pages"][:0] = copy.deepcopy(base["pages"][:1])  # a page both revisions have
    before = json.dumps(current, sort_keys=True)
    ids, base_ids = _ids(current["pages"]), _ids(base["pages"])
    changes = [_change(rng, ids, base_ids) for _ in range(rng.randint(1, 12))]
    storage = Storage(tmp_path / "edits.sqlite")
    with storage.transaction() as tx:
        expected = _apply(tx, base, copy.deepcopy(current["pages"]), copy.deepcopy(changes))
        pages, _ = shared_copy(current)
        got = _apply(tx, base, pages, changes)
    storage.close()
    assert got == expected
    assert json.dumps(current, sort_keys=True) == before  # the revision edited from is intact


def test_nodes_left_alone_are_shared(tmp_path: Path) -> None:
    rng = random.Random(7)
    current = {"id": "current", "space": "space", "pages": _tree(rng, "p", 3), "files": []}
    current["pages"].append({"id": "last", "title": "Last", "type": "document", "pages": []})
    storage = Storage(tmp_path / "edits.sqlite")
    with storage.transaction() as tx:
        pages, _ = shared_copy(current)
        got = _apply(tx, current, pages, [{"operation": "update_page", "page": "last", "x": 1}])
    storage.close()
    assert not isinstance(got, tuple)  # applied
    assert pages[-1] is not current["pages"][-1]  # the edited page is a copy
    assert all(a is b for a, b in zip(pages[:-1], current["pages"][:-1], strict=True))


def test_revisions_kept_in_memory_are_what_the_database_holds(
    world: World, make_space: Any
) -> None:
    space = make_space("Guide")
    crs = f"/spaces/{space['id']}/change-requests"
    client = world.client("eve")

    def edit(cr_id: str, changes: list[dict[str, Any]]) -> str:
        r = client.post(f"{crs}/{cr_id}/content", json={"changes": changes})
        assert r.status_code == 200, r.text
        return str(r.json()["revision"])

    seed = client.post(crs, json={"subject": "Seed"}).json()["id"]
    doc = {"document": {"markdown": "# Guide\n\nBody.\n"}}
    rev = edit(seed, [{"operation": "insert_page", "title": "Guide", **doc}])
    with world.storage.read() as tx:
        guide = get_revision(tx, rev)["pages"][0]["id"]
    edit(seed, [{"operation": "insert_page", "title": "Setup", "into": guide, **doc}])
    assert client.post(f"{crs}/{seed}/merge").status_code == 200
    main = str(client.get(f"/spaces/{space['id']}").json()["revision"])
    with world.storage.read() as tx:
        main_before = json.dumps(get_revision(tx, main))
    made = client.post(crs, json={"subject": "Edits"}).json()
    revisions = [made["revision"]]
    revisions.append(edit(made["id"], [{"operation": "update_page", "page": guide, "title": "G"}]))
    revisions.append(edit(made["id"], [{"operation": "insert_page", "title": "New", **doc}]))
    with world.storage.read() as tx:
        for rev_id in revisions:
            assert rev_id in world.storage._revision_cache
            assert get_revision(tx, rev_id) == tx.get("revision", rev_id)
        assert json.dumps(get_revision(tx, main)) == main_before  # main was not edited
        assert json.dumps(tx.get("revision", main)) == main_before
        titles = [p["title"] for p in get_revision(tx, revisions[-1])["pages"]]
    assert titles == ["G", "New"]
