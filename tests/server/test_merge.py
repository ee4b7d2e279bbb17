"""Unit tests of the three-way merge of page trees and of semantic changes."""

from __future__ import annotations

import copy
from typing import Any

from gitbook_tui.server.content.merge.revisions import merge_revisions
from gitbook_tui.server.content.revision_changes import semantic_changes


def page(pid: str, title: str | None = None, doc: str | None = None, **kw: Any) -> dict:
    node = {
        "id": pid,
        "title": title or pid.upper(),
        "type": "document",
        "slug": pid,
        "document": doc or f"h-{pid}",
        "updatedAt": "2026-01-01T00:00:00.000Z",
        "pages": kw.pop("pages", []),
    }
    node.update(kw)
    return node


def rev(*pages: dict, files: list | None = None, variables: dict | None = None) -> dict:
    return {"pages": list(pages), "files": files or [], "variables": variables or {}}


def ids(pages: list[dict]) -> list:
    return [(p["id"], ids(p.get("pages", []))) if p.get("pages") else p["id"] for p in pages]


def find(pages: list[dict], pid: str) -> dict:
    for p in pages:
        if p["id"] == pid:
            return p
        found = find(p.get("pages", []), pid)
        if found:
            return found
    return {}


BASE = rev(page("a"), page("b", pages=[page("b1"), page("b2")]), page("c"))


def edited(base: dict) -> dict:
    return copy.deepcopy(base)


def test_unchanged_sides_give_the_other_side() -> None:
    theirs = edited(BASE)
    theirs["pages"][0]["document"] = "h-a2"
    result = merge_revisions(BASE, edited(BASE), theirs)
    assert result.ok and result.pages == theirs["pages"]
    result = merge_revisions(BASE, theirs, edited(BASE))
    assert result.ok and result.pages == theirs["pages"]


def test_create_on_both_sides_keeps_both_in_place() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    ours["pages"].insert(1, page("new-ours"))
    theirs["pages"].insert(1, page("new-theirs"))
    theirs["pages"][1]["pages"] = []
    find(theirs["pages"], "b")["pages"].append(page("b3"))
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok
    assert ids(result.pages) == ["a", "new-theirs", "new-ours", ("b", ["b1", "b2", "b3"]), "c"]


def test_independent_edits_of_different_pages_and_fields_merge() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "a")["document"] = "h-a-ours"
    find(theirs["pages"], "c")["document"] = "h-c-theirs"
    find(theirs["pages"], "a")["title"] = "Renamed A"
    find(ours["pages"], "a")["updatedAt"] = "2026-02-01T00:00:00.000Z"
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok
    a = find(result.pages, "a")
    assert (a["document"], a["title"]) == ("h-a-ours", "Renamed A")
    assert a["updatedAt"] == "2026-02-01T00:00:00.000Z"
    assert find(result.pages, "c")["document"] == "h-c-theirs"


def test_same_page_edited_on_both_sides_conflicts_by_title() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "b1")["document"] = "h-ours"
    find(theirs["pages"], "b1")["document"] = "h-theirs"
    result = merge_revisions(BASE, ours, theirs)
    assert not result.ok
    assert [(c.id, c.title) for c in result.conflicts] == [("b1", "B1")]
    assert "document" in result.conflicts[0].reason


def test_identical_edits_on_both_sides_do_not_conflict() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "a")["title"] = "Same"
    find(theirs["pages"], "a")["title"] = "Same"
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok and find(result.pages, "a")["title"] == "Same"


def test_delete_on_one_side_unchanged_on_other_deletes() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    ours["pages"] = [p for p in ours["pages"] if p["id"] != "b"]  # b and its children
    find(theirs["pages"], "a")["document"] = "h-a2"
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok
    assert ids(result.pages) == ["a", "c"]
    assert find(result.pages, "a")["document"] == "h-a2"


def test_delete_against_edit_conflicts() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "b")["pages"] = [page("b2")]  # b1 deleted in the change request
    find(theirs["pages"], "b1")["document"] = "h-b1-main"
    result = merge_revisions(BASE, ours, theirs)
    assert [c.title for c in result.conflicts] == ["B1"]
    assert "deleted" in result.conflicts[0].reason


def test_adding_a_child_to_a_page_deleted_on_the_other_side_conflicts() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "b")["pages"].append(page("b9"))
    theirs["pages"] = [p for p in theirs["pages"] if p["id"] != "b"]
    result = merge_revisions(BASE, ours, theirs)
    assert {c.title for c in result.conflicts} == {"B"}


def test_move_on_one_side_and_edit_on_other_merge() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    c = ours["pages"].pop(2)
    find(ours["pages"], "b")["pages"].insert(0, c)
    find(theirs["pages"], "c")["document"] = "h-c-main"
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok
    assert ids(result.pages) == ["a", ("b", ["c", "b1", "b2"])]
    assert find(result.pages, "c")["document"] == "h-c-main"


def test_moves_to_different_parents_conflict() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    find(ours["pages"], "a")["pages"] = [ours["pages"].pop(2)]
    find(theirs["pages"], "b")["pages"].append(theirs["pages"].pop(2))
    result = merge_revisions(BASE, ours, theirs)
    assert [c.title for c in result.conflicts] == ["C"]
    assert "parent" in result.conflicts[0].reason


def test_reorder_on_one_side_is_kept() -> None:
    ours, theirs = edited(BASE), edited(BASE)
    ours["pages"].reverse()
    theirs["pages"].append(page("d"))
    result = merge_revisions(BASE, ours, theirs)
    assert result.ok
    # the new page follows the sibling that preceded it on its side ("c")
    assert ids(result.pages) == ["c", "d", ("b", ["b1", "b2"]), "a"]


def test_files_and_variables_merge_and_conflict() -> None:
    f = {"id": "f1", "name": "a.png", "blob": "x", "contentType": "image/png", "size": 1}
    base = rev(page("a"), files=[f], variables={"v": "1", "w": "1"})
    ours, theirs = edited(base), edited(base)
    ours["variables"]["v"] = "2"
    theirs["variables"]["w"] = "3"
    theirs["files"][0]["name"] = "b.png"
    result = merge_revisions(base, ours, theirs)
    assert result.ok and result.variables == {"v": "2", "w": "3"}
    assert result.files[0]["name"] == "b.png"
    ours["files"][0]["name"] = "c.png"
    assert [c.title for c in merge_revisions(base, ours, theirs).conflicts] == ["c.png"]


def test_semantic_changes() -> None:
    after = edited(BASE)
    find(after["pages"], "a")["title"] = "Alpha"
    after["pages"].append(page("d"))
    find(after["pages"], "b")["pages"] = [page("b2")]
    find(after["pages"], "b")["pages"].append(after["pages"].pop(2))  # c moved under b
    changes = semantic_changes(BASE, after, lambda f: f"/files/{f['id']}")
    kinds = [(c["type"], c["page"]["id"]) for c in changes]
    assert kinds == [
        ("page_edited", "a"),
        ("page_moved", "c"),
        ("page_created", "d"),
        ("page_deleted", "b1"),
    ]
    assert changes[0]["attributes"] == {"title": {"before": "A", "after": "Alpha"}}
    assert changes[1]["parent"] == {
        "after": {"id": "b", "type": "document", "title": "B", "path": "b"}
    }
    assert changes[1]["page"]["path"] == "b/c"
